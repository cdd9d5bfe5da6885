// npm run bench:trust — company profiles and the freight lists with the verified mark and blocking
// (docs/reference.md#trust) at 100,000 freights. Seeds by SQL like bench/freights.ts (generate_series),
// then measures through HTTP on loopback with autocannon (in a worker thread), bounded in time,
// with the floor (bench/floor.ts: Fastify + one primary-key select) measured around each figure.
// The caller has blocked 5 of the 20 companies, half of the companies are verified, every
// company has ratings. BENCH_SECONDS the time per endpoint; PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server (a fresh database, dropped afterwards), else PGlite in memory.
import os from 'node:os';
import { sql } from 'kysely';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';
import { line, load, type LoadResult } from './load.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const COMPANIES = 20;
const BLOCKED = 5;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 8;

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;

try {
  const users = await benchCompanies(db, app.tokens, COMPANIES);
  const c0 = users[0]!.company;
  const u0 = users[0]!.user;
  const caller = users[1]!;
  const seedStart = performance.now();
  // The status mix of bench/freights.ts; 10 % of the freights delivered (closed, delivery 3).
  await sql`
    insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, etd, deadline,
                          visibility, whitelist, company_id, user_id, winner_id, delivery_status, refs, created, modified)
    select case when i % 3 = 0 then 'air' else 'rfs' end, 'AHR',
           case when s < 8 then 'open' when s < 10 then 'pending' when s < 12 then 'draft'
                when s < 14 then 'taken' when s < 16 then 'closed' when s < 17 then 'expired' when s < 19 then 'archived' else 'revoked' end,
           'FRA', (array['DE','FR','IT','ES','NL'])[1 + i % 5], lpad((i % 99999)::text, 5, '0'), 'DE', (i % 5000) + 0.5,
           now() + (i % 30) * interval '1 day', now() + interval '30 days', 0, '{}'::int[],
           ${c0}::int + (i % ${COMPANIES}), ${u0}::int + (i % ${COMPANIES}),
           case when s between 12 and 18 then ${c0}::int + ((i + 3) % ${COMPANIES}) end,
           case when s between 14 and 15 then 3 else 0 end,
           ('{"customer":"B-' || i || '"}')::json,
           now() - i * interval '1 minute', now() - i * interval '1 minute'
    from generate_series(1, ${FREIGHTS}) as i, lateral (select (i / ${COMPANIES}) % 20 as s) as mix`.execute(db);
  await sql`insert into freight_pieces (freight_id, position, pieces, depth, width, height, weight)
    select id, 0, 1 + id % 5, 120, 80, 100, 50 from freights`.execute(db);
  // Half of the companies verified; the caller blocked five others.
  await sql`update companies set verified_at = now(), country = 'DE', city = 'Leipzig', vat_id = 'DE136695976' where id % 2 = 0`.execute(
    db,
  );
  await sql`insert into company_blocks (blocker_id, blocked_id, created)
    select ${caller.company}::int, c.id, now() from companies c where c.id <> ${caller.company} order by c.id desc limit ${BLOCKED}`.execute(
    db,
  );
  // Each side rates the other on every delivered freight.
  await sql`insert into ratings (freight_id, rater_id, rated_id, score, comment, created)
    select f.id, f.company_id, f.winner_id, 1 + f.id % 5, 'Bench rating', f.modified from freights f where f.delivery_status = 3
    union all
    select f.id, f.winner_id, f.company_id, 1 + (f.id / 3) % 5, '', f.modified from freights f where f.delivery_status = 3`.execute(db);
  await sql`vacuum analyze`.execute(db);
  const seedMs = performance.now() - seedStart;
  const counts = await sql<{
    f: number;
    r: number;
  }>`select (select count(*)::int from freights) as f, (select count(*)::int from ratings) as r`.execute(db);

  const base = await listenLocal(app.http);
  const floor = await startBenchFloor({ pgUrl, pglite });
  console.log(
    `trust benchmark on ${label}: ${counts.rows[0]!.f} freights, ${counts.rows[0]!.r} ratings, ${COMPANIES} companies (half verified), the caller blocked ${BLOCKED}; seeded in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${SECONDS} s per endpoint, ${CONNECTIONS} connections, ${os.cpus().length} cores, loopback; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const randomIds = Array.from({ length: 5000 }, () => String(1 + Math.floor(Math.random() * counts.rows[0]!.f)));
  const companyIds = Array.from({ length: 5000 }, (_, i) => String(users[i % COMPANIES]!.company));
  const warm = (o: Parameters<typeof load>[0]) => load({ ...o, duration: Math.min(1, SECONDS) });
  async function measureFloor(): Promise<LoadResult> {
    const o = { url: floor.url, paths: randomIds.map((id) => `/floor/${id}`), connections: CONNECTIONS, duration: SECONDS };
    await warm(o);
    const r = await load(o);
    console.log(line('floor: Fastify + one PK select', r));
    return r;
  }
  const results: Array<{ name: string; r: LoadResult; floor: LoadResult }> = [];
  let lastFloor = await measureFloor();
  async function measure(name: string, paths: string[]) {
    const probe = (await (await fetch(base + paths[0], { headers: { authorization: `TokenPass ${caller.token}` } })).json()) as {
      status: string;
      data: { routes?: unknown[] };
    };
    if (probe.status !== 'success') throw new Error(`${name}: ${JSON.stringify(probe).slice(0, 300)}`);
    const rows = probe.data?.routes ? ` [${probe.data.routes.length} rows]` : '';
    const o = { url: base, paths, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `TokenPass ${caller.token}` } };
    await warm(o);
    const r = await load(o);
    console.log(line(name + rows, r));
    const before = lastFloor;
    lastFloor = await measureFloor();
    results.push({ name: name + rows, r, floor: before.p50 >= lastFloor.p50 ? before : lastFloor });
  }
  await measure(
    'GET /companies/view/{id} (profile)',
    companyIds.map((id) => `/companies/view/${id}.json`),
  );
  await measure('GET /freights/enlist/8 (market: mark, blocks)', ['/freights/enlist/8.json']);
  await measure('GET /freights/enlist/8?from=DE (searched)', ['/freights/enlist/8.json?from=DE']);
  await measure('GET /freights/enlist/7 (bid on: mark, blocks)', ['/freights/enlist/7.json']);
  await measure('GET /freights/counts (every list, blocks)', ['/freights/counts.json']);
  console.log(`\np50 beside the floor's p50 (the slower of the floor runs around each); load average now ${os.loadavg()[0]!.toFixed(2)}`);
  for (const { name, r, floor: f } of results)
    console.log(`${name.padEnd(52)} p50 ${String(r.p50).padStart(3)} ms   floor p50 ${f.p50} ms`);
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
