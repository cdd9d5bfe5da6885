// The upload client of bench/deals.ts, in a worker thread so that building and sending its
// bodies (a 10,000,000-byte file, as base64 JSON of about 13 MB or as a multipart form) never
// shares the event loop of the server whose /healthz the benchmark measures. Plain JavaScript:
// workers do not inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';

const { url, mode, count, size, headers, csrf } = workerData;
const file = Buffer.alloc(size, 0x20);
Buffer.from('%PDF-1.4\n').copy(file);

let body;
let contentType;
if (mode === 'json') {
  body = JSON.stringify({ kind: 'other', name: 'scan-10mb.pdf', content: file.toString('base64') });
  contentType = 'application/json';
} else {
  const boundary = '----bench-deals-upload';
  const field = (name, value) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  body = Buffer.concat([
    field('_csrf', csrf),
    field('kind', 'other'),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan-10mb.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  contentType = `multipart/form-data; boundary=${boundary}`;
}

const times = [];
for (let i = 0; i < count; i++) {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body, redirect: 'manual' });
  const text = await res.text();
  times.push(performance.now() - started);
  // The JSON answers the document; the page's form a redirect whose flash says it was added.
  const ok =
    mode === 'json'
      ? (() => {
          const answer = JSON.parse(text);
          return answer.status === 'success' && answer.data.document.size === size;
        })()
      : res.status === 302 &&
        res.headers.getSetCookie().some((c) => c.startsWith('fx_flash=') && decodeURIComponent(c).includes('"ok":true'));
  if (!ok) {
    parentPort.postMessage({ error: `${mode} upload ${i}: HTTP ${res.status} ${text.slice(0, 300)}` });
    process.exit(0);
  }
}
parentPort.postMessage({ times, bodyBytes: Buffer.byteLength(body) });
