import { readFileSync } from 'node:fs';
import { boundingBox, distanceKm, type Point } from './geo.ts';
import { postalKey } from './postal.ts';

/**
 * The centre and town of each postal code (postal-centres.json, written by `npm run
 * vendor:postal` from GeoNames' postal code data, CC BY 4.0: scripts/vendor-postal.ts names the
 * source and version). It fills what a person typed as "60311 / Deutschland" with a point and a
 * town, and lets a radius search reach freights that have a postal code but no coordinates.
 *
 * Read on first use, and a country's rows only when a question needs that country: the file is
 * one JSON text of one string per country (fast to parse, no object per code), split into a
 * sorted array of codes and two Float32Arrays (a metre's precision) when first asked. Read-only
 * packaged data: nothing another process would need.
 */

export interface PostalCentre {
  latitude: number;
  longitude: number;
  /** the town of the code (a big city's name for its districts: "Paris" for 75019) */
  city: string;
  /** the code or prefix found, as the country writes it ("44-100", "SW1A", "603" for a prefix) */
  code: string;
  /** false when the code itself is unknown and the centre is that of the codes sharing its longest known prefix */
  exact: boolean;
}

/** The file as vendor-postal.ts writes it. */
export interface PostalCentresFile {
  source: string;
  licence: string;
  /** per country: bounding box "minLat minLon maxLat maxLon", town names "|"-separated, and rows */
  countries: Record<string, { box: string; names: string; rows: string }>;
}

/** One row of `rows`: written code, latitude and longitude in 1/10,000 degrees, index into `names`; rows "\n"-separated, sorted by key. */
export const ROW_SEPARATOR = '\n';
export const FIELD_SEPARATOR = '\t';

interface CountryCodes {
  /** postalKey of each code, sorted (binary search) */
  keys: string[];
  written: string[];
  latitude: Float32Array;
  longitude: Float32Array;
  town: Uint32Array;
  names: string[];
}

const PACKAGED = new URL('./postal-centres.json', import.meta.url);

let file: PostalCentresFile | undefined;
let parsed = new Map<string, CountryCodes>();

/** Replaces the data (the packaged file by default): tests and the vendor script's check read another file. */
export function loadPostalCentres(source: URL | string | PostalCentresFile = PACKAGED): void {
  file = typeof source === 'object' && !(source instanceof URL) ? source : (JSON.parse(readFileSync(source, 'utf8')) as PostalCentresFile);
  parsed = new Map();
}

function data(): PostalCentresFile {
  if (!file) loadPostalCentres();
  return file!;
}

/** Where the data comes from, and which countries it covers. */
export function postalCentresSource(): { source: string; licence: string; countries: string[] } {
  const d = data();
  return { source: d.source, licence: d.licence, countries: Object.keys(d.countries).sort() };
}

function country(code: string): CountryCodes | undefined {
  const cc = code.trim().toUpperCase();
  const done = parsed.get(cc);
  if (done) return done;
  const raw = data().countries[cc];
  if (!raw) return undefined;
  const rows = raw.rows ? raw.rows.split(ROW_SEPARATOR) : [];
  const out: CountryCodes = {
    keys: new Array(rows.length),
    written: new Array(rows.length),
    latitude: new Float32Array(rows.length),
    longitude: new Float32Array(rows.length),
    town: new Uint32Array(rows.length),
    names: raw.names.split('|'),
  };
  rows.forEach((row, i) => {
    const [written = '', lat, lon, town] = row.split(FIELD_SEPARATOR);
    out.written[i] = written;
    out.keys[i] = postalKey(written);
    out.latitude[i] = Number(lat) / 10_000;
    out.longitude[i] = Number(lon) / 10_000;
    out.town[i] = Number(town);
  });
  parsed.set(cc, out);
  return out;
}

/** The first index whose key is >= `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows whose key starts with `prefix`: [from, to). */
function prefixRange(c: CountryCodes, prefix: string): [number, number] {
  return [lowerBound(c.keys, prefix), lowerBound(c.keys, `${prefix}\uffff`)];
}

const centreOf = (c: CountryCodes, i: number, exact: boolean, code = c.written[i]!): PostalCentre => ({
  latitude: Math.round(c.latitude[i]! * 10_000) / 10_000,
  longitude: Math.round(c.longitude[i]! * 10_000) / 10_000,
  city: c.names[c.town[i]!] ?? '',
  code,
  exact,
});

/**
 * The centre of a postal code of a country, however it is written ("44-100", "44100"; "SW1A 1AA"
 * in a country whose data lists only the outward code). A code not in the data falls back:
 * first to its longest prefix that is a code of the data (GB's outward codes, NL's four digits,
 * IE's routing keys), then to the mean of the codes sharing its longest known prefix when at
 * most its last two characters are unknown (a German 60399 lies among 603xx; a lone "6" says
 * nothing). Undefined for an unknown country or code.
 */
export function postalCentre(countryCode: string, code: string): PostalCentre | undefined {
  const c = country(countryCode);
  const key = postalKey(code);
  if (!c || !key || key.length > 12) return undefined;
  const at = lowerBound(c.keys, key);
  if (c.keys[at] === key) return centreOf(c, at, true);
  for (let length = key.length - 1; length >= 2; length--) {
    const i = lowerBound(c.keys, key.slice(0, length));
    if (c.keys[i] === key.slice(0, length)) return centreOf(c, i, false);
  }
  for (let length = key.length - 1; length >= Math.max(2, key.length - 2); length--) {
    const prefix = key.slice(0, length);
    const [from, to] = prefixRange(c, prefix);
    if (from === to) continue;
    let lat = 0;
    let lon = 0;
    const towns = new Map<number, number>();
    for (let i = from; i < to; i++) {
      lat += c.latitude[i]!;
      lon += c.longitude[i]!;
      towns.set(c.town[i]!, (towns.get(c.town[i]!) ?? 0) + 1);
    }
    const town = [...towns].sort((a, b) => b[1] - a[1])[0]![0];
    return {
      latitude: Math.round((lat / (to - from)) * 10_000) / 10_000,
      longitude: Math.round((lon / (to - from)) * 10_000) / 10_000,
      city: c.names[town] ?? '',
      code: prefix,
      exact: false,
    };
  }
  return undefined;
}

/**
 * The postal codes whose centre lies within `km` of a point, per country, for the radius search's
 * fallback (freights with a postal code and no coordinates), read over the freights' index on
 * (country, postal key) as the airports of freights without coordinates are (geo.ts
 * airportsWithin). `prefixes` are keys of which every known code lies in the circle, so a
 * freight's code the data does not know is found by its area too; `codes` are the other codes
 * inside. Both as postal keys (letters and digits, upper case).
 */
export function postalCodesWithin(center: Point, km: number): Array<{ country: string; prefixes: string[]; codes: string[] }> {
  const box = boundingBox(center, km);
  const out: Array<{ country: string; prefixes: string[]; codes: string[] }> = [];
  for (const [cc, raw] of Object.entries(data().countries)) {
    const [minLat, minLon, maxLat, maxLon] = raw.box.split(' ').map(Number) as [number, number, number, number];
    if (maxLat < box.minLat || minLat > box.maxLat) continue;
    if (box.minLon !== null && box.maxLon !== null && (maxLon < box.minLon || minLon > box.maxLon)) continue;
    const c = country(cc)!;
    // inside[i]: the code's centre is in the circle; sums[i]: how many of the first i are.
    const n = c.keys.length;
    const sums = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const lat = c.latitude[i]!;
      const lon = c.longitude[i]!;
      const inBox = lat >= box.minLat && lat <= box.maxLat && (box.minLon === null || (lon >= box.minLon && lon <= box.maxLon!));
      sums[i + 1] = sums[i]! + (inBox && distanceKm(center, { latitude: lat, longitude: lon }) <= km ? 1 : 0);
    }
    if (sums[n] === 0) continue;
    const prefixes: string[] = [];
    const codes: string[] = [];
    for (let i = 0; i < n; ) {
      if (sums[i + 1] === sums[i]) {
        i++;
        continue;
      }
      // The shortest prefix (2 characters or more) of this code whose every code is inside.
      const key = c.keys[i]!;
      let taken = false;
      for (let length = 2; length < key.length; length++) {
        const [from, to] = prefixRange(c, key.slice(0, length));
        if (sums[to]! - sums[from]! === to - from) {
          prefixes.push(key.slice(0, length));
          i = to;
          taken = true;
          break;
        }
      }
      if (!taken) {
        codes.push(key);
        i++;
      }
    }
    out.push({ country: cc, prefixes, codes });
  }
  return out;
}
