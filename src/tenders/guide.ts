import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import type { FreightRow } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import { placeKeys } from '../market/index.ts';

/**
 * The routing guide (docs/reference.md#one-step `guide` = 1, §17): the carriers and prices of the owner's
 * contracts for the freight's lane valid on its pickup date, primary first. A contract's lane is
 * two patterns of the load search (§7); a freight's place matches every pattern text
 * (market placeKeys) of its country, its country with each prefix of its postal code, and its
 * airport, so the contracts are found by the shipper and the two texts in one index
 * (contracts_guide_idx) whatever the number of contracts.
 */

export interface GuideOffer {
  company: number;
  price: string;
  currency: string;
  rank: number;
}

const MAX_OFFERS = 20;

/** The pattern texts a freight's place matches (an airport's code matches `airport:` and its country, no postal prefix). */
function keysOf(code: string | null, country: string | null): string[] {
  const keys = placeKeys(code, country);
  const airport = /^[A-Za-z]{3}$/.test((code ?? '').trim());
  return airport ? keys.filter((k) => !/^[A-Z]{2}-/.test(k)) : keys;
}

/** The freight's pickup day in APP_TIMEZONE (its loading window's start; without one, today). */
export const pickupDay = (clock: Clock, etd: Date | null) => (clock.format(etd ?? clock.now()) ?? '').slice(0, 10);

/**
 * The guide's carriers in order: the shipper's contracts whose `from` and `to` the freight's
 * places match, valid on the pickup day; by rank, then price, each carrier once (its best rank),
 * in the primary contract's currency, at most 20 (the waterfall's limit).
 */
export async function guideOffers(
  db: Db,
  clock: Clock,
  freight: Pick<FreightRow, 'company_id' | 'from_code' | 'from_country' | 'to_code' | 'to_country' | 'etd'>,
): Promise<GuideOffer[]> {
  const from = keysOf(freight.from_code, freight.from_country);
  const to = keysOf(freight.to_code, freight.to_country);
  if (!from.length || !to.length) return [];
  const day = pickupDay(clock, freight.etd);
  const rows = await db
    .selectFrom('contracts')
    .select(['carrier_id', 'rank', sql<string>`price::text`.as('price'), 'currency', 'id'])
    .where('shipper_id', '=', freight.company_id)
    .where('from_pattern', 'in', from)
    .where('to_pattern', 'in', to)
    .where('valid_from', '<=', day)
    .where('valid_to', '>=', day)
    .orderBy('rank')
    .orderBy(sql`price`)
    .orderBy('id')
    .limit(500)
    .execute();
  const offers: GuideOffer[] = [];
  const currency = rows[0]?.currency;
  for (const r of rows) {
    if (r.currency !== currency || r.carrier_id === freight.company_id || offers.some((o) => o.company === r.carrier_id)) continue;
    offers.push({ company: r.carrier_id, price: r.price, currency: r.currency, rank: r.rank });
    if (offers.length === MAX_OFFERS) break;
  }
  return offers;
}
