// The booking clients of bench/book.ts figures 2 and 2b, in a worker thread (their fetches never
// share the event loop of the server the benchmark measures, as every load generator of the
// benches: docs/benchmarks.md). `lines`: each client's bookings in its order ([token, freightId]
// pairs), one request in flight per line; answers every shot ({ ms, status, ok }). Plain
// JavaScript: workers do not inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';

const { base, lines } = workerData;

async function post(path, token) {
  const started = performance.now();
  // A connection the burst of line 2b could not open (the listen backlog) is a failed answer, not the bench's end.
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json', 'user-agent': 'bench-book / 1.0' },
    body: '{}',
    redirect: 'manual',
  }).catch(() => null);
  if (!res) return { ms: performance.now() - started, status: 0, ok: false };
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  return { ms: performance.now() - started, status: res.status, ok: typeof body === 'object' && body.status === 'success' };
}

const shots = await Promise.all(
  lines.map(async (line) => {
    const mine = [];
    for (const [token, id] of line) mine.push(await post(`/quotes/book/${id}.json`, token));
    return mine;
  }),
);
parentPort.postMessage(shots.flat());
