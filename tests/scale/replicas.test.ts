import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/db/connection.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { TEST_DB } from '../support/databases.ts';
import { replicasUnavailable, startReplicaPair, type ReplicaPair } from '../support/replicas.ts';

/**
 * Reads on replicas (issue 31, src/db/replicas.ts) against a primary and a streaming standby the
 * test starts itself: lists, counts and views read from the standby; a company that just wrote
 * reads its write (from the primary until the standby has it); a standby whose replay stops is
 * skipped once it lags beyond DATABASE_READ_MAX_LAG_MS; a standby killed mid-test costs no
 * request; /healthz says all of it. The pair is PostgreSQL whichever engine the suite runs on, so
 * it runs in the embedded pass only.
 */

const skip =
  TEST_DB === 'postgres' ? 'runs once, in the embedded-database pass (it starts its own PostgreSQL pair)' : replicasUnavailable();

describe('reads on a streaming replica (DATABASE_READ_URL)', { skip }, () => {
  let pair: ReplicaPair;
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let standby: pg.Client;

  const replica = async () => {
    const res = await app.get('/healthz');
    assert.equal(res.status, 200, res.text);
    return (res.body as { replicas: Array<{ state: string; reads: number; lag_bytes: number | null }> }).replicas[0]!;
  };
  /** Waits for the sampler to report `state` (it samples every 250 ms). */
  const until = async (state: string, ms = 10_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const r = await replica();
      if (r.state === state) return r;
      if (Date.now() > end) assert.fail(`replica still ${r.state}, not ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const ids = async (who: Actor, list: number) => {
    const res = await app.get(`/freights/enlist/${list}.json`, { token: who.token });
    assert.equal(res.body.status, 'success', res.text);
    return (res.body.data.routes as Array<{ id: number }>).map((r) => r.id);
  };

  before(async () => {
    pair = await startReplicaPair();
    const database = await openDatabase({ databaseUrl: pair.primaryUrl, dataDir: '' });
    app = await startTestApp({
      database,
      env: { DATABASE_URL: pair.primaryUrl, DATABASE_READ_URL: pair.standbyUrl, DATABASE_READ_MAX_LAG_MS: '1000' },
    });
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    standby = new pg.Client({ connectionString: pair.standbyUrl });
    standby.on('error', () => {}); // the standby is killed in the last test
    await standby.connect();
  });
  after(async () => {
    await standby?.end().catch(() => {});
    await app?.close();
    pair?.close();
  });

  test('lists, counts and views read from the standby; the writer reads its own write at once', async () => {
    await until('ok');
    const before = (await replica()).reads;
    // Published and read straight after: the shipper's fence sends its reads to the primary until
    // the standby has the write, so the list always shows it.
    const id = await openFreight(app, shipper, { from: 'city:60311', from_country: 'DE', to: 'city:75001', to_country: 'FR', weight: 900 });
    assert.ok((await ids(shipper, 10)).includes(id), 'the shipper sees its own new freight at once');
    // Once the standby has replayed it, everyone's reads go there, the carrier's market too.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok((await ids(carrier, 8)).includes(id));
    const counts = await app.get('/freights/counts.json', { token: carrier.token });
    assert.equal(counts.body.status, 'success', counts.text);
    const view = await app.get(`/freights/view/${id}.json`, { token: carrier.token });
    assert.equal(view.body.status, 'success', view.text);
    const prices = await app.get('/market/prices.json', { token: carrier.token, query: { from: 'DE-60', to: 'FR-75' } });
    assert.equal(prices.body.status, 'success', prices.text);
    assert.ok((await replica()).reads >= before + 4, 'the reads went to the standby');
  });

  test('a standby that stops replaying is skipped once it lags beyond the bound, and taken back when it catches up', async () => {
    await until('ok');
    await standby.query('select pg_wal_replay_pause()');
    try {
      // Writes the standby does not replay: after the bound (1 s here) it lags.
      const id = await openFreight(app, shipper, { weight: 901 });
      await addFreight(app, shipper, { weight: 902 });
      await until('lagging', 5_000);
      const reads = (await replica()).reads;
      // Everyone reads the primary now: the carrier sees the new freight although the standby has not.
      assert.ok((await ids(carrier, 8)).includes(id));
      assert.equal((await replica()).reads, reads, 'no read went to the lagging standby');
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    await until('ok');
  });

  test('a standby killed mid-test costs no request; /healthz says it is down', async () => {
    await until('ok');
    pair.killStandby();
    // Whatever the sampler has seen yet, every read is answered (from the primary).
    for (let i = 0; i < 5; i++) {
      const res = await app.get('/freights/enlist/8.json', { token: carrier.token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'success', res.text);
    }
    const down = await until('down');
    assert.equal(down.state, 'down');
    const health = await app.get('/healthz');
    assert.equal(health.status, 200, 'the primary serves: healthy');
  });
});
