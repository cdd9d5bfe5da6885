import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startWith } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { confirm, placeBid, publishedFreight, revoke, setFreightStatus } from './fixtures.ts';

/**
 * Enlist filters whose membership depends on bids (docs/reference.md#freights; "had bid" = a non-revoked
 * bid of the caller's company), followed through bid actions: create, revoke, confirm, award.
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

/** The filters (of those given) whose list holds the freight, for one caller. */
async function listsOf(actor: Actor, route: number, filters: number[]): Promise<number[]> {
  const found: number[] = [];
  for (const id of filters) {
    const res = await app.get(`/freights/enlist/${id}.json?limit=100`, { token: actor.token });
    assert.equal(res.status, 200, `filter ${id}`);
    if (res.body.data.routes.some((r: { id: number }) => r.id === route)) found.push(id);
  }
  return found;
}
const PROVIDER = [2, 6, 7, 8, 9];
const PRINCIPAL = [10, 12, 17, 18, 19];

describe('enlist filters through bid actions', () => {
  test('create, revoke, bid again, confirm, award, close', async () => {
    const route = await publishedFreight(app, owner);

    // Published, no bids: every other company's 8, the owner's 10 and 18.
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [8]);
    assert.deepEqual(await listsOf(outsider, route, PROVIDER), [8]);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [10, 18]);
    assert.deepEqual(await listsOf(owner, route, PROVIDER), [], 'own freights are never in provider lists');

    // A bids: A moves from 8 to 7; the owner's from 18 to 17.
    const a1 = await placeBid(app, carrierA, route, { amount: '500' });
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [7]);
    assert.deepEqual(await listsOf(carrierB, route, PROVIDER), [8]);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [10, 17]);

    // A revokes: no longer counts as a bid; back in A's 8 and the owner's 18.
    assert.equal((await revoke(app, carrierA, a1.id)).body.status, 'success');
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [8]);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [10, 18]);

    // Both bid; one side confirms B: pending freights stay in 7 and 17.
    const a2 = await placeBid(app, carrierA, route, { amount: '480' });
    const b1 = await placeBid(app, carrierB, route, { amount: '470' });
    assert.equal((await confirm(app, owner, b1.id)).status, 302);
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [7]);
    assert.deepEqual(await listsOf(carrierB, route, PROVIDER), [7]);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [10, 17]);
    assert.deepEqual(await listsOf(outsider, route, PROVIDER), [8]);

    // Award to B: B's 2 (won), A's 6 (bid rejected), the owner's 12; gone from the market.
    assert.equal((await confirm(app, carrierB, b1.id)).status, 200);
    assert.deepEqual(await listsOf(carrierB, route, PROVIDER), [2]);
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [6]);
    assert.deepEqual(await listsOf(outsider, route, PROVIDER), []);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [12]);
    const rejected = (await app.get('/freights/enlist/6.json?limit=100', { token: carrierA.token })).body.data.routes.find(
      (r: { id: number }) => r.id === route,
    );
    assert.equal(rejected.winner, null, 'masked for the losing bidder');
    assert.equal(rejected.price, null);
    void a2;

    // Closed: B's archive (9, as winner), A's 6 and 9; the owner's 19.
    await setFreightStatus(app, route, 'closed');
    assert.deepEqual(await listsOf(carrierB, route, PROVIDER), [9]);
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [6, 9]);
    assert.deepEqual(await listsOf(outsider, route, PROVIDER), []);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [19]);
  });

  test('an expired freight: in 9 for a company that had bid, not for one that revoked', async () => {
    const route = await publishedFreight(app, owner);
    await placeBid(app, carrierA, route);
    const b = await placeBid(app, carrierB, route);
    await revoke(app, carrierB, b.id);
    await setFreightStatus(app, route, 'expired');
    assert.deepEqual(await listsOf(carrierA, route, PROVIDER), [9]);
    assert.deepEqual(await listsOf(carrierB, route, PROVIDER), []);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [19]);
  });

  test('a selling bid (the owner on its own freight) counts as a bid for 17/18', async () => {
    const route = await publishedFreight(app, owner);
    await placeBid(app, owner, route);
    assert.deepEqual(await listsOf(owner, route, PRINCIPAL), [10, 17]);
    assert.deepEqual(await listsOf(owner, route, PROVIDER), []);
  });
});
