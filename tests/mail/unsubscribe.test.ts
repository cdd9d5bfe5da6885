import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fanOut } from '../../src/mail/fanout.ts';
import { openFreight } from '../freights/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { flush, mailApp, outbox, PUBLIC_URL, rawHeader, startSmtp, to, type TestSmtp } from './support.ts';

/**
 * RFC 8058 one-click unsubscribe (docs/reference.md#mail): every mail's List-Unsubscribe address; a
 * GET shows a question and changes nothing; a POST without any login sets that kind to off; a
 * token is per user and kind and cannot be guessed or bent to another user.
 */
describe('mail: one-click unsubscribe', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;

  before(async () => {
    smtp = await startSmtp();
    app = await mailApp(smtp);
    shipper = await app.actor('Shipper', { language: 'deu' });
    carrier = await app.actor('Carrier');
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const bidMail = async () => {
    const freight = await openFreight(app, shipper);
    await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 100, currency_code: 'EUR' } });
    const [mail] = to(await flush(app, smtp), shipper.email);
    assert.ok(mail, 'a bid mail');
    return mail;
  };
  const modes = async (who: Actor) => (await app.get('/users/settings.json', { token: who.token })).body.data.email;

  test('the header’s address: a GET asks and changes nothing; the one-click POST switches the kind off', async () => {
    const mail = await bidMail();
    const header = rawHeader(mail, 'List-Unsubscribe') ?? '';
    const url = /^<(https:\/\/[^>]+)>$/.exec(header)?.[1];
    assert.ok(url, header);
    const path = url.slice(PUBLIC_URL.length);
    assert.ok(String(mail.mail.html).includes(url), 'the link is in the mail too');

    const page = await app.get(path);
    assert.equal(page.status, 200);
    assert.match(page.text, /Keine E-Mails „Gebote und Zuschläge“ mehr an/);
    assert.equal((await modes(shipper)).bids, 'instant', 'a GET (a link scanner) unsubscribes nobody');

    // As a mail client sends it: no cookie, no token, a form body.
    const post = await app.request('POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      form: 'List-Unsubscribe=One-Click',
    });
    assert.equal(post.status, 200, post.text);
    assert.match(post.text, /Erledigt/);
    assert.equal((await modes(shipper)).bids, 'off');
    assert.equal((await modes(shipper)).messages, 'instant', 'only that kind');

    // Nothing of that kind comes any more.
    const freight = await openFreight(app, shipper);
    await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 100, currency_code: 'EUR' } });
    assert.equal(to(await flush(app, smtp), shipper.email).length, 0);
  });

  test('a multipart POST (some clients send that) works too, and a queued mail of the kind is dropped, not sent', async () => {
    await app.post('/users/settings.json', { token: shipper.token, json: { email: { bids: 'instant' } } });
    const mail = await bidMail();
    const path = /^<https:\/\/[^/]+([^>]+)>$/.exec(rawHeader(mail, 'List-Unsubscribe') ?? '')![1]!;
    // A mail queued but not sent yet when the user unsubscribes.
    const freight = await openFreight(app, shipper);
    await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 100, currency_code: 'EUR' } });
    while ((await fanOut(app.services.db, app.services.clock.now())) > 0);
    assert.equal((await outbox(app)).at(-1)?.state, 'pending');
    const boundary = 'x-boundary-1';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const post = await app.http.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    assert.equal(post.statusCode, 200, post.body);
    assert.equal((await modes(shipper)).bids, 'off');
    assert.equal(to(await flush(app, smtp), shipper.email).length, 0);
    const rows = await outbox(app);
    assert.equal(rows.at(-1)?.state, 'dropped');
  });

  test('a bent or guessed token unsubscribes nobody', async () => {
    const before = await modes(carrier);
    await app.post('/users/settings.json', { token: shipper.token, json: { email: { bids: 'instant' } } });
    const mail = await bidMail();
    const path = /^<https:\/\/[^/]+([^>]+)>$/.exec(rawHeader(mail, 'List-Unsubscribe') ?? '')![1]!;
    const [, user, kind, mac] = /^\/mail\/unsubscribe\/(\d+)\.(\w+)\.(.+)$/.exec(path)!;
    for (const bent of [
      `/mail/unsubscribe/${carrier.user}.${kind}.${mac}`, // another user
      `/mail/unsubscribe/${user}.messages.${mac}`, // another kind
      `/mail/unsubscribe/${user}.${kind}.${mac!.slice(0, -1)}A`,
      `/mail/unsubscribe/${user}.${kind}`,
      '/mail/unsubscribe/%00',
    ]) {
      const res = await app.request('POST', bent, { form: 'List-Unsubscribe=One-Click' });
      assert.equal(res.status, 404, bent);
    }
    assert.deepEqual(await modes(carrier), before);
    assert.equal((await modes(shipper)).bids, 'instant');
    assert.equal((await modes(shipper)).messages, 'instant');
  });
});
