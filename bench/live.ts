// npm run bench:live — the live board (docs/reference.md#live-board) with 1,000 streams open on one process:
// - delivery: the time from publishing a freight (before its request is sent) to the event's
//   arrival at every entitled stream, over BENCH_EVENTS freights (every stream is entitled: the
//   market's streams to the market event, the owner's to its own);
// - memory per idle stream: the server process's heap and resident size, after a GC, with and
//   without the streams (the clients are another process: bench/live-clients.mjs);
// - the freight view's throughput with the streams open and without (autocannon in a worker
//   thread, bench/load.ts), on BENCH_FREIGHTS market freights.
// PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) names a server (a fresh database, dropped
// afterwards), else PGlite in memory. Run with --expose-gc (the npm script does).
import { fork } from 'node:child_process';
import os from 'node:os';
import { sql } from 'kysely';
import { benchCompanies, buildBenchApp, listenLocal, openBenchDatabase } from './setup.ts';
import { line, load } from './load.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const PER_USER = 10;
const COMPANIES = Math.ceil(STREAMS / PER_USER);
const FREIGHTS = Number(process.env.BENCH_FREIGHTS ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 8;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:live)');
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external };
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const { database, label, drop } = await openBenchDatabase();
const app = await buildBenchApp(database);
const db = database.db;
let clients: ReturnType<typeof fork> | undefined;

try {
  const users = await benchCompanies(db, app.tokens, COMPANIES);
  const owner = users[0]!;
  const viewer = users[1]!;
  await sql`
    insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, etd, deadline,
                          visibility, whitelist, company_id, user_id, refs, created, modified)
    select 'rfs', 'AHR', 'open', 'FRA', 'DE', lpad((i % 99999)::text, 5, '0'), 'DE', (i % 5000) + 0.5,
           now() + (i % 30) * interval '1 day', now() + interval '30 days', 0, '{}'::int[],
           ${owner.company}::int, ${owner.user}::int, ('{"customer":"B-' || i || '"}')::json,
           now() - i * interval '1 minute', now() - i * interval '1 minute'
    from generate_series(1, ${FREIGHTS}) as i`.execute(db);
  await sql`insert into freight_pieces (freight_id, position, pieces, depth, width, height, weight)
    select id, 0, 1 + id % 5, 120, 80, 100, 50 from freights`.execute(db);
  await sql`analyze`.execute(db);

  const base = await listenLocal(app.http);
  console.log(
    `live benchmark on ${label}: ${STREAMS} streams of ${COMPANIES} companies (${PER_USER} each), ${FREIGHTS} open freights, ${os.cpus().length} cores, loopback; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // The freight view without streams.
  const viewPaths = Array.from({ length: 5000 }, () => `/freights/view/${1 + Math.floor(Math.random() * FREIGHTS)}.json`);
  const view = {
    url: base,
    paths: viewPaths,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `TokenPass ${viewer.token}` },
  };
  await load({ ...view, duration: 1 });
  const without = await load(view);
  console.log(line('GET /freights/view/{id}, no stream open', without));

  // Memory: before and after the streams open (server process only).
  const bare = await settle();
  clients = fork(new URL('./live-clients.mjs', import.meta.url), [], { execArgv: [] });
  const ask = <T>(message: object, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (key in m) {
          clients!.off('message', on);
          resolve(m[key] as T);
        }
      };
      clients!.on('message', on);
      clients!.send(message);
    });
  await new Promise((r) => clients!.once('message', r)); // ready
  const tokens = Array.from({ length: STREAMS }, (_, i) => users[i % COMPANIES]!.token);
  const opened = await ask<number>({ open: { base, tokens } }, 'opened');
  for (let i = 0; i < 200 && app.live.size < STREAMS; i++) await new Promise((r) => setTimeout(r, 25));
  if (opened !== STREAMS || app.live.size !== STREAMS) throw new Error(`opened ${opened}, the hub holds ${app.live.size}`);
  const full = await settle();
  const perStream = (a: number, b: number) => `${((b - a) / STREAMS / 1024).toFixed(1)} KB`;
  console.log(
    `memory per idle stream: heap ${perStream(bare.heap, full.heap)}, heap + external ${perStream(bare.heap + bare.external, full.heap + full.external)}, resident ${perStream(bare.rss, full.rss)} (server process, after GC; ${STREAMS} streams)`,
  );

  // The freight view with the streams open.
  await load({ ...view, duration: 1 });
  const withStreams = await load(view);
  console.log(line(`GET /freights/view/{id}, ${STREAMS} streams open`, withStreams));
  console.log(`throughput with the streams / without: ${(withStreams.average / without.average).toFixed(2)}`);

  // Delivery: publish one freight at a time; every stream is entitled to its event.
  const publishMs: number[] = [];
  const sent = new Map<number, number>();
  for (let i = 0; i < EVENTS; i++) {
    const add = await fetch(`${base}/freights/add.json`, {
      method: 'POST',
      headers: { authorization: `TokenPass ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'airport:FRA', to: 'airport:AMS', weight: 100 + i }),
    });
    const id = ((await add.json()) as { data: { id: number } }).data.id;
    const t0 = performance.timeOrigin + performance.now();
    const res = await fetch(`${base}/freights/view/${id}.json`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `TokenPass ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'publish' }),
    });
    await res.body?.cancel();
    publishMs.push(performance.timeOrigin + performance.now() - t0);
    sent.set(id, t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const arrivals = await ask<Record<string, number[]>>({ arrivals: [...sent.keys()] }, 'arrivals');
  const toAll: number[] = [];
  const each: number[] = [];
  let missing = 0;
  for (const [id, t0] of sent) {
    const at = arrivals[id] ?? [];
    missing += STREAMS - at.length;
    for (const a of at) each.push(a - t0);
    if (at.length) toAll.push(Math.max(...at) - t0);
  }
  console.log(
    `delivery over ${EVENTS} published freights, ${STREAMS} entitled streams each: to all streams p50 ${pct(toAll, 50).toFixed(0)} ms, p99 ${pct(toAll, 99).toFixed(0)} ms, max ${Math.max(...toAll).toFixed(0)} ms; per stream p50 ${pct(each, 50).toFixed(0)} ms, p99 ${pct(each, 99).toFixed(0)} ms; missing ${missing}`,
  );
  console.log(`publish request (add is separate): p50 ${pct(publishMs, 50).toFixed(0)} ms, p99 ${pct(publishMs, 99).toFixed(0)} ms`);
  await ask({ close: true }, 'closed');
} finally {
  clients?.kill();
  await app.http.close();
  await database.close();
  await drop?.();
}
