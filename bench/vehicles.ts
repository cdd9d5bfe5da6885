// npm run bench:vehicles — vehicle space (docs/reference.md#vehicles) with 100,000 freights and 20,000 open
// vehicle offers: the offers list with a place and date search, the matches of one offer, the
// fitting offers of one freight (p50 each), and publishing a freight with 20,000 open offers vs
// none (the alert runs after the commit). Seeds by SQL (generate_series), measures through HTTP on
// loopback with autocannon (bench/load.ts), 8 connections, and prints the floor (bench/floor.ts)
// beside each figure. PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh
// database, dropped afterwards); the embedded database otherwise.
import { sql } from 'kysely';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';
import { line, load, type LoadResult } from './load.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 20_000);
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
  // Freights: two thirds road, about half in the market, origins and destinations over Europe,
  // loading windows over the next 30 days.
  await sql`
    insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country,
                          weight, etd, etd_end, deadline, visibility, company_id, user_id, refs, created, modified)
    select case when i % 3 = 0 then 'air' else 'rfs' end,
           case when i % 2 = 0 then 'open' else 'taken' end,
           lpad((i % 99999)::text, 5, '0'), (array['DE','FR','PL','IT','NL'])[1 + i % 5],
           45 + (i % 1000) / 100.0, 2 + (i % 1700) / 100.0,
           lpad(((i * 7) % 99999)::text, 5, '0'), (array['DE','FR','PL','IT','NL','ES'])[1 + (i / 5) % 6],
           1000 + i % 24000, now() + (i % 30) * interval '1 day', now() + (i % 30) * interval '1 day' + interval '8 hours',
           now() + interval '40 days', 0, ${c0}::int + (i % ${COMPANIES}), ${u0}::int + (i % ${COMPANIES}),
           ('{"customer":"B-' || i || '"}')::json, now() - i * interval '1 minute', now() - i * interval '1 minute'
    from generate_series(1, ${FREIGHTS}) as i`.execute(db);
  const seedOffers = (n: number) => sql`
    insert into vehicle_offers (company_id, user_id, status, from_code, from_country, from_latitude, from_longitude, from_radius,
                                to_patterns, available_from, available_to, body, capacity, created, modified)
    select ${c0}::int + (i % ${COMPANIES}), ${u0}::int + (i % ${COMPANIES}), 'open',
           lpad((i % 99999)::text, 5, '0'), (array['DE','FR','PL','IT','NL'])[1 + i % 5],
           45 + (i % 997) / 99.7, 2 + (i % 1693) / 99.6, 25 + i % 150,
           case when i % 3 = 0 then '{}'::text[] else array[(array['DE','FR','PL','IT','NL','ES'])[1 + i % 6]] end,
           now() + (i % 30) * interval '1 day', now() + (i % 30) * interval '1 day' + interval '2 days',
           (array['tautliner','box','reefer','flatbed','van','tank','other'])[1 + i % 7], 3000 + i % 21000, now(), now()
    from generate_series(1, ${n}) as i`;
  await seedOffers(OFFERS).execute(db);
  await sql`analyze`.execute(db);
  console.log(`seeded ${FREIGHTS} freights and ${OFFERS} offers in ${Math.round(performance.now() - seedStart)} ms`);

  const floor = await startBenchFloor({ pgUrl, pglite });
  const base = await listenLocal(app.http);
  // The caller: a company whose seeded freights are in the market (even i: open) and that has offers.
  const token = users[2]!.token;
  const headers = { authorization: `TokenPass ${token}` };
  const ids = (table: 'freights' | 'vehicle_offers', where: string) =>
    sql.raw<{ id: number }>(`select id from ${table} where ${where} order by random() limit 200`).execute(db);
  const ownOffers = (await ids('vehicle_offers', `company_id = ${users[2]!.company} and status = 'open'`)).rows.map((r) => r.id);
  const ownFreights = (await ids('freights', `company_id = ${users[2]!.company} and status = 'open' and class = 'rfs'`)).rows.map(
    (r) => r.id,
  );
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

  const floorRun = async () => {
    const paths = Array.from({ length: 200 }, () => `/floor/${1 + Math.floor(Math.random() * FREIGHTS)}`);
    return (await load({ url: floor.url, paths, connections: CONNECTIONS, duration: SECONDS })).p50;
  };
  const rows: string[] = [];
  const measure = async (name: string, paths: string[], options: { method?: string; body?: string } = {}): Promise<LoadResult> => {
    const before = await floorRun();
    const r = await load({
      url: base,
      paths,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { ...headers, 'content-type': 'application/json' },
      ...options,
    });
    const after = await floorRun();
    const text = `${line(name, r)}  (floor p50 ${before}–${after} ms)`;
    rows.push(text);
    console.log(text);
    return r;
  };

  await measure('GET /vehicles/index from=DE-6 pickup 3 days', [`/vehicles/index.json?from=DE&pickup_from=${day(5)}&pickup_to=${day(7)}`]);
  await measure('GET /vehicles/index from_near + pickup', [
    `/vehicles/index.json?from_near=50.11,8.68&from_radius=100&pickup_from=${day(5)}`,
  ]);
  await measure(
    'GET /vehicles/matches/{id}',
    ownOffers.map((id) => `/vehicles/matches/${id}.json`),
  );
  await measure(
    'GET /freights/vehicles/{id}',
    ownFreights.map((id) => `/freights/vehicles/${id}.json`),
  );

  // Publishing: drafts published one each (a POST that commits); with 20,000 open offers, then none.
  const publish = async (label: string) => {
    const drafts = (
      await sql<{ id: number }>`
        insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country, weight, etd,
                              company_id, user_id, refs, created, modified)
        select 'rfs', 'draft', '60311', 'DE', 50.11, 8.68, '20095', 'DE', 12000, now() + interval '5 days',
               ${users[2]!.company}::int, ${users[2]!.user}::int, '{}'::json, now(), now()
        from generate_series(1, 20000) returning id`.execute(db)
    ).rows.map((r) => r.id);
    return measure(
      label,
      drafts.map((id) => `/freights/view/${id}.json`),
      { method: 'POST', body: JSON.stringify({ action: 'publish' }) },
    );
  };
  const withOffers = await publish('POST publish, 20,000 open offers');
  await sql`update vehicle_offers set status = 'withdrawn'`.execute(db);
  const without = await publish('POST publish, no open offer');
  console.log(`\npublish p50 with offers / without: ${(withOffers.p50 / Math.max(1, without.p50)).toFixed(2)} (target ≤ 1.2)`);
  console.log(`\n${rows.join('\n')}`);
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
