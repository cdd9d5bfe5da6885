import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { enlistIds, force, insertBid, openFreight, publish } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { takenFreight } from './helpers.ts';

/**
 * docs/reference.md#trust, blocking: a blocked company's freights leave the blocker's lists, searches,
 * counts and saved-search alerts; its bids on the blocker's freights are refused.
 */

let app: TestApp;
let shipper: Actor; // the blocked company
let other: Actor; // a shipper nobody blocks
let carrier: Actor; // the blocker

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  other = await app.actor('Other');
  carrier = await app.actor('Carrier');
});
after(() => app.close());

const post = (who: Actor, url: string, json?: Record<string, unknown>) => app.post(url, { token: who.token, json: json ?? {} });
const counts = async (who: Actor, query = '') => (await app.get(`/freights/counts.json${query}`, { token: who.token })).body.data.counts;
const blocked = async (who: Actor) => (await app.get('/companies/blocked.json', { token: who.token })).body.data.companies;

describe('block, unblock, blocked', () => {
  test('block answers the company; blocked lists id and name; unblock lifts it; refusals', async () => {
    assert.deepEqual(await blocked(carrier), []);
    const res = await post(carrier, `/companies/block/${shipper.company}.json`);
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.company, { id: shipper.company, name: shipper.companyName, blocked: true });
    // Twice is the same block.
    assert.equal((await post(carrier, `/companies/block/${shipper.company}.json`)).body.status, 'success');
    assert.deepEqual(await blocked(carrier), [{ id: shipper.company, name: shipper.companyName }]);
    assert.deepEqual(await blocked(shipper), []);

    const self = await post(carrier, `/companies/block/${carrier.company}.json`);
    assert.equal(self.body.status, 'error');
    assert.equal(self.body.code, 'companies.block_self');
    for (const bad of ['999999', 'abc', '0']) {
      assert.equal((await post(carrier, `/companies/block/${bad}.json`)).status, 404, bad);
      assert.equal((await post(carrier, `/companies/unblock/${bad}.json`)).status, 404, bad);
    }
    const lifted = await post(carrier, `/companies/unblock/${shipper.company}.json`);
    assert.deepEqual(lifted.body.data.company, { id: shipper.company, name: shipper.companyName, blocked: false });
    assert.deepEqual(await blocked(carrier), []);
  });

  test('at most 1,000 blocks per company', async () => {
    const blocker = await app.actor('Blocker');
    const many = await app.services.db
      .insertInto('companies')
      .values(Array.from({ length: 1000 }, (_, i) => ({ name: `Filler ${i}` })))
      .returning('id')
      .execute();
    await app.services.db
      .insertInto('company_blocks')
      .values(many.map((c) => ({ blocker_id: blocker.company, blocked_id: c.id, created: new Date() })))
      .execute();
    const res = await post(blocker, `/companies/block/${shipper.company}.json`);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.code, 'companies.too_many_blocks');
    // Blocking one already blocked is no new block.
    assert.equal((await post(blocker, `/companies/block/${many[0]!.id}.json`)).body.status, 'success');
  });
});

describe('a blocked company’s freights vanish from the blocker', () => {
  test('lists, searches and counts, in every list; back after unblocking', async () => {
    const market = await openFreight(app, shipper, { from: 'airport:LEJ', weight: 777 });
    const bidOn = await openFreight(app, shipper, { from: 'airport:LEJ', weight: 777 });
    await insertBid(app, bidOn, carrier);
    const won = await takenFreight(app, shipper, carrier, { from: 'airport:LEJ', weight: 777 });
    const visible = await openFreight(app, other, { from: 'airport:LEJ', weight: 777 });
    const search = '?from=airport:LEJ&weight_min=700&weight_max=800';

    const before = await counts(carrier, search);
    assert.deepEqual((await enlistIds(app, carrier, 8, search)).sort(), [market, visible].sort());
    assert.deepEqual(await enlistIds(app, carrier, 7, search), [bidOn]);
    assert.deepEqual(await enlistIds(app, carrier, 2, search), [won]);
    assert.equal(before['8'], 2);
    assert.equal(before['7'], 1);
    assert.equal(before['2'], 1);

    assert.equal((await post(carrier, `/companies/block/${shipper.company}.json`)).body.status, 'success');
    assert.deepEqual(await enlistIds(app, carrier, 8, search), [visible]);
    assert.ok(!(await enlistIds(app, carrier, 8)).includes(market), 'the plain list too');
    assert.deepEqual(await enlistIds(app, carrier, 7, search), []);
    assert.ok(!(await enlistIds(app, carrier, 7)).includes(bidOn));
    assert.deepEqual(await enlistIds(app, carrier, 2, search), []);
    for (const sort of ['?sort=Routes.weight&direction=desc', '?sort=Routes.deadline', '?q=LEJ'])
      assert.ok(!(await enlistIds(app, carrier, 8, sort)).includes(market), sort);
    const after = await counts(carrier, search);
    assert.equal(after['8'], 1);
    assert.equal(after['7'], 0);
    assert.equal(after['2'], 0);
    const plain = await counts(carrier);
    assert.equal(plain['8'], (await enlistIds(app, carrier, 8, '?limit=100')).length);

    // The blocked company still sees its own freights, and the other way round nothing changed.
    assert.ok((await enlistIds(app, other, 8)).includes(market));
    assert.ok((await enlistIds(app, shipper, 10)).includes(market));

    assert.equal((await post(carrier, `/companies/unblock/${shipper.company}.json`)).body.status, 'success');
    assert.deepEqual((await enlistIds(app, carrier, 8, search)).sort(), [market, visible].sort());
    assert.deepEqual(await counts(carrier, search), before);
  });

  test('the bidder’s, loser’s, winner’s and booking lists (6, 9, 210, 211, 219), a radius search, and their counts', async () => {
    const owner = await app.actor('Owner of every list');
    const viewer = await app.actor('Viewer of every list');
    const made: Record<number, number> = {};
    // 6: the viewer's bid lost (another company won).
    made[6] = await openFreight(app, owner, { from: 'airport:LEJ' });
    await insertBid(app, made[6], viewer);
    await force(app, made[6], { status: 'taken', winner_id: other.company });
    // 9: the viewer bid on a freight that ended.
    made[9] = await openFreight(app, owner, { from: 'airport:LEJ' });
    await insertBid(app, made[9], viewer);
    await force(app, made[9], { status: 'revoked' });
    // 210, 211, 219: booking requests addressed to the viewer: open, taken by it, ended.
    const request = async () => {
      const res = await post(owner, `/freights/request/direct/${viewer.company}.json`, { from: 'LEJ', to: 'AMS' });
      assert.equal(res.body.status, 'success', res.text);
      const id = res.body.data.route.id as number;
      await publish(app, owner, id);
      return id;
    };
    made[210] = await request();
    made[211] = await request();
    await force(app, made[211], { status: 'taken', winner_id: viewer.company });
    made[219] = await request();
    await force(app, made[219], { status: 'archived', winner_id: viewer.company });
    // The market within 30 km of Leipzig: by coordinates, and by the postal code alone.
    const near = '?from_near=51.34,12.37&from_radius=30';
    const byPoint = await openFreight(app, owner, { from: 'city:04109', from_country: 'DE', from_latitude: 51.34, from_longitude: 12.375 });
    const byPostal = await openFreight(app, owner, { from: 'city:04103', from_country: 'DE' });

    const lists = [6, 9, 210, 211, 219] as const;
    for (const list of lists) assert.ok((await enlistIds(app, viewer, list)).includes(made[list]!), `${list} before`);
    assert.deepEqual(
      (await enlistIds(app, viewer, 8, near)).filter((id) => [byPoint, byPostal].includes(id)).sort(),
      [byPoint, byPostal].sort(),
    );
    const before = await counts(viewer);
    const beforeNear = await counts(viewer, near);

    assert.equal((await post(viewer, `/companies/block/${owner.company}.json`)).body.status, 'success');
    for (const list of lists) assert.ok(!(await enlistIds(app, viewer, list)).includes(made[list]!), `${list} after the block`);
    const found = await enlistIds(app, viewer, 8, near);
    assert.ok(!found.includes(byPoint) && !found.includes(byPostal), 'the radius search');
    const after = await counts(viewer);
    // Each count is its list's, without the blocked company's freights (list 9 held the ended booking request too).
    for (const list of lists) {
      assert.equal(after[String(list)], (await enlistIds(app, viewer, list, '?limit=100')).length, `count of ${list}`);
      assert.ok(after[String(list)] < before[String(list)], `count of ${list} fell`);
    }
    // The market lost the two freights and the open booking request (whitelisted for the viewer).
    assert.equal(after['8'], before['8'] - 3, 'count of the market');
    assert.equal(after['8'], (await enlistIds(app, viewer, 8, '?limit=100')).length);
    // Around Leipzig: the two freights and the booking request from its airport (LEJ, about 15 km).
    assert.equal((await counts(viewer, near))['8'], beforeNear['8'] - 3, 'count of the radius search');
    assert.equal((await counts(viewer, near))['8'], found.length);
    await post(viewer, `/companies/unblock/${owner.company}.json`);
    assert.deepEqual(await counts(viewer), before);
  });

  test('saved-search alerts stay silent for a blocked company’s freights', async () => {
    const added = await post(carrier, '/searches/add.json', { name: 'Leipzig', params: { from: 'airport:LEJ' }, alert: 1 });
    assert.equal(added.body.status, 'success', added.text);
    await post(carrier, `/companies/block/${shipper.company}.json`);
    const fromBlocked = await openFreight(app, shipper, { from: 'airport:LEJ' });
    const fromOther = await openFreight(app, other, { from: 'airport:LEJ' });
    const notes = (await app.get('/notifications/index.json', { token: carrier.token })).body.data.notifications;
    const routes = notes.map((n: { route_id: number }) => n.route_id);
    assert.ok(routes.includes(fromOther));
    assert.ok(!routes.includes(fromBlocked));
    // Nor the event (docs/reference.md#events): freight.matched for the other's freight only.
    const { rows } = await sql<{
      body: string;
    }>`select body from events where type = 'freight.matched' and company_id = ${carrier.company}`.execute(app.services.db);
    const matched = rows.map((r) => JSON.parse(r.body).data.route?.id);
    assert.ok(matched.includes(fromOther), 'the event for the other company’s freight');
    assert.ok(!matched.includes(fromBlocked), 'no event for the blocked company’s freight');
    await post(carrier, `/companies/unblock/${shipper.company}.json`);
    const afterUnblock = await openFreight(app, shipper, { from: 'airport:LEJ' });
    const again = (await app.get('/notifications/index.json', { token: carrier.token })).body.data.notifications;
    assert.ok(again.some((n: { route_id: number }) => n.route_id === afterUnblock));
  });
});

describe('bids of a blocked company on the blocker’s freights', () => {
  test('are refused with status error; other bidders and the other way round are not', async () => {
    const freight = await openFreight(app, carrier);
    assert.equal((await post(carrier, `/companies/block/${shipper.company}.json`)).body.status, 'success');
    const res = await post(shipper, '/quotes/add.json', { route: freight, amount: '100', currency_code: 'EUR' });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.code, 'quotes.bidder_blocked');
    const bids = await app.services.db.selectFrom('bids').select('id').where('freight_id', '=', freight).execute();
    assert.equal(bids.length, 0);
    assert.equal((await post(other, '/quotes/add.json', { route: freight, amount: '100', currency_code: 'EUR' })).body.status, 'success');
    // The blocker may still bid on the blocked company's freights (the block is one-sided).
    const theirs = await openFreight(app, shipper);
    assert.equal((await post(carrier, '/quotes/add.json', { route: theirs, amount: '90', currency_code: 'EUR' })).body.status, 'success');
    await post(carrier, `/companies/unblock/${shipper.company}.json`);
    assert.equal((await post(shipper, '/quotes/add.json', { route: freight, amount: '100', currency_code: 'EUR' })).body.status, 'success');
  });
});

describe('a bid placed before a block is confirmed by neither side after it', () => {
  const bidOf = async (bidder: Actor, freight: number) => {
    const res = await post(bidder, '/quotes/add.json', { route: freight, amount: '500', currency_code: 'EUR' });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.bid.id as number;
  };
  const confirm = (who: Actor, bid: number) => post(who, `/quotes/confirm/${bid}.json`);
  const state = async (bid: number, freight: number) => {
    const b = await app.services.db
      .selectFrom('bids')
      .select(['status', 'owner_confirmed', 'bidder_confirmed'])
      .where('id', '=', bid)
      .executeTakeFirstOrThrow();
    const f = await app.services.db
      .selectFrom('freights')
      .select(['status', 'winner_id'])
      .where('id', '=', freight)
      .executeTakeFirstOrThrow();
    return { bid: b.status, owner: b.owner_confirmed, bidder: b.bidder_confirmed, freight: f.status, winner: f.winner_id };
  };
  /** A refused confirmation: the 302 back to the freight page (docs/reference.md#the-api), nothing changed. */
  const refusedBack = (res: { status: number; headers: Record<string, unknown> }, freight: number) => {
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `/freights/view/${freight}`);
  };

  test('the owner blocks the bidder between the bid and the confirmations: neither side confirms; unblocked, both do', async () => {
    const owner = await app.actor('Owner blocking late');
    const bidder = await app.actor('Bidder blocked late');
    const freight = await openFreight(app, owner);
    const bid = await bidOf(bidder, freight);
    assert.equal((await post(owner, `/companies/block/${bidder.company}.json`)).body.status, 'success');
    for (const who of [owner, bidder]) refusedBack(await confirm(who, bid), freight);
    assert.deepEqual(await state(bid, freight), { bid: 'open', owner: false, bidder: false, freight: 'open', winner: null });
    assert.equal((await post(owner, `/companies/unblock/${bidder.company}.json`)).body.status, 'success');
    assert.equal((await confirm(owner, bid)).status, 302);
    const awarded = await confirm(bidder, bid);
    assert.equal(awarded.body.status, 'success', awarded.text);
    assert.equal((await state(bid, freight)).winner, bidder.company);
  });

  test('the bidder blocks the owner after the owner confirmed: the bidder cannot complete the award', async () => {
    const owner = await app.actor('Owner confirmed first');
    const bidder = await app.actor('Bidder blocking late');
    const freight = await openFreight(app, owner);
    const bid = await bidOf(bidder, freight);
    assert.equal((await confirm(owner, bid)).status, 302);
    assert.deepEqual(await state(bid, freight), { bid: 'pending', owner: true, bidder: false, freight: 'pending', winner: null });
    assert.equal((await post(bidder, `/companies/block/${owner.company}.json`)).body.status, 'success');
    refusedBack(await confirm(bidder, bid), freight);
    assert.deepEqual(await state(bid, freight), { bid: 'pending', owner: true, bidder: false, freight: 'pending', winner: null });
  });

  test('a block committed while the confirmation waits for the freight’s lock is seen: it is read inside the confirming transaction', async () => {
    const owner = await app.actor('Owner blocking meanwhile');
    const bidder = await app.actor('Bidder confirming meanwhile');
    const freight = await openFreight(app, owner);
    const bid = await bidOf(bidder, freight);
    assert.equal((await confirm(owner, bid)).status, 302);
    // The freight's lock held while the block is written; the bidder's confirmation starts meanwhile
    // (on PostgreSQL it reads the bid, then waits for the lock), and the block commits before it goes on.
    const { request } = await app.services.db.transaction().execute(async (trx) => {
      await trx.selectFrom('freights').select('id').where('id', '=', freight).forUpdate().execute();
      await trx
        .insertInto('company_blocks')
        .values({ blocker_id: owner.company, blocked_id: bidder.company, created: new Date() })
        .execute();
      const request = confirm(bidder, bid);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { request };
    });
    refusedBack(await request, freight);
    assert.deepEqual(await state(bid, freight), { bid: 'pending', owner: true, bidder: false, freight: 'pending', winner: null });
  });
});
