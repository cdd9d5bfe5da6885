import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { emitShipmentStatus } from '../freights/events.ts';
import type { StatusEvent } from '../events/types.ts';
import { applyStatusEvents } from '../milkrun/store.ts';

/** Who pushed a batch of status events, and in which file. */
export interface EventSource {
  companyId: number;
  fileId: number | null;
}

/**
 * The one place a status event is stored, whatever it came from (status CSV, Cargo-IMP FSU,
 * Cargo-XML XFSU): the events with the company that pushed them (tracking, ONE Record), the
 * pusher's milk-run shipments, and the `shipment.status` event, all in the caller's
 * transaction. Answers the number of milk-run shipments touched.
 */
export async function recordStatusEvents(trx: Kysely<DB>, source: EventSource, events: readonly StatusEvent[], now: Date): Promise<number> {
  if (events.length === 0) return 0;
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
  await emitShipmentStatus(trx, now, source.companyId, events);
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
    eb.exists(eb.selectFrom('files').select(sql`1`.as('one')).whereRef('files.id', '=', 'awb_events.file_id').where('files.status', '=', 'processed')),
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
