import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import type { Actor, ApiResponse, TestApp } from '../support/harness.ts';
import type { FreightStatus } from '../../src/freights/tables.ts';

export interface FreightOptions {
  status?: FreightStatus;
  visibility?: number;
  whitelist?: number[];
  deadline?: Date | null;
}

/**
 * A freight row written directly (status open by default), for tests that must not depend on
 * the freights module's endpoints. `publishedFreight` goes through the API when it exists.
 */
export async function insertFreight(db: Kysely<DB>, owner: Actor, o: FreightOptions = {}): Promise<number> {
  const now = new Date();
  const row = await db
    .insertInto('freights')
    .values({
      status: o.status ?? 'open',
      company_id: owner.company,
      user_id: owner.user,
      from_code: 'FRA',
      to_code: 'AMS',
      visibility: o.visibility ?? 0,
      whitelist: o.whitelist ?? [],
      deadline: o.deadline === undefined ? new Date(now.getTime() + 86400_000) : o.deadline,
      created: now,
      modified: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * An open freight of `owner`, created and published through the API; a freight in another state
 * or with a whitelist (set up directly, as no API call makes those in one step) is inserted.
 */
export async function publishedFreight(app: TestApp, owner: Actor, o: FreightOptions = {}): Promise<number> {
  if (o.status || o.whitelist) return insertFreight(app.services.db, owner, o);
  const add = await app.post('/freights/add.json', {
    token: owner.token,
    json: { from: 'airport:FRA', to: 'airport:AMS', weight: 1000, from_addr: 'Dock 1', to_addr: 'Dock 2' },
  });
  if (add.body?.status !== 'success') throw new Error(`freight add failed: ${add.text}`);
  const id = add.body.data.id as number;
  const pub = await app.post(`/freights/view/${id}.json`, {
    token: owner.token,
    json: { action: 'publish', deadline: '+48 hours', ...(o.visibility !== undefined && { visibility: o.visibility }) },
  });
  if (pub.status !== 302) throw new Error(`publish answered ${pub.status}`);
  return id;
}

export const bidBody = (route: number, extra: Record<string, unknown> = {}) => ({
  route,
  amount: '1250.50',
  currency_code: 'EUR',
  rate_base: '1000',
  rate_fsc: '200.50',
  rate_ssc: '50',
  note: 'FTL, tail-lift',
  ...extra,
});

export async function placeBid(app: TestApp, bidder: Actor, route: number, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await app.post('/quotes/add.json', { token: bidder.token, json: bidBody(route, extra) });
  if (res.body?.status !== 'success') throw new Error(`bid failed: ${res.status} ${res.text}`);
  return res.body.data.bid;
}

export const confirm = (app: TestApp, actor: Actor, bidId: number | string): Promise<ApiResponse> =>
  app.post(`/quotes/confirm/${bidId}.json`, { token: actor.token });
export const revoke = (app: TestApp, actor: Actor, bidId: number | string): Promise<ApiResponse> =>
  app.post(`/quotes/revoke/${bidId}.json`, { token: actor.token });

export async function freightRow(app: TestApp, id: number) {
  return app.services.db.selectFrom('freights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
export async function bidRow(app: TestApp, id: number) {
  return app.services.db.selectFrom('bids').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
export async function bidsOf(app: TestApp, freightId: number) {
  return app.services.db.selectFrom('bids').selectAll().where('freight_id', '=', freightId).orderBy('id').execute();
}
export async function setFreightStatus(app: TestApp, id: number, status: FreightStatus) {
  await app.services.db.updateTable('freights').set({ status }).where('id', '=', id).execute();
}
