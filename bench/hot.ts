import os from 'node:os';
import { sql } from 'kysely';
import { floorServer, seedFloorDocs } from './hot-floor.ts';
import { profiled } from './profile.ts';
import { line, loadInProcess, type MeasuredLoad } from './load.ts';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase, seedMarket } from './setup.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const only = process.env.BENCH_ONLY?.split(',');

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
const closers: Array<() => Promise<unknown>> = [];

try {
  const users = await benchCompanies(db, app.tokens, 4);
  await seedMarket(db, users, FREIGHTS);
  await seedFloorDocs(db);

  const caller = users[1]!;
  const headers = { authorization: `TokenPass ${caller.token}` };
  const base = await listenLocal(app.http);
  closers.push(() => app.http.close());

  // Freights the caller sees (market and own), in random order: every view answers 200.
  const visible = await sql<{ id: number }>`
    select id from freights
    where company_id = ${caller.company} or (status in ('open', 'pending') and visibility >= 0 and deadline > now())
    order by random() limit 5000`.execute(db);
  const viewPaths = visible.rows.map((r) => `/freights/view/${r.id}.json`);
  const docPaths = visible.rows.map((r) => `/floor/${r.id}`);
  // Each freight viewed once first, so its stored presentation is written (src/freights/presented.ts):
  // the runs measure views of freights viewed before at the same version, as most views are.
  // BENCH_COLD=1 leaves this out (the first views of each freight then read it the long way).
  if (process.env.BENCH_COLD !== '1' && (!only || only.includes('view'))) {
    for (const path of viewPaths) await fetch(base + path, { headers });
    await app.presentations.idle();
    const presented = await sql<{ n: number }>`select count(*)::int as n from freight_presentations`.execute(db);
    console.log(`${presented.rows[0]!.n} of ${viewPaths.length} viewed freights presented`);
  }

  // The floors: bare Fastify (no hooks, no plugins) in the same process as the app.
  const me = (await (await fetch(`${base}/users/me.json`, { headers })).json()) as object;
  const { bare, close: closeFloor } = floorServer(me, pgUrl, pglite);
  const bareBase = await listenLocal(bare);
  closers.push(closeFloor);

  console.log(
    `hot-path benchmark on ${label}: ${FREIGHTS} freights; ${SECONDS} s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores; load average ${loadAverage()}`,
  );

  // What the process spends with nothing asked (the app's background work: sweepers, the token
  // refresh, queues): printed, so a CPU figure per request can be judged against it.
  const idleStart = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = process.cpuUsage(idleStart);
  // µs of CPU per second with nothing asked: subtracted from each run's (both the app's and its
  // floor's, which share the process), so a slow run does not count the background's time as requests'.
  const idlePerSecond = (idle.user + idle.system) / 3;
  console.log(`idle: ${Math.round(idlePerSecond / 1000)} ms of CPU per second`);
  const net = (r: MeasuredLoad) => Math.max(1, r.cpuPerRequest - idlePerSecond / Math.max(1, r.average));

  const run = async (name: string, url: string, paths: string[], withToken: boolean): Promise<MeasuredLoad> => {
    const options = { url, paths, connections: CONNECTIONS, duration: SECONDS, ...(withToken ? { headers } : {}) };
    await loadInProcess({ ...options, duration: Math.min(1, SECONDS) }); // JIT warm-up, not counted
    const r = await profiled(label, name, () => loadInProcess(options));
    console.log(`${line(name, r)}  ${Math.round(r.cpuPerRequest)} µs CPU/request (${Math.round(net(r))} without the idle share)`);
    return r;
  };

  const pairs = [
    {
      key: 'me',
      name: 'GET /users/me.json (token, trivial)',
      url: base,
      paths: ['/users/me.json'],
      floorUrl: bareBase,
      floorPaths: ['/me'],
    },
    { key: 'view', name: 'GET /freights/view/{visible}.json', url: base, paths: viewPaths, floorUrl: bareBase, floorPaths: docPaths },
  ].filter((p) => !only || only.includes(p.key));

  const ratios = new Map<string, Array<{ r: MeasuredLoad; floor: number; floorCpu: number }>>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const p of pairs) {
      const before = await run(`${p.key}-floor-${round}a`, p.floorUrl, p.floorPaths, false);
      const r = await run(`${p.key}-${round}`, p.url, p.paths, true);
      const after = await run(`${p.key}-floor-${round}b`, p.floorUrl, p.floorPaths, false);
      const list = ratios.get(p.name) ?? [];
      list.push({ r, floor: (before.average + after.average) / 2, floorCpu: (net(before) + net(after)) / 2 });
      ratios.set(p.name, list);
    }
  }
  console.log(`\nratios to the floor (the mean of the floor runs just before and after each; load average now ${loadAverage()})`);
  // Two ratios: requests per second (what the targets name; moves with the machine's other
  // work) and the server process's CPU time per request less the idle share, the floor's ÷ the
  // endpoint's (steadier).
  for (const [name, list] of ratios)
    for (const { r, floor, floorCpu } of list)
      console.log(
        `${line(name, r, floor)}  (floor ${Math.round(floor)} req/s); CPU ${Math.round(net(r))} µs/request against ${Math.round(floorCpu)}: ${(floorCpu / net(r)).toFixed(2)} x floor`,
      );
} finally {
  for (const close of closers.reverse()) await close();
  await database.close();
  await drop?.();
}
