import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { notBlockedBySql, companyNameSql, companyVerifiedSql } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import { audienceOf, type FreightRow } from '../freights/index.ts';
import {
  nearSql,
  placesSql,
  windowSql as marketWindowSql,
  type LoadSearch,
  type PlaceColumns,
  type PlacePattern,
} from '../market/index.ts';
import { airportByCode } from '../airports/index.ts';
import { greatCircleKmSql, type Point, placePoint, postalKey, isAirportCode } from '../places/index.ts';
import type { VehicleRead } from './fields.ts';
import { AVAILABILITY, loadingOf, offerInMarketSql, seesOfferSql } from './policy.ts';
import type { Body } from './tables.ts';

/**
 * The vehicle offers' SQL (docs/reference.md#vehicles): reading offers as a company may see them, the
 * market list with the load search, the own offers, and the fitting offers of a freight. The
 * statements and the indexes that serve them are named in migration 0060_vehicles.
 */

/** An offer's origin as the market's SQL pieces read it (offers always have a point). */
const ORIGIN: PlaceColumns = { code: 'v.from_code', country: 'v.from_country', latitude: 'v.from_latitude', longitude: 'v.from_longitude' };

const withCompany = (db: Db) =>
  db
    .selectFrom('vehicle_offers as v')
    .selectAll('v')
    .select([
      companyNameSql(sql.ref('v.company_id')).as('company_name'),
      companyVerifiedSql(sql.ref('v.company_id')).as('company_verified'),
    ]);

/**
 * Neither company blocked the other (docs/reference.md#trust): the blocker's lists and matches leave out
 * the blocked company's offers, and a blocked company's offers are not matched to the blocker's
 * freights, nor the blocker's offers to the blocked company's freights (no alert either way).
 * The lists need only the first direction; matching reads both.
 */
const notBlockedBy = (viewer: number) => notBlockedBySql(viewer, sql`v.company_id`);
const blocksNeither = (company: number) =>
  sql<SqlBool>`(${notBlockedBy(company)} and ${notBlockedBySql(sql<number>`v.company_id`, sql`${company}::integer`)})`;

/** The offer with its company's name, whoever asks (the transitions check who may act). */
export async function readOffer(db: Db, id: number): Promise<VehicleRead | undefined> {
  return (await withCompany(db).where('v.id', '=', id).executeTakeFirst()) as VehicleRead | undefined;
}

/** The offer when the company may see it (its own, or the whitelist is empty or names it); else undefined. */
export async function readVisibleOffer(db: Db, companyId: number, id: number): Promise<VehicleRead | undefined> {
  return (await withCompany(db).where('v.id', '=', id).where(seesOfferSql(companyId)).executeTakeFirst()) as VehicleRead | undefined;
}

/** Offers by id that the company may see (notifications name them). */
export async function readVisibleOffers(db: Db, companyId: number, ids: readonly number[]): Promise<VehicleRead[]> {
  if (!ids.length) return [];
  return (await withCompany(db)
    .where('v.id', 'in', [...ids])
    .where(seesOfferSql(companyId))
    .execute()) as VehicleRead[];
}

/** The creating users of these offers (mail: a match's mail goes to whom its notification went). */
export async function offerUsers(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('vehicle_offers')
    .select(['id', 'user_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.user_id]));
}

export const SORTS = ['available_from', 'created'] as const;
export type Sort = (typeof SORTS)[number];

export interface OfferListQuery {
  search: LoadSearch;
  bodies: Body[];
  page: number;
  limit: number;
  sort: Sort;
  direction: 'asc' | 'desc';
}

/** `to` of a search against an offer's destinations: it names the place, a part of it, a whole it lies in, or anywhere. */
function destinationsSql(patterns: readonly PlacePattern[]): RawBuilder<SqlBool> {
  const exact = new Set<string>();
  const likes = new Set<string>();
  for (const p of patterns) {
    if (p.kind === 'country') {
      exact.add(p.country);
      likes.add(`${p.country}-%`);
    } else if (p.kind === 'postal') {
      exact.add(p.country);
      for (let i = 1; i <= p.prefix.length; i++) exact.add(`${p.country}-${p.prefix.slice(0, i)}`);
      likes.add(`${p.country}-${p.prefix}%`);
    } else {
      exact.add(`airport:${p.code}`);
      const country = airportByCode(p.code)?.country;
      if (country) exact.add(country);
    }
  }
  return sql<SqlBool>`(cardinality(v.to_patterns) = 0 or v.to_patterns && ${[...exact]}::text[] or exists (select 1 from unnest(v.to_patterns) as pattern where pattern like any(${[...likes]}::text[])))`;
}

/**
 * The availability window [available_from, available_to] overlaps the instants [start, end)
 * (either end open), on the plain columns: tested on the rows a place index found (migration 0060).
 */
function windowSql(start: Date | null, end: Date | null): RawBuilder<SqlBool> {
  const conditions = [start && sql`v.available_to >= ${start}`, end && sql`v.available_from < ${end}`].filter((c) => c !== null);
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})` : sql<SqlBool>`true`;
}

/**
 * The market list's rows: open offers of other companies the caller may see, narrowed by §7's
 * `from`, `to`, `from_near`/`from_radius`, `pickup_from`/`pickup_to` (against the availability
 * window), `weight_min` (against capacity) and `body`. The list and its count read the same.
 */
function marketOffersSql(companyId: number, now: Date, q: Pick<OfferListQuery, 'search' | 'bodies'>): RawBuilder<SqlBool> {
  const s = q.search;
  const conditions: RawBuilder<SqlBool>[] = [
    offerInMarketSql(now),
    sql<SqlBool>`v.company_id <> ${companyId}`,
    seesOfferSql(companyId),
    notBlockedBy(companyId),
  ];
  if (s.from) conditions.push(placesSql(ORIGIN, s.from));
  if (s.fromNear) conditions.push(nearSql(ORIGIN, { ...s.fromNear, way: 'point' }));
  if (s.to) conditions.push(destinationsSql(s.to));
  if (s.pickup) conditions.push(windowSql(s.pickup.start, s.pickup.end));
  if (s.weightMin !== undefined) conditions.push(sql<SqlBool>`v.capacity >= ${s.weightMin}::numeric`);
  if (q.bodies.length) conditions.push(sql<SqlBool>`v.body in (${sql.join(q.bodies)})`);
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * GET /vehicles/index: the market list (marketOffers), a page of it; one statement.
 *
 * As generated for `from_near=50.11,8.68&pickup_from=…&pickup_to=…` (vehicle_offers_market_point_idx):
 *   select v.*, (select name from companies …) as company_name from vehicle_offers as v
 *   where (v.status = 'open' and v.available_to >= $1) and v.company_id <> $2
 *     and (v.company_id = $3 or cardinality(v.whitelist) = 0 or $4 = any(v.whitelist))
 *     and v.company_id <> all(array(select blocked_id from company_blocks where blocker_id = $5))
 *     and (point(v.from_longitude, v.from_latitude) <@ box(point($7, $5), point($8, $6)) and <great circle> <= $9)
 *     and v.available_to >= $10 and v.available_from < $11
 *   order by v.created desc, v.id desc limit $12 offset $13
 */
export async function listMarketOffers(db: Db, companyId: number, now: Date, q: OfferListQuery): Promise<VehicleRead[]> {
  const rows = await withCompany(db)
    .where(marketOffersSql(companyId, now, q))
    .orderBy(`v.${q.sort}`, q.direction)
    .orderBy('v.id', q.direction)
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return rows as VehicleRead[];
}

/** GET /vehicles/mine: the company's own offers, every status, newest first (vehicle_offers_company_idx). */
export async function listOwnOffers(db: Db, companyId: number, page: number, limit: number): Promise<VehicleRead[]> {
  const rows = await withCompany(db)
    .where('v.company_id', '=', companyId)
    .orderBy('v.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return rows as VehicleRead[];
}

/** How many offers the market list holds for the same search (the list page's count): one statement. */
export async function countMarketOffers(
  db: Db,
  companyId: number,
  now: Date,
  q: Pick<OfferListQuery, 'search' | 'bodies'>,
): Promise<number> {
  const row = await db
    .selectFrom('vehicle_offers as v')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(marketOffersSql(companyId, now, q))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------------------------------------
// Fitting offers of a freight (docs/reference.md#vehicles)

/** A freight's origin as a point: its coordinates, else its airport's, else its postal code's centre. */
export function freightOrigin(row: FreightRow): Point | undefined {
  const place = { latitude: row.from_latitude, longitude: row.from_longitude, code: row.from_code?.trim(), country: row.from_country };
  return placePoint(place) ?? undefined;
}

/** Every offer pattern a freight's destination answers to: its country, its postal prefixes or its airport. */
export function destinationPatterns(row: FreightRow): string[] {
  const country = row.to_country?.trim().toUpperCase();
  const code = row.to_code?.trim() ?? '';
  const out: string[] = country ? [country] : [];
  if (isAirportCode(code)) out.push(`airport:${code.toUpperCase()}`);
  else if (country && code) {
    const key = postalKey(code).toUpperCase();
    for (let i = 1; i <= key.length; i++) out.push(`${country}-${key.slice(0, i)}`);
  }
  return out;
}

/**
 * What the freight's load asks of a truck (docs/choices.md, "Loads described as trucks are";
 * matching.ts offerSearch the other way): its body, its loading metres within the offer's (when
 * the offer names them), an ADR load only on an offer that carries ADR. Without these fields: any offer.
 */
function truckCarriesSql(freight: FreightRow): RawBuilder<SqlBool> {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (freight.body !== null) conditions.push(sql<SqlBool>`v.body = ${freight.body}`);
  if (freight.loading_meters !== null)
    conditions.push(sql<SqlBool>`(v.loading_meters is null or v.loading_meters >= ${freight.loading_meters}::numeric)`);
  if (freight.adr_class !== null) conditions.push(sql<SqlBool>`v.adr = 1`);
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})` : sql<SqlBool>`true`;
}

export interface OfferFit {
  offer: VehicleRead;
  distance_km: number;
}

/**
 * The open offers a freight fits, nearest first, ONE statement over vehicle_offers_reach_idx
 * (migration 0170): the offers whose reach (the box around their own radius) holds the freight's
 * origin, then each offer's radius on the great circle, its destinations (vehicle_offers_to_idx), window and capacity, and who may
 * see whom: the offer's whitelist admits the freight's owner, the freight's visibility admits the
 * offer's company, and neither company blocked the other. The freight must be a road freight in the market (the caller checks).
 *
 * As generated:
 *   select v.*, … as company_name, <great circle from $lat,$lon> as distance_km from vehicle_offers as v
 *   where (v.status = 'open' and v.available_to >= $now) and v.company_id <> $owner
 *     and (v.company_id = $owner or cardinality(v.whitelist) = 0 or $owner = any(v.whitelist))
 *     and [v.company_id = any($whitelist) when the freight is whitelisted]
 *     and v.company_id <> all(array(<blocked by $owner>)) and $owner <> all(array(<blocked by v.company_id>))
 *     and v.reach @> box(point($lon, $lat), point($lon, $lat))
 *     and <great circle> <= v.from_radius
 *     and (cardinality(v.to_patterns) = 0 or v.to_patterns && $patterns)
 *     and <availability range> && tstzrange($etd, $etd_end, '[]')   (policy.ts: both ends included)
 *     and v.capacity >= $weight
 *     [and v.body = $body, (v.loading_meters is null or v.loading_meters >= $lm), v.adr = 1: what the load asks]
 *   order by distance_km, v.id limit $limit offset $offset
 */
export async function fittingOffers(
  db: Db,
  freight: FreightRow,
  now: Date,
  window: { limit: number; offset: number },
): Promise<OfferFit[]> {
  const point = freightOrigin(freight);
  if (!point || freight.etd === null || freight.weight === null) return [];
  const audience = audienceOf(freight);
  if (!audience.everyone && audience.only.length === 0) return [];
  const distance = greatCircleKmSql(
    { latitude: sql`v.from_latitude`, longitude: sql`v.from_longitude` },
    { latitude: sql`${point.latitude}`, longitude: sql`${point.longitude}` },
  );
  let query = withCompany(db)
    .select(distance.as('distance_km'))
    .where(offerInMarketSql(now))
    .where('v.company_id', '<>', freight.company_id)
    .where(seesOfferSql(freight.company_id))
    .where(blocksNeither(freight.company_id))
    // The offers whose reach (the box around their radius, migration 0170, GiST) holds the
    // freight's origin; then the exact circle.
    .where(
      sql<SqlBool>`v.reach @> box(point(${point.longitude}::float8, ${point.latitude}::float8), point(${point.longitude}::float8, ${point.latitude}::float8))`,
    )
    .where(sql<SqlBool>`${distance} <= v.from_radius`)
    .where(sql<SqlBool>`(cardinality(v.to_patterns) = 0 or v.to_patterns && ${destinationPatterns(freight)}::text[])`)
    .where(marketWindowSql(AVAILABILITY, loadingOf({ etd: freight.etd, etd_end: freight.etd_end })))
    .where(sql<SqlBool>`v.capacity >= ${freight.weight}::numeric`)
    .where(truckCarriesSql(freight));
  if (!audience.everyone) query = query.where('v.company_id', 'in', audience.only);
  const rows = await query.orderBy('distance_km').orderBy('v.id').limit(window.limit).offset(window.offset).execute();
  return rows.map((r) => {
    const { distance_km, ...offer } = r as VehicleRead & { distance_km: number };
    return { offer: offer as VehicleRead, distance_km: Number(distance_km) };
  });
}
