// npm run bench:tracking — tracking by permission (docs/reference.md#tracking, issue 44): TRUCKS (5,000) trucks
// each sending a position every 60 s (≈ 83 positions/s, BENCH_TRUCKS / 60) into a database of
// BENCH_FREIGHTS (100,000) freights (bench/setup.ts seedMarket, the taken ones awarded), while the
// owners read their freights' positions (the last 500 with ETA and milestones: READ_FREIGHTS freights
// seeded with 500 positions each). Figures: ingest p99 (goal ≤ 50 ms), the positions' read p50
// (goal ≤ 10 ms), and the rest of the exchange's reads (the market list, a freight's view) with the
// ingest against without it (goal within 1.2×). The floor (bench/floor.ts: one primary-key select
// through the same driver) is measured beside each. The ingest is also measured alone (nobody
// reading). The trucks' positions arrive paced, one every 1000 / rate ms (loadtest: each truck at
// its own second of the minute), and once, for the record, in autocannon's bursts of a second's
// positions at its start. Seeds by SQL, measures through HTTP on loopback (bench/load.ts). PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a
// server (a fresh database, dropped afterwards); the embedded database otherwise.
import { sql } from 'kysely';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, seedMarket, startBenchFloor } from './setup.ts';
import { line, load, type LoadResult } from './load.ts';
import { profiled } from './profile.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const TRUCKS = Number(process.env.BENCH_TRUCKS ?? 5_000);
const READ_FREIGHTS = Number(process.env.BENCH_READ_FREIGHTS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const COMPANIES = 20;
/** Connections of the floor and of every read, with the ingest and without it alike (the same load, so the figures compare). */
const CONNECTIONS = 4;

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;

try {
  const users = await benchCompanies(db, app.tokens, COMPANIES);
  const tokenOf = new Map(users.map((u) => [u.company, u.token]));
  const seedStart = performance.now();
  await seedMarket(db, users, FREIGHTS);
  const taken = await db
    .selectFrom('freights')
    .select(['id', 'company_id', 'winner_id', 'to_latitude', 'to_longitude'])
    .where('status', '=', 'taken')
    .where('winner_id', 'is not', null)
    .orderBy('id')
    .limit(TRUCKS)
    .execute();
  if (taken.length < Math.min(TRUCKS, READ_FREIGHTS)) throw new Error(`only ${taken.length} taken freights: raise BENCH_FREIGHTS`);
  // The freights the owners read: 500 positions each, a minute apart, and their tracking rows.
  const read = taken.slice(0, READ_FREIGHTS).map((f) => f.id);
  await sql`
    insert into freight_positions (freight_id, at, latitude, longitude, speed, source, received)
    select f, now() - (501 - k) * interval '1 minute', 48 + k / 100.0, 8 + (f % 100) / 100.0, 80, 'api', now()
    from unnest(${read}::int[]) as f, generate_series(1, 500) as k`.execute(db);
  await sql`
    insert into freight_tracking (freight_id, last_at, last_latitude, last_longitude, eta_at, km_left, created)
    select f, now() - interval '1 minute', 53, 8.5, now() + interval '5 hours', 320.5, now() from unnest(${read}::int[]) as f`.execute(db);
  // The trucks have been sending before the bench starts: each freight has its tracking row (the
  // steady state; a freight's first position creates it, once).
  await sql`
    insert into freight_tracking (freight_id, last_at, last_latitude, last_longitude, created)
    select f, now() - interval '1 minute', 50, 8, now() from unnest(${taken.map((f) => f.id)}::int[]) as f
    on conflict (freight_id) do nothing`.execute(db);
  await sql`analyze`.execute(db);
  console.log(
    `seeded ${FREIGHTS} freights, ${taken.length} trucks, ${READ_FREIGHTS} × 500 positions in ${Math.round(performance.now() - seedStart)} ms (${database.kind})`,
  );

  const floor = await startBenchFloor({ pgUrl, pglite });
  const base = await listenLocal(app.http);
  const floorP50 = async () => {
    const paths = Array.from({ length: 200 }, () => `/floor/${1 + Math.floor(Math.random() * FREIGHTS)}`);
    return (await load({ url: floor.url, paths, connections: CONNECTIONS, duration: 3 })).p50;
  };
  const report = (name: string, r: LoadResult, floorMs: number) =>
    console.log(`${line(name, r)}  mean ${r.mean.toFixed(2)} ms  (floor p50 ${floorMs} ms)`);

  // What the owners read: their freights' positions, each with its owner's token.
  const ownerReads = read.map((id) => {
    const f = taken.find((t) => t.id === id)!;
    return { path: `/freights/positions/${id}.json`, headers: { authorization: `TokenPass ${tokenOf.get(f.company_id)}` } };
  });
  // The rest of the exchange: the market list and a freight's view, by every company in turn.
  const exchangeReads = users.flatMap((u, i) => [
    { path: '/freights/enlist/8.json?limit=20', headers: { authorization: `TokenPass ${u.token}` } },
    {
      path: `/freights/view/${taken[i % taken.length]!.id}.json`,
      headers: { authorization: `TokenPass ${tokenOf.get(taken[i % taken.length]!.company_id)}` },
    },
  ]);
  // The trucks: one position each, in turn, by the winner's token (the requests cycle).
  const now = () => app.services.clock.format(new Date())!;
  const ingest = taken.map((f, i) => ({
    method: 'POST',
    path: `/freights/positions/${f.id}.json`,
    headers: { authorization: `TokenPass ${tokenOf.get(f.winner_id!)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ positions: [{ latitude: 50 + (i % 100) / 1000, longitude: 8 + (i % 97) / 1000, at: now(), speed: 82 }] }),
  }));
  const rate = Math.max(1, Math.round(taken.length / 60));

  // Warm-up, not measured: every kind of request a few seconds (the JIT, the pool's connections,
  // the plans and the database's caches), so the first measured run does not pay for a cold start.
  const warm = Math.max(2, Math.round(SECONDS / 3));
  await load({ url: base, requests: [...exchangeReads, ...ownerReads], connections: CONNECTIONS, duration: warm });
  await load({ url: base, requests: ingest, connections: CONNECTIONS, duration: warm, overallRate: rate, paced: true });

  const quiet = await profiled(label, 'exchange reads', () =>
    load({ url: base, requests: exchangeReads, connections: CONNECTIONS, duration: SECONDS }),
  );
  report('exchange reads (list, view) without ingest', quiet, await floorP50());
  const quietOwner = await profiled(label, 'positions read', () =>
    load({ url: base, requests: ownerReads, connections: CONNECTIONS, duration: SECONDS }),
  );
  report('GET /freights/positions (500, ETA) without ingest', quietOwner, await floorP50());

  // The ingest alone (nobody reading): its own cost, told from the queue behind the reads below.
  // The trucks' positions arrive paced, one every 1000 / rate ms (each truck at its own second of
  // the minute: bench/load-options.mjs pacedOptions), not all of a second's at its start.
  const alone = await profiled(label, 'ingest alone', () =>
    load({ url: base, requests: ingest, connections: 16, duration: SECONDS, overallRate: rate, paced: true }),
  );
  report(`POST /freights/positions at ${rate}/s alone`, alone, await floorP50());
  // For the record, not a goal: the same rate as autocannon sends it, each second's positions at its start.
  const burst = await load({ url: base, requests: ingest, connections: 16, duration: SECONDS, overallRate: rate });
  report(`  the same in bursts (a second's ${rate} at once)`, burst, await floorP50());

  const trucks = load({ url: base, requests: ingest, connections: 16, duration: SECONDS * 3, overallRate: rate, paced: true });
  await new Promise((r) => setTimeout(r, 1000));
  const busyOwner = await load({ url: base, requests: ownerReads, connections: CONNECTIONS, duration: SECONDS });
  const busy = await load({ url: base, requests: exchangeReads, connections: CONNECTIONS, duration: SECONDS });
  const ingested = await trucks;
  const f = await floorP50();
  report(`POST /freights/positions at ${rate}/s (${taken.length} trucks)`, ingested, f);
  report('GET /freights/positions (500, ETA) with ingest', busyOwner, f);
  report('exchange reads (list, view) with ingest', busy, f);
  console.log(
    // The reads' ratio from their mean latency: their p50 is whole milliseconds (1 against 2 ms reads as 2×).
    `goals: ingest p99 ${ingested.p99} ms (≤ 50); positions read p50 ${busyOwner.p50} ms (≤ 10); exchange reads mean ${busy.mean.toFixed(2)} vs ${quiet.mean.toFixed(2)} ms without ingest (${(busy.mean / quiet.mean).toFixed(2)}×, ≤ 1.2×; p50 ${busy.p50} vs ${quiet.p50} ms)`,
  );
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
