import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { flush, mailApp, outbox, PUBLIC_URL, rawHeader, setModes, startSmtp, to, type TestSmtp } from './support.ts';

/**
 * decisions.md §20: each kind in each mode, the defaults, through a real SMTP server: a mail in
 * the user's language, plain text and HTML, naming the freight and linking to its page, with
 * RFC 8058's one-click unsubscribe headers.
 */
describe('mail: kinds, modes and defaults', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier', { language: 'deu' });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('defaults: alerts daily, bids, messages and offers instant, documents off', async () => {
    const res = await app.get('/users/settings.json', { token: carrier.token });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.email, { alerts: 'daily', bids: 'instant', messages: 'instant', offers: 'instant', documents: 'off' });
    assert.equal(res.body.data.sending, true);
  });

  test('a bid is mailed at once to the freight owner, never to the bidder who made it', async () => {
    const freight = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      to: 'city:75001',
      to_country: 'FR',
      weight: 12500,
      etd: '2031-05-12 08:00',
      etd_end: '2031-05-12 12:00',
    });
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 1180, currency_code: 'EUR' } });
    assert.equal(bid.body.status, 'success', bid.text);
    const got = await flush(app, smtp);
    assert.equal(to(got, carrier.email).length, 0, 'the bidder is not told of its own bid');
    const [mail] = to(got, shipper.email);
    assert.ok(mail, 'the owner got the bid');
    assert.equal(got.length, 1);
    const m = mail.mail;
    assert.match(m.subject ?? '', /New bid on 60311 .*→ 75001 .*€1,180\.00/);
    assert.match(m.text ?? '', /12,500 kg/);
    assert.match(m.text ?? '', /loading 2031-05-12 08:00–12:00/);
    assert.ok((m.text ?? '').includes(`${PUBLIC_URL}/freights/view/${freight}`));
    assert.ok(typeof m.html === 'string' && m.html.includes(`href="${PUBLIC_URL}/freights/view/${freight}"`));
    assert.equal(m.from?.value[0]?.address, 'noreply@freight.example');
    const unsubscribe = rawHeader(mail, 'List-Unsubscribe') ?? '';
    assert.match(unsubscribe, new RegExp(`^<${PUBLIC_URL}/mail/unsubscribe/${shipper.user}\\.bids\\.[A-Za-z0-9_-]{43}>$`));
    assert.equal(rawHeader(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    assert.match(String(m.messageId), /^<mail-\d+@freight\.example>$/);
  });

  test('the mail is in the reader’s language (German for the carrier)', async () => {
    const freight = await openFreight(app, carrier, { weight: 2500 });
    await app.post('/quotes/add.json', { token: shipper.token, json: { route: freight, amount: 99.5, currency_code: 'EUR' } });
    const [mail] = to(await flush(app, smtp), carrier.email);
    assert.ok(mail);
    assert.match(mail.mail.subject ?? '', /^Neues Gebot zu .*99,50\s€/);
    assert.match(mail.mail.text ?? '', /2\.500 kg/);
    assert.match(mail.mail.text ?? '', /Fracht öffnen: /);
    assert.match(mail.mail.text ?? '', /\n-- \nSie erhalten diese E-Mail, weil „Gebote und Zuschläge“/);
  });

  test('off sends nothing; daily waits for the digest; instant goes at once', async () => {
    await setModes(app, shipper.token, { bids: 'off' });
    const f1 = await openFreight(app, shipper);
    await app.post('/quotes/add.json', { token: carrier.token, json: { route: f1, amount: 100, currency_code: 'EUR' } });
    assert.equal(to(await flush(app, smtp), shipper.email).length, 0);
    await setModes(app, shipper.token, { bids: 'daily' });
    const f2 = await openFreight(app, shipper);
    await app.post('/quotes/add.json', { token: carrier.token, json: { route: f2, amount: 100, currency_code: 'EUR' } });
    assert.equal(to(await flush(app, smtp), shipper.email).length, 0, 'a daily kind is not sent at once');
    const items = await app.services.db.selectFrom('mail_digest_items').selectAll().where('user_id', '=', shipper.user).execute();
    assert.equal(items.length, 1);
    await setModes(app, shipper.token, { bids: 'instant' });
    assert.ok((await outbox(app)).length > 0);
  });
});
