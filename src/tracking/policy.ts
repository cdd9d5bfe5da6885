import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { firstPusher, freightsOfAwbParties } from '../files/index.ts';
import { partiesOf, type AwbFreight } from '../freights/index.ts';

/**
 * The companies whose status events public tracking shows for an AWB (docs/choices.md,
 * Tracking). Anyone may push a status file for any AWB, so a pushed event alone proves
 * nothing; what the exchange knows about a shipment decides:
 * - freights carrying the AWB awarded between two companies: the parties (owner, winner,
 *   transport company) of the first awarded and of those its parties tendered in turn
 *   (speakingFreights below). The forwarder who tendered the shipment and the
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
 * company) of its speaking freights (speakingFreights below); at most 100 freights read.
 */
async function awbParties(db: Kysely<DB>, awb: string): Promise<number[]> {
  const freights = await freightsOfAwbParties(db, [awb], 100);
  return [...new Set(speakingFreights(freights).flatMap(partiesOf))];
}

/**
 * The freights of one AWB whose parties speak for it on public tracking (docs/choices.md,
 * Tracking): the one awarded first — the shipment's tender, before anyone else knew the AWB —
 * and every freight that one of the speaking parties tendered in turn (the owner's other legs,
 * the winner's subcontract), as far as that reaches. A company that names the AWB on a tender of
 * its own is no party to these, even when an honest carrier wins its tender: it speaks only
 * through its own freight (what `shipment.status` sends to that freight's parties), never on
 * the shipment's public tracking.
 */
function speakingFreights<T extends AwbFreight>(freights: readonly T[]): T[] {
  const at = (f: AwbFreight) => (f.awarded ? new Date(f.awarded).getTime() : Number.POSITIVE_INFINITY);
  const order = [...freights].sort((a, b) => at(a) - at(b) || a.id - b.id);
  const root = order[0];
  if (!root) return [];
  const speaking = [root];
  const parties = new Set(partiesOf(root));
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of order) {
      if (speaking.includes(f) || !parties.has(f.company_id)) continue;
      speaking.push(f);
      for (const c of partiesOf(f)) parties.add(c);
      grew = true;
    }
  }
  return speaking;
}
