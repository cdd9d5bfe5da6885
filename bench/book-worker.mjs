// The booking clients of bench/book.ts figures 2 and 2b, in a worker thread (their requests never
// share the event loop of the server the benchmark measures, as every load generator of the
// benches: docs/benchmarks.md). `lines`: each client's bookings in its order ([token, freightId]
// pairs), one request in flight per line on a kept-alive connection of its own; answers every
// shot ({ ms, status, ok }). Node's own `http` client, not `fetch`: on a machine of two cores the
// generator shares them with the server and PostgreSQL, and fetch cost the race's 5,000 requests
// about three times the server's own CPU (docs/benchmarks.md, "The race's clients, lighter").
// Plain JavaScript: workers do not inherit tsx.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, lines } = workerData;
const { hostname, port } = new URL(base);
const BODY = '{}';

/** One booking; a connection the burst of line 2b could not open (the listen backlog) is a failed answer (status 0), not the bench's end. */
function post(agent, path, token) {
  const started = performance.now();
  const answer = (status, ok) => ({ ms: performance.now() - started, status, ok });
  return new Promise((resolve) => {
    const req = http.request(
      {
        hostname,
        port,
        method: 'POST',
        path,
        agent,
        headers: {
          authorization: `TokenPass ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(BODY),
          'user-agent': 'bench-book / 1.0',
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', () => resolve(answer(0, false)));
        res.on('end', () => {
          let ok = false;
          if (res.headers['content-type']?.includes('json')) {
            try {
              ok = JSON.parse(Buffer.concat(chunks).toString('utf8')).status === 'success';
            } catch {
              ok = false;
            }
          }
          resolve(answer(res.statusCode ?? 0, ok));
        });
      },
    );
    req.on('error', () => resolve(answer(0, false)));
    req.end(BODY);
  });
}

const shots = await Promise.all(
  lines.map(async (line) => {
    // Each line a client of its own: one kept-alive connection, its requests one after the other.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const mine = [];
    for (const [token, id] of line) mine.push(await post(agent, `/quotes/book/${id}.json`, token));
    agent.destroy();
    return mine;
  }),
);
parentPort.postMessage(shots.flat());
