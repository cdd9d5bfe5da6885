/**
 * `node --import tsx bench/hot-cpu.ts`: bench:hot's two pairs (a logged-in trivial GET against
 * bare Fastify, the freight view against a stored `jsonb` document) as CPU time per request of
 * this one process, with requests injected (Fastify's `inject`: every hook, parser and
 * serialiser of the request runs; no socket, no load generator). For comparing two versions of
 * the code on a loaded machine: other work can only add to a batch's CPU time, so the least of
 * many short batches is the figure (its median is printed beside it). The socket's share (the
 * same for the app and its floor) is not in it, so its ratios are lower than bench:hot's.
 * BENCH_DATABASE_URL as bench:hot's; BENCH_FREIGHTS (2,000), BENCH_BATCHES (15), BENCH_BATCH (1,000).
 */
import os from 'node:os';
import { sql } from 'kysely';
import { floorServer, seedFloorDocs } from './hot-floor.ts';
import { benchCompanies, buildBenchApp, openBenchDatabase, seedMarket } from './setup.ts';

const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 2_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 15);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const CONCURRENCY = 8;

const { database, label, pgUrl, pglite, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
let floor: ReturnType<typeof floorServer> | undefined;
try {
  const users = await benchCompanies(db, app.tokens, 4);
  await seedMarket(db, users, FREIGHTS);
  await seedFloorDocs(db);
  await app.http.ready();

  const caller = users[1]!;
  const headers = { authorization: `TokenPass ${caller.token}` };
  const visible = await sql<{ id: number }>`
    select id from freights
    where company_id = ${caller.company} or (status in ('open', 'pending') and visibility >= 0 and deadline > now())
    order by random() limit 2000`.execute(db);
  const ids = visible.rows.map((r) => r.id);

  const me = (await app.http.inject({ url: '/users/me.json', headers })).json() as object;
  floor = floorServer(me, pgUrl, pglite);
  const bare = floor.bare;
  await bare.ready();

  const targets = [
    { name: 'me-floor', server: bare, url: () => '/me', withToken: false },
    { name: 'me', server: app.http, url: () => '/users/me.json', withToken: true },
    { name: 'view-floor', server: bare, url: (i: number) => `/floor/${ids[i % ids.length]}`, withToken: false },
    { name: 'view', server: app.http, url: (i: number) => `/freights/view/${ids[i % ids.length]}.json`, withToken: true },
  ];
  const batch = async (t: (typeof targets)[number]) => {
    let next = 0;
    const worker = async () => {
      while (next < BATCH) {
        const i = next++;
        const res = await t.server.inject({ url: t.url(i), ...(t.withToken ? { headers } : {}) });
        if (res.statusCode !== 200) throw new Error(`${t.name}: ${res.statusCode}`);
      }
    };
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / BATCH;
  };
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`hot-path CPU per request on ${label}: ${FREIGHTS} freights, ${BATCHES} batches of ${BATCH}; load average ${load()}`);
  for (const t of targets) await batch(t); // warm-up
  const figures = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let b = 0; b < BATCHES; b++) for (const t of targets) figures.get(t.name)!.push(await batch(t));
  const least = (name: string) => Math.min(...figures.get(name)!);
  const median = (name: string) => {
    const sorted = [...figures.get(name)!].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  for (const t of targets)
    console.log(`${t.name.padEnd(12)} least ${least(t.name).toFixed(1)} µs/request, median ${median(t.name).toFixed(1)}`);
  console.log(
    `ratios (floor ÷ app, least; median): me ${(least('me-floor') / least('me')).toFixed(2)}; ${(median('me-floor') / median('me')).toFixed(2)}` +
      `  view ${(least('view-floor') / least('view')).toFixed(2)}; ${(median('view-floor') / median('view')).toFixed(2)}  (load average now ${load()})`,
  );
} finally {
  await floor?.close();
  await app.http.close();
  await database.close();
  await drop?.();
}
