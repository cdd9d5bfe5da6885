import type { Actor, ApiResponse, TestApp } from '../support/harness.ts';
import type { BidStatus, FreightStatus } from '../../src/freights/tables.ts';

export interface FreightOptions {
  status?: FreightStatus;
  type?: string;
  winner?: Actor | null;
  from?: string | null;
  to?: string | null;
  weight?: string | number | null;
  weightVolume?: string | number | null;
  visibility?: number;
  whitelist?: number[];
  refs?: unknown;
  created?: Date;
}

/** A freight row written directly (the freights API is not needed for the preview tests). */
export async function insertFreight(app: TestApp, owner: Actor, o: FreightOptions = {}): Promise<number> {
  const now = o.created ?? new Date();
  const row = await app.services.db
    .insertInto('freights')
    .values({
      status: o.status ?? 'open',
      type: o.type ?? 'AHR',
      company_id: owner.company,
      user_id: owner.user,
      winner_id: o.winner ? o.winner.company : null,
      from_code: o.from === undefined ? 'FRA' : o.from,
      to_code: o.to === undefined ? '60311' : o.to,
      weight: o.weight === undefined ? '1000' : o.weight,
      weight_volume: o.weightVolume ?? null,
      visibility: o.visibility ?? 0,
      whitelist: o.whitelist ?? [],
      refs: JSON.stringify(o.refs ?? {}),
      deadline: o.status === undefined || o.status === 'open' || o.status === 'pending' ? new Date(now.getTime() + 7 * 86400_000) : null,
      created: now,
      modified: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A won order: a taken freight of `owner` whose winner is `carrier`. */
export const wonOrder = (app: TestApp, owner: Actor, carrier: Actor, o: FreightOptions = {}) =>
  insertFreight(app, owner, { status: 'taken', winner: carrier, ...o });

export async function insertBid(app: TestApp, bidder: Actor, freightId: number, status: BidStatus = 'open'): Promise<void> {
  const now = new Date();
  await app.services.db
    .insertInto('bids')
    .values({
      freight_id: freightId,
      company_id: bidder.company,
      user_id: bidder.user,
      amount: '100',
      currency_code: 'EUR',
      status,
      created: now,
      modified: now,
    })
    .execute();
}

export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export const STATUS_HEADER = 'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location';

export function statusCsv(...lines: string[]): string {
  return `${[STATUS_HEADER, ...lines].join('\n')}\n`;
}

export function pushStatus(app: TestApp, actor: Actor, csv: string, name = 'status.csv'): Promise<ApiResponse> {
  return app.post('/files/push.json', { token: actor.token, json: { encoding: 'base64', content: b64(csv), name, action: 'status' } });
}

export async function counts(app: TestApp): Promise<Record<string, number>> {
  const db = app.services.db;
  const out: Record<string, number> = {};
  for (const t of ['files', 'awb_events', 'milkrun_shipments', 'rate_sheets'] as const) {
    const r = await db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  return out;
}
