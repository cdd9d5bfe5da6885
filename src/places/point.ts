import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { airportByCode } from '../airports/index.ts';
import { airportPoint, type Point } from './geo.ts';
import { splitLocation } from './location.ts';
import { postalCentre, postalRunCentre } from './postal-centres.ts';

/**
 * A place's point and the airport-code rule, once for TypeScript and SQL alike.
 *
 * The airport-code rule: a code is an airport's when it is three letters, of either case; it is
 * looked up in upper case. The SQL tests the same (isAirportCodeSql).
 *
 * A place's point (placePoint), in this order, as the radius search places a row
 * (market/sql.ts nearSql, market/distance.ts distanceFromSql):
 * 1. its own coordinates, when both are given;
 * 2. else, for an airport code, the airport's position (none for a code the airport data does
 *    not know: such a code is not read as a postal code either);
 * 3. else the centre of the postal code whose run its code falls in: the last code of its
 *    country the packaged data knows at or before its key (postal-centres.ts postalRunCentre).
 * tests/places/point.test.ts checks that placePoint and the SQL agree.
 */

/** The airport-code rule's pattern, for TypeScript and SQL (`~`). */
export const AIRPORT_CODE_PATTERN = '^[A-Za-z]{3}$';
const AIRPORT_CODE = new RegExp(AIRPORT_CODE_PATTERN);

/** Whether a code has the form of an airport's (three letters, either case). */
export const isAirportCode = (code: unknown): boolean => typeof code === 'string' && AIRPORT_CODE.test(code);

/** A code of the airport form in upper case (the form the airport data and the tables hold), else null. */
export const airportCode = (code: unknown): string | null =>
  typeof code === 'string' && AIRPORT_CODE.test(code) ? code.toUpperCase() : null;

/** Whether a code is that of an airport the airport data knows (either case). */
export const isKnownAirport = (code: unknown): boolean => {
  const iata = airportCode(code);
  return iata !== null && airportByCode(iata) !== undefined;
};

/** An airport code as a place text gives it (`FRA`, `fra`, `airport:FRA`), upper case; null for anything else (`city:…`). */
export function airportCodeOf(text: string): string | null {
  const { prefix, rest } = splitLocation(text);
  return prefix === 'city' ? null : airportCode(rest);
}

/** SQL: the airport-code rule over a code expression (a column, `a.from_code`). */
export const isAirportCodeSql = (code: RawBuilder<unknown>): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${code} ~ ${sql.lit(AIRPORT_CODE_PATTERN)})`;

/** A place as rows and answers hold it: coordinates (numbers or numeric text), code and country. */
export interface PlaceOf {
  latitude?: unknown;
  longitude?: unknown;
  code?: unknown;
  country?: unknown;
}

const given = (v: unknown) => v !== null && v !== undefined && v !== '' && Number.isFinite(Number(v));

/** A place's point (see above), or null when none of the three places it. */
export function placePoint(place: PlaceOf): Point | null {
  if (given(place.latitude) && given(place.longitude)) return { latitude: Number(place.latitude), longitude: Number(place.longitude) };
  const { code, country } = place;
  if (typeof code !== 'string' || !code.trim()) return null;
  const airport = airportCode(code);
  if (airport !== null) {
    const known = airportByCode(airport);
    return known ? airportPoint(known) : null;
  }
  return typeof country === 'string' && country ? (postalRunCentre(country, code) ?? null) : null;
}

/**
 * The town a place code names by itself, before any coordinates: an airport's city (the
 * airport-code rule), else the town of a postal code the packaged data knows exactly. The
 * pages name places by it (`60311 Frankfurt am Main (DE)`); null when the code alone says none.
 */
export function townOfCode(code: unknown, country: unknown): string | null {
  const iata = airportCode(code);
  if (iata !== null) {
    const airport = airportByCode(iata);
    if (airport) return airport.city || airport.name || null;
  }
  const postal = typeof code === 'string' && typeof country === 'string' && country ? postalCentre(country, code) : undefined;
  return postal?.exact && postal.city ? postal.city : null;
}
