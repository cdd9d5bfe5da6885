// npm run bench:tenders — lane tenders (docs/reference.md#tenders, issue 43): a tender of LANES (1,000) lanes and
// CARRIERS (50) carriers bidding on all of them. Figures, each with its goal and the floor beside it
// (bench/floor.ts: one primary-key select through the same driver, p50 over loopback HTTP):
// - the CSV import of 1,000 lanes (POST /tenders/add.json with `lanes_csv`, the page's upload) ≤ 2 s;
// - a bidder's 1,000-lane bid (POST /tenders/bid) ≤ 2 s (p50 and worst of the 50 bidders);
// - the owner's evaluation page of 1,000 lanes × 50 bids (GET /tenders/view, HTML) ≤ 500 ms, with every lane's market price
//   (12 months of figures on each lane's cell among 20,000 cells), and its JSON;
// - finding the contract lanes of a freight among 100,000 contracts (the routing guide) p50 ≤ 5 ms;
// and, without a goal, the close (the sweeper's pass that ranks every lane's bids once for the owner's reads).
// Requests go through the app in process (inject); PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server (a fresh database, dropped afterwards), the embedded one otherwise.
import { sql } from 'kysely';
import { guideOffers } from '../src/tenders/index.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, startBenchFloor } from './setup.ts';
import { load } from './load.ts';
import { profiled } from './profile.ts';
import { statementTimer } from './statements.ts';

const LANES = Number(process.env.BENCH_LANES ?? 1_000);
const CARRIERS = Number(process.env.BENCH_CARRIERS ?? 50);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100_000);
const LOOKUPS = 500;

const { database, pgUrl, pglite, drop, label } = await openBenchDatabase();
const statements = statementTimer(database);
const app = await buildBenchApp(database);
const db = database.db;
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const verdict = (value: number, goal: number) => (value <= goal ? 'ok' : 'OVER');

try {
  const users = await benchCompanies(db, app.tokens, CARRIERS + 1);
  const [shipper, ...carriers] = users;
  const auth = (token: string) => ({ authorization: `TokenPass ${token}` });
  const inject = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.http.inject({ method, url, headers: { ...auth(token), ...headers }, payload: body as never });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res;
  };
  const floor = await startBenchFloor({ pgUrl, pglite });
  await listenLocal(app.http);
  const floorP50 = (await load({ url: floor.url, paths: ['/floor/1'], connections: 1, duration: 2 })).p50;

  // The CSV import: 1,000 lanes between postal areas, as the page's upload sends them.
  const csv = ['from;to;loads;weight;body;note'];
  for (let i = 0; i < LANES; i++)
    csv.push(`DE-${10 + (i % 90)};FR-${10 + (Math.floor(i / 90) % 90)};${1 + (i % 20)};24000;tautliner;lane ${i}`);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const deadline = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
  const body = {
    name: 'Bench tender',
    valid_from: day(1),
    valid_to: day(365),
    deadline,
    invited: carriers.map((c) => c.company),
    lanes_csv: `${csv.join('\n')}\n`,
  };
  const imports: number[] = [];
  let tender: { id: number; lanes: Array<{ id: number }> } | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const res = await inject('POST', '/tenders/add.json', shipper!.token, body);
    imports.push(ms(t0));
    tender = JSON.parse(res.body).data.tender;
  }
  await inject('POST', `/tenders/publish/${tender!.id}.json`, shipper!.token);
  const importP50 = pct(imports, 50);
  console.log(
    `${label}: CSV import of ${LANES} lanes        p50 ${importP50} ms (goal ≤ 2000 ms: ${verdict(importP50, 2000)}; floor p50 ${floorP50} ms)`,
  );

  // Every carrier bids on every lane.
  const bids: number[] = [];
  for (const [k, c] of carriers.entries()) {
    const items = tender!.lanes.map((l, i) => ({
      lane: l.id,
      price: (900 + ((i * 7 + k * 13) % 600)).toFixed(2),
      capacity: 1 + ((i + k) % 10),
    }));
    const t0 = performance.now();
    await inject('POST', `/tenders/bid/${tender!.id}.json`, c.token, { bids: items });
    bids.push(ms(t0));
  }
  console.log(
    `${label}: a bidder's ${LANES}-lane bid            p50 ${pct(bids, 50)} ms, worst ${Math.max(...bids)} ms (goal ≤ 2000 ms: ${verdict(Math.max(...bids), 2000)}; floor p50 ${floorP50} ms)`,
  );

  // The lanes' market: 12 months of released figures (five awards of three owners) on each lane's cell, so the
  // evaluation's market prices (one statement for every lane) read real cells, beside 20,000 cells of other lanes.
  await sql`insert into lane_price_cells (zone, currency, month, from_country, from_key, from_airport, to_country, to_key, to_airport,
      prices, owners, winners, released, owners_released)
    select ${app.services.clock.zone}, 'EUR', to_char(now() - make_interval(months => m), 'YYYY-MM'), 'DE', k.f::text, false, 'FR', k.t::text, false,
           array[800, 900, 1000 + m, 1100, 1200]::numeric[], array[1, 2, 3, 1, 2], array[4, 5, 6, 4, 5], 5, 3
    from (select distinct 10 + (i % 90) as f, 10 + ((i / 90) % 90) as t from generate_series(0, ${LANES - 1}) as i
          union select 10 + (i % 90), 10 + (i / 90) from generate_series(0, 1700) as i) as k,
         generate_series(0, 11) as m
    on conflict do nothing`.execute(db);
  await sql`analyze lane_price_cells`.execute(db);

  // Past the deadline: the owner's evaluation of 1,000 lanes × 50 bids.
  await db
    .updateTable('tenders')
    .set({ deadline: new Date(Date.now() - 1000) })
    .where('id', '=', tender!.id)
    .execute();
  // The close: the sweeper's pass writes `closed` and ranks the 50,000 bids once (migration 0560), for every read after it.
  const closeT0 = performance.now();
  await app.tenders.sweep();
  console.log(`${label}: the close (the sweeper ranks ${LANES * CARRIERS} bids)  ${ms(closeT0)} ms (floor p50 ${floorP50} ms)`);
  const loginPage = await app.http.inject({ method: 'GET', url: '/users/login' });
  const jar = [loginPage.headers['set-cookie']]
    .flat()
    .filter(Boolean)
    .map((c) => String(c).split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(loginPage.body)![1]!;
  const login = await app.http.inject({
    method: 'POST',
    url: '/users/login',
    headers: { cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, 'auth[user]': 'bench0@example.test', 'auth[password]': 'bench-password' }).toString(),
  });
  const cookie = `${jar}; ${[login.headers['set-cookie']]
    .flat()
    .filter(Boolean)
    .map((c) => String(c).split(';')[0])
    .join('; ')}`;
  const pages: number[] = [];
  const pageCpu: number[] = [];
  const jsons: number[] = [];
  let size = 0;
  for (let i = 0; i < 7; i++) {
    let t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const page = await app.http.inject({ method: 'GET', url: `/tenders/view/${tender!.id}`, headers: { cookie } });
    const cpu = process.cpuUsage(cpu0);
    pageCpu.push(Math.round((cpu.user + cpu.system) / 100) / 10);
    if (page.statusCode !== 200 || !page.body.includes('evaluate-lane-1')) throw new Error(`evaluation page: ${page.statusCode}`);
    if (!page.body.includes(`data-testid="evaluate-lane-${LANES}"><h2>`) || page.body.includes('no market price'))
      throw new Error('evaluation page: a lane without its market price');
    pages.push(ms(t0));
    size = page.body.length;
    t0 = performance.now();
    await inject('GET', `/tenders/view/${tender!.id}.json`, shipper!.token);
    jsons.push(ms(t0));
  }
  // Where one page's time goes: BENCH_CPU_PROF=<dir> profiles it; BENCH_STATEMENTS=1 prints its statements' times.
  await profiled(label, 'evaluation page', () =>
    statements.around('evaluation page', () => app.http.inject({ method: 'GET', url: `/tenders/view/${tender!.id}`, headers: { cookie } })),
  );
  console.log(
    `${label}: evaluation page ${LANES} × ${CARRIERS} bids     p50 ${pct(pages, 50)} ms (${Math.round(size / 1024)} kB; goal ≤ 500 ms: ${verdict(pct(pages, 50), 500)}); its JSON p50 ${pct(jsons, 50)} ms (floor p50 ${floorP50} ms)`,
  );
  // The process's CPU time for one page (user + system, every thread of it): on the embedded database the statements run in it
  // too, so this is near what the page takes on an idle machine, whatever the load (a loaded machine stretches the wall time).
  console.log(
    `${label}: evaluation page CPU time         p50 ${pct(pageCpu, 50)} ms (wall p50 ${pct(pages, 50)} ms; on PostgreSQL the server's share is not in it)`,
  );

  // 100,000 contracts of one shipper: 10 carriers on each of 10,000 postal-area lanes; the guide's lookup.
  const perLane = 10;
  const lanes = Math.ceil(CONTRACTS / perLane);
  const seeded = performance.now();
  await sql`insert into tender_lanes (tender_id, position, from_pattern, to_pattern, loads)
    select ${tender!.id}, ${LANES} + i, 'DE-' || (10 + (i % 100)), 'FR-' || (10 + (i / 100) % 100), 4 from generate_series(1, ${lanes}) as i`.execute(
    db,
  );
  await sql`insert into contracts (tender_id, lane_id, shipper_id, carrier_id, rank, price, currency, loads, from_pattern, to_pattern, valid_from, valid_to, created)
    select l.tender_id, l.id, ${shipper!.company}, c.company, c.rank, 800 + c.rank * 10, 'EUR', l.loads, l.from_pattern, l.to_pattern, ${day(1)}, ${day(365)}, now()
    from tender_lanes l, unnest(${carriers.slice(0, perLane).map((c) => c.company)}::int[]) with ordinality as c(company, rank)
    where l.tender_id = ${tender!.id} and l.position > ${LANES}`.execute(db);
  await sql`analyze`.execute(db);
  const count = Number(
    (
      await db
        .selectFrom('contracts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  console.log(`${label}: seeded ${count} contracts in ${ms(seeded)} ms`);
  const etd = new Date(Date.now() + 30 * 86_400_000);
  const lookups: number[] = [];
  let found = 0;
  for (let i = 0; i < LOOKUPS; i++) {
    const freight = {
      company_id: shipper!.company,
      from_code: `${10 + (i % 100)}${String(i % 1000).padStart(3, '0')}`,
      from_country: 'DE',
      to_code: `${10 + ((i * 7) % 100)}${String(i % 1000).padStart(3, '0')}`,
      to_country: 'FR',
      etd,
    };
    const t0 = performance.now();
    const offers = await guideOffers(db, app.services.clock, freight);
    lookups.push(performance.now() - t0);
    if (offers.length) found++;
  }
  const lookupP50 = Math.round(pct(lookups, 50) * 100) / 100;
  console.log(
    `${label}: the guide's contract lanes among ${count} p50 ${lookupP50} ms, p99 ${Math.round(pct(lookups, 99) * 100) / 100} ms (${found}/${LOOKUPS} freights with contracts; goal p50 ≤ 5 ms: ${verdict(lookupP50, 5)}; floor p50 ${floorP50} ms over HTTP)`,
  );
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  await drop?.();
}
