// The load generator of the benchmarks, in a worker thread so that it never shares the event
// loop of the server it measures. Plain JavaScript: workers do not inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const { url, paths, requests, connections, duration, headers, method, body, overallRate } = workerData;
let next = 0;
// Inside a worker thread autocannon leaves the aggregation to the caller.
const options = {
  url,
  connections,
  duration,
  ...(method && { method }),
  ...(body && { body }),
  ...(overallRate && { overallRate }),
  headers: { 'user-agent': 'bench / 1.0', ...headers },
  requests: requests?.length
    ? // Whole requests cycled (several companies' tokens, reads and writes mixed): method, path, headers, body each.
      [
        {
          setupRequest: (req) => {
            const r = requests[next++ % requests.length];
            return {
              ...req,
              method: r.method ?? req.method,
              path: r.path,
              headers: { ...req.headers, ...r.headers },
              body: r.body ?? req.body,
            };
          },
        },
      ]
    : paths?.length
      ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }]
      : undefined,
};
const result = autocannon.aggregateResult([await autocannon(options)], options);
parentPort.postMessage({
  // Completed requests over the run (the per-second samples miss the partial last second).
  average: result.requests.total / result.duration,
  total: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  s4xx: result['4xx'] ?? 0,
  s5xx: result['5xx'] ?? 0,
  errors: result.errors,
  timeouts: result.timeouts,
});
