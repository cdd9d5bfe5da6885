import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildPostalCentres, cityPopulations, readGeoNames, townOf } from '../../scripts/vendor-postal.ts';
import { citiesReady } from '../../src/places/cities.ts';
import { loadPostalCentres, postalCentre, postalCentresSource, postalCodesWithin } from '../../src/places/postal-centres.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Postal code centres: GeoNames' postal file turned into the packaged file (scripts/vendor-postal.ts)
 * and read back by postalCentre / postalCodesWithin; place suggestions name a code's town.
 * The rows below are in GeoNames' format (country, code, place, three administrative levels,
 * latitude, longitude, accuracy), for a few codes of the countries the exchange serves.
 */
const GEONAMES = [
  ['DE', '60311', 'Frankfurt am Main', 50.1127, 8.6835],
  ['DE', '60313', 'Frankfurt am Main', 50.1163, 8.6849],
  ['DE', '60385', 'Frankfurt am Main', 50.1313, 8.7046],
  ['DE', '60388', 'Frankfurt am Main', 50.1656, 8.7515],
  ['DE', '63450', 'Hanau', 50.1328, 8.9169],
  ['DE', '80331', 'München', 48.1372, 11.5755],
  ['DE', '01945', 'Guteborn', 51.4167, 13.9333],
  ['DE', '01945', 'Ruhland', 51.4575, 13.8666],
  ['DE', '01945', 'Schwarzbach', 51.45, 13.9333],
  ['FR', '75019', 'Paris 19', 48.8817, 2.3822],
  ['FR', '75001', 'Paris 01 Louvre', 48.8592, 2.3417],
  ['FR', '93310', 'Le Pré-Saint-Gervais', 48.885, 2.404],
  ['AT', '1030', 'Wien, Landstraße', 48.1986, 16.3948],
  ['CZ', '110 00', 'Praha 1', 50.088, 14.4208],
  ['PL', '44-100', 'Gliwice', 50.2976, 18.6766],
  ['GB', 'SW1A', 'London', 51.5, -0.1417],
  ['NL', '1012', 'Amsterdam', 52.3731, 4.8922],
  ['PT', '1000-001', 'Lisboa', 38.7401, -9.1391],
  ['PT', '1000-002', 'Lisboa', 38.7411, -9.1401],
  ['US', '10001', 'New York', 40.7484, -73.9967],
]
  .map(([cc, code, place, lat, lon]) => [cc, code, place, '', '', '', '', '', '', lat, lon, '4'].join('\t'))
  .join('\n');

let app: TestApp;
let english: Actor;
let german: Actor;

before(async () => {
  const countries = new Set(['DE', 'FR', 'AT', 'CZ', 'PL', 'GB', 'NL', 'PT']);
  const file = buildPostalCentres(readGeoNames(GEONAMES, countries), 'GeoNames postal codes (test rows)', cityPopulations());
  // Through a file, as the server reads the packaged one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postal-'));
  fs.writeFileSync(path.join(dir, 'postal-centres.json'), JSON.stringify(file));
  loadPostalCentres(path.join(dir, 'postal-centres.json'));
  app = await startTestApp();
  english = await app.actor('Carrier');
  german = await app.actor('Spedition', { language: 'deu' });
  assert.equal(await citiesReady(), true);
});
after(() => app?.close());

describe('the vendored file', () => {
  test('keeps the countries asked for, with the source named', () => {
    const source = postalCentresSource();
    assert.deepEqual(source.countries, ['AT', 'CZ', 'DE', 'FR', 'GB', 'NL', 'PL', 'PT']);
    assert.equal(source.licence, 'CC-BY-4.0');
  });

  test('a district is read as its city; of several places, the largest known city is the town', () => {
    const cities = cityPopulations();
    assert.equal(townOf('Paris 19', cities.get('FR')).town, 'Paris');
    assert.equal(townOf('Paris 01 Louvre', cities.get('FR')).town, 'Paris');
    assert.equal(townOf('Wien, Landstraße', cities.get('AT')).town, 'Wien');
    assert.equal(townOf('Praha 1', cities.get('CZ')).town, 'Praha');
    assert.equal(townOf('Frankfurt am Main', cities.get('DE')).town, 'Frankfurt am Main');
    assert.equal(postalCentre('DE', '01945')?.city, 'Ruhland', 'the largest of three villages');
  });
});

describe('postalCentre', () => {
  test('a code as the country writes it, or without its separators: centre and town', () => {
    assert.deepEqual(postalCentre('FR', '75019'), { latitude: 48.8817, longitude: 2.3822, city: 'Paris', code: '75019', exact: true });
    assert.equal(postalCentre('fr', ' 75019 ')?.city, 'Paris');
    assert.equal(postalCentre('AT', '1030')?.city, 'Wien');
    for (const written of ['110 00', '11000']) assert.equal(postalCentre('CZ', written)?.city, 'Praha', written);
    for (const written of ['44-100', '44100', '44 100']) assert.equal(postalCentre('PL', written)?.code, '44-100', written);
    const centre = postalCentre('DE', '01945')!;
    assert.ok(Math.abs(centre.latitude - 51.4414) < 0.001, 'the mean of its places');
  });

  test('an unknown code: its longest known prefix that is a code, else the area of its last two characters', () => {
    assert.deepEqual(postalCentre('GB', 'SW1A 1AA'), { latitude: 51.5, longitude: -0.1417, city: 'London', code: 'SW1A', exact: false });
    assert.equal(postalCentre('NL', '1012 AB')?.city, 'Amsterdam');
    // Portugal is kept by its four-digit areas (CP4): a street's code is found by its area.
    assert.deepEqual(postalCentre('PT', '1000-001'), { latitude: 38.7406, longitude: -9.1396, city: 'Lisboa', code: '1000', exact: false });
    const area = postalCentre('DE', '60399')!;
    assert.equal(area.exact, false);
    assert.equal(area.code, '603');
    assert.equal(area.city, 'Frankfurt am Main');
    assert.ok(Math.abs(area.latitude - 50.1315) < 0.001, 'the mean of 603xx');
    assert.equal(postalCentre('DE', '6')?.city, undefined, 'a lone digit says nothing');
    assert.equal(postalCentre('DE', '99999'), undefined);
    assert.equal(postalCentre('DE', ''), undefined);
    assert.equal(postalCentre('US', '10001'), undefined, 'a country not vendored');
    assert.equal(postalCentre('XX', '12345'), undefined);
  });
});

describe('postalCodesWithin (the radius search for freights without coordinates)', () => {
  test('the codes whose centre is in the circle, whole areas as prefixes', () => {
    const frankfurt = { latitude: 50.1109, longitude: 8.6821 };
    const near = postalCodesWithin(frankfurt, 10);
    assert.deepEqual(near, [{ country: 'DE', prefixes: ['60'], codes: [] }]);
    const wider = postalCodesWithin(frankfurt, 25);
    assert.deepEqual(wider, [{ country: 'DE', prefixes: ['60', '63'], codes: [] }]);
    assert.deepEqual(postalCodesWithin({ latitude: 48.8566, longitude: 2.3522 }, 4), [{ country: 'FR', prefixes: ['75'], codes: [] }]);
    assert.deepEqual(postalCodesWithin({ latitude: 50.1127, longitude: 8.6835 }, 0.3), [{ country: 'DE', prefixes: [], codes: ['60311'] }]);
    assert.deepEqual(postalCodesWithin({ latitude: 0, longitude: 0 }, 100), []);
  });
});

describe('place suggestions with postal data', () => {
  type Place = { kind: string; value: string; label: string; country: string; name?: string; latitude?: number };
  const suggest = async (who: Actor, q: string, input: string): Promise<Place[]> => {
    const res = await app.get(`/places/suggest.json?q=${encodeURIComponent(q)}&for=${input}`, { token: who.token });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.places;
  };

  test('75019 is Paris: its country first, named by its city, with its centre', async () => {
    for (const who of [english, german]) {
      const [first] = await suggest(who, '75019', 'freight');
      assert.equal(first?.value, 'city:FR-75019');
      assert.equal(first?.name, 'Paris');
      assert.match(first!.label, /^FR-75019 Paris · /);
      assert.equal(first?.latitude, 48.8817);
    }
    assert.match((await suggest(english, 'FR-75019', 'filter'))[0]!.label, /^FR-75019 Paris · postal area, France$/);
    assert.match((await suggest(german, 'FR-75019', 'filter'))[0]!.label, /^FR-75019 Paris · PLZ-Gebiet, Frankreich$/);
  });

  test('a postal area is named by the town of its codes; a code the data lacks, plainly', async () => {
    assert.match((await suggest(english, 'DE-603', 'filter'))[0]!.label, /^DE-603 Frankfurt am Main · postal area/);
    assert.match((await suggest(english, 'DE-2', 'filter'))[0]!.label, /^DE-2 · postal area/);
  });
});
