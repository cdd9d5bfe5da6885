import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AwbEventsTable } from './tables.ts';
import { emitShipmentStatus } from './shipment-status.ts';
import type { StatusEvent } from '../events/index.ts';
import type { Clock } from '../kernel/time.ts';
import { applyStatusEvents } from '../milkrun/index.ts';

/** A stored status event. */
export type EventRow = Selectable<AwbEventsTable>;

/** Who pushed a batch of status events, and in which file. */
export interface EventSource {
  companyId: number;
  fileId: number | null;
}

/**
 * The one place a status event is stored, whatever it came from (status CSV, Cargo-IMP FSU,
 * Cargo-XML XFSU): the events with the company that pushed them (tracking, ONE Record), the
 * pusher's milk-run shipments, and the `shipment.status` event, all in the caller's
 * transaction, written at the clock's time (APP_TIMEZONE for the event's payload). Answers the
 * number of milk-run shipments touched.
 */
export async function recordStatusEvents(
  trx: Kysely<DB>,
  source: EventSource,
  events: readonly StatusEvent[],
  clock: Clock,
): Promise<number> {
  if (events.length === 0) return 0;
  const now = clock.now();
  // One statement per batch: column arrays unnested, a few milliseconds per thousand events.
  const col = <T>(pick: (e: StatusEvent) => T) => events.map(pick);
  await sql`
    insert into awb_events (awb, code, event_time, location, flight_number, pieces, weight, special_handling_codes, warehouse_location, company_id, file_id, created)
    select e.awb, e.code, e.event_time, e.location, e.flight_number, e.pieces, e.weight, e.special_handling_codes, e.warehouse_location,
           ${source.companyId}::int, ${source.fileId}::int, ${now}::timestamptz
    from unnest(${col((e) => e.awb)}::text[], ${col((e) => e.code)}::text[], ${col((e) => e.time.toISOString())}::timestamptz[],
                ${col((e) => e.location)}::text[], ${col((e) => e.flight_number)}::text[], ${col((e) => e.pieces)}::int[],
                ${col((e) => e.weight)}::numeric[], ${col((e) => e.special_handling_codes)}::text[], ${col((e) => e.warehouse_location)}::text[])
      as e(awb, code, event_time, location, flight_number, pieces, weight, special_handling_codes, warehouse_location)`.execute(trx);
  const shipments = await applyStatusEvents(trx, source.companyId, events, now);
  await emitShipmentStatus(trx, clock, source.companyId, events);
  return shipments;
}

/**
 * SQL: the event belongs to a file whose import is complete (or to no file). A file's events
 * are written in several short transactions; until the last one they stay out of sight, so a
 * reader sees a pushed file whole or not at all.
 */
export function eventIsPublished(eb: ExpressionBuilder<DB, 'awb_events'>) {
  return eb.or([
    eb('awb_events.file_id', 'is', null),
    eb.exists(
      eb
        .selectFrom('files')
        .select(sql`1`.as('one'))
        .whereRef('files.id', '=', 'awb_events.file_id')
        .where('files.status', '=', 'processed'),
    ),
  ]);
}

/** The spellings an AWB may be stored under (events were once stored with or without the dash). */
export const awbSpellings = (awb: string): string[] => [awb, awb.replace('-', '')];

/** An AWB's published events pushed by these companies, oldest first (at most 1000). */
export async function eventsOfCompanies(db: Kysely<DB>, awb: string, companies: readonly number[]) {
  if (companies.length === 0) return [];
  return db
    .selectFrom('awb_events')
    .selectAll()
    .where('awb', 'in', awbSpellings(awb))
    .where('company_id', 'in', companies)
    .where(eventIsPublished)
    .orderBy('event_time', (ob) => ob.asc().nullsLast())
    .orderBy('id')
    .limit(1000)
    .execute();
}

/** The company whose published event for the AWB arrived first (public tracking without a freight), or undefined. */
export async function firstPusher(db: Kysely<DB>, awb: string): Promise<number | undefined> {
  const first = await db
    .selectFrom('awb_events')
    .select('company_id')
    .where('awb', 'in', awbSpellings(awb))
    .where(eventIsPublished)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first ? (first.company_id as number) : undefined;
}

/** At most this many events are listed for one shipment (newest beyond it are left out). */
export const MAX_EVENTS = 1000;

/** The events that built a milk-run shipment (ONE Record): those its owner pushed for its AWB (published files only), oldest first. */
export function shipmentEvents(db: Kysely<DB>, shipment: { awb: string; company_id: number }): Promise<EventRow[]> {
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
export async function shipmentTotals(
  db: Kysely<DB>,
  shipment: { awb: string; company_id: number; pieces: number | null; weight: string | null },
): Promise<{ pieces: number | null; weight: string | null }> {
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
