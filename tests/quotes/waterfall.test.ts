import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepWaterfalls } from '../../src/freights/index.ts';
import { Clock } from '../../src/kernel/time.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { freightRow } from './fixtures.ts';

/**
 * docs/reference.md#one-step, waterfall offers: one carrier's turn at a time, visibility moving with the
 * turn, turns passing by a pass or by their deadline without any request (the sweeper, run here
 * with a moved clock), then the market or the end; `freight.offered` to each carrier whose turn
 * starts; `guide` refused without a contract for the lane (tests/tenders: the guide with contracts); every refusal.
 */

let app: TestApp;
let shipper: Actor;
let first: Actor;
let second: Actor;
let third: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  first = await app.actor('CTransport');
  second = await app.actor('AlpenCargo');
  third = await app.actor('Third');
  outsider = await app.actor('Outsider');
});
after(() => {
  app.setNow(null);
  return app.close();
});

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const refused = (res: ApiResponse, code: string) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'error', res.text);
  assert.equal(res.body.code, code, res.text);
};

async function draft(): Promise<number> {
  return ok(
    await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, from_addr: 'Dock 1', to_addr: 'Dock 2' },
    }),
  ).id as number;
}
const start = (id: number, json: Record<string, unknown>, who: Actor = shipper) =>
  app.post(`/freights/waterfall/${id}.json`, { token: who.token, json });
const view = (who: Actor, id: number) => app.get(`/freights/view/${id}.json`, { token: who.token });
const sees = async (who: Actor, id: number) => (await view(who, id)).status === 200;
const lastEvent = async () =>
  Number(
    (
      await app.services.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('max'))
        .executeTakeFirst()
    )?.max ?? 0,
  );
const offeredSince = async (after: number) =>
  (
    await app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('seq', '>', after)
      .where('type', '=', 'freight.offered')
      .orderBy('seq')
      .execute()
  ).map((e) => ({ company: e.company_id, data: JSON.parse(e.body).data }));

describe(`waterfall offers (${TEST_DB})`, () => {
  test('refusals: bad carriers, price, minutes, then; guide before contracts; not a draft; another company’s freight', async () => {
    const id = await draft();
    const good = { carriers: [first.company, second.company], price: '912.50', minutes: 30 };
    refused(await start(id, { ...good, carriers: [] }), 'freight.waterfall.carriers');
    refused(await start(id, { ...good, carriers: Array.from({ length: 21 }, (_, i) => i + 1) }), 'freight.waterfall.carriers');
    refused(await start(id, { ...good, carriers: [first.company, first.company] }), 'freight.waterfall.carriers');
    refused(await start(id, { ...good, carriers: 'x' }), 'freight.waterfall.carriers');
    refused(await start(id, { ...good, price: 0 }), 'freight.waterfall.price');
    refused(await start(id, { ...good, price: '1.005' }), 'freight.waterfall.price');
    refused(await start(id, { ...good, currency: 'EURO' }), 'freight.waterfall.currency');
    refused(await start(id, { ...good, minutes: 0 }), 'freight.waterfall.minutes');
    refused(await start(id, { ...good, minutes: 1441 }), 'freight.waterfall.minutes');
    // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
    refused(await start(id, { ...good, then: 'later' }), 'freight.waterfall.then');
    refused(await start(id, { guide: 1, minutes: 30 }), 'freight.waterfall.no_contracts');
    refused(await start(id, { ...good, carriers: [first.company, 99_999_999] }), 'freight.waterfall.bad_carrier');
    refused(await start(id, { ...good, carriers: [shipper.company] }), 'freight.waterfall.bad_carrier');
    assert.equal((await start(id, good, outsider)).status, 404, 'another company’s draft');
    assert.equal((await start(99_999_999, good)).status, 404);
    const row = await freightRow(app, id);
    assert.equal(row.status, 'draft', 'nothing changed');
    assert.equal(row.book_now, null);

    ok(await start(id, good));
    refused(await start(id, good), 'freight.waterfall.not_draft');
  });

  test('turns: the first carrier alone sees it; a pass moves it on; a turn’s end passes without any request; then the market', async () => {
    const t0 = new Date(Date.now() + 60_000);
    app.setNow(t0);
    try {
      const id = await draft();
      const since = await lastEvent();
      const started = ok(
        // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
        await start(id, { carriers: [first.company, second.company, third.company], price: '912.50', minutes: 30, then: 'market' }),
      );
      assert.deepEqual(started, { route: id, status: 'open' });

      // The owner sees the whole waterfall; the first carrier its turn's end; nobody else sees the freight.
      const owner = ok(await view(shipper, id)).route;
      assert.deepEqual(owner.waterfall.carriers, [first.company, second.company, third.company]);
      assert.equal(owner.waterfall.step, 0);
      assert.equal(owner.waterfall.then, 'market');
      assert.equal(owner.waterfall.step_until, app.services.clock.format(new Date(t0.getTime() + 30 * 60_000)));
      assert.equal(owner.visibility, -2);
      assert.equal(owner.book_now, 912.5);
      const mine = ok(await view(first, id)).route;
      assert.equal(mine.book_now, 912.5);
      assert.deepEqual(
        [mine.waterfall.step_until, mine.waterfall.carriers, mine.waterfall.step, mine.waterfall.then],
        [owner.waterfall.step_until, null, null, null],
      );
      assert.equal(mine.whitelist, null, 'the owner’s list stays its own');
      for (const who of [second, third, outsider]) assert.equal(await sees(who, id), false);
      let offered = await offeredSince(since);
      assert.deepEqual(
        offered.map((o) => o.company),
        [first.company],
      );
      assert.equal(offered[0]!.data.step_until, owner.waterfall.step_until);
      assert.equal(offered[0]!.data.route.book_now, 912.5);

      // Only the carrier whose turn it is passes.
      assert.equal((await app.post(`/quotes/decline/${id}.json`, { token: second.token })).status, 404);
      refused(await app.post(`/quotes/decline/${id}.json`, { token: shipper.token }), 'quotes.decline.not_your_turn');
      assert.equal((await app.post(`/quotes/book/${id}.json`, { token: second.token })).status, 404, 'not its turn: not visible');

      // A pass 10 minutes in: the second carrier's turn, 30 minutes from now; the first no longer sees it.
      app.setNow(new Date(t0.getTime() + 10 * 60_000));
      let since2 = await lastEvent();
      ok(await app.post(`/quotes/decline/${id}.json`, { token: first.token }));
      assert.equal(await sees(first, id), false, 'the previous carrier: 404');
      assert.equal((await app.post(`/quotes/book/${id}.json`, { token: first.token })).status, 404);
      assert.equal(await sees(second, id), true);
      const turn2 = ok(await view(shipper, id)).route.waterfall;
      assert.equal(turn2.step, 1);
      assert.equal(turn2.step_until, app.services.clock.format(new Date(t0.getTime() + 40 * 60_000)));
      offered = await offeredSince(since2);
      assert.deepEqual(
        offered.map((o) => o.company),
        [second.company],
      );

      // Nothing moves before the turn's end.
      app.setNow(new Date(t0.getTime() + 39 * 60_000));
      await app.waterfalls.sweep();
      assert.equal(ok(await view(shipper, id)).route.waterfall.step, 1);

      // The turn's end passes: the sweeper (any process, no request of anyone) starts the third turn.
      app.setNow(new Date(t0.getTime() + 41 * 60_000));
      since2 = await lastEvent();
      assert.ok((await app.waterfalls.sweep()) >= 1);
      assert.equal(await app.waterfalls.sweep(), 0, 'idempotent: a second pass changes nothing');
      // Another process's sweeper (its own clock) finds nothing to do either.
      const other = new Clock(app.services.clock.zone, () => new Date(t0.getTime() + 41 * 60_000));
      assert.equal(await sweepWaterfalls(app.services.db, other, { enteredMarket: async () => undefined }), 0);
      const turn3 = ok(await view(shipper, id)).route.waterfall;
      assert.equal(turn3.step, 2);
      assert.equal(turn3.step_until, app.services.clock.format(new Date(t0.getTime() + 70 * 60_000)), 'from the end of the last turn');
      assert.equal(await sees(second, id), false);
      assert.equal(await sees(third, id), true);
      assert.deepEqual(
        (await offeredSince(since2)).map((o) => o.company),
        [third.company],
      );

      // After the last turn: the market, for every company, at the price.
      app.setNow(new Date(t0.getTime() + 71 * 60_000));
      assert.ok((await app.waterfalls.sweep()) >= 1);
      const market = ok(await view(outsider, id)).route;
      assert.equal(market.visibility, 0);
      assert.equal(market.book_now, 912.5);
      assert.equal(market.waterfall, undefined, 'the waterfall is the owner’s');
      assert.equal(ok(await view(shipper, id)).route.waterfall.state, 'market');
      const booked = ok(await app.post(`/quotes/book/${id}.json`, { token: outsider.token }));
      assert.equal(booked.route.winner, outsider.company);
    } finally {
      app.setNow(null);
    }
  });

  test('the carrier whose turn it is books: taken at its price, the waterfall ends booked; then = stop expires after the last', async () => {
    const t0 = new Date(Date.now() + 60_000);
    app.setNow(t0);
    try {
      const id = await draft();
      ok(await start(id, { carriers: [first.company, second.company], price: 700, currency: 'chf', minutes: 15 }));
      ok(await app.post(`/quotes/decline/${id}.json`, { token: first.token }));
      const booked = ok(await app.post(`/quotes/book/${id}.json`, { token: second.token }));
      assert.deepEqual([booked.route.status, booked.route.price, booked.route.winner], ['taken', 700, second.company]);
      assert.equal(booked.bid.currency_code, 'CHF');
      assert.equal(ok(await view(shipper, id)).route.waterfall.state, 'booked');
      app.setNow(new Date(t0.getTime() + 60 * 60_000));
      await app.waterfalls.sweep();
      assert.equal(ok(await view(shipper, id)).route.waterfall.state, 'booked', 'a booked waterfall has no turns left');
      assert.equal((await freightRow(app, id)).winner_id, second.company);

      const stop = await draft();
      app.setNow(t0);
      // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
      ok(await start(stop, { carriers: [first.company, second.company], price: 700, minutes: 15, then: 'stop' }));
      // Both turns pass while no process swept: one pass catches up, each turn from the last one's end.
      app.setNow(new Date(t0.getTime() + 31 * 60_000));
      assert.ok((await app.waterfalls.sweep()) >= 1);
      const row = await freightRow(app, stop);
      assert.equal(row.status, 'expired');
      assert.equal(ok(await view(shipper, stop)).route.waterfall.state, 'stopped');
      for (const who of [first, second, outsider]) assert.equal(await sees(who, stop), false);

      // A turn whose end passed is over for a request too, whether or not a sweeper came by.
      const lazy = await draft();
      app.setNow(t0);
      ok(await start(lazy, { carriers: [first.company, second.company], price: 700, minutes: 15 }));
      app.setNow(new Date(t0.getTime() + 16 * 60_000));
      assert.equal((await app.post(`/quotes/book/${lazy}.json`, { token: first.token })).status, 404, 'the first turn is over');
      ok(await app.post(`/quotes/book/${lazy}.json`, { token: second.token }));
    } finally {
      app.setNow(null);
    }
  });
});
