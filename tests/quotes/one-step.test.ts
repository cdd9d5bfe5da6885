import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AwardPath, bookNow } from '../../src/freights/index.ts';
import type { Caller } from '../../src/kernel/context.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { bidsOf, confirm, freightRow, placeBid, revoke } from './fixtures.ts';

/**
 * docs/reference.md#one-step, deals in one step: Book Now, automatic award, counter-offers (the waterfall
 * has its own file, waterfall.test.ts). Each rule and each refusal, on the engine under test.
 */

let app: TestApp;
let shipper: Actor;
let carrierA: Actor;
let carrierB: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrierA = await app.actor('CarrierA');
  carrierB = await app.actor('CarrierB');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

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

/** An open freight of the shipper, added and published through the API with the given terms. */
async function openFreight(terms: Record<string, unknown> = {}, visibility?: number): Promise<number> {
  const add = ok(
    await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 12000, from_addr: 'Dock 1', to_addr: 'Dock 2', ...terms },
    }),
  );
  const pub = await app.post(`/freights/view/${add.id}.json`, {
    token: shipper.token,
    json: { action: 'publish', deadline: '+2 days', ...(visibility !== undefined && { visibility }) },
  });
  assert.equal(pub.status, 302, pub.text);
  return add.id as number;
}

const view = (who: Actor, id: number) => app.get(`/freights/view/${id}.json`, { token: who.token });
const book = (who: Actor, id: number) => app.post(`/quotes/book/${id}.json`, { token: who.token });
const eventsSince = async (after: number) =>
  app.services.db.selectFrom('events').select(['seq', 'type', 'company_id']).where('seq', '>', after).orderBy('seq').execute();
const lastEvent = async () =>
  Number(
    (
      await app.services.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('max'))
        .executeTakeFirst()
    )?.max ?? 0,
  );

describe(`Book Now, automatic award and counters (${TEST_DB})`, () => {
  test('book_now, its currency and auto_award are freight fields: add, edit, read back; bad values ignored with a warning', async () => {
    const add = await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'city:DE-60311', to: 'city:FR-75001', book_now: '912.50', auto_award: 850, book_now_currency: 'chf' },
    });
    const id = ok(add).id as number;
    let route = ok(await view(shipper, id)).route;
    assert.equal(route.book_now, 912.5);
    assert.equal(route.book_now_currency, 'CHF');
    assert.equal(route.auto_award, 850);

    const edit = await app.post(`/freights/edit/${id}.json`, {
      token: shipper.token,
      json: { book_now: 0, auto_award: '12.345', book_now_currency: 'euro' },
    });
    const warned = (edit.body.warnings ?? []).map((w: { field: string }) => w.field).sort();
    assert.deepEqual(warned, ['auto_award', 'book_now', 'book_now_currency'], edit.text);
    route = ok(await view(shipper, id)).route;
    assert.deepEqual([route.book_now, route.auto_award, route.book_now_currency], [912.5, 850, 'CHF'], 'nothing unreadable was written');

    ok(
      await app.post(`/freights/edit/${id}.json`, {
        token: shipper.token,
        json: { book_now: null, auto_award: '', book_now_currency: '' },
      }),
    );
    route = ok(await view(shipper, id)).route;
    assert.deepEqual([route.book_now, route.auto_award, route.book_now_currency], [null, null, 'EUR'], 'cleared; the currency is EUR');
  });

  test('a pending freight’s Book Now and walk-away prices are frozen with its other terms', async () => {
    const id = await openFreight({ book_now: 1000 });
    const bid = await placeBid(app, carrierA, id, { amount: '990' });
    assert.equal((await confirm(app, carrierA, bid.id)).status, 302);
    assert.equal((await freightRow(app, id)).status, 'pending');
    const before = await freightRow(app, id);
    const edit = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { book_now: 500, auto_award: 2000 } });
    assert.equal(edit.body.status, 'error', edit.text);
    assert.deepEqual(await freightRow(app, id), before);
  });

  test('Book Now: a bid at the price, awarded in one step: taken, winner, price, events, transport order, other bids back to open', async () => {
    const id = await openFreight({ book_now: '912.50' });
    const other = await placeBid(app, carrierB, id, { amount: '800' });
    assert.equal((await confirm(app, carrierB, other.id)).status, 302, 'a pending bid of another carrier');
    assert.equal(ok(await view(carrierA, id)).route.book_now, 912.5, 'a carrier sees the price');
    const since = await lastEvent();

    const data = ok(await book(carrierA, id));
    assert.equal(data.route.status, 'taken');
    assert.equal(data.route.price, 912.5);
    assert.equal(data.route.winner, carrierA.company);
    assert.equal(data.bid.status, 'accepted');
    assert.equal(data.bid.amount, 912.5);
    assert.equal(data.bid.currency_code, 'EUR');
    assert.equal(data.bid.company, carrierA.company);

    const row = await freightRow(app, id);
    assert.deepEqual(
      [row.status, row.winner_id, row.transport_company_id, row.price],
      ['taken', carrierA.company, carrierA.company, '912.50'],
    );
    const bids = await bidsOf(app, id);
    assert.deepEqual(
      bids.map((b) => [b.company_id, b.status]),
      [
        [carrierB.company, 'open'],
        [carrierA.company, 'accepted'],
      ],
    );
    const events = await eventsSince(since);
    const types = events.map((e) => `${e.type}:${e.company_id}`);
    assert.ok(types.includes(`bid.created:${shipper.company}`), types.join());
    assert.ok(types.includes(`freight.awarded:${shipper.company}`));
    assert.ok(types.includes(`freight.awarded:${carrierA.company}`));
    assert.ok(
      types.indexOf(`bid.created:${shipper.company}`) < types.indexOf(`freight.awarded:${shipper.company}`),
      'the bid before the award',
    );
    const order = await app.services.db.selectFrom('deal_orders').select('freight_id').where('freight_id', '=', id).execute();
    assert.equal(order.length, 1, 'the transport order of the award');
  });

  test('Book Now refusals: no price, own freight, blocked company, taken freight: status error, nothing changed; unseen: 404', async () => {
    const plain = await openFreight();
    let before = await freightRow(app, plain);
    refused(await book(carrierA, plain), 'quotes.book.no_price');
    assert.deepEqual(await freightRow(app, plain), before);
    assert.deepEqual(await bidsOf(app, plain), []);

    const priced = await openFreight({ book_now: 700 });
    refused(await book(shipper, priced), 'quotes.book.own_freight');

    const blocked = await app.actor('Blocked');
    ok(await app.post(`/companies/block/${blocked.company}.json`, { token: shipper.token, json: {} }));
    before = await freightRow(app, priced);
    refused(await book(blocked, priced), 'quotes.bidder_blocked');
    assert.deepEqual(await freightRow(app, priced), before);
    assert.deepEqual(await bidsOf(app, priced), []);

    ok(await book(carrierA, priced));
    before = await freightRow(app, priced);
    refused(await book(carrierB, priced), 'quotes.book.not_available');
    assert.deepEqual(await freightRow(app, priced), before);
    assert.equal((await bidsOf(app, priced)).length, 1);

    const ownOnly = await openFreight({ book_now: 700 }, -1);
    assert.equal((await book(carrierA, ownOnly)).status, 404, 'a freight the caller cannot see');
    assert.equal((await book(carrierA, 99_999_999)).status, 404);
    assert.equal((await app.post('/quotes/book/abc.json', { token: carrierA.token })).status, 404);
  });

  test('booking races in one process: of eight carriers booking at once, exactly one wins, the others are refused', async () => {
    const carriers: Actor[] = [];
    for (let i = 0; i < 8; i++) carriers.push(await app.actor(`Racer${i}`));
    for (let round = 0; round < 3; round++) {
      const id = await openFreight({ book_now: 1500 + round });
      const answers = await Promise.all(carriers.map((c) => book(c, id)));
      assert.ok(
        answers.every((a) => a.status === 200),
        answers.map((a) => a.status).join(),
      );
      const winners = answers.filter((a) => a.body.status === 'success');
      assert.equal(winners.length, 1, 'one winner');
      for (const a of answers.filter((x) => x.body.status !== 'success')) assert.equal(a.body.code, 'quotes.book.not_available');
      const row = await freightRow(app, id);
      assert.equal(row.winner_id, winners[0]!.body.data.route.winner);
      const accepted = (await bidsOf(app, id)).filter((b) => b.status === 'accepted');
      assert.equal(accepted.length, 1);
      assert.equal((await bidsOf(app, id)).length, 1, 'the losers wrote nothing');
    }
  });

  test('a loser is answered once the winner passed its checks, before the winner commits (PostgreSQL)', {
    skip: TEST_DB !== 'postgres' && "the embedded database has one connection: the loser's statement waits for the transaction anyway",
  }, async () => {
    const id = await openFreight({ book_now: 1700 });
    // An award path whose one step holds the winner's transaction open until released.
    let reached!: () => void;
    const atStep = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const award = new AwardPath([
      async () => {
        reached();
        await held;
      },
    ]);
    const caller = (a: Actor) =>
      ({ userId: a.user, companyId: a.company, companyName: a.companyName, email: a.email }) as unknown as Caller;
    const work = { enteredMarket: async () => undefined };
    const { db, clock } = app.services;
    const first = bookNow(db, clock, caller(carrierA), id, award, work);
    await atStep;
    // The winner holds the freight's lock, uncommitted: the loser is refused without waiting for it.
    const second = await bookNow(db, clock, caller(carrierB), id, award, work);
    assert.deepEqual(second, { kind: 'refused', reason: 'quotes.book.not_available', freightId: id });
    assert.equal((await freightRow(app, id)).status, 'open', 'answered before the winner committed');
    release();
    assert.equal((await first).kind, 'done');
    assert.equal((await freightRow(app, id)).winner_id, carrierA.company);
    assert.equal((await bidsOf(app, id)).length, 1, 'the loser wrote nothing');
  });

  test('automatic award: a bid at or below the walk-away price (created or lowered) is awarded at its own amount', async () => {
    const id = await openFreight({ auto_award: '1000.00' });
    const high = await placeBid(app, carrierA, id, { amount: '1000.01' });
    assert.equal(high.status, 'open');
    assert.equal((await freightRow(app, id)).status, 'open');
    const otherCurrency = await placeBid(app, carrierB, id, { amount: '900', currency_code: 'CHF' });
    assert.equal(otherCurrency.status, 'open', 'another currency is not compared');

    const lowered = await app.post('/quotes/add.json', {
      token: carrierA.token,
      json: { id: high.id, route: id, amount: '999.99', currency_code: 'EUR' },
    });
    const bid = ok(lowered).bid;
    assert.equal(bid.status, 'accepted', 'the bid’s answer as usual, awarded');
    const row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', carrierA.company, '999.99']);

    const second = await openFreight({ auto_award: 500 });
    const at = await placeBid(app, carrierB, second, { amount: '500' });
    assert.equal(at.status, 'accepted', 'at the price exactly');
    assert.equal((await freightRow(app, second)).winner_id, carrierB.company);
    const order = await app.services.db.selectFrom('deal_orders').select('freight_id').where('freight_id', '=', second).execute();
    assert.equal(order.length, 1, 'an automatic award does everything an award does');
  });

  test('counters: the owner answers a bid; only the two parties see it; a new one replaces it; a new amount ends it', async () => {
    const id = await openFreight();
    const bidA = await placeBid(app, carrierA, id, { amount: '1400' });
    const bidB = await placeBid(app, carrierB, id, { amount: '1450' });
    const since = await lastEvent();

    const countered = ok(
      await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: '1300', note: 'Our budget' } }),
    );
    assert.equal(countered.bid.counter.amount, 1300);
    assert.equal(countered.bid.counter.currency_code, 'EUR');
    assert.equal(countered.bid.counter.note, 'Our budget');
    assert.match(countered.bid.counter.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const events = await eventsSince(since);
    assert.deepEqual(
      events.map((e) => [e.type, e.company_id]),
      [['bid.countered', carrierA.company]],
      'bid.countered to the bidder alone',
    );

    const mine = ok(await view(carrierA, id)).route._bids;
    assert.equal(mine.length, 1);
    assert.equal(mine[0].counter.amount, 1300, 'the bidder sees it');
    const owners = ok(await view(shipper, id)).route._bids;
    assert.equal(owners.find((b: { id: number }) => b.id === bidA.id).counter.amount, 1300, 'the owner sees it');
    assert.equal(owners.find((b: { id: number }) => b.id === bidB.id).counter, null);
    const others = ok(await view(carrierB, id)).route._bids;
    assert.deepEqual(
      others.map((b: { id: number; counter: unknown }) => [b.id, b.counter]),
      [[bidB.id, null]],
      'another bidder sees neither the bid nor its counter',
    );

    // Only the owner counters: the bidder, another bidder and an outsider get 404.
    for (const who of [carrierA, carrierB, outsider])
      assert.equal((await app.post(`/quotes/counter/${bidA.id}.json`, { token: who.token, json: { amount: 1 } })).status, 404);
    refused(await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: 0 } }), 'quotes.counter.amount');
    refused(
      await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: '1.001' } }),
      'quotes.counter.amount',
    );
    refused(
      await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: 5, note: 'x'.repeat(2001) } }),
      'quotes.counter.note',
    );

    const replaced = ok(await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: '1350' } }));
    assert.deepEqual([replaced.bid.counter.amount, replaced.bid.counter.note], [1350, null], 'a new counter replaces the standing one');

    const changed = ok(
      await app.post('/quotes/add.json', { token: carrierA.token, json: { id: bidA.id, route: id, amount: '1380', currency_code: 'EUR' } }),
    );
    assert.equal(changed.bid.counter, null, 'the bidder’s new amount ends the counter');
    refused(await app.post(`/quotes/accept/${bidA.id}.json`, { token: carrierA.token }), 'quotes.accept.no_counter');

    const history = await app.services.db
      .selectFrom('bid_offers')
      .select(['side', 'amount'])
      .where('bid_id', '=', bidA.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      history.map((h) => [h.side, h.amount]),
      [
        ['bidder', '1400.00'],
        ['owner', '1300.00'],
        ['owner', '1350.00'],
        ['bidder', '1380.00'],
      ],
      'who offered what, in order',
    );
  });

  test('accepting a counter awards the freight to the bidder at the counter’s amount; refusals', async () => {
    const id = await openFreight();
    const bidA = await placeBid(app, carrierA, id, { amount: '2000' });
    const bidB = await placeBid(app, carrierB, id, { amount: '2100' });
    ok(await app.post(`/quotes/counter/${bidA.id}.json`, { token: shipper.token, json: { amount: '1875.25' } }));
    ok(await app.post(`/quotes/counter/${bidB.id}.json`, { token: shipper.token, json: { amount: '1800' } }));
    // Only the bidder accepts: the owner, another bidder, an outsider get 404.
    for (const who of [shipper, carrierB, outsider])
      assert.equal((await app.post(`/quotes/accept/${bidA.id}.json`, { token: who.token })).status, 404);

    const data = ok(await app.post(`/quotes/accept/${bidA.id}.json`, { token: carrierA.token }));
    assert.equal(data.route, id);
    assert.equal(data.bid.status, 'accepted');
    assert.equal(data.bid.amount, 1875.25);
    const row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', carrierA.company, '1875.25']);
    refused(await app.post(`/quotes/accept/${bidB.id}.json`, { token: carrierB.token }), 'quotes.counter.not_open');
    refused(await app.post(`/quotes/counter/${bidB.id}.json`, { token: shipper.token, json: { amount: 10 } }), 'quotes.counter.not_open');

    const revokedFreight = await openFreight();
    const bidC = await placeBid(app, carrierA, revokedFreight, { amount: '500' });
    ok(await app.post(`/quotes/counter/${bidC.id}.json`, { token: shipper.token, json: { amount: 450 } }));
    ok(await revoke(app, carrierA, bidC.id));
    refused(await app.post(`/quotes/accept/${bidC.id}.json`, { token: carrierA.token }), 'quotes.counter.not_open');
    refused(await app.post(`/quotes/counter/${bidC.id}.json`, { token: shipper.token, json: { amount: 440 } }), 'quotes.counter.not_open');
    assert.equal((await freightRow(app, revokedFreight)).status, 'open', 'nothing awarded');
  });
});
