import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepExpiredFreights } from '../../src/freights/lifecycle.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addWebhook, deliverAll, startReceiver, type Receiver } from './support.ts';

/**
 * An event written by the expiry sweeper (no request, no caller) shows its times in the
 * exchange's APP_TIMEZONE like the API does: the app's configured zone, not the process's
 * environment (this app is configured for New York; the test process has no APP_TIMEZONE).
 */
describe(`events written in the background follow APP_TIMEZONE (${TEST_DB})`, () => {
  let app: TestApp;
  let receiver: Receiver;
  let shipper: Actor;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'America/New_York' } });
    receiver = await startReceiver();
    shipper = await app.actor('Shipper');
    await addWebhook(app, shipper, `${receiver.url}/hook`, ['freight.expired']);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  test("the sweeper's freight.expired carries the times the view shows", async () => {
    assert.notEqual(process.env.APP_TIMEZONE, 'America/New_York');
    const start = new Date('2034-07-01T12:00:00Z');
    app.setNow(start);
    try {
      const add = await app.post('/freights/add.json', { token: shipper.token, json: { from: 'airport:JFK', to: 'airport:ORD' } });
      const id = add.body.data.id as number;
      await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 hours' } });

      app.setNow(new Date(start.getTime() + 2 * 3600_000));
      assert.equal(await sweepExpiredFreights(app.services.db, app.services.clock), 1);
      await deliverAll(app);
      const expired = receiver.received.map((r) => r.json).find((e) => e.type === 'freight.expired');
      assert.ok(expired, 'freight.expired delivered');

      const view = (await app.get(`/freights/view/${id}.json`, { token: shipper.token })).body.data.route;
      assert.equal(view.status, 'expired');
      // 12:00 UTC in July is 08:00 in New York (EDT); the sweep ran two hours later.
      assert.equal(view.deadline, '2034-07-01 09:00:00');
      assert.equal(view.modified, '2034-07-01 10:00:00');
      assert.equal(expired.data.route.deadline, view.deadline);
      assert.equal(expired.data.route.modified, view.modified);
    } finally {
      app.setNow(null);
    }
  });
});
