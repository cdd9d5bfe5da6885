// The live benchmark's clients (bench/live.ts forks this): opens the streams it is told to, on
// sockets of their own, and records when each event about a freight arrives at each stream.
// A process of its own, so that the server's memory and event loop are measured without them.
import http from 'node:http';

const streams = [];
/** freight id -> arrival times (ms since the epoch, sub-millisecond) at every stream that got it */
const arrivals = new Map();
const now = () => performance.timeOrigin + performance.now();

function open(base, token) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/events/stream`, { headers: { authorization: `TokenPass ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) {
            const id = JSON.parse(data.slice(6)).data?.route?.id;
            if (id !== undefined) {
              const list = arrivals.get(id) ?? [];
              list.push(at);
              arrivals.set(id, list);
            }
          }
          end = buffer.indexOf('\n\n');
        }
      });
      streams.push(req);
      resolve();
    });
    req.on('error', reject);
  });
}

process.on('message', async (m) => {
  if (m.open) {
    for (const token of m.open.tokens) await open(m.open.base, token);
    process.send({ opened: streams.length });
  } else if (m.arrivals) {
    const out = {};
    for (const id of m.arrivals) out[id] = arrivals.get(id) ?? [];
    process.send({ arrivals: out });
  } else if (m.close) {
    for (const req of streams) req.destroy();
    process.send({ closed: true });
    process.exit(0);
  }
});
process.send({ ready: true });
