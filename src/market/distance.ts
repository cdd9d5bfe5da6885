import { sql, type RawBuilder } from 'kysely';
import { airportByCode } from '../airports/index.ts';
import { airportPoint, distanceKm, greatCircleKmSql, placePoint, type Point, ROAD_FACTOR, roadEstimateKm } from '../places/index.ts';
import { roadKmSql, routedKm, routingOn } from './roads.ts';
import { airportsNear, codeKey, postalCentreNearSql, type PlaceColumns } from './sql.ts';
import type { Near } from './search.ts';

/**
 * Distances in the market (docs/choices.md, "Distance" and "Road distances"): the road distance
 * between a row's origin and destination, which the lists sort by in SQL (`sort=Routes.distance`,
 * an addition to docs/reference.md#the-api) and the pages show: the routing server's (roads.ts)
 * where it is known, else the estimate (great circle × ROAD_FACTOR); and the distance of a row's origin from a point, by which matching
 * orders what fits (docs/reference.md#vehicles). Over the owner's place columns, like the search's pieces
 * (sql.ts). The JSON answers carry no distance field.
 */

type Coordinates = Pick<PlaceColumns, 'latitude' | 'longitude'>;

/**
 * SQL: the road distance in km between the stored coordinates of origin and destination, null
 * when one of the four is missing: the great circle × ROAD_FACTOR, or with a routing server
 * (roads.ts routingOn) the routed km its table holds for the pair, the estimate where it holds
 * none. Constants only (no parameter), so it fits prepared statements (src/db/prepared.ts); a
 * statement that holds it names `routingOn()` in its key.
 */
export function distanceSql(from: Coordinates, to: Coordinates): RawBuilder<number | null> {
  const columns = [from.latitude, from.longitude, to.latitude, to.longitude].map((c) => sql.ref(c));
  const [fLat, fLon, tLat, tLon] = columns;
  // `least` ignores a null, so a missing coordinate is tested first (else it reads as half the earth).
  const known = sql.join(
    columns.map((c) => sql`${c} is not null`),
    sql` and `,
  );
  const circle = greatCircleKmSql({ latitude: fLat!, longitude: fLon! }, { latitude: tLat!, longitude: tLon! });
  const estimate = sql`(${circle} * ${sql.lit(ROAD_FACTOR)}::float8)`;
  const km = routingOn()
    ? sql`coalesce(${roadKmSql({ latitude: from.latitude, longitude: from.longitude }, { latitude: to.latitude, longitude: to.longitude })}, ${estimate})`
    : estimate;
  return sql<number | null>`(case when ${known} then ${km} end)`;
}

/**
 * SQL: the great-circle distance in km of a side's place from the centre of a radius search, by
 * every way the search finds it (sql.ts nearSql, docs/reference.md#load-search): its coordinates; else, when its
 * code is an airport in the circle (airportsNear), that airport's position; else the centre of
 * the postal code whose range it was found in (postalCentreNearSql). Null for a row the search
 * would not find. One expression, so a statement sorts by it before its limit.
 */
export function distanceFromSql(side: PlaceColumns, near: Near): RawBuilder<number | null> {
  const point = near.center;
  const codes = [...airportsNear(near)];
  const points = codes.map((code) => airportPoint(airportByCode(code)!));
  const km = (latitude: RawBuilder<unknown>, longitude: RawBuilder<unknown>) =>
    greatCircleKmSql({ latitude, longitude }, { latitude: sql`${point.latitude}`, longitude: sql`${point.longitude}` });
  const at = sql`array_position(${codes}::text[], ${codeKey(side)})`;
  const postal = postalCentreNearSql(side, near);
  return sql<
    number | null
  >`case when ${sql.ref(side.latitude)} is not null then ${km(sql.ref(side.latitude), sql.ref(side.longitude))} when ${at} is not null then ${km(
    sql`(${points.map((p) => p.latitude)}::float8[])[${at}]`,
    sql`(${points.map((p) => p.longitude)}::float8[])[${at}]`,
  )} when ${postal.placed} then ${km(postal.latitude, postal.longitude)} end`;
}

/** A presented row (its API names): `from`, `to` and the four coordinates are read. */
export type Placed = Readonly<Record<string, unknown>>;

/** A side's point (places/point.ts placePoint: coordinates, else its airport's, else its postal code's centre). */
const pointOf = (route: Placed, side: 'from' | 'to'): Point | null =>
  placePoint({
    latitude: route[`${side}_latitude`],
    longitude: route[`${side}_longitude`],
    code: route[side],
    country: route[`${side}_country`],
  });

/**
 * The row's great-circle distance in whole km as the caller sees it, or null: a masked row (a
 * former bidder's view of a freight) has no places, so no distance either.
 */
export function routeDistanceKm(route: Placed): number | null {
  const from = pointOf(route, 'from');
  const to = pointOf(route, 'to');
  return from && to ? Math.round(distanceKm(from, to)) : null;
}

/** A road distance as the pages show it: whole km, and whether it is the routing server's or the estimate. */
export interface RoadDistance {
  km: number;
  /** true: the routing server's route (ROUTING_URL); false: great circle × ROAD_FACTOR */
  routed: boolean;
  /** the great circle, whole km */
  circleKm: number;
}

/** The road distance between two points (roads.ts when it knows the pair, fetching it else; the estimate meanwhile). */
export function roadDistanceBetween(from: Point, to: Point): RoadDistance {
  const circle = distanceKm(from, to);
  const routed = routedKm(from, to);
  return routed === undefined
    ? { km: Math.round(roadEstimateKm(circle)), routed: false, circleKm: Math.round(circle) }
    : { km: Math.round(routed), routed: true, circleKm: Math.round(circle) };
}

/** The row's road distance as the caller sees it, or null (no places, as routeDistanceKm). */
export function routeRoadDistance(route: Placed): RoadDistance | null {
  const from = pointOf(route, 'from');
  const to = pointOf(route, 'to');
  return from && to ? roadDistanceBetween(from, to) : null;
}
