import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPair } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { addFreight, publish, view } from './helpers.ts';

// docs/reference.md#safety "Frozen terms": while a freight is pending (a side has confirmed a bid), edit is
// refused and nothing changes; the owner may revoke instead.

let app: TestApp;
let shipper: Actor, carrier: Actor;

before(async () => ({ app, shipper, carrier } = await startPair()));
after(() => app.close());

const freightRow = (id: number) => app.services.db.selectFrom('freights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const piecesOf = (id: number) =>
  app.services.db.selectFrom('freight_pieces').selectAll().where('freight_id', '=', id).orderBy('position').execute();

async function pendingFreight(): Promise<{ id: number; bid: number }> {
  const id = await addFreight(app, shipper, { from: 'city:60311', to: 'city:80331', weight: 3000, pieces: [{ pieces: 2, weight: 1500 }] });
  await publish(app, shipper, id, { deadline: '+2 days' });
  const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '100', currency_code: 'EUR' } });
  assert.equal(bid.body.status, 'success', bid.text);
  // The carrier confirms its own bid first: bid and freight are pending.
  const confirmed = await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
  assert.equal(confirmed.status, 302, confirmed.text);
  assert.equal((await freightRow(id)).status, 'pending');
  return { id, bid: bid.body.data.bid.id as number };
}

describe('frozen terms while pending', () => {
  test('the owner cannot change weight or destination of a pending freight; the award keeps the confirmed terms', async () => {
    const { id, bid } = await pendingFreight();
    const before = { freight: await freightRow(id), pieces: await piecesOf(id) };
    assert.equal((await view(app, shipper, id)).body.data.route.editable, false, 'editable must agree with edit');

    const edit = await app.post(`/freights/edit/${id}.json`, {
      token: shipper.token,
      json: { weight: 24000, to: 'city:10115', pieces: [{ pieces: 20, weight: 1200 }] },
    });
    assert.equal(edit.status, 200, edit.text);
    assert.equal(edit.body.status, 'error', edit.text);
    assert.equal(typeof edit.body.message, 'string');
    assert.deepEqual(await freightRow(id), before.freight, 'nothing changed');
    assert.deepEqual(await piecesOf(id), before.pieces, 'pieces unchanged');

    // The owner confirms the carrier's bid: awarded at the terms the carrier confirmed.
    const owner = await app.post(`/quotes/confirm/${bid}.json`, { token: shipper.token });
    assert.equal(owner.status, 200, owner.text);
    assert.equal(owner.body.status, 'success', owner.text);
    const taken = await freightRow(id);
    assert.equal(taken.status, 'taken');
    assert.equal(taken.winner_id, carrier.company);
    assert.equal(taken.price, '100.00');
    assert.equal(taken.weight, '3000.000', 'awarded with the weight the carrier confirmed');
    assert.equal(taken.to_code, '80331', 'awarded with the destination the carrier confirmed');
  });

  test('draft and open freights stay editable and say so; revoking a pending freight is the way out', async () => {
    const draft = await addFreight(app, shipper, { weight: 3000 });
    assert.equal((await view(app, shipper, draft)).body.data.route.editable, true);
    const edited = await app.post(`/freights/edit/${draft}.json`, { token: shipper.token, json: { weight: 24000 } });
    assert.equal(edited.body.status, 'success', edited.text);
    assert.equal(edited.body.data.route.weight, 24000);

    const { id } = await pendingFreight();
    const revoked = await app.post(`/freights/revoke/${id}.json`, { token: shipper.token });
    assert.equal(revoked.body.status, 'success', revoked.text);
    assert.equal(revoked.body.data.route.status, 'revoked');
    assert.equal(revoked.body.data.route.editable, false);
  });
});
