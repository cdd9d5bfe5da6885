import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { readConfig } from '../../src/config/config.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { ADDRESS_REFUSED, NO_ANSWER } from '../../src/webhooks/send.ts';
import { addWebhook, deliverAll, dispatcher, startReceiver, verifyStandardWebhook, type Receiver } from './support.ts';

/** docs/reference.md#events: webhook endpoints, signing, retries, timeouts, redirects, address rules. */

describe(`webhooks (${TEST_DB})`, () => {
  let app: TestApp;
  let receiver: Receiver;
  let shipper: Actor, other: Actor;

  before(async () => {
    app = await startTestApp();
    receiver = await startReceiver();
    shipper = await app.actor('Shipper');
    other = await app.actor('Other');
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** A published freight of the shipper: one freight.published event. */
  const publishFreight = async () => {
    const add = await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'airport:FRA', to: 'airport:AMS', weight: 10 },
    });
    await app.post(`/freights/view/${add.body.data.id}.json`, { token: shipper.token, json: { action: 'publish' } });
    return add.body.data.id as number;
  };

  test('add answers the secret once (whsec_ + base64 of 24+ bytes); index masks it; delete and deliveries are 404 for another company', async () => {
    const hook = await addWebhook(app, shipper, `${receiver.url}/a`, ['freight.published', 'bid.created']);
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(hook.secret.slice(6), 'base64').length >= 24);
    assert.deepEqual(hook.events, ['freight.published', 'bid.created']);
    assert.equal(hook.url, `${receiver.url}/a`);
    assert.equal(typeof hook.id, 'number');

    const index = await app.get('/webhooks/index.json', { token: shipper.token });
    assert.equal(index.body.status, 'success');
    const listed = index.body.data.webhooks.find((w: any) => w.id === hook.id);
    assert.ok(listed);
    assert.notEqual(listed.secret, hook.secret);
    assert.ok(!index.text.includes(hook.secret.slice(6, 20)), 'the secret is not in the list');
    assert.deepEqual((await app.get('/webhooks/index.json', { token: other.token })).body.data.webhooks, []);

    for (const [method, path] of [
      ['POST', `/webhooks/delete/${hook.id}.json`],
      ['GET', `/webhooks/deliveries/${hook.id}.json`],
      ['POST', `/webhooks/test/${hook.id}.json`],
    ] as const) {
      const res = await app.request(method, path, { token: other.token });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body.data, []);
    }
    for (const path of ['/webhooks/delete/999999.json', '/webhooks/delete/abc.json'])
      assert.equal((await app.post(path, { token: shipper.token })).status, 404);
    assert.equal((await app.get('/webhooks/index.json')).status, 401);

    const del = await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
    assert.equal(del.body.status, 'success');
    assert.equal((await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token })).status, 404);
  });

  test('bad input is status error with a message and stores nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ events: ['*'] }, 'url'],
      [{ url: 'ftp://example.com/hook', events: ['*'] }, 'http'],
      [{ url: 'not a url', events: ['*'] }, 'URL'],
      [{ url: 'https://user:pw@example.com/', events: ['*'] }, 'password'],
      [{ url: `https://example.com/${'x'.repeat(2100)}`, events: ['*'] }, '2000'],
      [{ url: 'https://example.com/', events: ['freight.teleported'] }, 'freight.teleported'],
      [{ url: 'https://example.com/' }, 'events'],
      [{ url: 'https://example.com/', events: [] }, 'events'],
      [{ url: 'https://example.com/', events: Array.from({ length: 1000 }, () => 'bid.created') }, 'at most'],
      [{ url: 'https://example.com/', events: [{ nested: 1 }] }, 'unknown'],
    ];
    for (const [json, word] of cases) {
      const res = await app.post('/webhooks/add.json', { token: other.token, json });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'error', JSON.stringify(json).slice(0, 80));
      assert.ok(res.body.message.includes(word), `${res.body.message} names ${word}`);
    }
    assert.deepEqual((await app.get('/webhooks/index.json', { token: other.token })).body.data.webhooks, []);
    // A form with a comma list works too.
    const form = await app.post('/webhooks/add.json', {
      token: other.token,
      form: { url: 'https://example.com/x', events: 'bid.created, bid.revoked' },
    });
    assert.deepEqual(form.body.data.webhook.events, ['bid.created', 'bid.revoked']);
    await app.post(`/webhooks/delete/${form.body.data.webhook.id}.json`, { token: other.token });
  });

  test('delivery: the contract body, Standard Webhooks headers verified independently (and by the reference library)', async () => {
    const hook = await addWebhook(app, shipper, `${receiver.url}/sig`);
    const before = receiver.received.length;
    const route = await publishFreight();
    await deliverAll(app);
    const got = receiver.received.slice(before).filter((r) => r.path === '/sig');
    assert.equal(got.length, 1);
    const req = got[0]!;
    assert.deepEqual(Object.keys(req.json).sort(), ['company', 'created', 'data', 'id', 'type']);
    assert.equal(req.json.type, 'freight.published');
    assert.equal(req.json.company, shipper.company);
    assert.equal(req.json.data.route.id, route);
    assert.match(req.json.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['webhook-id'], req.json.id);
    assert.match(String(req.headers['webhook-timestamp']), /^\d{10}$/);
    assert.ok(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.match(String(req.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.ok(verifyStandardWebhook(hook.secret, req.headers, req.body));
    assert.ok(
      !verifyStandardWebhook(hook.secret, req.headers, req.body.replace('freight.published', 'freight.publishex')),
      'a changed body fails',
    );
    assert.ok(!verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, req.headers, req.body), 'another secret fails');
    assert.deepEqual(new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>), req.json);
    await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
  });

  test('a receiver failing twice then succeeding gets three attempts with the same webhook-id; the log shows them', async () => {
    const hook = await addWebhook(app, shipper, `${receiver.url}/flaky`, ['freight.published']);
    let calls = 0;
    receiver.answer = (r) => (r.path === '/flaky' && ++calls <= 2 ? 500 : 200);
    try {
      await publishFreight();
      const d = dispatcher(app, { retryDelays: [5, 60, 600] });
      assert.equal(await d.deliverDue(), 1);
      assert.equal(await d.deliverDue(), 0, 'the retry waits for its delay');
      const start = Date.now();
      app.setNow(new Date(start + 6_000));
      assert.equal(await d.deliverDue(), 1);
      app.setNow(new Date(start + 6_000 + 67_000));
      assert.equal(await d.deliverDue(), 1);
      app.setNow(new Date(start + 3600_000));
      assert.equal(await d.deliverDue(), 0, 'delivered: nothing more');
    } finally {
      app.setNow(null);
      receiver.answer = () => 200;
    }
    const got = receiver.received.filter((r) => r.path === '/flaky');
    assert.equal(got.length, 3);
    assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1, 'one webhook-id on every retry');
    assert.equal(new Set(got.map((r) => r.body)).size, 1, 'the same body');
    for (const r of got) assert.ok(verifyStandardWebhook(hook.secret, r.headers, r.body));

    const log = await app.get(`/webhooks/deliveries/${hook.id}.json`, { token: shipper.token });
    assert.equal(log.body.status, 'success');
    const attempts = log.body.data.deliveries;
    assert.deepEqual(
      attempts.map((a: any) => [a.attempt, a.status]),
      [
        [3, 200],
        [2, 500],
        [1, 500],
      ],
    );
    assert.equal(attempts[0].event_id, got[0]!.headers['webhook-id']);
    assert.equal(attempts[0].type, 'freight.published');
    assert.equal(attempts[0].next_retry, null);
    assert.match(attempts[1].next_retry, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(attempts[0].state, 'delivered');
    await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
  });

  test('the default schedule retries for more than 24 hours, then gives up', async () => {
    const { DEFAULT_RETRY_DELAYS } = await import('../../src/config/webhooks.ts');
    assert.ok(DEFAULT_RETRY_DELAYS.reduce((a, b) => a + b, 0) >= 86400);
    for (let i = 1; i < DEFAULT_RETRY_DELAYS.length; i++)
      assert.ok(DEFAULT_RETRY_DELAYS[i]! > DEFAULT_RETRY_DELAYS[i - 1]!, 'growing delays');
    assert.throws(() => readConfig({ APP_ENV: 'production', TOKEN_SECRET: 'x'.repeat(20), WEBHOOK_RETRY_DELAYS: '1,2,3' }), /24 hours/);
    assert.throws(() => readConfig({ WEBHOOK_POLL_MS: 'soon' }), /WEBHOOK_POLL_MS/);
    assert.deepEqual(readConfig({ WEBHOOK_RETRY_DELAYS: '0.2,1' }).webhooks.retryDelays, [0.2, 1]);

    const hook = await addWebhook(app, shipper, `${receiver.url}/down`, ['freight.published']);
    receiver.answer = (r) => (r.path === '/down' ? 503 : 200);
    try {
      await publishFreight();
      const d = dispatcher(app, { retryDelays: [1, 2] });
      let t = Date.now();
      for (let i = 0; i < 5; i++) {
        await d.deliverDue();
        t += 10_000;
        app.setNow(new Date(t));
      }
    } finally {
      app.setNow(null);
      receiver.answer = () => 200;
    }
    assert.equal(receiver.received.filter((r) => r.path === '/down').length, 3, 'first try and two retries');
    const log = (await app.get(`/webhooks/deliveries/${hook.id}.json`, { token: shipper.token })).body.data.deliveries;
    assert.equal(log[0].state, 'failed');
    assert.equal(log[0].next_retry, null);
    await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
  });

  test('a slow receiver times out, a redirect is not followed: both are failed attempts', async () => {
    const slow = await addWebhook(app, shipper, `${receiver.url}/slow`, ['freight.published']);
    const moved = await addWebhook(app, shipper, `${receiver.url}/moved`, ['freight.published']);
    receiver.answer = (r) => (r.path === '/slow' ? 'hold' : r.path === '/moved' ? 302 : 200);
    try {
      await publishFreight();
      await dispatcher(app, { timeoutMs: 300 }).deliverDue();
    } finally {
      receiver.answer = () => 200;
    }
    const slowLog = (await app.get(`/webhooks/deliveries/${slow.id}.json`, { token: shipper.token })).body.data.deliveries;
    assert.equal(slowLog[0].status, null);
    assert.equal(slowLog[0].error, NO_ANSWER);
    assert.equal(slowLog[0].state, 'pending');
    const movedLog = (await app.get(`/webhooks/deliveries/${moved.id}.json`, { token: shipper.token })).body.data.deliveries;
    assert.equal(movedLog[0].status, 302);
    assert.equal(movedLog[0].state, 'pending');
    assert.ok(!receiver.received.some((r) => r.path === '/redirected'), 'the redirect target was never requested');
    for (const h of [slow, moved]) await app.post(`/webhooks/delete/${h.id}.json`, { token: shipper.token });
  });

  test('"send test event" queues a webhook.test for that webhook only, whatever it subscribes to', async () => {
    const hook = await addWebhook(app, shipper, `${receiver.url}/test`, ['bid.revoked']);
    const otherHook = await addWebhook(app, shipper, `${receiver.url}/untouched`, ['*']);
    const res = await app.post(`/webhooks/test/${hook.id}.json`, { token: shipper.token });
    assert.equal(res.body.status, 'success', res.text);
    const queued = (await app.get(`/webhooks/deliveries/${hook.id}.json`, { token: shipper.token })).body.data.deliveries;
    assert.deepEqual(
      queued.map((a: any) => [a.attempt, a.type, a.state]),
      [[0, 'webhook.test', 'pending']],
    );
    await deliverAll(app);
    const got = receiver.received.filter((r) => r.path === '/test');
    assert.equal(got.length, 1);
    assert.equal(got[0]!.json.type, 'webhook.test');
    assert.equal(got[0]!.json.id, res.body.data.event.id);
    assert.ok(verifyStandardWebhook(hook.secret, got[0]!.headers, got[0]!.body));
    assert.ok(!receiver.received.some((r) => r.path === '/untouched'));
    for (const h of [hook, otherHook]) await app.post(`/webhooks/delete/${h.id}.json`, { token: shipper.token });
  });

  test('the settings page lists webhooks with add, delete and test, in English and German', async () => {
    const hook = await addWebhook(app, shipper, `${receiver.url}/page`, ['freight.published']);
    const session = await browserSession(app, shipper);
    const page = await app.get('/webhooks/index', { headers: { cookie: session.cookie } });
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`${receiver.url}/page`));
    assert.ok(page.text.includes('Send test event'));
    assert.ok(page.text.includes('name="_csrf"'));
    assert.ok(!page.text.includes(hook.secret));
    const log = await app.get(`/webhooks/deliveries/${hook.id}`, { headers: { cookie: session.cookie } });
    assert.equal(log.status, 200);
    const german = await app.actor('Spediteur', { language: 'deu' });
    const gs = await browserSession(app, german);
    const de = await app.get('/webhooks/index', { headers: { cookie: gs.cookie } });
    assert.ok(de.text.includes('Testereignis') || de.text.includes('Webhook hinzufügen'));
    // Adding through the form shows the secret on the answer page (not in a redirect).
    const added = await app.post('/webhooks/add', {
      headers: { cookie: session.cookie },
      form: `_csrf=${encodeURIComponent(session.csrf)}&url=${encodeURIComponent(`${receiver.url}/form`)}&events[]=*`,
    });
    assert.equal(added.status, 200, added.text.slice(0, 200));
    assert.match(added.text, /whsec_[A-Za-z0-9+/]{40,}/);
    await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
  });
});

describe(`webhooks with APP_ENV=production (${TEST_DB})`, () => {
  let app: TestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startTestApp({ env: { APP_ENV: 'production' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  test('loopback, private and link-local addresses are refused at registration', async () => {
    const who = await app.actor('Prod');
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://10.1.2.3/',
      'http://192.168.0.10/',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      const res = await app.post('/webhooks/add.json', { token: who.token, json: { url, events: ['*'] } });
      assert.equal(res.body.status, 'error', url);
      assert.match(res.body.message, /url/);
    }
    assert.deepEqual((await app.get('/webhooks/index.json', { token: who.token })).body.data.webhooks, []);
  });

  test('and at delivery: a stored webhook pointing at loopback is not called', async () => {
    const who = await app.actor('Prod2');
    // As if it had been registered while the name pointed elsewhere (DNS rebinding).
    await app.services.db
      .insertInto('webhooks')
      .values({
        company_id: who.company,
        user_id: who.user,
        url: `${receiver.url}/internal`,
        events: ['*'],
        secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
        created: new Date(),
      })
      .execute();
    const hookId = (await app.get('/webhooks/index.json', { token: who.token })).body.data.webhooks[0].id;
    await app.post(`/webhooks/test/${hookId}.json`, { token: who.token });
    await deliverAll(app);
    assert.equal(receiver.received.length, 0);
    const log = (await app.get(`/webhooks/deliveries/${hookId}.json`, { token: who.token })).body.data.deliveries;
    assert.equal(log[0].error, ADDRESS_REFUSED);
  });
});
