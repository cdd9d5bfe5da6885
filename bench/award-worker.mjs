// The awarding clients of bench/upload.ts, in a worker thread (its fetches never share the event
// loop of the server the benchmark measures): each client, a shipper and a carrier, awards
// freights in a closed loop (add, publish, bid, both confirmations) until told to stop. Plain
// JavaScript: workers do not inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';

const { base, clients } = workerData;
let running = true;
parentPort.on('message', (m) => {
  if (m === 'stop') running = false;
});

async function call(token, path, json) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json ?? {}),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : null, text };
}

let awards = 0;
async function client({ shipper, carrier }) {
  while (running) {
    const add = await call(shipper, '/freights/add.json', { from: 'airport:FRA', to: 'city:60311', weight: 100 });
    const id = add.body?.data?.id;
    if (!id) throw new Error(`add: ${add.text.slice(0, 200)}`);
    await call(shipper, `/freights/view/${id}.json`, { action: 'publish' });
    const bid = await call(carrier, '/quotes/add.json', { route: id, amount: '950.00', currency_code: 'EUR' });
    const bidId = bid.body?.data?.bid?.id;
    if (!bidId) throw new Error(`bid: ${bid.text.slice(0, 200)}`);
    await call(shipper, `/quotes/confirm/${bidId}.json`);
    const second = await call(carrier, `/quotes/confirm/${bidId}.json`);
    if (second.body?.status !== 'success') throw new Error(`confirm: ${second.text.slice(0, 200)}`);
    awards++;
  }
}

try {
  await Promise.all(clients.map(client));
  parentPort.postMessage({ awards });
} catch (err) {
  parentPort.postMessage({ error: String(err?.message ?? err) });
}
