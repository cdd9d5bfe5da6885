// The load generator of bench/load.ts in a process of its own (loadInProcess): the server's
// process then spends its CPU on serving alone, so its CPU time per request can be read
// (process.cpuUsage) without the generator's. Options as JSON on stdin; prints the result as JSON.
import autocannon from 'autocannon';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { url, paths, connections, duration, headers } = JSON.parse(input);
let next = 0;
const options = {
  url,
  connections,
  duration,
  headers: { 'user-agent': 'bench / 1.0', ...headers },
  requests: paths?.length ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] : undefined,
};
const result = await autocannon(options);
process.stdout.write(
  JSON.stringify({
    average: result.requests.total / result.duration,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    s4xx: result['4xx'] ?? 0,
    s5xx: result['5xx'] ?? 0,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
