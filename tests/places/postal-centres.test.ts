import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import {
  buildPostalCentres,
  knownCities,
  latinName,
  mergePlaces,
  readGeoNames,
  readPostalCsv,
  readPostalFile,
  readZip,
  townOf,
} from '../../scripts/vendor-postal.ts';
import { citiesReady } from '../../src/places/cities.ts';
import {
  loadPostalCentres,
  postalCentre,
  postalCentresSource,
  postalRangesWithin,
  type PostalCentresFile,
} from '../../src/places/postal-centres.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Postal code centres: GeoNames' postal data, in its own tab-separated form or as the CSV of
 * zauberware/postal-codes-json-xml-csv (zipped or not), turned into the packaged file
 * (scripts/vendor-postal.ts) and read back by postalCentre / postalRangesWithin; place suggestions
 * name a code's town. The rows below are a few codes of the countries the exchange serves.
 */
const GEONAMES = [
  ['DE', '60311', 'Frankfurt am Main', 50.1127, 8.6835],
  ['DE', '60313', 'Frankfurt am Main', 50.1163, 8.6849],
  ['DE', '60385', 'Frankfurt am Main', 50.1313, 8.7046],
  ['DE', '60388', 'Frankfurt am Main', 50.1656, 8.7515],
  ['DE', '63450', 'Hanau', 50.1328, 8.9169],
  ['DE', '80331', 'München', 48.1372, 11.5755],
  ['DE', '01945', 'Guteborn', 51.4167, 13.9333],
  ['DE', '01945', 'Hermsdorf', 51.4055, 13.8937],
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

/**
 * The CSV form (zauberware/postal-codes-json-xml-csv, data/<CC>.zip): Germany's big-customer
 * codes name organisations and carry the Land's number as state code; France's CEDEX codes carry
 * their suffix; Luxembourg writes its letter; Bulgaria names places in two scripts; Ukraine in
 * Cyrillic only.
 */
const CSV = `country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude
DE,10875,Daimler Insurance Services GmbH,Baden-Württemberg,01,Regierungsbezirk Stuttgart,081,Stadtkreis Stuttgart,08111,48.8103,9.1807
DE,10875,debis Leasing GmbH,Land Berlin,16,,,"Berlin, Stadt",11000,52.5064,13.3731
DE,10875,debis Risk Consult GmbH,Land Berlin,16,,,"Berlin, Stadt",11000,52.5064,13.3731
DE,10117,Berlin,Berlin,BE,,00,"Berlin, Stadt",11000,52.5170,13.3889
DE,10178,Berlin Mitte,Berlin,BE,,00,"Berlin, Stadt",11000,52.5213,13.4094
DE,60311,Frankfurt am Main,Hessen,HE,Regierungsbezirk Darmstadt,064,"Frankfurt am Main, Stadt",06412,50.1112,8.6831
FR,75019,Paris 19,Île-de-France,11,Paris,75,Paris,751,48.8817,2.3822
FR,75940 CEDEX 19,Paris 19,Île-de-France,11,Paris,75,Paris,751,48.8817,2.3822
FR,75998 SP 99,Paris,Île-de-France,11,Paris,75,Paris,751,48.8534,2.3488
LU,L-1120,Luxembourg,District de Luxembourg,LU,Canton de Luxembourg,LU,Luxembourg,,49.6117,6.1300
BG,1000,София / Sofija,София / Sofija,SOF,,,,,42.6975,23.3242
UA,01001,Київ,Kyiv,30,,,,,50.4501,30.5234
`;

/** A zip file of `files`, deflated as GitHub's are (readZip reads it back). */
function zipOf(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = deflateRawSync(Buffer.from(text));
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Buffer.byteLength(text), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(Buffer.byteLength(text), 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const cities = knownCities();
let dir: string;
let app: TestApp;
let english: Actor;
let german: Actor;

/** The packaged form of some rows, through a file as the server reads the packaged one. */
function load(file: PostalCentresFile): void {
  fs.writeFileSync(path.join(dir, 'postal-centres.json'), JSON.stringify(file));
  loadPostalCentres(path.join(dir, 'postal-centres.json'));
}

const geonames = (areaKm = 0) =>
  buildPostalCentres(
    readGeoNames(GEONAMES, new Set(['DE', 'FR', 'AT', 'CZ', 'PL', 'GB', 'NL', 'PT'])),
    'GeoNames postal codes (test rows)',
    cities,
    { areaKm },
  );

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postal-'));
  load(geonames());
  app = await startTestApp();
  english = await app.actor('Carrier');
  german = await app.actor('Spedition', { language: 'deu' });
  assert.equal(await citiesReady(), true);
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  // The data is the process's: the packaged file again for the files run after this one in a batch.
  loadPostalCentres();
  return app?.close();
});

describe('the vendored file', () => {
  test('keeps the countries asked for, with the source named', () => {
    load(geonames());
    const source = postalCentresSource();
    assert.deepEqual(source.countries, ['AT', 'CZ', 'DE', 'FR', 'GB', 'NL', 'PL', 'PT']);
    assert.equal(source.licence, 'CC-BY-4.0');
  });

  test('a district is read as its city; of several places, the largest known city nearby is the town', () => {
    const at = (latitude: number, longitude: number) => ({ latitude, longitude });
    assert.equal(townOf('Paris 19', cities.get('FR')).town, 'Paris');
    assert.equal(townOf('Paris 01 Louvre', cities.get('FR')).town, 'Paris');
    assert.equal(townOf('Wien, Landstraße', cities.get('AT')).town, 'Wien');
    assert.equal(townOf('Praha 1', cities.get('CZ')).town, 'Praha');
    assert.equal(townOf('Berlin Kreuzberg', cities.get('DE'), at(52.497, 13.403)).town, 'Berlin');
    assert.equal(townOf('Frankfurt am Main', cities.get('DE')).town, 'Frankfurt am Main');
    // A village named like a town elsewhere in the country is not that town.
    assert.equal(townOf('Hermsdorf', cities.get('DE'), at(51.4055, 13.8937)).population, -1);
    assert.ok(townOf('Hermsdorf', cities.get('DE'), at(52.614, 13.306)).population > 10_000);
    load(geonames());
    assert.equal(postalCentre('DE', '01945')?.city, 'Ruhland', 'the largest of four villages');
    assert.equal(latinName('София / Sofija'), 'Sofija');
    assert.equal(latinName('Harana/Valle De Arana'), 'Harana/Valle De Arana');
  });

  test('the CSV form: organisations place their code but name no town; CEDEX codes are their code; letters and scripts', () => {
    const places = readPostalCsv(CSV, new Set(['DE', 'FR', 'LU', 'BG', 'UA']));
    assert.equal(places.get('DE')?.filter((p) => p.organisation).length, 3);
    load(buildPostalCentres(places, 'CSV test rows', cities, { areaKm: 0 }));
    // 10875 serves Daimler's offices in Stuttgart and Berlin: where most of them are, named by the nearest code's town.
    assert.deepEqual(postalCentre('DE', '10875'), { latitude: 52.506, longitude: 13.373, city: 'Berlin', code: '10875', exact: true });
    assert.equal(postalCentre('DE', '60311')?.city, 'Frankfurt am Main');
    assert.deepEqual(postalCentre('FR', '75940'), { latitude: 48.882, longitude: 2.382, city: 'Paris', code: '75940', exact: true });
    assert.notEqual(postalCentre('FR', '75998')?.code, '75998', 'a military sector code is skipped');
    for (const written of ['L-1120', 'L1120', '1120']) assert.equal(postalCentre('LU', written)?.city, 'Luxembourg', written);
    assert.equal(postalCentre('BG', '1000')?.city, 'Sofija', 'the Latin of two scripts');
    assert.equal(postalCentre('UA', '01001')?.city, 'Kyiv', 'a Cyrillic place is named by the known city there');
  });

  test('zip files (GitHub’s data/<CC>.zip, GeoNames’ own) are read as they are', () => {
    const zip = zipOf({ 'zipcodes.de.csv': CSV, 'readme.txt': 'not data', 'zipcodes.de.json': '[]' });
    assert.deepEqual(
      readZip(zip, (name) => name.endsWith('.csv')).map((m) => m.name),
      ['zipcodes.de.csv'],
    );
    fs.writeFileSync(path.join(dir, 'DE.zip'), zip);
    fs.writeFileSync(path.join(dir, 'FR.zip'), zipOf({ 'FR.txt': GEONAMES, 'readme.txt': 'GeoNames readme' }));
    const kinds = new Set<'csv' | 'geonames'>();
    const places = mergePlaces(
      readPostalFile(path.join(dir, 'DE.zip'), new Set(['DE']), kinds),
      readPostalFile(path.join(dir, 'FR.zip'), new Set(['FR']), kinds),
    );
    assert.deepEqual([...kinds].sort(), ['csv', 'geonames']);
    assert.deepEqual([...places.keys()], ['DE', 'FR']);
    assert.equal(places.get('DE')?.length, 6);
    assert.equal(places.get('FR')?.length, 3);
  });

  test('street-level codes of one town lying together are kept as their area', () => {
    load(geonames(2));
    // 60311 and 60313 lie 400 m apart: the area 6031, its codes still known; 60385 and 60388 lie 4.6 km apart and stay.
    assert.deepEqual(postalCentre('DE', '60311'), {
      latitude: 50.115,
      longitude: 8.684,
      city: 'Frankfurt am Main',
      code: '60311',
      exact: true,
    });
    assert.deepEqual(postalRangesWithin({ latitude: 50.115, longitude: 8.684 }, 1), [{ country: 'DE', from: '6031', to: '60385' }]);
    assert.equal(postalCentre('DE', '60385')?.exact, true);
    assert.equal(postalCentre('DE', '60388')?.exact, true);
  });
});

describe('postalCentre', () => {
  before(() => load(geonames()));

  test('a code as the country writes it, or without its separators: centre and town', () => {
    assert.deepEqual(postalCentre('FR', '75019'), { latitude: 48.882, longitude: 2.382, city: 'Paris', code: '75019', exact: true });
    assert.equal(postalCentre('fr', ' 75019 ')?.city, 'Paris');
    assert.equal(postalCentre('AT', '1030')?.city, 'Wien');
    for (const written of ['110 00', '11000']) assert.equal(postalCentre('CZ', written)?.city, 'Praha', written);
    for (const written of ['44-100', '44100', '44 100']) assert.equal(postalCentre('PL', written)?.code, '44-100', written);
    const centre = postalCentre('DE', '01945')!;
    assert.ok(Math.abs(centre.latitude - 51.432) < 0.001, 'the mean of its places');
  });

  test('an unknown code: its longest known prefix that is a code, else the area of its last two characters', () => {
    assert.deepEqual(postalCentre('GB', 'SW1A 1AA'), { latitude: 51.5, longitude: -0.142, city: 'London', code: 'SW1A', exact: false });
    assert.equal(postalCentre('NL', '1012 AB')?.city, 'Amsterdam');
    // Portugal is kept by its four-digit areas (CP4): a street's code is found by its area.
    assert.deepEqual(postalCentre('PT', '1000-001'), { latitude: 38.741, longitude: -9.14, city: 'Lisboa', code: '1000', exact: false });
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

describe('postalRangesWithin (the radius search for freights without coordinates)', () => {
  before(() => load(geonames()));

  test('runs of codes whose centre is in the circle, up to the next code outside', () => {
    const frankfurt = { latitude: 50.1109, longitude: 8.6821 };
    // Frankfurt's four codes, up to München's 80331 (outside); Ruhland's 01945 is not in it.
    assert.deepEqual(postalRangesWithin(frankfurt, 10), [{ country: 'DE', from: '60311', to: '63450' }]);
    assert.deepEqual(postalRangesWithin(frankfurt, 25), [{ country: 'DE', from: '60311', to: '80331' }]);
    assert.deepEqual(postalRangesWithin({ latitude: 50.1127, longitude: 8.6835 }, 0.3), [{ country: 'DE', from: '60311', to: '60313' }]);
    // The first code of a country: from before every key; the last: up to after every key.
    assert.deepEqual(postalRangesWithin({ latitude: 48.8566, longitude: 2.3522 }, 8), [{ country: 'FR', from: '', to: '~' }]);
    assert.deepEqual(postalRangesWithin({ latitude: 51.44, longitude: 13.9 }, 10), [{ country: 'DE', from: '', to: '60311' }]);
    assert.deepEqual(postalRangesWithin({ latitude: 0, longitude: 0 }, 100), []);
  });

  test('countries whose codes may carry their letters: the ranges with them too', () => {
    load(buildPostalCentres(readPostalCsv(CSV, new Set(['LU'])), 'CSV test rows', cities, { areaKm: 0 }));
    assert.deepEqual(postalRangesWithin({ latitude: 49.61, longitude: 6.13 }, 5), [
      { country: 'LU', from: '', to: ':' },
      { country: 'LU', from: 'L', to: 'L:' },
    ]);
  });
});

describe('place suggestions with postal data', () => {
  before(() => load(geonames()));
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
      assert.equal(first?.latitude, 48.882);
    }
    assert.match((await suggest(english, 'FR-75019', 'filter'))[0]!.label, /^FR-75019 Paris · postal area, France$/);
    assert.match((await suggest(german, 'FR-75019', 'filter'))[0]!.label, /^FR-75019 Paris · PLZ-Gebiet, Frankreich$/);
  });

  test('a postal area is named by the town of its codes; a code the data lacks, plainly', async () => {
    assert.match((await suggest(english, 'DE-603', 'filter'))[0]!.label, /^DE-603 Frankfurt am Main · postal area/);
    assert.match((await suggest(english, 'DE-2', 'filter'))[0]!.label, /^DE-2 · postal area/);
  });
});
