import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/db/connection.ts';
import { distanceFromSql, nearSql, type Near, type PlaceColumns } from '../../src/market/index.ts';
import {
  AIRPORT_CODE_PATTERN,
  airportCode,
  airportCodeOf,
  distanceKm,
  isAirportCode,
  isAirportCodeSql,
  placePoint,
} from '../../src/places/index.ts';
import { freshDatabase } from '../support/databases.ts';

/**
 * places/point.ts: one airport-code rule and one point of a place, the same in TypeScript and in
 * the SQL the radius search runs (market/sql.ts nearSql, market/distance.ts distanceFromSql).
 */

let database: Database;
before(async () => {
  database = await freshDatabase();
});
after(() => database.close());

const CODES = ['FRA', 'fra', 'Fra', 'FR', 'FRAX', 'F1A', '', ' FRA', 'FRA ', 'ÄBC', '603', 'ab1'];

describe('the airport-code rule', () => {
  test('three letters of either case, looked up in upper case', () => {
    assert.deepEqual(
      CODES.map((c) => airportCode(c)),
      ['FRA', 'FRA', 'FRA', null, null, null, null, null, null, null, null, null],
    );
    assert.equal(airportCode(null), null);
    assert.equal(airportCode(42), null);
    assert.equal(airportCodeOf('airport: fra'), 'FRA');
    assert.equal(airportCodeOf('AIRPORT:HHN'), 'HHN');
    assert.equal(airportCodeOf('city:FRA'), null);
    assert.equal(airportCodeOf('DE-60311'), null);
  });

  test('the SQL applies the same rule to the same codes', async () => {
    const rows = await sql<{ code: string; airport: boolean }>`select c.code, ${isAirportCodeSql(sql.ref('c.code'))} as airport
      from unnest(${`{${CODES.map((c) => `"${c}"`).join(',')}}`}::text[]) as c(code)`.execute(database.db);
    assert.equal(rows.rows.length, CODES.length);
    for (const row of rows.rows) assert.equal(row.airport, isAirportCode(row.code), `code "${row.code}"`);
    assert.equal(AIRPORT_CODE_PATTERN, '^[A-Za-z]{3}$');
  });
});

describe("a place's point", () => {
  // Frankfurt am Main; places placed by each of the three ways.
  const near: Near = { center: { latitude: 50.1109, longitude: 8.6821 }, km: 300 };
  const places = [
    { name: 'coordinates', code: '60311', country: 'DE', latitude: 49.4521, longitude: 11.0767 },
    { name: 'airport', code: 'HHN', country: 'DE', latitude: null, longitude: null },
    { name: 'airport, lower case', code: 'fra', country: 'DE', latitude: null, longitude: null },
    { name: 'postal code the data knows', code: '60311', country: 'DE', latitude: null, longitude: null },
    { name: 'postal code written with a space', code: '603 11', country: 'DE', latitude: null, longitude: null },
    { name: 'postal code the data does not know (its run)', code: '65999', country: 'DE', latitude: null, longitude: null },
    { name: 'postal prefix (the run before it)', code: '6', country: 'DE', latitude: null, longitude: null },
    { name: 'country code in lower case', code: '55116', country: 'de', latitude: null, longitude: null },
  ];
  const columns: PlaceColumns = { code: 'p.code', country: 'p.country', latitude: 'p.latitude', longitude: 'p.longitude' };

  test('placePoint places each by coordinates, airport or postal run', () => {
    for (const p of places) assert.ok(placePoint(p), p.name);
    assert.deepEqual(placePoint(places[0]!), { latitude: 49.4521, longitude: 11.0767 });
    assert.deepEqual(placePoint({ code: 'fra' }), placePoint({ code: 'FRA' }));
    assert.equal(placePoint({ code: 'QQQ', country: 'DE' }), null, 'an airport-form code the data does not know is no postal code');
    assert.equal(placePoint({ code: '60311', country: 'ZZ' }), null, 'a country without packaged data');
    assert.equal(placePoint({ code: '  ', country: 'DE' }), null);
  });

  test('the radius search finds each and measures the distance placePoint gives', async () => {
    const values = sql.join(
      places.map(
        (p, i) =>
          sql`(${i}::int, ${p.code}::text, ${p.country}::text, ${p.latitude === null ? null : String(p.latitude)}::float8, ${p.longitude === null ? null : String(p.longitude)}::float8)`,
      ),
    );
    const { rows } = await sql<{ i: number; found: boolean; km: number | null }>`select p.i, ${nearSql(columns, near)} as found,
        ${distanceFromSql(columns, near)} as km
      from (values ${values}) as p(i, code, country, latitude, longitude) order by p.i`.execute(database.db);
    assert.equal(rows.length, places.length);
    for (const row of rows) {
      const p = places[row.i]!;
      assert.equal(row.found, true, `${p.name}: found by the radius search`);
      const point = placePoint(p);
      assert.ok(point && row.km !== null, `${p.name}: placed by both`);
      assert.ok(
        Math.abs(Number(row.km) - distanceKm(near.center, point)) < 1e-6,
        `${p.name}: SQL ${row.km} km, TypeScript ${distanceKm(near.center, point)} km`,
      );
    }
  });
});
