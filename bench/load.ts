import { execFile } from 'node:child_process';
import { Worker } from 'node:worker_threads';

/** What one load run measured. */
export interface LoadResult {
  /** requests per second (autocannon's per-second average) */
  average: number;
  total: number;
  /** mean latency in ms (the percentiles are whole milliseconds) */
  mean: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** answers by class (redirects are non-2xx too: publish and confirm answer 302) */
  s4xx: number;
  s5xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  url: string;
  /** request paths, cycled through (pre-generated so the worker needs no code from here) */
  paths?: string[];
  /** whole requests, cycled through (instead of `paths`): each its method, path, headers and body */
  requests?: Array<{ method?: string; path: string; headers?: Record<string, string>; body?: string }>;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  /** requests per second over all connections (an open load below capacity); unbounded when absent */
  overallRate?: number;
  /**
   * With `overallRate` and `requests`: one request every 1000 / overallRate ms (loadtest), the
   * arrivals of many independent senders, instead of autocannon's burst at each second's start
   * (bench/load-options.mjs pacedOptions); `connections` is then as many as the arrivals need.
   */
  paced?: boolean;
}

/** Runs autocannon (or, `paced`, loadtest) in a worker thread, so the load generator does not steal the server's event loop. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: options, execArgv: [] });
    worker.once('message', (m: LoadResult) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`load worker exited with ${code}`)));
  });
}

/** One line of a benchmark table: throughput, latency and the ratio to the floor measured in the same run. */
export function line(name: string, r: LoadResult, floor?: number): string {
  const ratio = floor ? `  ${(r.average / floor).toFixed(2)} x floor` : '';
  const bad = r.non2xx || r.errors || r.timeouts ? `  (non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts})` : '';
  return `${name.padEnd(48)} ${String(Math.round(r.average)).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms${ratio}${bad}`;
}

/** A load run whose generator is a process of its own, with the CPU time this process spent meanwhile. */
export interface MeasuredLoad extends LoadResult {
  /** CPU time (user + system, every thread) of this process per completed request, in µs */
  cpuPerRequest: number;
}

/**
 * Runs autocannon in a child process (bench/load-process.mjs) and reads this process's CPU time
 * around it: on a shared machine a server's CPU time per request moves far less than its
 * requests per second, which follow whatever else the cores are given to. `paths` only.
 */
export function loadInProcess(options: Pick<LoadOptions, 'url' | 'paths' | 'connections' | 'duration' | 'headers'>): Promise<MeasuredLoad> {
  return new Promise((resolve, reject) => {
    const before = process.cpuUsage();
    const script = new URL('./load-process.mjs', import.meta.url).pathname;
    const child = execFile(process.execPath, [script], { maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) return reject(err);
      const used = process.cpuUsage(before);
      const r = JSON.parse(stdout) as LoadResult;
      resolve({ ...r, cpuPerRequest: (used.user + used.system) / Math.max(1, r.total) });
    });
    child.stdin?.end(JSON.stringify(options));
  });
}
