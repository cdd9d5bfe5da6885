// npm run bench:lanes — lane prices (docs/reference.md#lane-prices) with 100,000 freights (BENCH_FREIGHTS), two thirds of them
// road, about 60 % awarded over the last 36 months with their accepted bids: GET /market/prices
// for a busy postal lane (DE-60 -> FR-75, 2 % of all freights, 12 and 36 months), a country pair
// (DE -> FR, 36 months), several patterns at once and an airport origin (p50 each). The same
// statement serves the freight form's and page's hint (12 months, the freight's own lane). Then
// awarding, A/B: with the award's lane cell and without it (a second app that skips it). Seeds
// by SQL (generate_series), measures through HTTP on loopback with autocannon (bench/load.ts),
// 8 connections, and prints the floor (bench/floor.ts) beside each figure. PostgreSQL when
// DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped afterwards); the
// embedded database otherwise.
import { sql } from 'kysely';
import { rebuildLaneCells } from '../src/lanes/index.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';
import { line, load } from './load.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const COMPANIES = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 8;

const { database, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;

try {
  const users = await benchCompanies(db, app.tokens, COMPANIES);
  const c0 = users[0]!.company;
  const u0 = users[0]!.user;
  const seedStart = performance.now();
  // Freights: every third air, the rest road, of 20 owner companies in turn; every 50th on the busy lane Frankfurt (DE-60) ->
  // Paris (FR-75), the others over five origin and six destination countries with ten postal
  // prefixes each; most with coordinates; 60 % awarded (taken, closed, archived) to the next
  // company, the award spread over 36 months; the others open or expired.
  await sql`
    insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country,
                          to_latitude, to_longitude, weight, price, visibility, company_id, user_id, winner_id,
                          transport_company_id, refs, created, modified)
    select case when i % 3 = 0 then 'air' else 'rfs' end,
           case when i % 10 < 3 then 'taken' when i % 10 < 5 then 'closed' when i % 10 < 6 then 'archived'
                when i % 10 < 8 then 'open' else 'expired' end,
           case when i % 50 = 0 then '60' || lpad((i % 997)::text, 3, '0') else ((i % 10) + 1)::text || lpad((i % 9973)::text, 4, '0') end,
           case when i % 50 = 0 then 'DE' else (array['DE','FR','PL','IT','NL'])[1 + i % 5] end,
           case when i % 7 = 0 then null else 45 + (i % 1000) / 100.0 end, 2 + (i % 1700) / 100.0,
           case when i % 50 = 0 then '75' || lpad((i % 991)::text, 3, '0') else (((i / 7) % 10) + 1)::text || lpad((i % 9967)::text, 4, '0') end,
           case when i % 50 = 0 then 'FR' else (array['DE','FR','PL','IT','NL','ES'])[1 + (i / 5) % 6] end,
           40 + (i % 1300) / 100.0, -3 + (i % 2000) / 100.0,
           1000 + i % 24000,
           case when i % 10 < 6 then 600 + (i % 1400) end,
           0, ${c0}::int + ((i + i / 50) % ${COMPANIES}), ${u0}::int + ((i + i / 50) % ${COMPANIES}),
           case when i % 10 < 6 then ${c0}::int + ((i + i / 50 + 1) % ${COMPANIES}) end,
           case when i % 10 < 6 then ${c0}::int + ((i + i / 50 + 1) % ${COMPANIES}) end,
           ('{"customer":"B-' || i || '"}')::json, now() - (i % 1095) * interval '1 day', now() - (i % 1095) * interval '1 day'
    from generate_series(1, ${FREIGHTS}) as i`.execute(db);
  // The accepted bid of every awarded freight (the award's instant is its modified), and an open
  // bid of another company on a tenth of all freights.
  await sql`
    insert into bids (freight_id, company_id, user_id, amount, currency_code, status, owner_confirmed, bidder_confirmed,
                      type, created, modified)
    select f.id, f.winner_id, ${u0}::int + (f.winner_id - ${c0}::int), f.price, 'EUR', 'accepted', true, true, 'buying',
           f.created, f.created + interval '1 day'
    from freights f where f.winner_id is not null`.execute(db);
  await sql`
    insert into bids (freight_id, company_id, user_id, amount, currency_code, status, type, created, modified)
    select f.id, ${c0}::int + ((f.id + 3) % ${COMPANIES}), ${u0}::int + ((f.id + 3) % ${COMPANIES}), 900, 'EUR', 'open', 'buying',
           f.created, f.created
    from freights f where f.id % 10 = 0`.execute(db);
  await sql`analyze`.execute(db);
  const awarded = await sql<{ n: number }>`select count(*)::int as n from bids where status = 'accepted'`.execute(db);
  console.log(`seeded ${FREIGHTS} freights, ${awarded.rows[0]!.n} awards in ${Math.round(performance.now() - seedStart)} ms`);
  // The lane cells of the seeded awards, as a start after an upgrade builds them (ensureLaneCells).
  const cellStart = performance.now();
  await rebuildLaneCells(db, app.services.clock.zone, app.services.config.lanePricesRelease);
  await sql`analyze lane_price_cells`.execute(db);
  const cells = await sql<{ n: number }>`select count(*)::int as n from lane_price_cells`.execute(db);
  console.log(`built ${cells.rows[0]!.n} lane cells in ${Math.round(performance.now() - cellStart)} ms`);

  const floor = await startBenchFloor({ pgUrl, pglite });
  const base = await listenLocal(app.http);
  const headers = { authorization: `TokenPass ${users[3]!.token}` };

  const floorRun = async () => {
    const paths = Array.from({ length: 200 }, () => `/floor/${1 + Math.floor(Math.random() * FREIGHTS)}`);
    return (await load({ url: floor.url, paths, connections: CONNECTIONS, duration: SECONDS })).p50;
  };
  const rows: string[] = [];
  const measure = async (name: string, paths: string[]) => {
    const before = await floorRun();
    const r = await load({ url: base, paths, connections: CONNECTIONS, duration: SECONDS, headers });
    const after = await floorRun();
    const text = `${line(name, r)}  (floor p50 ${before}–${after} ms)`;
    rows.push(text);
    console.log(text);
  };

  // What the lanes answer, once, so that a wrong plan shows as a wrong count rather than a fast figure.
  const probe = await fetch(`${base}/market/prices.json?from=DE-60&to=FR-75&months=12`, { headers });
  const months = ((await probe.json()) as { data: { months: Array<{ count: number; median: number | null }> } }).data.months;
  console.log(
    `DE-60 -> FR-75, 12 months: ${months.reduce((n, m) => n + m.count, 0)} awards, ${months.filter((m) => m.median !== null).length} months with figures`,
  );

  await measure('GET /market/prices DE-60 -> FR-75, 12 months (the freight hint)', ['/market/prices.json?from=DE-60&to=FR-75']);
  await measure('GET /market/prices DE-60 -> FR-75, 36 months', ['/market/prices.json?from=DE-60&to=FR-75&months=36']);
  await measure('GET /market/prices DE -> FR, 36 months', ['/market/prices.json?from=DE&to=FR&months=36']);
  await measure('GET /market/prices DE-1,PL-2,NL -> FR,ES, 12 months', ['/market/prices.json?from=DE-1,PL-2,NL&to=FR,ES']);
  await measure('GET /market/prices airport:FRA -> FR, 12 months', ['/market/prices.json?from=airport:FRA&to=FR']);

  // Awarding, A/B: the bidder's confirmation of a bid the owner confirmed, one at a time over HTTP,
  // on fresh freights of the busy lane, through this app (A: the award enters its lane cell in its
  // transaction) and through a second app on the same database that skips the lane cell
  // (B: AppOptions.recordLaneAwards false), alternated A, B, A, B so that drift hits both. The floor
  // beside each: one primary-key select behind Fastify, also one request at a time.
  const AWARDS = Number(process.env.BENCH_AWARDS ?? 400);
  const ROUNDS = 2;
  const owner = users[5]!;
  const bidder = users[6]!;
  const without = await buildBenchApp(database, { recordLaneAwards: false });
  const baseWithout = await listenLocal(without.http);
  const pendingBids = async (n: number) =>
    (
      await sql<{ bid: number; freight: number }>`
    with f as (
      insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country,
                            to_latitude, to_longitude, weight, visibility, company_id, user_id, created, modified)
      select 'rfs', 'pending', '60311', 'DE', 50.11, 8.68, '75001', 'FR', 48.86, 2.35, 1000, 0, ${owner.company}::int,
             ${owner.user}::int, now(), now()
      from generate_series(1, ${n}) returning id)
    insert into bids (freight_id, company_id, user_id, amount, currency_code, status, owner_confirmed, bidder_confirmed,
                      type, created, modified)
    select f.id, ${bidder.company}::int, ${bidder.user}::int, 1000 + f.id % 300, 'EUR', 'pending', true, false, 'buying', now(), now()
    from f returning id as bid, freight_id as freight`.execute(db)
    ).rows;
  const oneAtATime = async (url: string, paths: string[], init: RequestInit = {}) => {
    const ms: number[] = [];
    for (const path of paths) {
      const t0 = performance.now();
      const res = await fetch(`${url}${path}`, init);
      await res.text();
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  const award = { method: 'POST', headers: { authorization: `TokenPass ${bidder.token}`, 'content-type': 'application/json' }, body: '{}' };
  const results = { with: { award: [] as number[], floor: [] as number[] }, without: { award: [] as number[], floor: [] as number[] } };
  const confirmed: number[] = [];
  for (let round = 0; round < 2 * ROUNDS; round++) {
    const name = round % 2 === 0 ? 'with' : 'without';
    const url = name === 'with' ? base : baseWithout;
    const pending = await pendingBids(AWARDS / (2 * ROUNDS));
    results[name].floor.push(
      ...(await oneAtATime(
        floor.url,
        Array.from({ length: 100 }, () => `/floor/${1 + Math.floor(Math.random() * FREIGHTS)}`),
      )),
    );
    results[name].award.push(
      ...(await oneAtATime(
        url,
        pending.map((p) => `/quotes/confirm/${p.bid}.json`),
        award,
      )),
    );
    confirmed.push(...pending.map((p) => p.freight));
  }
  const taken = await sql<{ n: number }>`select count(*)::int as n from freights
    where id = any(${confirmed}::int[]) and status = 'taken'`.execute(db);
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [a, b] = [p50(results.with.award), p50(results.without.award)];
  const awardLines = [
    `award with its lane cell (POST /quotes/confirm, one at a time): p50 ${a.toFixed(1)} ms  (floor p50 ${p50(results.with.floor).toFixed(2)} ms)`,
    `award without the lane cell (recordLaneAwards false):          p50 ${b.toFixed(1)} ms  (floor p50 ${p50(results.without.floor).toFixed(2)} ms)`,
    `awarding with ÷ without: ${(a / b).toFixed(2)}× (${taken.rows[0]!.n}/${confirmed.length} taken; ${ROUNDS} rounds of each, alternated)`,
  ];
  rows.push(...awardLines);
  for (const l of awardLines) console.log(l);
  await without.http.close();
  console.log(`\n${rows.join('\n')}`);
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
