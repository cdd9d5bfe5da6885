import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openFreight } from '../freights/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { flush, mailApp, outbox, PUBLIC_URL, rawHeader, setModes, startSmtp, to, type TestSmtp } from './support.ts';

/**
 * docs/reference.md#mail: each kind in each mode, the defaults, through a real SMTP server: a mail in
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

describe('mail: alerts, awards, messages, documents and offers', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let colleague: Actor;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    colleague = await app.colleague(carrier, 'Colleague');
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('a saved search’s alert goes to the searcher alone, at once when it asks so; its colleague is not told', async () => {
    await setModes(app, carrier.token, { alerts: 'instant' });
    await setModes(app, colleague.token, { alerts: 'instant' });
    const saved = await app.post('/searches/add.json', {
      token: carrier.token,
      json: { name: 'Frankfurt to Paris', filter: 8, params: { from: 'DE-60' }, alert: 1 },
    });
    assert.equal(saved.body.status, 'success', saved.text);
    const freight = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      to: 'city:75001',
      to_country: 'FR',
      weight: 800,
    });
    const got = await flush(app, smtp);
    assert.equal(to(got, colleague.email).length, 0, 'the colleague saved no search');
    const [mail] = to(got, carrier.email);
    assert.ok(mail, 'the searcher is told');
    assert.match(mail.mail.subject ?? '', /^New freight for “Frankfurt to Paris”: 60311 .*→ 75001/);
    assert.ok((mail.mail.text ?? '').includes(`${PUBLIC_URL}/freights/view/${freight}`));
    assert.ok((mail.mail.text ?? '').includes(`${PUBLIC_URL}/freights/enlist/`), 'a link to the search’s list');
    assert.match(rawHeader(mail, 'List-Unsubscribe') ?? '', /\.alerts\./);
  });

  test('an award tells the winner and the owner; the price is there for both', async () => {
    const freight = await openFreight(app, shipper, { weight: 1000 });
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 750, currency_code: 'EUR' } });
    const bidId = bid.body.data.bid.id as number;
    await flush(app, smtp);
    await app.post(`/quotes/confirm/${bidId}.json`, { token: shipper.token });
    const confirmed = await flush(app, smtp);
    // The shipper confirmed: the carrier's move (its two users both hear of it), not the shipper's.
    assert.equal(to(confirmed, shipper.email).length, 0);
    assert.match(to(confirmed, carrier.email)[0]?.mail.subject ?? '', /was chosen: please confirm/);
    assert.equal(to(confirmed, colleague.email).length, 1);
    await app.post(`/quotes/confirm/${bidId}.json`, { token: carrier.token });
    const awarded = await flush(app, smtp);
    const won = to(awarded, carrier.email).find((m) => /^You won/.test(m.mail.subject ?? ''));
    assert.ok(won, 'the winner is told');
    assert.match(won.mail.text ?? '', /€750\.00/);
    const sold = to(awarded, shipper.email).find((m) => /awarded to Carrier/.test(m.mail.subject ?? ''));
    assert.ok(sold, 'the owner is told');
    assert.match(sold.mail.text ?? '', /€750\.00/);
    // The transport order the exchange adds is a document: off by default, so no mail of it.
    assert.ok(!awarded.some((m) => /document/i.test(m.mail.subject ?? '')));

    // Documents: on at once for the shipper; the carrier attaches its proof of delivery.
    await setModes(app, shipper.token, { documents: 'instant' });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64');
    const doc = await app.post(`/freights/documents/${freight}.json`, {
      token: carrier.token,
      json: { kind: 'cmr', name: 'cmr-0815.pdf', content: pdf },
    });
    assert.equal(doc.body.status, 'success', doc.text);
    const docs = await flush(app, smtp);
    assert.match(to(docs, shipper.email)[0]?.mail.subject ?? '', /^New document on .*cmr-0815\.pdf/);
    assert.equal(to(docs, carrier.email).length, 0, 'documents are off by default for the carrier');
  });

  test('a message is mailed to the company it is for, its text quoted', async () => {
    const freight = await openFreight(app, shipper, { weight: 500 });
    const sent = await app.post(`/freights/messages/${freight}.json`, {
      token: carrier.token,
      json: { text: 'Can you load at 06:00?\nWe have a tail lift.' },
    });
    assert.equal(sent.body.status, 'success', sent.text);
    const got = await flush(app, smtp);
    const [mail] = to(got, shipper.email);
    assert.ok(mail);
    assert.match(mail.mail.subject ?? '', /^Message from Carrier .*:/);
    assert.match(mail.mail.text ?? '', /^> Can you load at 06:00\?\n> We have a tail lift\.$/m);
    assert.ok(String(mail.mail.html).includes('Can you load at 06:00?'));
    assert.equal(to(got, carrier.email).length, 0, 'the writer is not told of its own message');
  });

  test('an invitation from a vehicle offer is an offer, mailed at once', async () => {
    const offer = await app.post('/vehicles/add.json', {
      token: carrier.token,
      json: {
        from: 'airport:FRA',
        from_radius: 100,
        available_from: '2031-06-01 08:00:00',
        available_to: '2031-06-03 18:00:00',
        body: 'box',
        capacity: 12000,
      },
    });
    assert.equal(offer.body.status, 'success', offer.text);
    const freight = await openFreight(
      app,
      shipper,
      { from: 'airport:FRA', to: 'airport:MUC', weight: 900, etd: '2031-06-02 08:00' },
      { visibility: -2, whitelist: [shipper.company] },
    );
    await flush(app, smtp);
    const invited = await app.post(`/vehicles/invite/${offer.body.data.vehicle.id}.json`, { token: shipper.token, json: { freight } });
    assert.equal(invited.body.status, 'success', invited.text);
    const got = await flush(app, smtp);
    const mail = to(got, carrier.email).find((m) => /invites you to bid/.test(m.mail.subject ?? ''));
    assert.ok(mail, 'the invited carrier is told');
    assert.match(rawHeader(mail, 'List-Unsubscribe') ?? '', /\.offers\./);
  });
});
