import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AwbEventsTable } from '../freights/tables.ts';
import type { MilkrunRow } from '../milkrun/present.ts';
import { offsetOf } from '../kernel/params.ts';
import type { Paging } from '../kernel/paging.ts';
import { awbSpellings, eventIsPublished } from '../tracking/store.ts';

export type EventRow = Selectable<AwbEventsTable>;

/** At most this many events are listed for one shipment (newest beyond it are left out). */
export const MAX_EVENTS = 1000;

/**
 * A company's air shipments are its milk-run import shipments (one per AWB and company, built
 * from the status events it pushed), seen by the same parties as in the milk-run JSON API: the
 * company that pushed (owner) and the trucker it dispatched to (carrier). Anyone else: null (404).
 */
export function visibleShipment(db: Kysely<DB>, companyId: number, id: number): Promise<MilkrunRow | undefined> {
  return db
    .selectFrom('milkrun_shipments')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('company_id', '=', companyId), eb('carrier_id', '=', companyId)]))
    .executeTakeFirst();
}

/** A page of the shipments the company sees (owner or carrier), newest first. */
export function companyShipments(db: Kysely<DB>, companyId: number, paging: Paging): Promise<Array<{ id: number }>> {
  return db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where((eb) => eb.or([eb('company_id', '=', companyId), eb('carrier_id', '=', companyId)]))
    .orderBy('id', 'desc')
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
}

/** The events that built the shipment: those its owner pushed for its AWB (published files only), oldest first. */
export function shipmentEvents(db: Kysely<DB>, shipment: Pick<MilkrunRow, 'awb' | 'company_id'>): Promise<EventRow[]> {
  return db
    .selectFrom('awb_events')
    .selectAll()
    .where('awb', 'in', awbSpellings(shipment.awb))
    .where('company_id', '=', shipment.company_id)
    .where(eventIsPublished)
    .orderBy('event_time', (ob) => ob.asc().nullsLast())
    .orderBy('id')
    .limit(MAX_EVENTS)
    .execute() as Promise<EventRow[]>;
}

/** The most pieces and weight any event reported: the whole shipment (a part's event reports less). */
export async function shipmentTotals(db: Kysely<DB>, shipment: Pick<MilkrunRow, 'awb' | 'company_id' | 'pieces' | 'weight'>): Promise<{ pieces: number | null; weight: string | null }> {
  const row = await db
    .selectFrom('awb_events')
    .select([sql<number | null>`max(pieces)`.as('pieces'), sql<string | null>`max(weight)::text`.as('weight')])
    .where('awb', 'in', awbSpellings(shipment.awb))
    .where('company_id', '=', shipment.company_id)
    .where(eventIsPublished)
    .executeTakeFirst();
  const pieces = Math.max(row?.pieces ?? 0, shipment.pieces ?? 0);
  const weights = [row?.weight, shipment.weight].filter((w): w is string => w !== null && w !== undefined);
  const weight = weights.length ? weights.reduce((a, b) => (Number(a) >= Number(b) ? a : b)) : null;
  return { pieces: pieces > 0 ? pieces : null, weight };
}
