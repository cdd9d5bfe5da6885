import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { flush, mailApp, outbox, startSmtp, to, type TestSmtp } from './support.ts';

/**
 * docs/reference.md#mail: an unreachable mail server fails no request, loses no mail and sends none
 * twice. The test's own SMTP server refuses, or vanishes in the middle of a batch; the mails
 * are retried with growing delays (the clock moved past them) and each arrives exactly once.
 */
describe('mail: when the SMTP server refuses or vanishes', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  const carriers: Actor[] = [];

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper');
    for (let i = 0; i < 3; i++) carriers.push(await app.actor(`Carrier${i}`));
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  /** `count` bids, each a mail to the shipper. */
  const bids = async (count: number) => {
    const freight = await openFreight(app, shipper);
    for (let i = 0; i < count; i++) {
      const res = await app.post('/quotes/add.json', {
        token: carriers[i % carriers.length]!.token,
        json: { route: freight, amount: 100 + i, currency_code: 'EUR' },
      });
      assert.equal(res.body.status, 'success', res.text);
    }
  };
  const later = (minutes: number) => app.setNow(new Date(app.services.clock.now().getTime() + minutes * 60_000));
  const ids = () => smtp.received.map((r) => String(r.mail.messageId));

  test('a server that refuses for now (451): nothing is lost, each mail arrives once when it takes them again', async () => {
    app.setNow(new Date('2031-04-01T08:00:00Z'));
    smtp.refuse = () => 451;
    await bids(3);
    assert.equal((await flush(app, smtp)).length, 0);
    const waiting = (await outbox(app)).filter((m) => m.state === 'pending');
    assert.equal(waiting.length, 3);
    assert.ok(waiting.every((m) => m.attempts === 1 && /451/.test(m.last_error ?? '') && m.next_attempt! > app.services.clock.now()));
    const health = await app.get('/healthz');
    assert.equal(health.body.status, 'ok', 'the server is healthy; its mail waits');
    assert.equal(health.body.mail.retrying, 3);
    assert.match(health.body.mail.last_error, /451/);

    // Not yet due: nothing is tried.
    assert.equal(await app.mail!.drain(), 0);
    smtp.refuse = undefined;
    later(2);
    const got = await flush(app, smtp);
    assert.equal(got.length, 3);
    assert.equal(new Set(ids()).size, ids().length, 'no mail twice');
    assert.ok((await outbox(app)).every((m) => m.state === 'sent'));
    later(60);
    assert.equal((await flush(app, smtp)).length, 0, 'and never again');
  });

  test('a server that vanishes in the middle of a batch: the rest waits, arrives once the server is back, nothing twice', async () => {
    const start = smtp.received.length;
    const port = smtp.port;
    await bids(9);
    // Take four, then vanish in the middle of the fifth (its DATA sent, no answer).
    smtp.vanishAfter = smtp.seen + 4;
    const first = await flush(app, smtp);
    // Four connections send at once: up to four are taken before it vanishes (which, is the race's).
    assert.ok(first.length >= 1 && first.length <= 4, `taken before it vanished: ${first.length}`);
    const pending = (await outbox(app)).filter((m) => m.state === 'pending');
    assert.equal(first.length + pending.length, 9, 'every mail either taken or waiting');

    // A request while the mail server is gone: answered as usual (mail is never in a request).
    const freight = await openFreight(app, shipper);
    const bid = await app.post('/quotes/add.json', {
      token: carriers[0]!.token,
      json: { route: freight, amount: 1, currency_code: 'EUR' },
    });
    assert.equal(bid.body.status, 'success');

    // Back, on the same address.
    const back = await startSmtp(port);
    later(5);
    const rest = await flush(app, back);
    await back.close();
    const all = [...smtp.received.slice(start), ...back.received];
    assert.equal(all.length, 10, 'nine and the one during the outage, no more');
    const messageIds = all.map((r) => String(r.mail.messageId));
    assert.equal(new Set(messageIds).size, 10, 'none twice');
    assert.ok(rest.length >= 1);
    assert.ok((await outbox(app)).every((m) => m.state === 'sent'));
    smtp = back; // closed; after() closes it again harmlessly
  });

  test('a recipient refused for good (550) fails at once, the others go; the operator sees it', async () => {
    const fresh = await startSmtp();
    const app2 = await mailApp(fresh);
    try {
      const owner = await app2.actor('Owner');
      const colleague = await app2.colleague(owner, 'Gone');
      const bidder = await app2.actor('Bidder');
      fresh.unknown.add(colleague.email);
      const freight = await openFreight(app2, owner);
      await app2.post('/quotes/add.json', { token: bidder.token, json: { route: freight, amount: 5, currency_code: 'EUR' } });
      const got = await flush(app2, fresh);
      assert.equal(to(got, owner.email).length, 1);
      const rows = await app2.services.db.selectFrom('mail_messages').selectAll().execute();
      const failed = rows.find((r) => r.user_id === colleague.user);
      assert.equal(failed?.state, 'failed');
      assert.match(failed?.last_error ?? '', /550/);
      const health = await app2.get('/healthz');
      assert.equal(health.body.mail.failed_24h, 1);
    } finally {
      await app2.close();
      await fresh.close();
    }
  });
});

describe('mail: without SMTP_URL nothing is queued and nothing else changes', () => {
  test('events go on as before; no mail rows; the settings say the exchange sends none', async () => {
    const app = await startTestApp();
    try {
      assert.equal(app.mail, null);
      const shipper = await app.actor('Shipper');
      const carrier = await app.actor('Carrier');
      const freight = await openFreight(app, shipper);
      const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 100, currency_code: 'EUR' } });
      assert.equal(bid.body.status, 'success');
      const events = await app.services.db.selectFrom('events').select('type').where('type', '=', 'bid.created').execute();
      assert.equal(events.length, 2, 'the events are written as ever');
      for (const table of ['mail_routes', 'mail_events', 'mail_messages', 'mail_digest_items'] as const)
        assert.equal((await app.services.db.selectFrom(table).selectAll().execute()).length, 0, table);
      const settings = await app.get('/users/settings.json', { token: shipper.token });
      assert.equal(settings.body.data.sending, false);
      const saved = await app.post('/users/settings.json', { token: shipper.token, json: { email: { bids: 'daily' } } });
      assert.equal(saved.body.data.email.bids, 'daily', 'a choice is kept for when mail is on');
      assert.equal((await app.get('/healthz')).body.mail.sending, false);
    } finally {
      await app.close();
    }
  });
});
