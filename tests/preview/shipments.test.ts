import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { insertBid, insertFreight } from './fixtures.ts';

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let rival: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  rival = await app.actor('Rival');
});
after(() => app.close());

const view = (actor: Actor, id: number | string) => app.get(`/routes/view/${id}.json`, { token: actor.token });
const enlist = async (actor: Actor, filter: number | string, query?: Record<string, string>) => {
  const res = await app.get(`/routes/enlist/${filter}.json`, { token: actor.token, query });
  assert.equal(res.status, 200, res.text);
  return res;
};
const idsIn = async (actor: Actor, filter: number, query?: Record<string, string>) =>
  ((await enlist(actor, filter, query)).body.data.routes as Array<{ id: number }>).map((r) => r.id);

describe('GET /routes/view/{id}', () => {
  test('the owner sees the Shipment: chargeable weight and capacity in whole units, rounded up', async () => {
    const id = await insertFreight(app, shipper, {
      status: 'draft',
      from: 'FRA',
      to: '60311',
      weight: '1000.001',
      weightVolume: '980',
      refs: { capacity: '12.2', customer: 'PO-1' },
    });
    const res = await view(shipper, id);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.deepEqual(res.body.data.route, { id, from: 'FRA', to: '60311', weight: 1001, capacity: 13 });
    assert.equal(res.body.auth.email, shipper.email);
  });

  test('the larger of weight and volume weight counts; unknown values are null', async () => {
    const vol = await insertFreight(app, shipper, { status: 'draft', weight: '500', weightVolume: '750.5' });
    assert.equal((await view(shipper, vol)).body.data.route.weight, 751);
    const none = await insertFreight(app, shipper, { status: 'draft', weight: null, refs: { capacity: 'lots' } });
    assert.deepEqual((await view(shipper, none)).body.data.route, { id: none, from: 'FRA', to: '60311', weight: null, capacity: null });
    const exact = await insertFreight(app, shipper, { status: 'draft', weight: '24000', refs: { capacity: 80 } });
    assert.deepEqual((await view(shipper, exact)).body.data.route, { id: exact, from: 'FRA', to: '60311', weight: 24000, capacity: 80 });
  });

  test('an open freight is visible to the market, without the refs-based capacity', async () => {
    const id = await insertFreight(app, shipper, { status: 'open', refs: { capacity: 5 } });
    assert.deepEqual((await view(carrier, id)).body.data.route, { id, from: 'FRA', to: '60311', weight: 1000, capacity: null });
  });

  test('drafts, own-company-only and foreign whitelists, missing ids: 404 with data []', async () => {
    const draft = await insertFreight(app, shipper, { status: 'draft' });
    const own = await insertFreight(app, shipper, { status: 'open', visibility: -1 });
    const listed = await insertFreight(app, shipper, { status: 'open', visibility: -2, whitelist: [rival.company] });
    for (const id of [draft, own, listed, 99999999]) {
      const res = await view(carrier, id);
      assert.equal(res.status, 404, String(id));
      assert.equal(res.body.status, 'error');
      assert.deepEqual(res.body.data, []);
    }
    assert.equal((await view(rival, listed)).status, 200);
    assert.equal((await view(carrier, 'abc')).status, 404);
    assert.equal((await view(carrier, 0)).status, 404);
  });

  test('the winner sees it unmasked; a losing bidder masked; anyone else not at all', async () => {
    const id = await insertFreight(app, shipper, { status: 'taken', winner: carrier, refs: { capacity: 3 } });
    await insertBid(app, carrier, id, 'accepted');
    await insertBid(app, rival, id, 'open');
    assert.deepEqual((await view(carrier, id)).body.data.route, { id, from: 'FRA', to: '60311', weight: 1000, capacity: 3 });
    assert.deepEqual((await view(rival, id)).body.data.route, { id, from: null, to: null, weight: 1000, capacity: null });
    const stranger = await app.actor('Stranger');
    assert.equal((await view(stranger, id)).status, 404);
  });

  test('no token: 401', async () => {
    assert.equal((await app.get('/routes/view/1.json')).status, 401);
    assert.equal((await app.get('/routes/enlist/10.json')).status, 401);
  });
});

describe('GET /routes/enlist/{filterId}', () => {
  let app2: TestApp;
  let owner: Actor;
  let provider: Actor;
  let third: Actor;
  const f = {} as { draft: number; open: number; bidOn: number; won: number; lost: number; archived: number };

  before(async () => {
    app2 = app;
    owner = await app2.actor('Owner');
    provider = await app2.actor('Provider');
    third = await app2.actor('Third');
    f.draft = await insertFreight(app2, owner, { status: 'draft' });
    f.open = await insertFreight(app2, owner, { status: 'open', refs: { capacity: 2 } });
    f.bidOn = await insertFreight(app2, owner, { status: 'open' });
    await insertBid(app2, provider, f.bidOn);
    f.won = await insertFreight(app2, owner, { status: 'taken', winner: provider });
    f.lost = await insertFreight(app2, owner, { status: 'taken', winner: third });
    await insertBid(app2, provider, f.lost);
    f.archived = await insertFreight(app2, owner, { status: 'archived' });
  });

  test('as principal: 20 drafts, 10 open, 17 with bids, 18 without, 12 taken, 19 archive', async () => {
    assert.deepEqual(await idsIn(owner, 20), [f.draft]);
    assert.deepEqual((await idsIn(owner, 10)).sort(), [f.open, f.bidOn].sort());
    assert.deepEqual(await idsIn(owner, 17), [f.bidOn]);
    assert.deepEqual(await idsIn(owner, 18), [f.open]);
    assert.deepEqual((await idsIn(owner, 12)).sort(), [f.won, f.lost].sort());
    assert.deepEqual(await idsIn(owner, 19), [f.archived]);
    const [open] = (await enlist(owner, 18)).body.data.routes;
    assert.deepEqual(open, { id: f.open, from: 'FRA', to: '60311', weight: 1000, capacity: 2 });
  });

  test('as provider: 8 open without own bid, 7 with, 2 won, 6 lost (masked)', async () => {
    assert.ok((await idsIn(provider, 8)).includes(f.open));
    assert.ok(!(await idsIn(provider, 8)).includes(f.bidOn));
    assert.deepEqual(await idsIn(provider, 7), [f.bidOn]);
    assert.deepEqual(await idsIn(provider, 2), [f.won]);
    const lost = (await enlist(provider, 6)).body.data.routes;
    assert.deepEqual(lost, [{ id: f.lost, from: null, to: null, weight: 1000, capacity: null }]);
  });

  test("company isolation: others' drafts and orders never appear", async () => {
    for (const filter of [20, 10, 17, 18, 12, 19]) assert.deepEqual(await idsIn(third, filter), [], String(filter));
    assert.ok(!(await idsIn(third, 8)).includes(f.draft));
    assert.deepEqual(await idsIn(third, 2), [f.lost]);
  });

  test('paging: limit and page; the last page is the first shorter one', async () => {
    const all = await idsIn(owner, 10, { sort: 'Routes.id', direction: 'asc' });
    assert.deepEqual(
      all,
      [f.open, f.bidOn].sort((a, b) => a - b),
    );
    assert.deepEqual(await idsIn(owner, 10, { sort: 'Routes.id', direction: 'asc', limit: '1', page: '2' }), [all[1]]);
    assert.deepEqual(await idsIn(owner, 10, { limit: '1', page: '3' }), []);
  });

  test('an unknown filter is status error with an empty list', async () => {
    for (const filter of ['5', '999', 'x']) {
      const res = await enlist(owner, filter);
      assert.equal(res.body.status, 'error');
      assert.deepEqual(res.body.data.routes, []);
    }
  });
});
