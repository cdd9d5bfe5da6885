// bench:metrics (issue 48): what GET /metrics's request hook costs a request. First the hook
// alone, as the server runs it after every answer (a route template, a status, the cached
// histogram child, one observe), a million times: nanoseconds a request. Then, for scale, the
// CPU time of whole requests in the server's thread with METRICS_TOKEN and without (2,000
// requests each through Fastify's inject, a static asset and a freight view, alternated five
// times; the median of each side), which a loaded shared machine moves by tens of percent either
// way. bench:freights with METRICS_TOKEN set measures throughput the usual way.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/connection.ts';
import { createPglite } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { attachMetrics } from '../src/ops/metrics.ts';
import { benchCompanies, buildBenchApp, seedMarket } from './setup.ts';

// The hook alone: attachMetrics on a stand-in for Fastify that keeps the hook, called as Fastify would.
{
  let hook: ((req: unknown, reply: unknown, done: () => void) => void) | undefined;
  const stand = { addHook: (_: string, fn: typeof hook) => (hook = fn), get: () => {} };
  attachMetrics(stand as never, 'bench-metrics-token-0123456789', { queues: {}, now: () => new Date() });
  const routes = ['/freights/view/:id', '/freights/enlist/:filter', '/healthz', '/users/login'];
  const requests = routes.flatMap((url) =>
    [200, 302, 404].map((status) => ({
      req: { method: 'GET', routeOptions: { url }, originalUrl: `${url.replace(/:\w+/, '42')}.json?limit=20` },
      reply: { statusCode: status, elapsedTime: 3.2 },
    })),
  );
  const done = () => {};
  const N = 1_000_000;
  for (let i = 0; i < 100_000; i++) hook!(requests[i % 12]!.req, requests[i % 12]!.reply, done);
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) hook!(requests[i % 12]!.req, requests[i % 12]!.reply, done);
  console.log(
    `the request hook alone: ${(Number(process.hrtime.bigint() - t) / N).toFixed(0)} ns a request (${N.toLocaleString('en')} calls)`,
  );
}

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const ROUNDS = 5;

async function app(withMetrics: boolean) {
  if (withMetrics) process.env.METRICS_TOKEN = 'bench-metrics-token-0123456789';
  else delete process.env.METRICS_TOKEN;
  const client = await createPglite();
  const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
  await migrateToLatest(database.db);
  const built = await buildBenchApp(database);
  const users = await benchCompanies(database.db, built.tokens, 2);
  await seedMarket(database.db, users, 1000);
  await built.http.ready();
  return { http: built.http, token: users[0]!.token, close: () => built.http.close().then(() => database.close()) };
}

/** CPU microseconds per request (user + system) of `n` requests to `url`, one after another. */
async function cpuPerRequest(http: Awaited<ReturnType<typeof app>>['http'], url: string, token: string): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await http.inject({ method: 'GET', url, headers: { authorization: `TokenPass ${token}` } });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [off, on] = [await app(false), await app(true)];
const started = performance.now();
for (const url of ['/assets/app.css', '/freights/view/7.json']) {
  const results = { off: [] as number[], on: [] as number[] };
  for (const a of [off, on]) await cpuPerRequest(a.http, url, a.token); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    results.off.push(await cpuPerRequest(off.http, url, off.token));
    results.on.push(await cpuPerRequest(on.http, url, on.token));
  }
  const [a, b] = [median(results.off), median(results.on)];
  console.log(
    `GET ${url}: ${a.toFixed(1)} µs CPU a request without METRICS_TOKEN, ${b.toFixed(1)} µs with ` +
      `(${(b - a).toFixed(1)} µs, ${(((b - a) / a) * 100).toFixed(1)} %; rounds ${results.off.map((x) => x.toFixed(0)).join('/')} vs ${results.on.map((x) => x.toFixed(0)).join('/')})`,
  );
}
console.log(
  `${ROUNDS} rounds of ${REQUESTS} requests a side in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await off.close();
await on.close();
