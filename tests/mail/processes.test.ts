import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { emitEvent } from '../../src/freights/events.ts';
import { Clock } from '../../src/kernel/time.ts';
import { serverDatabase, startServer, type ServerProcess } from '../reliability/server-process.ts';
import { TEST_DB } from '../support/databases.ts';
import { startSmtp, type TestSmtp } from './support.ts';

/**
 * Real server processes (`freight-exchange serve`) with SMTP_URL: the worker of a listening
 * process sends an instant mail by itself, and two processes on one PostgreSQL share the outbox,
 * each mail sent exactly once.
 */

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

async function call(base: string, url: string, token: string, json: unknown) {
  const res = await fetch(base + url, {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

describe(`mail with real server processes (${TEST_DB})`, () => {
  const servers: ServerProcess[] = [];
  const smtps: TestSmtp[] = [];
  const drops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const s of servers) await s.kill('SIGKILL');
    for (const s of smtps) await s.close();
    for (const d of drops) await d();
  });
  const mailEnv = (smtp: TestSmtp) => ({ SMTP_URL: smtp.url, MAIL_FROM: 'noreply@freight.example', PUBLIC_URL: 'https://freight.example' });

  test('a listening server sends a bid’s mail by itself, and stops cleanly', async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const database = await serverDatabase(['Shipper', 'Carrier']);
    drops.push(database.drop);
    const [shipper, carrier] = database.actors as [(typeof database.actors)[0], (typeof database.actors)[0]];
    const server = await startServer({ ...database.env, ...mailEnv(smtp) });
    servers.push(server);
    const add = await call(server.base, '/freights/add.json', shipper.token, { from: 'airport:FRA', to: 'airport:AMS', weight: 5 });
    const id = add.body.data.id as number;
    assert.equal((await call(server.base, `/freights/view/${id}.json`, shipper.token, { action: 'publish' })).status, 302);
    const bid = await call(server.base, '/quotes/add.json', carrier.token, { route: id, amount: 321, currency_code: 'EUR' });
    assert.equal(bid.body.status, 'success');
    await waitFor(() => smtp.received.length >= 1, 30_000, 'the bid’s mail');
    assert.deepEqual(smtp.received[0]!.to, [shipper.email]);
    assert.match(smtp.received[0]!.mail.subject ?? '', /New bid on FRA .*→ AMS/);
    assert.equal(await server.kill('SIGTERM'), 0, server.output());
  });

  test('two server processes on one PostgreSQL send 300 mails exactly once each', {
    skip: TEST_DB !== 'postgres' ? 'needs PostgreSQL (TEST_DB=postgres): the embedded database serves one process by design' : false,
  }, async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const database = await serverDatabase(['Twin Shipper']);
    drops.push(database.drop);
    const [shipper] = database.actors as [(typeof database.actors)[0]];
    const a = await startServer({ ...database.env, ...mailEnv(smtp) });
    const b = await startServer({ ...database.env, ...mailEnv(smtp) });
    servers.push(a, b);
    const add = await call(a.base, '/freights/add.json', shipper.token, { from: 'airport:FRA', to: 'airport:AMS', weight: 5 });
    const route = add.body.data.id as number;
    // 300 events to the owner (each a `bids` mail, instant by default), written while both workers claim.
    const clock = new Clock('UTC');
    await database.inspect(async (db) => {
      for (let batch = 0; batch < 6; batch++) {
        await db.transaction().execute(async (trx) => {
          for (let i = 0; i < 50; i++) await emitEvent(trx, clock, { type: 'freight.expired', freightId: route });
        });
      }
    });
    const ids = () => smtp.received.map((r) => String(r.mail.messageId));
    await waitFor(() => new Set(ids()).size >= 300, 90_000, '300 distinct mails');
    await new Promise((r) => setTimeout(r, 1500)); // a duplicate would have arrived by now
    const counts = new Map<string, number>();
    for (const id of ids()) counts.set(id, (counts.get(id) ?? 0) + 1);
    assert.equal(counts.size, 300);
    assert.deepEqual(
      [...counts.values()].filter((n) => n !== 1),
      [],
      'every mail exactly once',
    );
    const rows = await database.inspect((db) => db.selectFrom('mail_messages').select(['state', 'attempts']).execute());
    assert.equal(rows.length, 300);
    assert.ok(rows.every((r) => r.state === 'sent' && r.attempts === 1));
    for (const s of [a, b]) assert.equal(await s.kill('SIGTERM'), 0, s.output());
  });
});
