import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DispatcherDeps, WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import type { WebhookSettings } from '../../src/config/webhooks.ts';
import type { Actor, TestApp } from '../support/harness.ts';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

/**
 * A local webhook receiver (node http on port 0). `answer` decides the status of each request
 * (default 200); `hold` keeps a request unanswered (a slow receiver).
 */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (req: Received, nth: number) => number | 'hold';
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => 200,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* recorded as text */
      }
      const entry: Received = { path: req.url ?? '/', headers: req.headers, body, json };
      received.push(entry);
      const status = receiver.answer(entry, received.length);
      if (status === 'hold') {
        held.push(res);
        return;
      }
      res.writeHead(status, status >= 300 && status < 400 ? { location: `${receiver.url}/redirected` } : {}).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/**
 * The Standard Webhooks check, written here independently of the server's signing library:
 * HMAC-SHA256 keyed by the base64-decoded part of `whsec_…`, over `{id}.{timestamp}.{body}`,
 * compared in constant time with each `v1,` signature of the space-separated header.
 */
export function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || id.includes('.')) return false;
  assert.ok(secret.startsWith('whsec_'));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export const FAST: Omit<WebhookSettings, 'addresses'> = { retryDelays: [5, 60, 600], pollMs: 20, timeoutMs: 2000 };

/** A dispatcher on the test app's database and clock (address rule from its config), driven by the test (`deliverDue`). */
export function dispatcher(app: TestApp, settings: Partial<WebhookSettings> = {}, log?: DispatcherDeps['log']): WebhookDispatcher {
  return new WebhookDispatcher({
    db: app.services.db,
    clock: app.services.clock,
    settings: { ...FAST, addresses: app.config.webhooks.addresses, ...settings },
    log,
  });
}

/** Delivers everything due now (claims until one comes back empty: a company's attempts in flight are capped per claim). */
export async function deliverAll(app: TestApp, d = dispatcher(app)): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await d.deliverDue(50);
    total += n;
    if (n === 0) return total;
  }
}

/** Registers a webhook through the API and answers it (with its secret). */
export async function addWebhook(app: TestApp, who: Actor, url: string, events: unknown = ['*']) {
  const res = await app.post('/webhooks/add.json', { token: who.token, json: { url, events } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.webhook as { id: number; url: string; events: string[]; secret: string };
}
