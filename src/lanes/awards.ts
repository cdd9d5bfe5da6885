import { sql, type RawBuilder } from 'kysely';
import { AWARDED_STATUSES, BIDS, FREIGHTS, storedInSql } from '../freights/index.ts';
import { greatCircleKmSql } from '../places/index.ts';

/**
 * Awarded road freights as the market's price history reads them (docs/reference.md#lane-prices): what an
 * award is, as one SQL piece over the freights' read model (freights/read-model.ts) and its rules.
 *
 * An award is a freight with its accepted bid (freights/award.ts writes both in one transaction):
 * status taken, or closed/archived after it (a freight is archived only from expired, revoked or
 * closed, and only an awarded one has an accepted bid; a template's freight is taken without a
 * bid and counts nowhere). Road: every class but `air` (the load search's `media=road`). A bid of
 * the owner on its own freight (type `selling`, winner = owner) is no market deal: left out.
 * The award's instant is the accepted bid's `modified`: written at the award, and an accepted bid
 * never changes after it. Its price is the bid's amount in the bid's currency.
 */

/**
 * Great-circle km between origin and destination coordinates; null unless all four are set
 * (the `case`: least() skips a null, so without it a missing point would be half the globe away).
 */
const distanceKm = sql`(case when f.from_latitude is not null and f.from_longitude is not null
    and f.to_latitude is not null and f.to_longitude is not null then ${greatCircleKmSql(
      { latitude: sql`f.from_latitude`, longitude: sql`f.from_longitude` },
      { latitude: sql`f.to_latitude`, longitude: sql`f.to_longitude` },
    )} end)`;

/**
 * The awards as rows `(freight int, awarded timestamptz, owner int, winner int, price numeric,
 * currency text, km float8, from_code, from_country, to_code, to_country)`: `winner` the company of
 * the accepted bid, `km` the great-circle distance, null
 * without both ends' coordinates; `currency` upper case as bids store it (quotes/fields.ts). One
 * freight's award (the award's own transaction reads it back) or, without an id, every award
 * (the lanes module rebuilds its cells from them). A sub-query for a `from`.
 */
export function awardRowsSql(freightId?: number): RawBuilder<unknown> {
  const one = freightId === undefined ? sql`` : sql` and f.id = ${freightId}`;
  return sql`(select f.id as freight, b.modified as awarded, f.company_id as owner, b.company_id as winner, b.amount as price,
      b.currency_code as currency, ${distanceKm} as km,
      f.from_code, f.from_country, f.to_code, f.to_country
    from ${FREIGHTS} f join ${BIDS} b on b.freight_id = f.id and b.status = 'accepted'
    where ${storedInSql(AWARDED_STATUSES, 'f')} and f.class <> 'air'
      and f.winner_id <> f.company_id${one})`;
}
