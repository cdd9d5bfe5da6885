import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession, cookiesOf } from '../support/session.ts';
import { addWebhook } from './support.ts';

/**
 * One webhook per receiver and company (issue 24, item 9): a second registration of an address
 * the company already sends to is refused as docs/reference.md#the-api refuses (`status: error` with a message
 * naming the first webhook), in the API and on the settings page; another company, another path,
 * or the same address after its webhook was deleted are accepted.
 */

describe(`webhooks: one per address and company (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor;
  let other: Actor;

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    other = await app.actor('Other');
  });
  after(async () => {
    await app?.close();
  });

  const register = (who: Actor, url: string, events: unknown = ['*']) =>
    app.post('/webhooks/add.json', { token: who.token, json: { url, events } });
  const urls = async (who: Actor) =>
    ((await app.get('/webhooks/index.json', { token: who.token })).body.data.webhooks as Array<{ url: string }>).map((w) => w.url);

  test('the same address twice is status error naming the first webhook; nothing is stored', async () => {
    const first = await addWebhook(app, shipper, 'https://hooks.example.com/freight', ['freight.published']);
    // The same receiver however it is written: case of scheme and host, the default port, a fragment (never sent).
    for (const url of [
      'https://hooks.example.com/freight',
      'HTTPS://Hooks.Example.COM:443/freight',
      'https://hooks.example.com/freight#second',
      ' https://hooks.example.com/freight ',
    ]) {
      const res = await register(shipper, url, ['bid.created']);
      assert.equal(res.status, 200, url);
      assert.equal(res.body.status, 'error', `${url}: ${res.text}`);
      assert.match(res.body.message, /^url: .*already \(webhook \d+\)/, url);
      assert.ok(res.body.message.includes(`webhook ${first.id}`), res.body.message);
      assert.deepEqual(res.body.data, []);
    }
    assert.deepEqual(await urls(shipper), ['https://hooks.example.com/freight']);
  });

  test('another path, another company, and the address again after its webhook was deleted are accepted', async () => {
    const path = await addWebhook(app, shipper, 'https://hooks.example.com/bids');
    const query = await addWebhook(app, shipper, 'https://hooks.example.com/bids?tenant=2');
    await addWebhook(app, other, 'https://hooks.example.com/freight');
    await addWebhook(app, other, 'https://hooks.example.com/bids');
    assert.equal((await app.post(`/webhooks/delete/${path.id}.json`, { token: shipper.token })).body.status, 'success');
    const again = await addWebhook(app, shipper, 'https://hooks.example.com/bids', ['bid.created']);
    assert.deepEqual(again.events, ['bid.created']);
    for (const hook of [again, query]) await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
  });

  test('adds of one address at the same time store it once', async () => {
    const racer = await app.actor('Racer');
    const answers = await Promise.all(Array.from({ length: 6 }, () => register(racer, 'https://race.example.com/hook')));
    assert.deepEqual(
      answers.map((a) => a.body.status).sort(),
      ['error', 'error', 'error', 'error', 'error', 'success'],
      answers.map((a) => a.text).join('\n'),
    );
    assert.deepEqual(await urls(racer), ['https://race.example.com/hook']);
  });

  test('the limit of 20 still holds, and a duplicate is named as such before it', async () => {
    const busy = await app.actor('Busy');
    for (let i = 0; i < 20; i++) await addWebhook(app, busy, `https://busy.example.com/${i}`);
    const more = await register(busy, 'https://busy.example.com/20');
    assert.equal(more.body.status, 'error');
    assert.match(more.body.message, /at most 20 webhooks/);
    const twin = await register(busy, 'https://busy.example.com/3');
    assert.match(twin.body.message, /already/);
  });

  test('in German, and on the settings page: back to the list with the reason, the list unchanged', async () => {
    const german = await app.actor('Spedition', { language: 'deu' });
    await addWebhook(app, german, 'https://empfang.example.de/hook');
    const res = await register(german, 'https://empfang.example.de/hook');
    assert.equal(res.body.status, 'error');
    assert.match(res.body.message, /schon einen Webhook/);

    const session = await browserSession(app, german);
    const form = await app.post('/webhooks/add', {
      headers: { cookie: session.cookie },
      form: `_csrf=${encodeURIComponent(session.csrf)}&url=${encodeURIComponent('https://empfang.example.de/hook')}&events[]=*`,
    });
    assert.equal(form.status, 302);
    assert.equal(form.headers.location, '/webhooks/index');
    const page = await app.get('/webhooks/index', { headers: { cookie: `${session.cookie}; ${cookiesOf(form)}` } });
    assert.match(page.text, /class="flash error"[^>]*>[^<]*schon einen Webhook/);
    assert.deepEqual(await urls(german), ['https://empfang.example.de/hook']);
  });
});
