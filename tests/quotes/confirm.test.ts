import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { bidRow, bidsOf, confirm, freightRow, insertFreight, placeBid, publishedFreight, revoke, setFreightStatus } from './fixtures.ts';

let app: TestApp;
let shipper: Actor;
let shipperColleague: Actor;
let carrier: Actor;
let carrier2: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  shipperColleague = await app.colleague(shipper, 'Buyer');
  carrier = await app.actor('Carrier');
  carrier2 = await app.actor('Haulier');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

function assertRedirectToFreight(res: { status: number; headers: Record<string, unknown> }, route: number) {
  assert.equal(res.status, 302);
  assert.equal(res.headers.location, `/freights/view/${route}`);
  assert.doesNotMatch(String(res.headers['content-type']), /json/);
}

async function assertUnchanged(route: number, before: { freight: unknown; bids: unknown }) {
  assert.deepEqual(await freightRow(app, route), before.freight);
  assert.deepEqual(await bidsOf(app, route), before.bids);
}
const snapshot = async (route: number) => ({ freight: await freightRow(app, route), bids: await bidsOf(app, route) });

async function assertAwarded(route: number, winnerBid: { id: number; company: number }, amount: string) {
  const f = await freightRow(app, route);
  assert.equal(f.status, 'taken');
  assert.equal(f.winner_id, winnerBid.company);
  assert.equal(f.transport_company_id, winnerBid.company);
  assert.equal(f.price, amount);
  const bids = await bidsOf(app, route);
  assert.deepEqual(
    bids.filter((b) => b.status === 'accepted').map((b) => b.id),
    [winnerBid.id],
  );
  assert.equal(bids.filter((b) => b.status === 'pending').length, 0, 'no pending bid left on a taken freight');
}

describe('POST /quotes/confirm/{bidId}.json', () => {
  test('owner first (302, bid and freight pending), then bidder (200, taken, accepted)', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route, { amount: '1234.56' });
    const first = await confirm(app, shipper, bid.id);
    assertRedirectToFreight(first, route);
    assert.equal((await freightRow(app, route)).status, 'pending');
    const b1 = await bidRow(app, bid.id);
    assert.equal(b1.status, 'pending');
    assert.deepEqual([b1.owner_confirmed, b1.bidder_confirmed], [true, false]);

    const second = await confirm(app, carrier, bid.id);
    assert.equal(second.status, 200);
    assert.equal(second.body.status, 'success');
    assert.equal(second.body.data.route, route);
    assert.equal(second.body.data.bid.id, bid.id);
    assert.equal(second.body.data.bid.status, 'accepted');
    await assertAwarded(route, bid, '1234.56');
  });

  test('bidder first, then owner (another user of the owner company)', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route, { amount: '700' });
    assertRedirectToFreight(await confirm(app, carrier, bid.id), route);
    const b1 = await bidRow(app, bid.id);
    assert.deepEqual([b1.status, b1.owner_confirmed, b1.bidder_confirmed], ['pending', false, true]);
    assert.equal((await freightRow(app, route)).status, 'pending');
    const second = await confirm(app, shipperColleague, bid.id);
    assert.equal(second.status, 200);
    await assertAwarded(route, bid, '700.00');
  });

  test('a repeat by the same side: 302 and nothing changes (owner and bidder)', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route);
    const b = await placeBid(app, carrier2, route);
    await confirm(app, shipper, a.id);
    await confirm(app, carrier2, b.id);
    const before = await snapshot(route);
    assertRedirectToFreight(await confirm(app, shipperColleague, a.id), route);
    assertRedirectToFreight(await confirm(app, carrier2, b.id), route);
    await assertUnchanged(route, before);
  });

  test('a third company (even one that sees the freight) cannot confirm: 404, nothing changes', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    await placeBid(app, outsider, route);
    const before = await snapshot(route);
    const res = await confirm(app, outsider, bid.id);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body.data, []);
    await assertUnchanged(route, before);
  });

  test('unknown, unreadable bid ids: 404; no token: 401', async () => {
    for (const id of ['99999999', 'abc', '-1', '0', '1.5', '1e3', '99999999999999999999']) {
      const res = await confirm(app, shipper, id);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.status, 'error');
    }
    assert.equal((await app.post('/quotes/confirm/1.json')).status, 401);
  });

  test('several bids pending at once; the award returns the other pending bids to open, open bids stay open', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route, { amount: '900' });
    const b = await placeBid(app, carrier2, route, { amount: '800' });
    const c = await placeBid(app, outsider, route, { amount: '1000' });
    await confirm(app, shipper, a.id); // pending (owner side)
    await confirm(app, carrier2, b.id); // pending (bidder side)
    assert.deepEqual(
      (await bidsOf(app, route)).map((x) => x.status),
      ['pending', 'pending', 'open'],
    );
    const award = await confirm(app, shipper, b.id);
    assert.equal(award.status, 200);
    await assertAwarded(route, b, '800.00');
    const bids = await bidsOf(app, route);
    assert.deepEqual(
      bids.map((x) => x.status),
      ['open', 'accepted', 'open'],
    );
    assert.deepEqual([bids[0]!.owner_confirmed, bids[0]!.bidder_confirmed], [false, false], 'confirmations reset');
    void c;
  });

  test('after the award no bid of that freight can be confirmed: 302, nothing changes', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route);
    const b = await placeBid(app, carrier2, route);
    await confirm(app, carrier2, b.id);
    await confirm(app, shipper, a.id);
    assert.equal((await confirm(app, carrier, a.id)).status, 200);
    const before = await snapshot(route);
    for (const [actor, id] of [
      [shipper, b.id],
      [carrier2, b.id],
      [carrier, a.id],
      [shipper, a.id],
    ] as const) {
      assertRedirectToFreight(await confirm(app, actor, id), route);
    }
    await assertUnchanged(route, before);
  });

  test('a revoked bid, or a freight not open/pending: 302, nothing changes', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    await revoke(app, carrier, bid.id);
    let before = await snapshot(route);
    assertRedirectToFreight(await confirm(app, shipper, bid.id), route);
    assertRedirectToFreight(await confirm(app, carrier, bid.id), route);
    await assertUnchanged(route, before);

    for (const status of ['expired', 'revoked', 'closed', 'archived', 'draft'] as const) {
      const r = await publishedFreight(app, shipper);
      const x = await placeBid(app, carrier, r);
      await confirm(app, carrier, x.id);
      await setFreightStatus(app, r, status);
      before = await snapshot(r);
      assertRedirectToFreight(await confirm(app, shipper, x.id), r);
      await assertUnchanged(r, before);
    }
  });

  test('a passed deadline: the freight expires, the confirmation is refused', async () => {
    const route = await insertFreight(app.services.db, shipper, { deadline: new Date(Date.now() + 3600_000) });
    const bid = await placeBid(app, carrier, route);
    await confirm(app, carrier, bid.id);
    app.setNow(new Date(Date.now() + 2 * 3600_000));
    try {
      assertRedirectToFreight(await confirm(app, shipper, bid.id), route);
      const f = await freightRow(app, route);
      assert.equal(f.status, 'expired');
      assert.equal(f.winner_id, null);
      assert.equal((await bidRow(app, bid.id)).status, 'pending');
    } finally {
      app.setNow(null);
    }
  });

  test('a selling bid (owner bids on its own freight): the owner company confirms both sides', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, shipper, route, { amount: '500' });
    assert.equal(bid.type, 'selling');
    assertRedirectToFreight(await confirm(app, shipper, bid.id), route);
    const mid = await bidRow(app, bid.id);
    assert.deepEqual([mid.status, mid.owner_confirmed, mid.bidder_confirmed], ['pending', true, false]);
    const second = await confirm(app, shipperColleague, bid.id);
    assert.equal(second.status, 200);
    await assertAwarded(route, bid, '500.00');
    assertRedirectToFreight(await confirm(app, shipper, bid.id), route);
  });
});

describe('POST /quotes/revoke/{bidId}.json', () => {
  test('own open bid: revoked, 200 with data.bid; a repeat is status error', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    const res = await revoke(app, carrier, bid.id);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.bid.id, bid.id);
    assert.equal(res.body.data.bid.status, 'revoked');
    const again = await revoke(app, carrier, bid.id);
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'error');
  });

  test('own pending bid: revoked; the freight returns to open when no other bid is pending', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route);
    const b = await placeBid(app, carrier2, route);
    await confirm(app, shipper, a.id);
    await confirm(app, shipper, b.id);
    assert.equal((await revoke(app, carrier, a.id)).body.status, 'success');
    assert.equal((await freightRow(app, route)).status, 'pending', 'b is still pending');
    assert.equal((await revoke(app, carrier2, b.id)).body.status, 'success');
    assert.equal((await freightRow(app, route)).status, 'open');
    const rows = await bidsOf(app, route);
    assert.deepEqual(
      rows.map((r) => [r.status, r.owner_confirmed, r.bidder_confirmed]),
      [
        ['revoked', false, false],
        ['revoked', false, false],
      ],
    );
  });

  test("someone else's bid (freight owner included), unknown or unreadable ids: 404, nothing changes", async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    for (const [actor, id] of [
      [shipper, bid.id],
      [outsider, bid.id],
      [carrier, 99999999],
      [carrier, 'x'],
      [carrier, '-4'],
    ] as const) {
      const res = await revoke(app, actor, id);
      assert.equal(res.status, 404, `${actor.companyName} ${id}`);
    }
    assert.equal((await bidRow(app, bid.id)).status, 'open');
    assert.equal((await app.post(`/quotes/revoke/${bid.id}.json`)).status, 401);
  });

  test('an accepted bid, or a bid on a freight no longer open: status error, nothing changes', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route);
    const b = await placeBid(app, carrier2, route);
    await confirm(app, shipper, a.id);
    await confirm(app, carrier, a.id);
    const before = await snapshot(route);
    for (const [actor, id] of [
      [carrier, a.id],
      [carrier2, b.id],
    ] as const) {
      const res = await revoke(app, actor, id);
      assert.equal(res.body.status, 'error');
    }
    await assertUnchanged(route, before);
  });

  test('a revoked bid can be followed by a new bid of the same company', async () => {
    const route = await publishedFreight(app, shipper);
    const a = await placeBid(app, carrier, route);
    await revoke(app, carrier, a.id);
    const b = await placeBid(app, carrier, route, { amount: '999' });
    assert.notEqual(b.id, a.id);
    assert.equal(b.status, 'open');
  });
});
