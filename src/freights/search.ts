import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { inMarketSql, marketStatusSql } from './in-market.ts';
import {
  codeKey,
  containing,
  distanceFromSql,
  distanceSql,
  nearSql,
  placesSql,
  windowSql,
  type LoadSearch,
  type PlaceColumns,
  type PostalRanges,
  type WindowColumns,
} from '../market/index.ts';

/**
 * Load search over freights (docs/reference.md#load-search): the one definition of "a freight matches these
 * parameters", shared by the lists (GET /freights/enlist), the counts (GET /freights/counts) and
 * the alerts of saved searches. The parameters are read by the market module (readLoadSearch);
 * `searchConditions` turns them into SQL over the `freights` table for a caller's company, from
 * the market's pieces over the freight's columns. Masked fields never match: origin, destination
 * and coordinates only where the caller's role shows them, refs only for owner and winner.
 */

type EB = ExpressionBuilder<DB, 'freights'>;

/** A freight's origin and destination, and its loading (etd) and delivery (eta) windows, as the search reads them. */
const PLACES: Record<'from' | 'to', PlaceColumns> = {
  from: {
    code: 'freights.from_code',
    country: 'freights.from_country',
    latitude: 'freights.from_latitude',
    longitude: 'freights.from_longitude',
  },
  to: { code: 'freights.to_code', country: 'freights.to_country', latitude: 'freights.to_latitude', longitude: 'freights.to_longitude' },
};
/**
 * The same places for a list of the market alone (list 8), whose radius search reads the postal
 * way range by range: the ids of the market's freights without coordinates whose postal key lies
 * in one of the circle's ranges, each range an index range of `freights_market_{side}_place_idx`
 * (migration 0150). A lateral subquery with `offset 0` stays a loop over the ranges (joined, the
 * planner hashed every row of the market without coordinates and ran the regular expression on
 * each, 300 ms at a million freights); the ids then go to the primary key.
 */
const marketPostalRows =
  (side: 'from' | 'to') =>
  (r: PostalRanges): RawBuilder<SqlBool> => {
    const f = { ...PLACES[side], code: `f.${side}_code` };
    return sql<SqlBool>`freights.id = any(array(select f.id from unnest(${r.countries}::text[], ${r.from}::text[], ${r.to}::text[]) as r(country, low, high)
      cross join lateral (select f.id from freights as f where upper(${sql.ref(`f.${side}_country`)}) = r.country and ${codeKey(f)} >= r.low and ${codeKey(f)} < r.high
        and ${sql.ref(`f.${side}_latitude`)} is null and ${marketStatusSql('f')} offset 0) as f))`;
  };
const MARKET_PLACES: Record<'from' | 'to', PlaceColumns> = {
  from: { ...PLACES.from, postalRows: marketPostalRows('from') },
  to: { ...PLACES.to, postalRows: marketPostalRows('to') },
};
/** SQL: the key of a side's airport code, as the market's airport indexes hold it (migrations 0150, 0600). */
export const airportKeySql = (side: 'from' | 'to') => codeKey(PLACES[side]);
/** SQL: a freight's distance, origin to destination (market/distance.ts), the lists' sort key `distance`. */
export const freightDistanceSql = () => distanceSql(PLACES.from, PLACES.to);

const LOADING: WindowColumns = { start: 'freights.etd', end: 'freights.etd_end' };
const DELIVERY: WindowColumns = { start: 'freights.eta', end: 'freights.eta_end' };

/**
 * The caller sees origin, destination and coordinates unmasked: owner, winner, or the freight is
 * in the market (open/pending, deadline not passed). A former bidder sees them masked
 * (docs/reference.md#freights), so they must not match.
 */
function unmasked(companyId: number, now: Date) {
  return sql<SqlBool>`(freights.company_id = ${companyId} or freights.winner_id = ${companyId} or ${inMarketSql(now)})`;
}

/** Addresses and refs: owner and winner only. */
function ownerOrWinner(companyId: number) {
  return sql<SqlBool>`(freights.company_id = ${companyId} or freights.winner_id = ${companyId})`;
}

function wordSql(word: string, companyId: number, now: Date) {
  const pattern = containing(word);
  const places = sql<SqlBool>`(freights.from_code ilike ${pattern} or freights.from_country ilike ${pattern} or freights.to_code ilike ${pattern} or freights.to_country ilike ${pattern})`;
  const refs = sql<SqlBool>`exists (select 1 from json_each_text(case when json_typeof(freights.refs) = 'object' then freights.refs else '{}'::json end) as ref where ref.value ilike ${pattern})`;
  return sql<SqlBool>`(freights.id::text ilike ${pattern} or (${unmasked(companyId, now)} and ${places}) or (${ownerOrWinner(companyId)} and ${refs}))`;
}

/**
 * The search as SQL conditions on `freights` for the caller's company at `now` (all must hold;
 * none for an empty search). Lists, counts and alerts AND them with their own membership;
 * `mayBeMasked: false` says that membership already makes every row unmasked for the caller.
 */
export function searchConditions(
  eb: EB,
  s: LoadSearch,
  companyId: number,
  now: Date,
  options: { mayBeMasked?: boolean; marketOnly?: boolean } = {},
): Expression<SqlBool>[] {
  const guard = options.mayBeMasked === false ? undefined : maskGuard(eb, s, companyId, now);
  return [...(guard ? [guard] : []), ...searchConditionsUnguarded(s, companyId, now, options.marketOnly ? MARKET_PLACES : PLACES)];
}

/** Whether the search has conditions on fields a former bidder sees masked (places and radii). */
const searchesMasked = (s: LoadSearch) => Boolean(s.from || s.to || s.fromNear || s.toNear);

/**
 * The role test a search adds on lists that can hold masked rows (searchConditions with
 * `mayBeMasked`), or undefined when the search has no masked field to test. The counts put the
 * unguarded conditions on a family of lists and this test on the masked lists among them.
 */
export function maskGuard(_eb: EB, s: LoadSearch, companyId: number, now: Date): Expression<SqlBool> | undefined {
  return searchesMasked(s) ? unmasked(companyId, now) : undefined;
}

/** The search's conditions without the role test of maskGuard (rows the caller sees unmasked). */
function searchConditionsUnguarded(
  s: LoadSearch,
  companyId: number,
  now: Date,
  places: Record<'from' | 'to', PlaceColumns> = PLACES,
): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  for (const side of ['from', 'to'] as const) {
    const patterns = s[side];
    if (patterns) out.push(placesSql(places[side], patterns));
    const near = side === 'from' ? s.fromNear : s.toNear;
    if (near) out.push(nearSql(places[side], near));
  }
  // Lists whose members are never masked for the caller (all but 6, 9, 219: lists.ts MAY_BE_MASKED)
  // skip the role test (maskGuard), which would only cost the planner an index scan of the whole market.
  if (s.pickup) out.push(windowSql(LOADING, s.pickup));
  if (s.delivery) out.push(windowSql(DELIVERY, s.delivery));
  if (s.weightMin !== undefined) out.push(sql<SqlBool>`freights.weight >= ${s.weightMin}::numeric`);
  if (s.weightMax !== undefined) out.push(sql<SqlBool>`freights.weight <= ${s.weightMax}::numeric`);
  if (s.media) out.push(s.media === 'air' ? sql<SqlBool>`freights.class = 'air'` : sql<SqlBool>`freights.class <> 'air'`);
  for (const word of s.q ?? []) out.push(wordSql(word, companyId, now));
  out.push(...loadConditions(s));
  return out;
}

/**
 * The load's description (docs/choices.md, "Loads described as trucks are"), never masked: the
 * search's body, ADR, loading metres and pallet exchange, and for matching what a truck carries
 * (a load without these fields fits every truck, as before they existed).
 */
function loadConditions(s: LoadSearch): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (s.body?.length) out.push(sql<SqlBool>`freights.body in (${sql.join(s.body)})`);
  if (s.adr !== undefined) out.push(s.adr ? sql<SqlBool>`freights.adr_class is not null` : sql<SqlBool>`freights.adr_class is null`);
  if (s.loadingMetersMax !== undefined) out.push(sql<SqlBool>`freights.loading_meters <= ${s.loadingMetersMax}::numeric`);
  if (s.palletExchange !== undefined)
    out.push(s.palletExchange ? sql<SqlBool>`freights.pallet_exchange = 1` : sql<SqlBool>`freights.pallet_exchange is distinct from 1`);
  const truck = s.truck;
  if (truck) {
    out.push(sql<SqlBool>`(freights.body is null or freights.body = ${truck.body})`);
    if (truck.loadingMeters !== null)
      out.push(sql<SqlBool>`(freights.loading_meters is null or freights.loading_meters <= ${truck.loadingMeters}::numeric)`);
    if (!truck.adr) out.push(sql<SqlBool>`freights.adr_class is null`);
  }
  return out;
}

/** SQL: a freight's origin's distance from a search's centre, every way the radius search places it (market/distance.ts distanceFromSql). */
export const originDistanceSql = (near: NonNullable<LoadSearch['fromNear']>) => distanceFromSql(PLACES.from, near);
