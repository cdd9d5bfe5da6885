import { sql, type RawBuilder } from 'kysely';
import { airportByCode, type Airport } from '../airports/index.ts';

/** Distances on the earth (mean radius, great circle) and the boxes that bound a radius. */

export const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

export interface Point {
  latitude: number;
  longitude: number;
}

export function distanceKm(a: Point, b: Point): number {
  const dLat = (b.latitude - a.latitude) * RAD;
  const dLon = (b.longitude - a.longitude) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The detour factor: a road between two European towns is this many times their great circle,
 * on average (docs/choices.md, "Road distances"). Calibrated on the published road distances of
 * 166 pairs of 19 European cities (tests/places/road-distances.json, the Cambridge
 * Encyclopaedia's table): mean error 6.0 %, worst 25.1 % (tests/places/road-factor.unit.test.ts).
 */
export const ROAD_FACTOR = 1.27;

/** The estimated road km of a great-circle distance in km (ROAD_FACTOR). */
export function roadEstimateKm(greatCircleKm: number): number {
  return greatCircleKm * ROAD_FACTOR;
}

/** A point as SQL expressions of its degrees (columns, parameters, array elements). */
export interface PointSql {
  latitude: RawBuilder<unknown>;
  longitude: RawBuilder<unknown>;
}

/**
 * SQL: the great-circle km between two points, as distanceKm computes it (mean earth radius as a
 * literal: a piece of only columns and literals stays free of parameters, for the prepared list
 * statements). `least` skips a null: a caller whose point may lack a coordinate tests it first.
 */
export function greatCircleKmSql(a: PointSql, b: PointSql): RawBuilder<number> {
  const deg = (x: RawBuilder<unknown>) => sql`(${x})::float8`;
  return sql<number>`(${sql.lit(EARTH_KM)}::float8 * 2 * asin(least(1, sqrt(power(sin(radians(${deg(b.latitude)} - ${deg(a.latitude)}) / 2), 2)
    + cos(radians(${deg(a.latitude)})) * cos(radians(${deg(b.latitude)})) * power(sin(radians(${deg(b.longitude)} - ${deg(a.longitude)}) / 2), 2)))))`;
}

/**
 * The latitude/longitude box around a circle, slightly larger than needed (so rounding never
 * loses a point on the rim). Longitude is `null` when the circle reaches a pole or crosses
 * the 180th meridian: then only the latitude band narrows the search.
 */
export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number | null;
  maxLon: number | null;
}

export function boundingBox(center: Point, km: number): Box {
  const dLat = (km / EARTH_KM / RAD) * 1.001 + 1e-6;
  const minLat = center.latitude - dLat;
  const maxLat = center.latitude + dLat;
  if (minLat <= -90 || maxLat >= 90) return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), minLon: null, maxLon: null };
  // The widest longitude span of the circle is at the latitude nearest a pole.
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const dLon = (Math.asin(Math.min(1, Math.sin(km / EARTH_KM) / Math.cos(widest * RAD))) / RAD) * 1.001 + 1e-6;
  const minLon = center.longitude - dLon;
  const maxLon = center.longitude + dLon;
  if (minLon < -180 || maxLon > 180) return { minLat, maxLat, minLon: null, maxLon: null };
  return { minLat, maxLat, minLon, maxLon };
}

export const airportPoint = (a: Airport): Point => ({ latitude: Number(a.latitude), longitude: Number(a.longitude) });

let every: Array<{ iata: string; point: Point }> | undefined;

/** IATA codes of every known airport within `km` of a point (freights without coordinates are found by their airport). */
export function airportsWithin(center: Point, km: number): string[] {
  every ??= allAirports().map((a) => ({ iata: a.iata, point: airportPoint(a) }));
  return every.filter((a) => distanceKm(center, a.point) <= km).map((a) => a.iata);
}

/** Airports nearest to a point, nearest first, within `km`. */
export function airportsNear(center: Point, km: number, limit: number): Array<{ airport: Airport; km: number }> {
  return allAirports()
    .map((airport) => ({ airport, km: distanceKm(center, airportPoint(airport)) }))
    .filter((a) => a.km <= km)
    .sort((a, b) => a.km - b.km || (a.airport.type === 'large_airport' ? -1 : 1))
    .slice(0, limit);
}

/**
 * Every airport of the airports module: it answers lookups by code, so the list is the lookup of
 * every three-letter code (17,576 map lookups, once).
 */
let list: Airport[] | undefined;
function allAirports(): Airport[] {
  if (list) return list;
  const found: Airport[] = [];
  const A = 65;
  for (let a = 0; a < 26; a++)
    for (let b = 0; b < 26; b++)
      for (let c = 0; c < 26; c++) {
        const airport = airportByCode(String.fromCharCode(A + a, A + b, A + c));
        if (airport) found.push(airport);
      }
  list = found;
  return list;
}
