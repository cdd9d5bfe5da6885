import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startWith } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { confirm, placeBid, publishedFreight, revoke, setFreightStatus } from './fixtures.ts';

/**
 * `_bids` in GET /freights/view (docs/reference.md#freights): present only while the freight is open,
 * pending or taken; all bids for the owner; for anyone else only its own company's bids.
 */
let app: TestApp;
let owner: Actor, carrierA: Actor, carrierB: Actor, outsider: Actor;

before(
  async () =>
    ({
      app,
      actors: [owner, carrierA, carrierB, outsider],
    } = await startWith(['Owner', 'CarrierA', 'CarrierB', 'Outsider'])),
);
after(() => app.close());

/** A freight with two bids of A (one revoked), one of B, none of the outsider. */
async function freightWithBids() {
  const route = await publishedFreight(app, owner);
  const a1 = await placeBid(app, carrierA, route, { amount: '100' });
  const a2 = await placeBid(app, carrierA, route, { amount: '90' });
  await revoke(app, carrierA, a2.id);
  const b1 = await placeBid(app, carrierB, route, { amount: '95' });
  return { route, a: [a1.id, a2.id] as number[], b: [b1.id] as number[] };
}

async function view(actor: Actor, route: number) {
  return app.get(`/freights/view/${route}.json`, { token: actor.token });
}

async function bidIdsSeenBy(actor: Actor, route: number): Promise<number[] | 'absent' | 404> {
  const res = await view(actor, route);
  if (res.status === 404) return 404;
  assert.equal(res.status, 200);
  const data = res.body.data.route;
  if (!('_bids' in data)) return 'absent';
  assert.ok(Array.isArray(data._bids));
  for (const bid of data._bids) {
    // Every bid shown has the Bid fields of docs/reference.md#the-api.
    for (const key of [
      'id',
      'route',
      'company',
      'user',
      'display_company_id',
      'amount',
      'currency_code',
      'rate_base',
      'rate_fsc',
      'rate_ssc',
      'note',
      'status',
      'type',
      'deadline',
      'created',
    ]) {
      assert.ok(key in bid, `bid field ${key}`);
    }
    if (actor !== owner) assert.equal(bid.company, actor.company, 'never another company’s bid');
  }
  return data._bids.map((b: { id: number }) => b.id).sort((x: number, y: number) => x - y);
}

describe('_bids visibility in GET /freights/view', () => {
  test('open: owner all, each bidder its own, a company without bids an empty array', async () => {
    const f = await freightWithBids();
    assert.deepEqual(await bidIdsSeenBy(owner, f.route), [...f.a, ...f.b]);
    assert.deepEqual(await bidIdsSeenBy(carrierA, f.route), f.a);
    assert.deepEqual(await bidIdsSeenBy(carrierB, f.route), f.b);
    assert.deepEqual(await bidIdsSeenBy(outsider, f.route), []);
  });

  test('pending: the same', async () => {
    const f = await freightWithBids();
    assert.equal((await confirm(app, owner, f.b[0]!)).status, 302);
    assert.equal((await view(owner, f.route)).body.data.route.status, 'pending');
    assert.deepEqual(await bidIdsSeenBy(owner, f.route), [...f.a, ...f.b]);
    assert.deepEqual(await bidIdsSeenBy(carrierA, f.route), f.a);
    assert.deepEqual(await bidIdsSeenBy(carrierB, f.route), f.b);
    assert.deepEqual(await bidIdsSeenBy(outsider, f.route), []);
  });

  test('taken: owner all, winner and losing bidder their own; a company that never bid: 404', async () => {
    const f = await freightWithBids();
    await confirm(app, owner, f.b[0]!);
    assert.equal((await confirm(app, carrierB, f.b[0]!)).status, 200);
    const seen = await view(owner, f.route);
    assert.equal(seen.body.data.route.status, 'taken');
    assert.equal(seen.body.data.route.winner, carrierB.company);
    assert.equal(seen.body.data.route.price, 95);
    assert.deepEqual(await bidIdsSeenBy(owner, f.route), [...f.a, ...f.b]);
    assert.deepEqual(await bidIdsSeenBy(carrierB, f.route), f.b);
    assert.deepEqual(await bidIdsSeenBy(carrierA, f.route), f.a);
    assert.equal(await bidIdsSeenBy(outsider, f.route), 404);
    // The losing bidder sees the freight masked.
    const masked = (await view(carrierA, f.route)).body.data.route;
    assert.equal(masked.winner, null);
    assert.equal(masked.price, null);
  });

  for (const status of ['expired', 'revoked', 'closed', 'archived'] as const) {
    test(`${status}: _bids absent (not empty) for owner and bidders; 404 for others`, async () => {
      const f = await freightWithBids();
      await setFreightStatus(app, f.route, status);
      assert.equal(await bidIdsSeenBy(owner, f.route), 'absent');
      assert.equal(await bidIdsSeenBy(carrierA, f.route), 'absent');
      assert.equal(await bidIdsSeenBy(carrierB, f.route), 'absent');
      assert.equal(await bidIdsSeenBy(outsider, f.route), 404);
    });
  }

  test('draft: _bids absent for the owner; 404 for everyone else', async () => {
    const add = await app.post('/freights/add.json', { token: owner.token, json: { from: 'airport:FRA', to: 'airport:AMS', weight: 100 } });
    const route = add.body.data.id as number;
    assert.equal(await bidIdsSeenBy(owner, route), 'absent');
    assert.equal(await bidIdsSeenBy(carrierA, route), 404);
  });
});
