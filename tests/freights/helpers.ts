import assert from 'node:assert/strict';
import { draftFreight, publishedFreight } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import type { BidStatus } from '../../src/freights/tables.ts';

/** Creates a freight through the API and answers its id (the shared fixture's draft). */
export const addFreight = draftFreight;

/** Publishes (302 either way) and answers the Location header. */
export async function publish(app: TestApp, who: Actor, id: number, json: Record<string, unknown> = {}) {
  const res = await app.post(`/freights/view/${id}.json`, { token: who.token, json: { action: 'publish', ...json } });
  assert.equal(res.status, 302, res.text);
  return res;
}

/** An open freight of `who` (created and published: the shared fixture's). */
export const openFreight = publishedFreight;

/** Bids are written by the quotes module; list and visibility tests insert them directly. */
export async function insertBid(
  app: TestApp,
  freightId: number,
  bidder: Actor,
  status: BidStatus = 'open',
  amount = '100.00',
): Promise<number> {
  const now = new Date();
  const row = await app.services.db
    .insertInto('bids')
    .values({
      freight_id: freightId,
      company_id: bidder.company,
      user_id: bidder.user,
      amount,
      currency_code: 'EUR',
      status,
      created: now,
      modified: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Moves a freight into a state directly (award belongs to the quotes module). */
export async function force(app: TestApp, id: number, values: Record<string, unknown>) {
  await app.services.db
    .updateTable('freights')
    .set(values as never)
    .where('id', '=', id)
    .execute();
}

export async function view(app: TestApp, who: Actor, id: number) {
  return app.get(`/freights/view/${id}.json`, { token: who.token });
}

export async function enlistIds(app: TestApp, who: Actor, filter: number, query = ''): Promise<number[]> {
  const res = await app.get(`/freights/enlist/${filter}.json${query}`, { token: who.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return (res.body.data.routes as Array<{ id: number }>).map((r) => r.id);
}

/** A logged-in browser session: cookie header and a CSRF token for form posts. */
export const browser = browserSession;
