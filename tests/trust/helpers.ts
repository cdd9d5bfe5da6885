import assert from 'node:assert/strict';
import { openFreight } from '../freights/helpers.ts';
import type { Actor, TestApp } from '../support/harness.ts';

/** A freight of `shipper` taken by `carrier` through the API (bid, both confirmations); answers its id. */
export async function takenFreight(app: TestApp, shipper: Actor, carrier: Actor, json: Record<string, unknown> = {}): Promise<number> {
  const id = await openFreight(app, shipper, json);
  const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '950.00', currency_code: 'EUR' } });
  assert.equal(bid.body.status, 'success', bid.text);
  const first = await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token });
  assert.equal(first.status, 302, first.text);
  const second = await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
  assert.equal(second.body.status, 'success', second.text);
  return id;
}

/** A freight of `shipper` carried and delivered by `carrier` (status closed). */
export async function deliveredFreight(app: TestApp, shipper: Actor, carrier: Actor, json: Record<string, unknown> = {}): Promise<number> {
  const id = await takenFreight(app, shipper, carrier, json);
  const res = await app.post(`/freights/delivery/${id}.json`, { token: carrier.token, json: { delivery_status: 3 } });
  assert.equal(res.body.status, 'success', res.text);
  assert.equal(res.body.data.route.status, 'closed');
  return id;
}

export const profileOf = async (app: TestApp, who: Actor, id: number) => app.get(`/companies/view/${id}.json`, { token: who.token });
