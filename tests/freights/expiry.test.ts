import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ExpirySweeper, sweepExpiredFreights } from '../../src/freights/lifecycle.ts';
import { Clock } from '../../src/kernel/time.ts';
import { TEST_DB } from '../support/databases.ts';
import { startWorld } from '../support/fixtures.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { enlistIds, openFreight, view } from './helpers.ts';

// Expiry is computed on read from the deadline and the clock (no write before a read); the
// sweeper and every transition write it down (src/freights/lifecycle.ts). Test apps do not
// listen, so no sweeper runs unless a test starts one.

let app: TestApp;
let shipper: Actor, carrier: Actor, outsider: Actor;

before(async () => ({ app, shipper, carrier, outsider } = await startWorld()));
after(() => app.close());

const storedStatus = async (id: number) =>
  (await app.services.db.selectFrom('freights').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const bid = (who: Actor, route: number) =>
  app.post('/quotes/add.json', { token: who.token, json: { route, amount: '100', currency_code: 'EUR' } });

describe('expiry is visible everywhere before anything writes it', () => {
  test('past the deadline: view, lists, Shipments and quotes read expired; nothing was written', async () => {
    const start = new Date('2033-05-02T08:00:00Z');
    app.setNow(start);
    try {
      const open = await openFreight(app, shipper, { weight: 3000 }, { deadline: '+1 hours' });
      const pending = await openFreight(app, shipper, { weight: 3000 }, { deadline: '+1 hours' });
      const onOpen = (await bid(carrier, open)).body.data.bid.id as number;
      const onPending = (await bid(carrier, pending)).body.data.bid.id as number;
      assert.equal((await app.post(`/quotes/confirm/${onPending}.json`, { token: carrier.token })).status, 302);
      assert.equal(await storedStatus(pending), 'pending');
      assert.ok((await enlistIds(app, carrier, 7)).includes(open));
      assert.ok((await enlistIds(app, outsider, 8)).includes(open));

      app.setNow(new Date(start.getTime() + 61 * 60_000));
      for (const id of [open, pending]) {
        const owner = (await view(app, shipper, id)).body.data.route;
        assert.equal(owner.status, 'expired');
        assert.equal(owner.editable, false);
        assert.ok(!('_bids' in owner), 'no _bids once expired (docs/reference.md#the-api)');
        // The bidder sees it masked, an outsider not at all.
        const bidder = (await view(app, carrier, id)).body.data.route;
        assert.equal(bidder.status, 'expired');
        assert.equal(bidder.from, null);
        assert.equal(bidder.f_from, 'xxx (XX)');
        assert.equal((await view(app, outsider, id)).status, 404);
        // Shipments read the same rule: the market no longer sees it, a bidder sees it masked.
        assert.equal((await app.get(`/routes/view/${id}.json`, { token: outsider.token })).status, 404);
        assert.equal((await app.get(`/routes/view/${id}.json`, { token: carrier.token })).body.data.route.from, null);
      }
      assert.ok(!(await enlistIds(app, outsider, 8)).includes(open));
      for (const filter of [7])
        assert.deepEqual(
          (await enlistIds(app, carrier, filter)).filter((id) => id === open || id === pending),
          [],
        );
      for (const filter of [10, 17, 18])
        assert.deepEqual(
          (await enlistIds(app, shipper, filter)).filter((id) => id === open || id === pending),
          [],
        );
      assert.deepEqual((await enlistIds(app, shipper, 19)).filter((id) => id === open || id === pending).sort(), [open, pending].sort());
      assert.deepEqual((await enlistIds(app, carrier, 9)).filter((id) => id === open || id === pending).sort(), [open, pending].sort());

      // Reads wrote nothing.
      assert.equal(await storedStatus(open), 'open');
      assert.equal(await storedStatus(pending), 'pending');

      // Quotes: a new bid and a confirmation are refused; the refusal writes expiry down.
      const refusedBid = await bid(outsider, open);
      assert.equal(refusedBid.status, 404, 'an outsider no longer sees the freight');
      const update = await app.post('/quotes/add.json', { token: carrier.token, json: { id: onOpen, amount: '90', currency_code: 'EUR' } });
      assert.equal(update.body.status, 'error', update.text);
      const confirm = await app.post(`/quotes/confirm/${onPending}.json`, { token: shipper.token });
      assert.equal(confirm.status, 302, confirm.text);
      assert.equal(confirm.headers.location, `/freights/view/${pending}`);
      assert.equal(await storedStatus(pending), 'expired', 'the transition wrote expiry under its lock');
      const taken = await app.services.db
        .selectFrom('freights')
        .select(['winner_id', 'price'])
        .where('id', '=', pending)
        .executeTakeFirstOrThrow();
      assert.deepEqual(taken, { winner_id: null, price: null }, 'never awarded after the deadline');
      assert.equal((await app.post(`/quotes/revoke/${onOpen}.json`, { token: carrier.token })).body.status, 'error');
      // Edit and revoke (transitions of the freights module) see it expired as well.
      assert.equal((await app.post(`/freights/edit/${open}.json`, { token: shipper.token, json: { weight: 1 } })).body.status, 'error');
      assert.equal(await storedStatus(open), 'expired');
    } finally {
      app.setNow(null);
    }
  });

  test('the sweeper writes expiry down: once per due freight, also when two sweep at once', async () => {
    const start = new Date('2034-01-10T08:00:00Z');
    app.setNow(start);
    try {
      const due = [];
      for (let i = 0; i < 5; i++) due.push(await openFreight(app, shipper, {}, { deadline: '+30 minutes' }));
      const later = await openFreight(app, shipper, {}, { deadline: '+2 days' });
      const at = new Date(start.getTime() + 31 * 60_000);
      // Two sweeps at once (two server processes on PostgreSQL): skip locked splits the work, no row twice.
      const clock = app.services.clock.at(at);
      const counts = await Promise.all([sweepExpiredFreights(app.services.db, clock, 2), sweepExpiredFreights(app.services.db, clock, 2)]);
      assert.ok(counts[0]! + counts[1]! >= due.length, `wrote ${counts}`);
      for (const id of due) assert.equal(await storedStatus(id), 'expired');
      assert.equal(await storedStatus(later), 'open');
      assert.equal(await sweepExpiredFreights(app.services.db, clock), 0, 'nothing left to write');
      const modified = await app.services.db.selectFrom('freights').select('modified').where('id', 'in', due).execute();
      for (const m of modified) assert.equal(m.modified.getTime(), at.getTime());
    } finally {
      app.setNow(null);
    }
  });

  test('the sweeper runs on its own, and stop waits for a sweep in progress', async () => {
    const start = new Date('2035-03-03T08:00:00Z');
    app.setNow(start);
    try {
      const id = await openFreight(app, shipper, {}, { deadline: '+10 minutes' });
      const moved = new Clock('UTC', () => new Date(start.getTime() + 11 * 60_000));
      const sweeper = new ExpirySweeper(app.services.db, moved, { intervalMs: 10 });
      sweeper.start();
      for (let i = 0; i < 500 && (await storedStatus(id)) !== 'expired'; i++) await new Promise((r) => setTimeout(r, 10));
      await sweeper.stop();
      assert.equal(await storedStatus(id), 'expired');
    } finally {
      app.setNow(null);
    }
  });
});

describe('the server sweeps while it listens', () => {
  test('started with listen, stopped with close', async () => {
    const served = await startTestApp();
    try {
      const owner = await served.actor('Owner');
      const start = new Date('2036-07-01T08:00:00Z');
      served.setNow(start);
      const id = await openFreight(served, owner, {}, { deadline: '+5 minutes' });
      const status = async () =>
        (await served.services.db.selectFrom('freights').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      served.setNow(new Date(start.getTime() + 6 * 60_000));
      assert.equal(await status(), 'open');
      await served.listen();
      for (let i = 0; i < 500 && (await status()) !== 'expired'; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await status(), 'expired', `swept on ${TEST_DB}`);
    } finally {
      await served.close();
    }
  });
});
