import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { awbSpellings, eventIsPublished } from './store.ts';

/**
 * The companies whose status events public tracking shows for an AWB (docs/decisions.md,
 * Tracking). Anyone may push a status file for any AWB, so a pushed event alone proves
 * nothing; what the exchange knows about a shipment decides:
 * - freights carrying the AWB (any status but revoked): their owner, winner and transport
 *   company. The forwarder who tendered the shipment and the carrier who won it are the
 *   parties to it; a company that merely pushes events is not.
 * - no such freight: the company whose event for the AWB arrived first (by arrival, never by
 *   the event's own time, which the sender writes), as an airline or handler feed would be.
 * An AWB whose first event has not arrived yet has nobody (no events shown).
 */
export async function involvedCompanies(db: Kysely<DB>, awb: string): Promise<number[]> {
  const digits = awb.replace(/\D/g, '');
  // The expression of the index freights_awb_digits_idx (migration 0044).
  const freights = await db
    .selectFrom('freights')
    .select(['company_id', 'winner_id', 'transport_company_id'])
    .where('awb', 'is not', null)
    .where(sql<string>`regexp_replace(awb, '\\D', '', 'g')`, '=', digits)
    .where('status', '<>', 'revoked')
    .limit(100)
    .execute();
  if (freights.length) {
    const ids = new Set<number>();
    for (const f of freights) for (const id of [f.company_id, f.winner_id, f.transport_company_id]) if (id !== null) ids.add(id);
    return [...ids];
  }
  const first = await db
    .selectFrom('awb_events')
    .select('company_id')
    .where('awb', 'in', awbSpellings(awb))
    .where(eventIsPublished)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first ? [first.company_id as number] : [];
}
