import os from 'node:os';
import pg from 'pg';
import { CompiledQuery, sql } from 'kysely';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, seedMarket, startBenchFloor } from './setup.ts';
import { profiled } from './profile.ts';
import { line, load, type LoadResult } from './load.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 100_000);
const COMPANIES = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 8;
/** The load searches whose plans BENCH_EXPLAIN prints (issue 12). */
const SEARCHES: Array<[number, Record<string, string>]> = [
  [8, { from: 'DE-60' }],
  [8, { from_near: '50.11,8.68', from_radius: '100' }],
  [
    8,
    {
      pickup_from: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
      pickup_to: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    },
  ],
  [10, { from: 'DE-60' }],
  [8, { from: 'DE' }],
];

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;

try {
  const users = await benchCompanies(db, app.tokens, COMPANIES);

  const seedStart = performance.now();
  await seedMarket(db, users, FREIGHTS);
  // As autovacuum would have it on a live database: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze`.execute(db);
  const seedMs = performance.now() - seedStart;
  const counts = await sql<{
    f: number;
    b: number;
  }>`select (select count(*) from freights)::int as f, (select count(*) from bids)::int as b`.execute(db);

  if (process.env.BENCH_EXPLAIN) {
    // The plans of the view and of every list page at this size, as the server runs them:
    // prepared statements after six executions on one connection (PostgreSQL has chosen between
    // custom and generic plans by then), with the caller of the benchmark.
    const { listStatement } = await import('../src/freights/lists/read.ts');
    const { readPaging } = await import('../src/kernel/paging.ts');
    const { offsetOf } = await import('../src/kernel/params.ts');
    const { viewStatement } = await import('../src/freights/store.ts');
    const caller = users[1]!.company;
    const now = new Date();
    await db.connection().execute(async (conn) => {
      const plan = async (
        title: string,
        statement: { name: string; sql: string; executeSql: (...a: never[]) => string },
        args: unknown[],
      ) => {
        await sql.raw(`deallocate all`).execute(conn);
        await sql.raw(`prepare ${statement.name} as ${statement.sql}`).execute(conn);
        const execute = statement.executeSql(...(args as never[]));
        for (let i = 0; i < 6; i++) await sql.raw(execute).execute(conn);
        const r = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${execute}`).execute(conn);
        console.log(`\n### ${title}\n${r.rows.map((x) => x['QUERY PLAN']).join('\n')}`);
      };
      await plan('view (one freight, pieces, company, visible bids)', viewStatement(), [now, caller, 4242]);
      const lists: Array<[number, Record<string, string>]> = [
        [8, {}],
        [8, { page: '50' }],
        [7, {}],
        [6, {}],
        [2, {}],
        [9, {}],
        [9, { page: '20' }],
        [20, {}],
        [10, {}],
        [17, {}],
        [18, {}],
        [12, {}],
        [19, {}],
        [19, { sort: 'Routes.weight', direction: 'asc' }],
        [8, { sort: 'Routes.deadline', direction: 'asc' }],
        [7, { sort: 'Routes.weight' }],
        [200, {}],
        [201, {}],
        [209, {}],
        [210, {}],
        [211, {}],
        [219, {}],
      ];
      for (const [filter, query] of lists) {
        const paging = readPaging(query);
        const offset = offsetOf(paging);
        await plan(`enlist ${filter} ${new URLSearchParams(query)}`, listStatement(filter, paging, true)!, [
          caller,
          now,
          paging.limit,
          offset,
          paging.limit + offset,
          0,
        ]);
      }
      // Load search (issue 12): a searched page is planned for its values, as the server runs it.
      const { searchedListQuery } = await import('../src/freights/lists/read.ts');
      const { readLoadSearch } = await import('../src/market/index.ts');
      const { countsQuery } = await import('../src/searches/counts.ts');
      const explain = async (title: string, q: { sql: string; parameters: readonly unknown[] }) => {
        const r = await conn.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (analyze, costs off) ${q.sql}`, [...q.parameters]),
        );
        console.log(`\n### ${title}\n${r.rows.map((x) => x['QUERY PLAN']).join('\n')}`);
      };
      const { planAlike } = await import('../src/market/index.ts');
      const { PreparedStatement } = await import('../src/db/prepared.ts');
      for (const [filter, query] of SEARCHES) {
        const search = readLoadSearch(query, 'UTC');
        const compiled = searchedListQuery(filter, readPaging({}), true, caller, now, search);
        const title = `enlist ${filter} ${new URLSearchParams(query)}`;
        // As the server runs it: prepared by its text where one plan serves every value (market/lists.ts planAlike).
        if (planAlike(search))
          await plan(`${title} (prepared)`, new PreparedStatement('fx_bench_shape', compiled.parameters.length, compiled.sql), [
            ...compiled.parameters,
          ]);
        else await explain(title, compiled);
      }
      await explain('counts (every list)', countsQuery(db, caller, now, {}).compile());
      await explain('counts from=DE-60', countsQuery(db, caller, now, readLoadSearch({ from: 'DE-60' }, 'UTC')).compile());
      await sql.raw(`deallocate all`).execute(conn);
    });
  }

  const base = await listenLocal(app.http);
  const token = users[1]!.token;
  const maxId = counts.rows[0]!.f;
  // The floor, on the same data: one PK select of a freight through pg (a pool like the app's) or PGlite.
  const floor = await startBenchFloor({ pgUrl, pglite });

  console.log(
    `freights benchmark on ${label}: ${counts.rows[0]!.f} freights, ${counts.rows[0]!.b} bids, ${COMPANIES} companies; seeded in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${SECONDS} s per endpoint, ${CONNECTIONS} connections, ${os.cpus().length} cores, loopback, load generator in a worker thread; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const randomPaths = (make: (i: number) => string) => Array.from({ length: 5000 }, (_, i) => make(i));
  const randomIds = randomPaths(() => String(1 + Math.floor(Math.random() * maxId)));
  // Freights the caller sees (market and own), in random order: every view answers 200.
  const visible = await sql<{ id: number }>`
    select id from freights
    where company_id = ${users[1]!.company} or (status in ('open', 'pending') and visibility >= 0 and deadline > now())
    order by random() limit 5000`.execute(db);
  const visibleIds = visible.rows.map((r) => String(r.id));

  // JIT warm-up before each measurement, not counted.
  const warm = (o: Parameters<typeof load>[0]) => load({ ...o, duration: Math.min(1, SECONDS) });

  let floorRuns = 0;
  async function measureFloor(): Promise<number> {
    await warm({ url: floor.url, paths: randomIds.map((id) => `/floor/${id}`), connections: CONNECTIONS, duration: SECONDS });
    const r = await profiled(label, `floor-${++floorRuns}`, () =>
      load({ url: floor.url, paths: randomIds.map((id) => `/floor/${id}`), connections: CONNECTIONS, duration: SECONDS }),
    );
    console.log(line('floor: Fastify + one PK select', r));
    return r.average;
  }

  const only = process.env.BENCH_ONLY?.split(',');
  // The floor is measured before the first endpoint and after every endpoint: on a shared
  // machine the load drifts, so each figure is compared with the two floor runs around it.
  const results: Array<{ name: string; r: LoadResult; floor: number }> = [];
  let lastFloor = await measureFloor();
  /**
   * Other transactions committing all the time (about one a millisecond), as on a busy exchange:
   * every commit moves the database snapshot on, so the counts cache (src/market/counts.ts)
   * misses and each request counts anew.
   */
  async function whileCommitting<T>(run: () => Promise<T>): Promise<T> {
    let stop = false;
    let commits = 0;
    const client = pgUrl ? new pg.Client({ connectionString: pgUrl }) : undefined;
    await client?.connect();
    const commit = async () => {
      if (client) await client.query('select txid_current()');
      else await sql`select txid_current()`.execute(db);
      commits++;
    };
    const loop = (async () => {
      while (!stop) {
        await commit();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const started = performance.now();
    try {
      return await run();
    } finally {
      stop = true;
      await loop;
      await client?.end();
      console.log(`  (${Math.round((commits * 1000) / (performance.now() - started))} commits/s meanwhile)`);
    }
  }

  async function measure(name: string, paths: string[], options: { committing?: boolean } = {}) {
    if (only && !only.some((o) => name.includes(o))) return;
    // One request first: the list length shows the seed reaches every filter.
    const probe = (await (await fetch(base + paths[0], { headers: { authorization: `TokenPass ${token}` } })).json()) as {
      data: { routes?: unknown[] };
    };
    const rows = probe.data?.routes ? ` [${probe.data.routes.length} rows]` : '';
    const loadOptions = { url: base, paths, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `TokenPass ${token}` } };
    const around = options.committing ? whileCommitting : <T>(run: () => Promise<T>) => run();
    await around(() => warm(loadOptions));
    const r = await around(() => profiled(label, name, () => load(loadOptions)));
    console.log(line(name + rows, r));
    const before = lastFloor;
    lastFloor = await measureFloor();
    results.push({ name: name + rows, r, floor: (before + lastFloor) / 2 });
  }

  await measure('GET /users/me (token, trivial)', ['/users/me.json']);
  await measure(
    'GET /freights/view/{visible}',
    visibleIds.map((id) => `/freights/view/${id}.json`),
  );
  // Random ids include freights the caller may not see (404s, counted as non-2xx).
  await measure(
    'GET /freights/view/{random}',
    randomIds.map((id) => `/freights/view/${id}.json`),
  );
  await measure('GET /freights/enlist/8 (market)', ['/freights/enlist/8.json']);
  await measure('GET /freights/enlist/8 page 50', ['/freights/enlist/8.json?page=50']);
  await measure('GET /freights/enlist/7 (had bid)', ['/freights/enlist/7.json']);
  await measure('GET /freights/enlist/10 (own open)', ['/freights/enlist/10.json']);
  await measure('GET /freights/enlist/19 (own archive)', ['/freights/enlist/19.json']);
  await measure('GET /freights/enlist/19 sort weight', ['/freights/enlist/19.json?sort=Routes.weight&direction=asc']);
  await measure('GET /freights/enlist/9 (archive)', ['/freights/enlist/9.json']);
  // Load search (issue 12), on the market list: varied values, as many carriers would search.
  const prefixes = ['DE-60', 'FR-75', 'IT-20', 'ES-28', 'NL-10', 'PL-00', 'AT-10', 'DE-80', 'BE-10', 'DK-21'];
  const centres = [
    '50.11,8.68',
    '48.14,11.58',
    '45.46,9.19',
    '52.37,4.90',
    '48.86,2.35',
    '40.42,-3.70',
    '52.23,21.01',
    '48.21,16.37',
    '50.08,14.44',
    '55.68,12.57',
  ];
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  await measure(
    'GET /freights/enlist/8 from=<country-postal prefix>',
    prefixes.map((p) => `/freights/enlist/8.json?from=${p}`),
  );
  await measure(
    'GET /freights/enlist/8 100 km around a city',
    centres.map((c) => `/freights/enlist/8.json?from_near=${c}&from_radius=100`),
  );
  await measure(
    'GET /freights/enlist/8 pickup window of 3 days',
    Array.from({ length: 10 }, (_, i) => `/freights/enlist/8.json?pickup_from=${day(2 * i + 1)}&pickup_to=${day(2 * i + 3)}`),
  );
  await measure('GET /freights/counts (all tabs)', ['/freights/counts.json']);
  await measure(
    'GET /freights/counts from=<prefix> (tabs of a search)',
    prefixes.map((p) => `/freights/counts.json?from=${p}`),
  );
  // The same, counted anew on every request (the snapshot moves on between any two requests).
  await measure('GET /freights/counts (all tabs), uncached', ['/freights/counts.json'], { committing: true });
  await measure(
    'GET /freights/counts from=<prefix>, uncached',
    prefixes.map((p) => `/freights/counts.json?from=${p}`),
    { committing: true },
  );

  console.log(
    `\nratios to the floor (the mean of the floor runs just before and after each; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  for (const { name, r, floor: f } of results) console.log(`${line(name, r, f)}  (floor ${Math.round(f)} req/s)`);
  await floor.close();
} finally {
  await app.http.close();
  await database.close();
  // BENCH_KEEP_DB=1 keeps the PostgreSQL database for EXPLAIN by hand (its name is printed).
  if (process.env.BENCH_KEEP_DB) console.log(`kept database ${pgUrl}`);
  else await drop?.();
}
