import { sql, type RawBuilder } from 'kysely';
import { airportByCode } from '../../airports/index.ts';
import { distanceKm, greatCircleKmSql, type Point } from '../../places/geo.ts';

/**
 * A freight's distance: the great circle between its origin's and its destination's coordinates,
 * in km (docs/decisions.md, "Distance"). The lists sort by it in SQL (`sort=Routes.distance`, an
 * addition to api.md) over the stored coordinates; the pages show it, falling back to an
 * airport's coordinates where a place is an airport stored without its own (an airport sent with
 * an address is not resolved, api.md Endpoints 7). The JSON answers carry no distance field.
 */

/**
 * SQL: the great-circle distance in km between the stored coordinates of origin and destination,
 * null when one of the four is missing. Constants only (no parameter), so it fits the prepared
 * list statements (src/db/prepared.ts).
 */
export function distanceSql(alias = 'freights'): RawBuilder<number | null> {
  const columns = ['from_latitude', 'from_longitude', 'to_latitude', 'to_longitude'];
  const [fLat, fLon, tLat, tLon] = columns.map((c) => sql.raw(`${alias}.${c}`));
  // `least` ignores a null, so a missing coordinate is tested first (else it reads as half the earth).
  const known = sql.raw(columns.map((c) => `${alias}.${c} is not null`).join(' and '));
  const km = greatCircleKmSql({ latitude: fLat!, longitude: fLon! }, { latitude: tLat!, longitude: tLon! });
  return sql<number | null>`(case when ${known} then ${km} end)`;
}

/** A presented freight (or a row in its API names): `from`, `to` and the four coordinates are read. */
export type Placed = Readonly<Record<string, unknown>>;

const given = (v: unknown) => v !== null && v !== undefined && v !== '' && Number.isFinite(Number(v));

/** A side's point: its coordinates, else its airport's (a three-letter code the airport data knows). */
function pointOf(route: Placed, side: 'from' | 'to'): Point | null {
  const lat = route[`${side}_latitude`];
  const lon = route[`${side}_longitude`];
  if (given(lat) && given(lon)) return { latitude: Number(lat), longitude: Number(lon) };
  const code = route[side];
  const airport = typeof code === 'string' && /^[A-Z]{3}$/.test(code) ? airportByCode(code) : undefined;
  return airport ? { latitude: Number(airport.latitude), longitude: Number(airport.longitude) } : null;
}

/**
 * The freight's great-circle distance in whole km as the caller sees it, or null: a masked
 * freight (a former bidder's view) has no places, so no distance either.
 */
export function freightDistanceKm(route: Placed): number | null {
  const from = pointOf(route, 'from');
  const to = pointOf(route, 'to');
  return from && to ? Math.round(distanceKm(from, to)) : null;
}
