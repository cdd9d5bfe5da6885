import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { AlertWorker, enqueueAlert } from '../../src/alerts/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { addOffer, FREIGHT } from '../vehicles/helpers.ts';

/**
 * Alerts after the commit (src/alerts, docs/choices.md): publishing writes a job in its own
 * transaction and answers; the worker writes the alert after the answer, exactly once, and a
 * job left by a stopped process is run by the next worker. (Requests through the harness wait
 * for the worker; these tests go round it where the delay itself is under test.)
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;

const jobs = async () =>
  (
    await sql<{
      subject: string;
      subject_id: number;
      attempts: number;
    }>`select subject, subject_id, attempts from alert_jobs order by id`.execute(app.services.db)
  ).rows;
const notified = async (freightId: number) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from notifications where freight_id = ${freightId}`.execute(app.services.db)).rows[0]!.n,
  );

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  const res = await app.post('/searches/add.json', {
    token: carrier.token,
    json: { name: 'Frankfurt', params: { from: 'DE-60' }, alert: 1 },
  });
  assert.equal(res.body.status, 'success', res.text);
});
after(() => app?.close());

describe('alerts after the commit', () => {
  test('the publish answers before its alert is written; the alert follows, and its job is gone', async () => {
    const id = await addFreight(app, shipper, FREIGHT);
    // Hold the worker at its door: the answer must not wait for it.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const runOne = app.alerts.runOne.bind(app.alerts);
    app.alerts.runOne = async () => {
      await gate;
      return runOne();
    };
    try {
      const res = await app.http.inject({
        method: 'POST',
        url: `/freights/view/${id}.json`,
        headers: { authorization: `TokenPass ${shipper.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ action: 'publish' }),
      });
      assert.equal(res.statusCode, 302);
      assert.deepEqual(await jobs(), [{ subject: 'freight', subject_id: id, attempts: 0 }], 'the job committed with the publish');
      assert.equal(await notified(id), 0, 'no alert yet');
      open();
      await app.alerts.idle();
    } finally {
      app.alerts.runOne = runOne;
    }
    assert.equal(await notified(id), 1);
    assert.deepEqual(await jobs(), []);
  });

  test('a refused publish queues nothing', async () => {
    const id = await addFreight(app, shipper, FREIGHT);
    const res = await app.post(`/freights/view/${id}.json`, { token: carrier.token, json: { action: 'publish' } });
    assert.equal(res.status, 404);
    assert.deepEqual(await jobs(), []);
  });

  test('a job left by a stopped process is run by the next worker, exactly once', async () => {
    const id = await openFreight(app, shipper, FREIGHT);
    await sql`delete from notifications where freight_id = ${id}`.execute(app.services.db);
    // As if the publishing process had stopped right after its commit.
    await app.services.db.transaction().execute((trx) => enqueueAlert(trx, 'freight', id, new Date()));
    // Nobody poked: the next sweep finds it.
    assert.equal(await app.alerts.runOne(), true);
    assert.equal(await notified(id), 1);
    assert.equal(await app.alerts.runOne(), false, 'nothing left');
    app.alerts.poke();
    await app.alerts.idle();
    assert.equal(await notified(id), 1, 'not twice');
  });

  test('a failing alert rolls back, is retried later, and is dropped after five failures', async () => {
    const id = await openFreight(app, shipper, FREIGHT);
    const errors: unknown[] = [];
    let calls = 0;
    const failing = new AlertWorker({
      db: app.services.db,
      clock: app.services.clock,
      handlers: {
        freight: [
          async (trx, clock, subjectId) => {
            calls++;
            // Writes something, then fails: nothing of it may stay.
            await trx
              .insertInto('alert_jobs')
              .values({ subject: 'vehicle', subject_id: 0, created: clock.now(), due: clock.now() })
              .execute();
            throw new Error(`alert of ${subjectId} failed`);
          },
        ],
        vehicle: [],
      },
      log: { error: (obj) => errors.push(obj), warn: () => {} },
    });
    await app.services.db.transaction().execute((trx) => enqueueAlert(trx, 'freight', id, new Date()));
    assert.equal(await failing.runOne(), true);
    assert.deepEqual(await jobs(), [{ subject: 'freight', subject_id: id, attempts: 1 }], 'rolled back, counted, due later');
    assert.equal(await failing.runOne(), false, 'not due yet');
    for (let attempt = 2; attempt <= 5; attempt++) {
      await sql`update alert_jobs set due = now() - interval '1 second'`.execute(app.services.db);
      assert.equal(await failing.runOne(), true);
    }
    assert.equal(calls, 5);
    assert.deepEqual(await jobs(), [], 'dropped after the fifth failure');
    assert.equal(errors.length, 1, 'and logged once');
  });

  test('an offer published queues its alert too: the owner of a fitting freight is notified after the commit', async () => {
    const freight = await openFreight(app, shipper, FREIGHT);
    const offer = await addOffer(app, carrier);
    const rows = await sql<{
      type: string;
      vehicle_id: number;
    }>`select type, vehicle_id from notifications where freight_id = ${freight} and vehicle_id is not null`.execute(app.services.db);
    assert.deepEqual(rows.rows, [{ type: 'vehicle.matched', vehicle_id: offer.id }]);
    assert.deepEqual(await jobs(), []);
  });
});
