import { sql, type RawBuilder } from 'kysely';
import { placesSql, type PlacePattern } from '../market/index.ts';
import { EARTH_KM } from '../places/geo.ts';

/**
 * Awarded road freights as the market's price history reads them (decisions.md §14, src/lanes):
 * the freights module's rule of what an award is, as one SQL piece over its own tables.
 *
 * An award is a freight with its accepted bid (quotes/award.ts writes both in one transaction):
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
    and f.to_latitude is not null and f.to_longitude is not null then ${EARTH_KM}::float8 * 2 * asin(least(1, sqrt(
    power(sin(radians(f.to_latitude::float8 - f.from_latitude::float8) / 2), 2)
    + cos(radians(f.from_latitude::float8)) * cos(radians(f.to_latitude::float8))
      * power(sin(radians(f.to_longitude::float8 - f.from_longitude::float8) / 2), 2)))) end)`;

export interface AwardQuery {
  from: readonly PlacePattern[];
  to: readonly PlacePattern[];
  /** three letters, upper case: prices of other currencies are another market */
  currency: string;
  /** the awards' instants in [start, end) */
  start: Date;
  end: Date;
}

/**
 * The awards on a lane as rows `(awarded timestamptz, owner int, price numeric, km float8)`: `km`
 * the great-circle distance, null without both ends' coordinates. A sub-query for a `from`; the
 * origin index of migration 0090 finds a lane's awarded freights, the accepted bid is read by
 * `bids_one_accepted_idx`.
 */
export function awardsSql(q: AwardQuery): RawBuilder<unknown> {
  // The load search's pieces (decisions.md §7) over the freight's columns, the table read as `f`.
  const places = (side: 'from' | 'to', patterns: readonly PlacePattern[]) =>
    placesSql(
      { code: `f.${side}_code`, country: `f.${side}_country`, latitude: `f.${side}_latitude`, longitude: `f.${side}_longitude` },
      patterns,
    );
  return sql`(select b.modified as awarded, f.company_id as owner, b.amount as price, ${distanceKm} as km
    from freights f join bids b on b.freight_id = f.id and b.status = 'accepted'
    where f.status in ('taken', 'closed', 'archived') and f.class <> 'air' -- the partial index's own predicate (0090)
      and f.winner_id <> f.company_id
      and ${places('from', q.from)} and ${places('to', q.to)}
      and b.currency_code = ${q.currency} -- stored upper case (quotes/fields.ts)
      and b.modified >= ${q.start}::timestamptz and b.modified < ${q.end}::timestamptz)`;
}
