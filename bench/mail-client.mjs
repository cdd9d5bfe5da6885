// The publishing client of bench/mail.ts, in a process of its own, so that its timing of a
// request is not held up by the server's own work in the same event loop (the alert after the
// commit). Reads JSON lines {url, token, body} on stdin; prints `ms <n>` for each answer.
import readline from 'node:readline';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const { url, token, body } = JSON.parse(line);
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body,
  });
  await res.text();
  console.log(`ms ${(performance.now() - t0).toFixed(3)}`);
}
