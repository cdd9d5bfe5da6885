// npm run bench:upload — issue 39, item 9: a 10,000,000-byte document uploaded (the JSON upload,
// base64) alone, then beside 3 clients awarding freights in closed loops (add, publish, bid, both
// confirmations), on the embedded database by default (PGlite: one connection, one statement at a
// time, where the upload's statements queue behind the awards'); on PostgreSQL with
// BENCH_DATABASE_URL. Prints each upload's time end to end (median of BENCH_UPLOADS, default 3)
// alone and beside the awards, their ratio (the rule: within 3×), the awards a second and how
// late the server's event loop ran meanwhile (how long one stretch of work held it).
// The upload and the awarding clients run in worker threads, so neither shares the server's
// event loop.
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase } from './setup.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 3);
const SIZE = Number(process.env.BENCH_SIZE ?? 10_000_000);
const bench = await openBenchDatabase();
const app = await buildBenchApp(bench.database);
const base = await listenLocal(app.http);
const users = await benchCompanies(bench.database.db, app.tokens, 7);
const owner = users[0]!;

const call = async (token: string, path: string, json: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
    redirect: 'manual',
  });
  return res.status === 302 ? null : ((await res.json()) as any);
};
const freight = (await call(owner.token, '/freights/add.json', { from: 'airport:FRA', to: 'city:60311', weight: 100 })).data.id as number;
await call(owner.token, `/freights/view/${freight}.json`, { action: 'publish' });

const uploads = () =>
  new Promise<number[]>((resolve, reject) => {
    const worker = new Worker(new URL('./upload-worker.mjs', import.meta.url), {
      workerData: {
        url: `${base}/freights/documents/${freight}.json`,
        mode: 'json',
        count: UPLOADS,
        size: SIZE,
        headers: { authorization: `TokenPass ${owner.token}` },
      },
      execArgv: [],
    });
    worker.once('message', (m: { times?: number[]; error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m.times!)));
    worker.once('error', reject);
  });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`upload benchmark (${bench.label}): ${UPLOADS} uploads of ${SIZE} bytes, ${os.cpus().length} cores`);
const alone = await uploads();
const clients = [1, 2, 3].map((k) => ({ shipper: users[k]!.token, carrier: users[k + 3]!.token }));
const awarding = new Worker(new URL('./award-worker.mjs', import.meta.url), { workerData: { base, clients }, execArgv: [] });
const awarded = new Promise<{ awards?: number; error?: string }>((resolve, reject) => {
  awarding.once('message', resolve);
  awarding.once('error', reject);
});
// The awards under way first (a second), then the uploads beside them.
await new Promise((r) => setTimeout(r, 1000));
const started = performance.now();
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const beside = await uploads();
loop.disable();
const seconds = (performance.now() - started) / 1000;
awarding.postMessage('stop');
const result = await awarded;
if (result.error) throw new Error(result.error);
const fmt = (xs: number[]) => xs.map((ms) => (ms / 1000).toFixed(2)).join(', ');
console.log(`alone:                   ${fmt(alone)} s (median ${(median(alone) / 1000).toFixed(2)} s)`);
console.log(`beside 3 awarding:       ${fmt(beside)} s (median ${(median(beside) / 1000).toFixed(2)} s)`);
console.log(`ratio (median):          ${(median(beside) / median(alone)).toFixed(2)}× (the rule: within 3×)`);
console.log(
  `awards meanwhile:        ${result.awards} (${(result.awards! / (seconds + 1)).toFixed(1)} a second) | load ${os.loadavg()[0]!.toFixed(1)}`,
);
const ms = (ns: number) => (ns / 1e6).toFixed(0);
console.log(
  `server's event loop delay beside: p50 ${ms(loop.percentile(50))} ms, p99 ${ms(loop.percentile(99))} ms, worst ${ms(loop.max)} ms`,
);
await app.http.close();
await bench.database.close();
await bench.drop?.();
process.exit(0);
