import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { firstPusher, freightsOfAwbParties } from '../files/index.ts';
import { partiesOf, speakingFreights } from '../freights/index.ts';

/**
 * The companies whose status events public tracking shows for an AWB (docs/choices.md,
 * Tracking). Anyone may push a status file for any AWB, so a pushed event alone proves
 * nothing; what the exchange knows about a shipment decides:
 * - freights carrying the AWB awarded between two companies: the parties (owner, winner,
 *   transport company) of the first awarded and of those its parties tendered in turn
 *   (freights/policy.ts speakingFreights). The forwarder who tendered the shipment and the
 *   carrier who won it are the parties to it; a company that merely pushes events is not, nor
 *   one that named the AWB on a tender of its own later;
 * - no such freight: the company whose event for the AWB arrived first (by arrival, never by
 *   the event's own time, which the sender writes), as an airline or handler feed would be.
 * An AWB whose first event has not arrived yet has nobody (no events shown).
 */
export async function involvedCompanies(db: Kysely<DB>, awb: string): Promise<number[]> {
  const parties = await awbParties(db, awb);
  if (parties.length) return parties;
  const first = await firstPusher(db, awb);
  return first === undefined ? [] : [first];
}

/**
 * The companies that speak for an AWB on public tracking: the parties (owner, winner, transport
 * company) of its speaking freights (freights/policy.ts speakingFreights); at most 100 freights read.
 */
async function awbParties(db: Kysely<DB>, awb: string): Promise<number[]> {
  const freights = await freightsOfAwbParties(db, [awb], 100);
  return [...new Set(speakingFreights(freights).flatMap(partiesOf))];
}
