import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { enlistIds, insertBid, openFreight } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { takenFreight } from './helpers.ts';

/**
 * decisions.md §12, blocking: a blocked company's freights leave the blocker's lists, searches,
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
