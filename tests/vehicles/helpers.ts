import assert from 'node:assert/strict';
import type { Actor, TestApp } from '../support/harness.ts';

/** A valid offer near Frankfurt am Main, available in May 2030, going anywhere. */
export const OFFER = {
  from: 'city:60311',
  from_country: 'DE',
  from_radius: 100,
  available_from: '2030-05-04 06:00:00',
  available_to: '2030-05-06 18:00:00',
  body: 'tautliner',
  capacity: 24000,
};

/** A road freight near Frankfurt loading within the offer's window (created and published by `who`). */
export const FREIGHT = {
  class: 'rfs',
  from: 'city:60311',
  from_country: 'DE',
  from_latitude: 50.1109,
  from_longitude: 8.6821,
  to: 'city:20095',
  to_country: 'DE',
  to_latitude: 53.55,
  to_longitude: 10.0,
  weight: 12000,
  etd: '2030-05-05 08:00',
};

export async function addOffer(app: TestApp, who: Actor, json: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.post('/vehicles/add.json', { token: who.token, json: { ...OFFER, ...json } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.vehicle;
}

/** Polls until `check` answers a value (alerts run after the publishing commit, on a later turn). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function notificationsOf(app: TestApp, who: Actor): Promise<Array<Record<string, any>>> {
  const res = await app.get('/notifications/index.json', { token: who.token });
  assert.equal(res.status, 200, res.text);
  return res.body.data.notifications;
}
