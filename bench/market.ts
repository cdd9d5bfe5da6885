// npm run bench:market — the market at scale (issue 31), on PostgreSQL only (DATABASE_URL or
// BENCH_DATABASE_URL names the server; a fresh database, dropped afterwards unless BENCH_KEEP=1).
//
// Seeds by SQL: BENCH_FREIGHTS (1,000,000) freights of BENCH_COMPANIES (10,000) companies over two
// years (about 6 % in the market, most archived or closed, the awarded ones with their accepted
// bid), open bids on a third of the market, BENCH_SEARCHES (100,000) alerting saved searches,
// BENCH_OFFERS (50,000) open vehicle offers, the lane cells, the market's stored presentations
// (BENCH_COLD=1: none). Then, from CLIENTS companies at once
// (each request with its own company's token), each operation alone for BENCH_SECONDS on 8
// connections — lists, searches, counts, views, publishes (with their alerts), bids, awards — and
// the mix of all of them on 50 connections for BENCH_MIXED_SECONDS (300) with the process memory
// sampled every 10 s. Two floors, measured at the start and the end: Fastify with one primary-key
// `select *` of a freight through `pg` (bench/floor.ts, the other benchmarks' floor), and Fastify
// with one primary-key select of a freight-sized JSON document stored as `jsonb`, sent as the
// database's text (the cheapest way to serve the same bytes as a view).
import { spawnSync } from 'node:child_process';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../src/accounts/passwords.ts';
import { rebuildLaneCells } from '../src/lanes/index.ts';
import { pgFloorQuery, startFloor } from './floor.ts';
import { line, load, type LoadOptions, type LoadResult } from './load.ts';
import { buildBenchApp, listenLocal, openBenchDatabase } from './setup.ts';

if (!process.env.BENCH_DATABASE_URL && !process.env.DATABASE_URL) {
  console.error('bench:market needs PostgreSQL: set DATABASE_URL or BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  process.exit(2);
}

const env = process.env;
const FREIGHTS = Number(env.BENCH_FREIGHTS ?? 1_000_000);
const COMPANIES = Number(env.BENCH_COMPANIES ?? 10_000);
const SEARCHES = Number(env.BENCH_SEARCHES ?? 100_000);
const OFFERS = Number(env.BENCH_OFFERS ?? 50_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const MIXED_SECONDS = Number(env.BENCH_MIXED_SECONDS ?? 300);
/** publishes per second of the paced run that measures alert delivery */
const PUBLISH_RATE = Number(env.BENCH_PUBLISH_RATE ?? 5);
const CLIENTS = Math.min(COMPANIES, 500);
const CONNECTIONS = 8;
const MIXED_CONNECTIONS = 50;

const { database, pgUrl, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
// Per operation in the mix: each request names its kind (x-bench-op), the server records its own
// time for it (Fastify's elapsed time, from the request read to the answer sent; no socket queue).
const opTimes = new Map<string, number[]>();
let recordOps = false;
app.http.addHook('onResponse', async (req, reply) => {
  const op = req.headers['x-bench-op'];
  if (!recordOps || typeof op !== 'string') return;
  const times = opTimes.get(op) ?? [];
  if (times.length === 0) opTimes.set(op, times);
  times.push(reply.elapsedTime);
});
const db = database.db;
const timed = async (label: string, work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  console.log(`${label}: ${Math.round((performance.now() - t0) / 1000)} s`);
};
const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;

try {
  // Companies and one user each, by SQL (one password hash for all; tokens from their nonces).
  const hash = await hashPassword('bench-password');
  await timed(`seeded ${COMPANIES} companies and users`, async () => {
    await sql`insert into companies (name, created, verified_at)
      select 'Market ' || i, now() - interval '3 years', case when i % 2 = 0 then now() - interval '1 year' end
      from generate_series(1, ${COMPANIES}) as i order by i`.execute(db);
    await sql`insert into users (company_id, email, username, password_hash, token_nonce)
      select id, 'm' || id || '@example.test', 'm' || id, ${hash}, 'nonce-' || id from companies order by id`.execute(db);
  });
  const first = await sql<{
    c0: number;
    u0: number;
  }>`select (select min(id) from companies)::int as c0, (select min(id) from users)::int as u0`.execute(db);
  const { c0, u0 } = first.rows[0]!;
  const tokenOf = (company: number) => app.tokens.issue(u0 + (company - c0), `nonce-${company}`);
  const clients = Array.from({ length: CLIENTS }, (_, i) => c0 + i);
  const auth = (company: number) => ({ authorization: `TokenPass ${tokenOf(company)}` });

  // Freights over two years: 0–4 open, 5 pending (the market, loading in the next 30 days), 6–9
  // taken, 10–24 closed, 25–79 archived (even ones awarded before), 80–89 expired, 90–94 revoked,
  // 95–99 drafts. A quarter air freights between airports, the rest road between postal codes,
  // 80 % with coordinates.
  await timed(`seeded ${FREIGHTS} freights`, () =>
    sql`insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country,
                              to_latitude, to_longitude, weight, etd, etd_end, deadline, visibility, whitelist, company_id, user_id,
                              winner_id, transport_company_id, price, delivery_status, refs, created, modified)
      select case when i % 4 = 0 then 'air' else 'rfs' end, st,
             case when i % 4 = 0 then (array['FRA','MUC','CDG','WAW','MXP','AMS','MAD','VIE'])[1 + i % 8]
                  else lpad(((i * 7) % 99999)::text, 5, '0') end,
             (array['DE','FR','PL','IT','NL','ES','AT','CZ'])[1 + i % 8],
             case when i % 5 = 0 then null else 42 + (i % 1200) / 100.0 end, case when i % 5 = 0 then null else -4 + (i % 2200) / 100.0 end,
             case when i % 4 = 0 then (array['CDG','WAW','MXP','AMS','MAD','VIE','FRA','MUC'])[1 + (i / 8) % 8]
                  else lpad(((i * 13) % 99999)::text, 5, '0') end,
             (array['FR','PL','IT','NL','ES','AT','CZ','DE'])[1 + (i / 8) % 8],
             case when i % 5 = 1 then null else 42 + (i % 1100) / 100.0 end, case when i % 5 = 1 then null else -4 + (i % 2100) / 100.0 end,
             500 + (i * 37) % 23500,
             case when market then now() + (i % 30) * interval '1 day' else created + interval '3 days' end,
             case when market then now() + (i % 30) * interval '1 day' + interval '8 hours' else created + interval '3 days 8 hours' end,
             case when market then now() + interval '30 days' else created + interval '10 days' end,
             0, '{}'::int[], ${c0}::int + i % ${COMPANIES}, ${u0}::int + i % ${COMPANIES},
             case when awarded then ${c0}::int + (i + 1) % ${COMPANIES} end, case when awarded then ${c0}::int + (i + 1) % ${COMPANIES} end,
             case when awarded then 400 + (i * 11) % 2600 end, case when st = 'closed' then 3 else 0 end,
             ('{"customer":"M-' || i || '"}')::json, created, created
      from (select i, s, created,
                   case when s < 5 then 'open' when s < 6 then 'pending' when s < 10 then 'taken' when s < 25 then 'closed'
                        when s < 80 then 'archived' when s < 90 then 'expired' when s < 95 then 'revoked' else 'draft' end as st,
                   s < 6 as market, (s >= 6 and s < 25) or (s >= 25 and s < 80 and i % 2 = 0) as awarded
            from (select i, ((i::bigint * 7919) % 100)::int as s, now() - (i % 730) * interval '1 day' - (i % 1440) * interval '1 minute' as created
                  from generate_series(1, ${FREIGHTS}) as i) as g) as f`.execute(db),
  );
  await timed('seeded the accepted bids and open bids on a third of the market', async () => {
    await sql`insert into bids (freight_id, company_id, user_id, amount, currency_code, status, owner_confirmed, bidder_confirmed,
                                type, created, modified)
      select f.id, f.winner_id, ${u0}::int + (f.winner_id - ${c0}::int), f.price, 'EUR', 'accepted', true, true, 'buying',
             f.created + interval '1 day', f.created + interval '1 day'
      from freights f where f.winner_id is not null`.execute(db);
    await sql`insert into bids (freight_id, company_id, user_id, amount, currency_code, status, type, created, modified)
      select f.id, ${c0}::int + (f.id + 7) % ${COMPANIES}, ${u0}::int + (f.id + 7) % ${COMPANIES}, 900, 'EUR', 'open', 'buying', now(), now()
      from freights f where f.status in ('open', 'pending') and f.id % 3 = 0 and (f.id + 7) % ${COMPANIES} <> (f.company_id - ${c0}::int)`.execute(
      db,
    );
  });
  // Saved searches: ten per company, alerting, spread over the lanes as carriers keep them: an
  // origin postal area (8 countries × 100 areas), half of them with a destination country, every
  // tenth a radius of 100 km around a point instead; normalised parameters.
  await timed(`seeded ${SEARCHES} saved searches`, () =>
    sql`insert into saved_searches (user_id, company_id, name, filter_id, params, alert, created, modified)
      select ${u0}::int + i % ${COMPANIES}, ${c0}::int + i % ${COMPANIES}, 'Search ' || i, 8,
             (case when i % 10 = 0
                   then jsonb_build_object('from_near', round(42 + ((i * 7) % 1200) / 100.0, 2)::text || ',' || round(-4 + ((i * 13) % 2200) / 100.0, 2)::text,
                                           'from_radius', '100')
                   else jsonb_build_object('from', (array['DE','FR','PL','IT','NL','ES','AT','CZ'])[1 + i % 8] || '-' || lpad(((i / 8) % 100)::text, 2, '0'))
                        || case when i % 2 = 0 then jsonb_build_object('to', (array['FR','PL','IT','NL','ES','AT','CZ','DE'])[1 + (i / 3) % 8])
                                else '{}'::jsonb end end)::json,
             true, now(), now()
      from generate_series(1, ${SEARCHES}) as i`.execute(db),
  );
  await timed(`seeded ${OFFERS} vehicle offers`, () =>
    sql`insert into vehicle_offers (company_id, user_id, status, from_code, from_country, from_latitude, from_longitude, from_radius,
                                    to_patterns, available_from, available_to, body, capacity, created, modified)
      select ${c0}::int + i % ${COMPANIES}, ${u0}::int + i % ${COMPANIES}, 'open',
             lpad((i % 99999)::text, 5, '0'), (array['DE','FR','PL','IT','NL','ES','AT','CZ'])[1 + i % 8],
             42 + (i % 1197) / 100.0, -4 + (i % 2193) / 100.0, 25 + i % 150,
             case when i % 3 = 0 then '{}'::text[] else array[(array['DE','FR','PL','IT','NL','ES'])[1 + i % 6]] end,
             now() + (i % 30) * interval '1 day', now() + (i % 30) * interval '1 day' + interval '2 days',
             (array['tautliner','box','reefer','flatbed','van','tank','other'])[1 + i % 7], 3000 + i % 21000, now(), now()
      from generate_series(1, ${OFFERS}) as i`.execute(db),
  );
  await timed('built the lane cells', () => rebuildLaneCells(db, app.services.clock.zone, app.services.config.lanePricesRelease));
  // The market's freights presented once first (src/freights/presented.ts), as every freight a
  // carrier has seen in a list or a view is: the figures are of an exchange whose market has been
  // looked at, not of its first look (the lists read the long way and present each row they meet
  // for the first time; bench:hot does the same for its views). BENCH_COLD=1 leaves this out.
  if (env.BENCH_COLD !== '1')
    await timed('presented the market', async () => {
      const ids = (await sql<{ id: number }>`select id from freights where market_until is not null order by id`.execute(db)).rows;
      for (let i = 0; i < ids.length; i += 5_000) {
        for (const { id } of ids.slice(i, i + 5_000)) app.presentations.stale(id);
        await app.presentations.idle();
      }
    });
  // The jsonb floor's documents: freights as JSON of a view's size.
  await sql`create table floor_docs as select id, to_jsonb(f) || jsonb_build_object('bids', '[]'::jsonb) as doc from freights f
    where f.status in ('open', 'pending') limit 20000`.execute(db);
  await sql`alter table floor_docs add primary key (id)`.execute(db);
  await timed('analyzed', () => sql`vacuum analyze`.execute(db));
  // The seeding's dirty pages written out now, not by the checkpointer during the first figures
  // (a run whose floors read half of another's had its lists measured beside that flush).
  await timed('checkpointed', async () => {
    await sql`checkpoint`.execute(db);
    // And the machine's page cache written back (a server on this machine): seeding leaves
    // gigabytes of dirty pages, whose writeback ran beside the first figures of some runs and
    // halved their floors.
    spawnSync('sync');
  });
  const size = await sql<{ freights: number; market: number; awarded: number }>`select count(*)::int as freights,
      (count(*) filter (where status in ('open', 'pending')))::int as market, (count(*) filter (where winner_id is not null))::int as awarded
    from freights`.execute(db);
  console.log(`in all: ${JSON.stringify(size.rows[0])}`);

  // The floors and the server.
  const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
  pool.on('error', () => {});
  const selectFloor = await startFloor(pgFloorQuery(pool));
  const jsonb = Fastify({ logger: false });
  jsonb.get<{ Params: { id: string } }>('/floor/:id', async (req, reply) => {
    const { rows } = await pool.query<{ doc: string }>('select doc::text as doc from floor_docs where id = $1', [
      Number(req.params.id) || 0,
    ]);
    if (!rows[0]) return reply.code(404).send({ status: 'error' });
    return reply.type('application/json').send(`{"status":"success","data":${rows[0].doc}}`);
  });
  await jsonb.listen({ port: 0, host: '127.0.0.1' });
  const jsonbAddress = jsonb.server.address();
  const jsonbUrl = `http://127.0.0.1:${typeof jsonbAddress === 'object' && jsonbAddress ? jsonbAddress.port : 0}`;
  const base = await listenLocal(app.http);

  const docIds = (await pool.query<{ id: number }>('select id from floor_docs order by random() limit 1000')).rows.map((r) => r.id);
  const floors = async () => {
    const paths = docIds.map((id) => `/floor/${id}`);
    const select = await load({ url: selectFloor.url, paths, connections: CONNECTIONS, duration: Math.min(SECONDS, 5) });
    const doc = await load({ url: jsonbUrl, paths, connections: CONNECTIONS, duration: Math.min(SECONDS, 5) });
    return { select, doc };
  };
  const floorBefore = await floors();
  console.log(line('floor: Fastify + pg select * by id', floorBefore.select));
  console.log(line('floor: Fastify + pg jsonb document by id', floorBefore.doc));

  type Req = NonNullable<LoadOptions['requests']>[number];
  const rows: string[] = [];
  const measure = async (
    name: string,
    requests: Req[],
    connections = CONNECTIONS,
    duration = SECONDS,
    overallRate?: number,
  ): Promise<LoadResult> => {
    const r = await load({ url: base, requests, connections, duration, overallRate, headers: { 'content-type': 'application/json' } });
    const text = `${line(name, r)}${r.s5xx ? `  5xx ${r.s5xx}` : ''}`;
    rows.push(text);
    console.log(text);
    return r;
  };

  // Reads, each from many companies.
  const marketIds = (
    await pool.query<{ id: number; company_id: number }>(
      `select id, company_id from freights where status in ('open', 'pending') order by random() limit 5000`,
    )
  ).rows;
  const get = (company: number, path: string): Req => ({ method: 'GET', path, headers: auth(company) });
  const lists = clients.map((c, i) => get(c, `/freights/enlist/8.json?page=${1 + (i % 3)}`));
  const searches = clients.map((c, i) =>
    get(
      c,
      pick(
        [
          '/freights/enlist/8.json?from=DE-6',
          '/freights/enlist/8.json?from=FR&to=DE',
          '/freights/enlist/8.json?from_near=50.11,8.68&from_radius=100',
          `/freights/enlist/8.json?pickup_from=${new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)}&weight_min=5000`,
          '/freights/enlist/8.json?from=PL&media=road&sort=Routes.weight&direction=desc',
        ],
        i,
      ),
    ),
  );
  const ownLists = clients.map((c, i) => get(c, `/freights/enlist/${pick([10, 12, 19, 2, 7], i)}.json`));
  const counts = clients.map((c) => get(c, '/freights/counts.json'));
  const views = marketIds.map((f, i) =>
    get(
      pick(
        clients.filter((c) => c !== f.company_id),
        i,
      ),
      `/freights/view/${f.id}.json`,
    ),
  );
  await measure('GET /freights/enlist/8 (market, pages 1-3)', lists);
  await measure('GET /freights/enlist/8 with a search', searches);
  await measure('GET /freights/enlist (own lists: 10, 12, 19, 2, 7)', ownLists);
  await measure('GET /freights/counts', counts);
  const view = await measure('GET /freights/view/{id} (market freights)', views);

  // Writes. Publishing drafts of the client companies (each once), with 100,000 alerting searches.
  const drafts = (
    await sql<{ id: number; company_id: number }>`
      insert into freights (class, status, from_code, from_country, from_latitude, from_longitude, to_code, to_country, weight, etd,
                            company_id, user_id, refs, created, modified)
      select 'rfs', 'draft', '60311', 'DE', 50.11, 8.68, '10115', 'DE', 12000, now() + interval '5 days',
             ${c0}::int + i % ${CLIENTS}, ${u0}::int + i % ${CLIENTS}, '{}'::json, now(), now()
      from generate_series(1, 20000) as i returning id, company_id`.execute(db)
  ).rows;
  const publishes = drafts.map((d) => ({
    method: 'POST',
    path: `/freights/view/${d.id}.json`,
    headers: auth(d.company_id),
    body: JSON.stringify({ action: 'publish' }),
  }));
  const notificationsBefore = Number((await pool.query('select count(*) from notifications')).rows[0].count);
  const delays: number[] = [];
  app.alerts.observe((w) => delays.push(w.delayMs));
  const queued = async () => Number((await pool.query('select count(*) from alert_jobs')).rows[0].count);
  /** Waits until the worker has written every queued alert (at most `ms`); answers the seconds taken and what is left. */
  const drained = async (ms: number) => {
    const t0 = performance.now();
    let left = await queued();
    while (left && performance.now() - t0 < ms) {
      await new Promise((r) => setTimeout(r, 200));
      left = await queued();
    }
    return { seconds: (performance.now() - t0) / 1000, left };
  };
  const percentile = (xs: number[], q: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  };
  // As fast as 8 connections go: the answer only queues the alert.
  const publish = await measure('POST publish (its alert queued)', publishes.slice(0, 5_000));
  const backlog = await queued();
  const written0 = delays.length;
  const drain = await drained(600_000);
  const published = Number(
    (await pool.query(`select count(*) from freights where id = any($1) and status = 'open'`, [drafts.map((d) => d.id)])).rows[0].count,
  );
  const notified = Number((await pool.query('select count(*) from notifications')).rows[0].count) - notificationsBefore;
  const alertRate = (delays.length - written0) / Math.max(drain.seconds, 0.001);
  console.log(
    `published ${published} freights; ${backlog} alerts queued at the end, drained in ${drain.seconds.toFixed(1)} s (${Math.round(alertRate)} alerts/s on one process, ${drain.left} left); ${notified} notifications`,
  );
  // At a steady rate below the worker's throughput: how long after its publish an alert is written.
  delays.length = 0;
  await measure(
    `POST publish at ${PUBLISH_RATE}/s (alert delivery measured)`,
    publishes.slice(5_000, 10_000),
    CONNECTIONS,
    20,
    PUBLISH_RATE,
  );
  await drained(60_000);
  const delivery = { count: delays.length, p50: percentile(delays, 0.5), p99: percentile(delays, 0.99) };
  const deliveryLine = `alert delivery after publish at ${PUBLISH_RATE}/s: ${delivery.count} alerts, p50 ${delivery.p50} ms, p99 ${delivery.p99} ms`;
  rows.push(deliveryLine);
  console.log(deliveryLine);
  const bids = marketIds.map((f, i) => {
    const bidder = pick(
      clients.filter((c) => c !== f.company_id),
      i * 7,
    );
    return {
      method: 'POST',
      path: '/quotes/add.json',
      headers: auth(bidder),
      body: JSON.stringify({ route: f.id, amount: 800 + (i % 400), currency_code: 'EUR' }),
    };
  });
  await measure('POST /quotes/add (bids on market freights)', bids);
  // Awards: pending bids the owners confirmed, confirmed by their bidders (each once).
  const pending = (
    await sql<{ bid: number; bidder: number }>`
      with f as (
        update freights set status = 'pending' where id in (
          select id from freights where status = 'open' and class = 'rfs' and company_id < ${c0}::int + ${CLIENTS} order by id limit 10000)
        returning id, company_id)
      insert into bids (freight_id, company_id, user_id, amount, currency_code, status, owner_confirmed, bidder_confirmed, type, created, modified)
      select f.id, ${c0}::int + (f.company_id - ${c0}::int + 1) % ${CLIENTS}, ${u0}::int + (f.company_id - ${c0}::int + 1) % ${CLIENTS},
             1000 + f.id % 500, 'EUR', 'pending', true, false, 'buying', now(), now()
      from f returning id as bid, company_id as bidder`.execute(db)
  ).rows;
  const confirms = pending.map((p) => ({ method: 'POST', path: `/quotes/confirm/${p.bid}.json`, headers: auth(p.bidder), body: '{}' }));
  const half = Math.floor(confirms.length / 2);
  console.log(`${confirms.length} pending bids the owners confirmed: half for the awards alone, half for the mix`);
  await measure('POST /quotes/confirm (awards)', confirms.slice(0, half));

  // The mix: 50 connections, reads and writes of many companies interleaved.
  const mixed: Req[] = [];
  const as = (op: string, r: Req): Req => ({ ...r, headers: { ...r.headers, 'x-bench-op': op } });
  for (let i = 0; i < 20_000; i++) {
    const k = i % 100;
    if (k < 35) mixed.push(as('market list', pick(lists, i)));
    else if (k < 55) mixed.push(as('searched list', pick(searches, i)));
    else if (k < 63) mixed.push(as('own list', pick(ownLists, i)));
    else if (k < 70) mixed.push(as('counts', pick(counts, i)));
    else if (k < 90) mixed.push(as('view', pick(views, i)));
    else if (k < 95) mixed.push(as('bid', pick(bids, i)));
    else if (k < 98) mixed.push(as('publish', publishes[10_000 + (i % 10_000)]!));
    else mixed.push(as('award', confirms[half + (i % Math.max(1, confirms.length - half))]!));
  }
  // Memory: the server's heap is the main thread's (the load generator's worker has a heap of its
  // own); the resident size is the whole process's, the load generator included.
  const memory: string[] = [];
  const mb = (n: number) => Math.round(n / 1048576);
  const sample = () => {
    const m = process.memoryUsage();
    memory.push(`${mb(m.rss)}/${mb(m.heapUsed)}`);
  };
  sample();
  const sampler = setInterval(sample, 10_000);
  recordOps = true;
  const mix = await measure(`mixed, ${MIXED_CONNECTIONS} connections, ${MIXED_SECONDS} s`, mixed, MIXED_CONNECTIONS, MIXED_SECONDS);
  recordOps = false;
  clearInterval(sampler);
  sample();
  console.log(`memory (process rss / server heap, MB) every 10 s: ${memory.join(' ')}`);
  for (const [op, times] of opTimes) {
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
    const opLine = `mixed: ${op.padEnd(14)} ${String(times.length).padStart(7)} answered, server time p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
    rows.push(opLine);
    console.log(opLine);
  }
  console.log(`mixed: errors ${mix.errors}, timeouts ${mix.timeouts}, 5xx ${mix.s5xx}, 4xx ${mix.s4xx}`);
  const mixBacklog = await queued();
  const mixDrain = await drained(600_000);
  console.log(`mixed: ${mixBacklog} alerts queued at its end, drained in ${mixDrain.seconds.toFixed(1)} s (${mixDrain.left} left)`);

  const floorAfter = await floors();
  console.log(`\n${rows.join('\n')}`);
  console.log(
    `floor: select * p50 ${floorBefore.select.p50}–${floorAfter.select.p50} ms, ${Math.round(floorBefore.select.average)}–${Math.round(floorAfter.select.average)} req/s`,
  );
  console.log(
    `floor: jsonb document p50 ${floorBefore.doc.p50}–${floorAfter.doc.p50} ms, ${Math.round(floorBefore.doc.average)}–${Math.round(floorAfter.doc.average)} req/s`,
  );
  console.log(
    `view ÷ jsonb floor: ${(view.average / Math.max(floorBefore.doc.average, floorAfter.doc.average)).toFixed(2)}×; publish p50 ${publish.p50} ms, p99 ${publish.p99} ms`,
  );
  await selectFloor.close();
  await jsonb.close();
  await pool.end();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
