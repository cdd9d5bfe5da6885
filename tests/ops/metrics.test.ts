import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/db/connection.ts';
import { addWebhook, dispatcher, type Receiver, startReceiver } from '../events/support.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { openStream } from '../live/support.ts';
import { TEST_DB } from '../support/databases.ts';
import { type Actor, startTestApp, type TestApp } from '../support/harness.ts';
import { type ReplicaPair, replicasUnavailable, startReplicaPair } from '../support/replicas.ts';
import { METRICS_TOKEN, type Scrape, scrape } from './support.ts';

/**
 * GET /metrics (issue 48, src/ops/metrics.ts): off without METRICS_TOKEN, only with that bearer
 * token, in the Prometheus text format as a parser of it (parse-prometheus-text-format) reads it;
 * each series moves when its cause happens: requests by route template and status, a failing
 * webhook receiver, the alert queue, live streams, login throttling, the pool, a paused replica.
 */

const REQUESTS = 'fx_http_request_duration_seconds';
const until = async (what: string, check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('GET /metrics without METRICS_TOKEN', () => {
  test('there is no /metrics, and nothing counts requests', async () => {
    const app = await startTestApp();
    try {
      const res = await app.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(res.status, 404);
      assert.equal(app.services.observe, undefined);
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let app: TestApp;
  let shipper: Actor;
  let receiver: Receiver;
  before(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN } });
    shipper = await app.actor('Shipper');
    receiver = await startReceiver();
  });
  after(async () => {
    await app?.close();
    await receiver?.close();
  });

  test('answers only the bearer token: none, another scheme or another token get 401 and no numbers', async () => {
    for (const authorization of [
      undefined,
      `TokenPass ${METRICS_TOKEN}`,
      `Bearer ${METRICS_TOKEN}x`,
      'Bearer ',
      `bearer  ${METRICS_TOKEN}`,
    ]) {
      const res = await app.get('/metrics', { headers: authorization === undefined ? {} : { authorization } });
      assert.equal(res.status, 401, String(authorization));
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.doesNotMatch(res.text, /fx_|process_/);
    }
  });

  test('parses as the Prometheus text format, with every family an operator needs', async () => {
    const s = await scrape(app);
    const types = new Map(s.families.map((f) => [f.name, f.type]));
    for (const [name, type] of [
      [REQUESTS, 'HISTOGRAM'],
      ['fx_queue_pending', 'GAUGE'],
      ['fx_queue_oldest_age_seconds', 'GAUGE'],
      ['fx_queue_failing_companies', 'GAUGE'],
      ['fx_live_streams', 'GAUGE'],
      ['fx_login_throttled_total', 'COUNTER'],
      ['process_resident_memory_bytes', 'GAUGE'],
      ['nodejs_heap_size_used_bytes', 'GAUGE'],
      ['nodejs_eventloop_lag_p99_seconds', 'GAUGE'],
    ] as const)
      assert.equal(types.get(name), type, name);
    assert.ok(s.value('process_resident_memory_bytes')! > 10_000_000);
    assert.ok(s.value('nodejs_eventloop_lag_p99_seconds')! >= 0);
    for (const queue of ['webhooks', 'alerts', 'mail', 'waterfalls']) assert.equal(s.value('fx_queue_pending', { queue }), 0, queue);
    // The pool is PostgreSQL's (the embedded database has one connection, no pool).
    if (TEST_DB === 'postgres') {
      assert.ok(s.value('fx_db_pool_connections', { state: 'idle' })! + s.value('fx_db_pool_connections', { state: 'busy' })! >= 1);
      assert.equal(s.value('fx_db_pool_waiting'), 0);
    } else assert.ok(!types.has('fx_db_pool_connections'));
  });

  test('requests count by route template (.json apart) and status; unknown paths share one series', async () => {
    const before = await scrape(app);
    const id = await addFreight(app, shipper);
    for (let i = 0; i < 3; i++) assert.equal((await app.get(`/freights/view/${id}.json`, { token: shipper.token })).status, 200);
    const page = await app.get(`/freights/view/${id + 1000}`);
    for (let i = 0; i < 25; i++) assert.equal((await app.get(`/no/such/${i}/path-${Math.random()}`)).status, 404);
    const s = await scrape(app);
    const count = (x: Scrape, route: string, status: string, method = 'GET') =>
      x.histogram(REQUESTS, { method, route, status })?.count ?? 0;
    assert.equal(count(s, '/freights/view/:id.json', '200') - count(before, '/freights/view/:id.json', '200'), 3);
    assert.equal(count(s, '/freights/view/:id', String(page.status)) - count(before, '/freights/view/:id', String(page.status)), 1);
    assert.equal(count(s, '/freights/add.json', '200', 'POST') - count(before, '/freights/add.json', '200', 'POST'), 1);
    assert.equal(count(s, '(unmatched)', '404') - count(before, '(unmatched)', '404'), 25);
    const routes = new Set(s.sampleLabels(`${REQUESTS}_count`).map((m) => m.route ?? ''));
    assert.ok(![...routes].some((r) => r.includes('/no/such') || /\/\d+/.test(r)), `no path nor id as a label: ${[...routes].join(' ')}`);
    const view = s.histogram(REQUESTS, { method: 'GET', route: '/freights/view/:id.json', status: '200' })!;
    assert.equal(view.buckets.get('+Inf'), view.count, 'every request falls in a bucket');
    assert.equal(view.buckets.size, 12);
    assert.ok(view.sum > 0);
  });

  test('a failing webhook receiver: pending, its age and one failing company; they clear once it answers', async () => {
    receiver.answer = () => 500;
    const hook = await addWebhook(app, shipper, `${receiver.url}/failing`, ['freight.published']);
    const start = Date.now();
    try {
      await openFreight(app, shipper);
      const d = dispatcher(app, { retryDelays: [5, 60, 600] });
      let s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'webhooks' }), 1);
      assert.equal(s.value('fx_queue_failing_companies', { queue: 'webhooks' }), 0, 'not tried yet: not failing');
      assert.equal(await d.deliverDue(), 1);
      app.setNow(new Date(start + 4_000));
      s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'webhooks' }), 1);
      assert.equal(s.value('fx_queue_failing_companies', { queue: 'webhooks' }), 1);
      assert.ok(s.value('fx_queue_oldest_age_seconds', { queue: 'webhooks' })! >= 3.5);
      assert.equal(s.value('fx_queue_due_lag_seconds', { queue: 'webhooks' }), 0, 'its retry is not due yet: no lag');
      app.setNow(new Date(start + 15_000));
      assert.ok((await scrape(app)).value('fx_queue_due_lag_seconds', { queue: 'webhooks' })! >= 5, 'due and not delivered: lag');
      receiver.answer = () => 200;
      app.setNow(new Date(start + 20_000));
      assert.equal(await d.deliverDue(), 1);
      s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'webhooks' }), 0);
      assert.equal(s.value('fx_queue_failing_companies', { queue: 'webhooks' }), 0);
      assert.equal(s.value('fx_queue_oldest_age_seconds', { queue: 'webhooks' }), 0);
    } finally {
      app.setNow(null);
      await app.post(`/webhooks/delete/${hook.id}.json`, { token: shipper.token });
    }
  });

  test('the alert queue: a job waiting shows with its age, and leaves when the worker has written it', async () => {
    const id = await openFreight(app, shipper);
    const created = new Date(Date.now() - 30_000);
    await app.services.db.insertInto('alert_jobs').values({ subject: 'freight', subject_id: id, created, due: created }).execute();
    let s = await scrape(app);
    assert.equal(s.value('fx_queue_pending', { queue: 'alerts' }), 1);
    assert.ok(s.value('fx_queue_oldest_age_seconds', { queue: 'alerts' })! >= 29);
    assert.ok(s.value('fx_queue_due_lag_seconds', { queue: 'alerts' })! >= 29);
    app.alerts.poke();
    await app.alerts.idle();
    s = await scrape(app);
    assert.equal(s.value('fx_queue_pending', { queue: 'alerts' }), 0);
  });

  test('the waterfalls: a turn that ended and no sweep moved shows with how long it waited, and leaves when a sweep moves it', async () => {
    // Before the app listens: no sweeper of its own runs, so the turn waits until this test sweeps.
    const carrier = await app.actor('Waterfall Carrier');
    const id = await addFreight(app, shipper);
    const t0 = new Date(Date.now() + 60_000);
    app.setNow(t0);
    try {
      const started = await app.post(`/freights/waterfall/${id}.json`, {
        token: shipper.token,
        // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
        json: { carriers: [carrier.company], price: '500', minutes: 10, then: 'market' },
      });
      assert.equal(started.body.status, 'success', started.text);
      let s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'waterfalls' }), 0, 'the turn runs: nothing to move yet');
      assert.equal(s.value('fx_queue_due_lag_seconds', { queue: 'waterfalls' }), 0);
      app.setNow(new Date(t0.getTime() + 12 * 60_000));
      s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'waterfalls' }), 1);
      assert.equal(s.value('fx_queue_due_lag_seconds', { queue: 'waterfalls' }), 120, 'ended two minutes ago');
      assert.equal(s.value('fx_queue_oldest_age_seconds', { queue: 'waterfalls' }), 120);
      assert.equal(await app.waterfalls.sweep(), 1);
      s = await scrape(app);
      assert.equal(s.value('fx_queue_pending', { queue: 'waterfalls' }), 0);
      assert.equal(s.value('fx_queue_due_lag_seconds', { queue: 'waterfalls' }), 0);
    } finally {
      app.setNow(null);
    }
  });

  test('login throttling: the 11th failure for one name counts once', async () => {
    const before = (await scrape(app)).value('fx_login_throttled_total', { reason: 'throttled' })!;
    for (let i = 0; i < 11; i++) {
      const res = await app.post('/users/login.json', { json: { auth: { user: shipper.email, password: `wrong-${i}` } } });
      assert.equal(res.status, i < 10 ? 401 : 429, `attempt ${i + 1}`);
    }
    assert.equal((await scrape(app)).value('fx_login_throttled_total', { reason: 'throttled' }), before + 1);
  });

  test('live streams open on this process', async () => {
    const base = await app.listen();
    const streams = await Promise.all([openStream(base, { token: shipper.token }), openStream(base, { token: shipper.token })]);
    try {
      assert.equal((await scrape(app)).value('fx_live_streams'), 2);
    } finally {
      for (const s of streams) s.close();
    }
    await until('streams closed', async () => (await scrape(app)).value('fx_live_streams') === 0);
  });
});

const replicaSkip =
  TEST_DB === 'postgres' ? 'runs once, in the embedded-database pass (it starts its own PostgreSQL pair)' : replicasUnavailable();

describe('GET /metrics with a read replica', { skip: replicaSkip }, () => {
  let pair: ReplicaPair;
  let app: TestApp;
  let standby: pg.Client;
  before(async () => {
    pair = await startReplicaPair();
    const database = await openDatabase({ databaseUrl: pair.primaryUrl, dataDir: '' });
    app = await startTestApp({
      database,
      env: { METRICS_TOKEN, DATABASE_URL: pair.primaryUrl, DATABASE_READ_URL: pair.standbyUrl, DATABASE_READ_MAX_LAG_MS: '1000' },
    });
    standby = new pg.Client({ connectionString: pair.standbyUrl });
    await standby.connect();
  });
  after(async () => {
    await standby?.end().catch(() => {});
    await app?.close();
    pair?.close();
  });

  test('a paused replica turns lagging with its lag in bytes, and back to ok when it replays again', async () => {
    const replica = (s: Scrape) => s.sample('fx_replica_up')!.labels!.replica!;
    await until('replica up', async () => (await scrape(app)).value('fx_replica_up') === 1);
    const name = replica(await scrape(app));
    assert.match(name, /^127\.0\.0\.1:\d+\/postgres$/, 'host, port and database; never a password');
    const shipper = await app.actor('Shipper');
    await standby.query('select pg_wal_replay_pause()');
    let lagging = 0;
    try {
      await until('replica lagging', async () => {
        await addFreight(app, shipper);
        const s = await scrape(app);
        return s.value('fx_replica_state', { replica: name, state: 'lagging' }) === 1;
      });
      const s = await scrape(app);
      assert.equal(s.value('fx_replica_up', { replica: name }), 0);
      assert.equal(s.value('fx_replica_state', { replica: name, state: 'ok' }), 0);
      lagging = s.value('fx_replica_lag_bytes', { replica: name })!;
      assert.ok(lagging > 0);
      assert.ok(s.value('fx_db_pool_connections', { state: 'idle' })! >= 0, 'the primary pool is measured');
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    await until('replica ok again', async () => (await scrape(app)).value('fx_replica_up', { replica: name }) === 1);
    // Caught up: what is left is what the primary wrote since the last sample, less than the paused replica's.
    await until('lag shrinks', async () => (await scrape(app)).value('fx_replica_lag_bytes', { replica: name })! < lagging);
  });
});
