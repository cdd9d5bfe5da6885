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
 * sorted array of codes and two Float32Arrays when first asked. Read-only packaged data: nothing
 * another process would need.
 */

export interface PostalCentre {
  latitude: number;
  longitude: number;
  /** the town of the code (a big city's name for its districts: "Paris" for 75019) */
  city: string;
  /** the code or prefix found, as the country writes it ("44-100", "SW1A", "603" for a prefix) */
  code: string;
  /**
   * false when the code itself is unknown and the centre is that of the codes sharing its longest
   * known prefix (true for a code of a street-level area the data keeps whole, at the area's centre)
   */
  exact: boolean;
}

/** The file as vendor-postal.ts writes it. */
export interface PostalCentresFile {
  source: string;
  licence: string;
  /** decimals of the coordinates: rows hold them as whole numbers of 10^-precision degrees */
  precision: number;
  /** per country: bounding box "minLat minLon maxLat maxLon", town names "|"-separated, and rows */
  countries: Record<string, { box: string; names: string; rows: string }>;
}

/**
 * One row of `rows`: the code as written; its latitude and longitude in 10^-precision degrees,
 * each as the difference from the row before (the first from 0: neighbouring codes lie close, so
 * the differences are short); the index of its town in `names`, empty for the town of the row
 * before. Rows ";"-separated, sorted by key. (Separators JSON writes as they are.)
 */
export const ROW_SEPARATOR = ';';
export const FIELD_SEPARATOR = ',';
/**
 * Ends the written code of a row that stands for the codes one character longer ("6031*": 60311,
 * 60313, … kept as their street-level area, vendor-postal.ts compactAreas): such a code is known.
 */
export const AREA_MARK = '*';

/**
 * Countries whose codes are written with the country's letters or without ("L-1120" or "1120",
 * "LV-1001", "MD-2001"): the data keeps them without, and a code is read either way.
 */
export const COUNTRY_LETTERS: Readonly<Record<string, string>> = { LU: 'L', LV: 'LV', MD: 'MD' };

/** A code's postal key as the data keeps it: without the country's letters where they are optional. */
export function postalKeyIn(country: string, code: string): string {
  const key = postalKey(code);
  const letters = COUNTRY_LETTERS[country.trim().toUpperCase()];
  return letters && key.startsWith(letters) && /^\d/.test(key.slice(letters.length)) ? key.slice(letters.length) : key;
}

interface CountryCodes {
  /** postalKey of each code, sorted (binary search) */
  keys: string[];
  written: string[];
  /** 1 where the row is an area of the codes one character longer (AREA_MARK) */
  area: Uint8Array;
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
  const scale = 10 ** data().precision;
  const out: CountryCodes = {
    keys: new Array(rows.length),
    written: new Array(rows.length),
    area: new Uint8Array(rows.length),
    latitude: new Float32Array(rows.length),
    longitude: new Float32Array(rows.length),
    town: new Uint32Array(rows.length),
    names: raw.names.split('|'),
  };
  let [lat, lon, town] = [0, 0, 0];
  rows.forEach((row, i) => {
    const [written = '', dLat, dLon, ofTown] = row.split(FIELD_SEPARATOR);
    lat += Number(dLat);
    lon += Number(dLon);
    if (ofTown) town = Number(ofTown);
    out.area[i] = written.endsWith(AREA_MARK) ? 1 : 0;
    out.written[i] = out.area[i] ? written.slice(0, -AREA_MARK.length) : written;
    out.keys[i] = postalKey(written);
    out.latitude[i] = lat / scale;
    out.longitude[i] = lon / scale;
    out.town[i] = town;
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

/** A coordinate as precise as the data (the Float32Arrays hold 48.882 as 48.88199996…). */
const round = (n: number) => {
  const scale = 10 ** data().precision;
  return Math.round(n * scale) / scale;
};

const centreOf = (c: CountryCodes, i: number, exact: boolean, code = c.written[i]!): PostalCentre => ({
  latitude: round(c.latitude[i]!),
  longitude: round(c.longitude[i]!),
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
  const key = postalKeyIn(countryCode, code);
  if (!c || !key || key.length > 12) return undefined;
  const at = lowerBound(c.keys, key);
  if (c.keys[at] === key) return centreOf(c, at, true);
  for (let length = key.length - 1; length >= 2; length--) {
    const i = lowerBound(c.keys, key.slice(0, length));
    if (c.keys[i] !== key.slice(0, length)) continue;
    // A code of a street-level area kept whole is a code the data knows, at its area's centre.
    if (c.area[i] && length === key.length - 1) return centreOf(c, i, true, c.written[i]! + key.slice(-1));
    return centreOf(c, i, false);
  }
  for (let length = key.length - 1; length >= Math.max(2, key.length - 2); length--) {
    const prefix = key.slice(0, length);
    const mean = meanOf(c, prefix);
    if (mean) return mean;
  }
  return undefined;
}

/** The mean of the codes starting with `prefix`, named by the town most of them have; undefined for none. */
function meanOf(c: CountryCodes, prefix: string): PostalCentre | undefined {
  const [from, to] = prefixRange(c, prefix);
  if (from === to) return undefined;
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
    latitude: round(lat / (to - from)),
    longitude: round(lon / (to - from)),
    city: c.names[town] ?? '',
    code: prefix,
    exact: false,
  };
}

/**
 * The centre of a postal area of any length (`PL-00`, `DE-8`): a code the data knows, else the
 * mean of its codes (postalCentre answers a short prefix nothing, since a lone "6" says nothing
 * about a code; a person who types an area as a radius centre means the area). Undefined for an
 * unknown country or an area without codes.
 */
export function postalAreaCentre(countryCode: string, prefix: string): PostalCentre | undefined {
  const c = country(countryCode);
  const key = postalKeyIn(countryCode, prefix);
  if (!c || !key || key.length > 12) return undefined;
  return postalCentre(countryCode, prefix) ?? meanOf(c, key);
}

/**
 * The centre of the code whose run a postal code falls in: the last code of its country the data
 * knows at or before its key, the country's first code standing for every key before it too. The
 * radius search places a row by its postal code alone so (postalCentresWithin's starts, the
 * statement's `width_bucket`); places/point.ts placePoint reads it. Undefined for a country the
 * data does not hold.
 */
export function postalRunCentre(countryCode: string, code: string): Point | undefined {
  const c = country(countryCode);
  if (!c?.keys.length) return undefined;
  const key = postalKeyIn(countryCode, code);
  const at = lowerBound(c.keys, key);
  const i = c.keys[at] === key ? at : Math.max(0, at - 1);
  return { latitude: round(c.latitude[i]!), longitude: round(c.longitude[i]!) };
}

/**
 * The postal key of the code whose centre lies nearest a point, in one country, if one lies within
 * `km` (a city's centre gives the code of its middle: the lane form offers a city as that code's
 * area). One pass over the country's codes (at most some 15,000), comparing flat distances.
 */
export function nearestPostalKey(countryCode: string, point: Point, km: number): string | undefined {
  const c = country(countryCode);
  if (!c?.keys.length) return undefined;
  const cos = Math.cos((point.latitude * Math.PI) / 180);
  let best = 0;
  let bestFlat = Number.POSITIVE_INFINITY;
  for (let i = 0; i < c.keys.length; i++) {
    const dLat = c.latitude[i]! - point.latitude;
    const dLon = (c.longitude[i]! - point.longitude) * cos;
    const flat = dLat * dLat + dLon * dLon;
    if (flat < bestFlat) {
      bestFlat = flat;
      best = i;
    }
  }
  return distanceKm(point, { latitude: c.latitude[best]!, longitude: c.longitude[best]! }) <= km ? c.keys[best] : undefined;
}

/** A run of postal keys of one country: from `from` up to, not including, `to` (C collation; keys are letters and digits, "~" follows them all). */
export interface PostalRange {
  country: string;
  from: string;
  to: string;
}

/** After every postal key (letters and digits) in the "C" collation: the end of a country's last range. */
export const AFTER_ALL_KEYS = '~';
/** After every key of digits alone: the end of the last range of a country whose keys may begin with its letters. */
const AFTER_DIGITS = ':';

/**
 * The postal keys whose code's centre lies within `km` of a point, for the radius search's
 * fallback (freights with a postal code and no coordinates), as ranges over the freights' index
 * on (country, postal key): per country, each run of the data's codes (in key order) whose
 * centres all lie in the circle, from its first code up to the next code of the data (outside the
 * circle). A code the data does not know, or a longer one (GB's and NL's full codes, where the
 * data holds the first part), falls in the range of the code before it in key order (before the
 * first code: in the first code's, so NL's "1000 AP", a PO box code, lies with 1011). Countries
 * whose codes may carry the country's letters (COUNTRY_LETTERS) get each range with them too.
 */
export function postalRangesWithin(center: Point, km: number): PostalRange[] {
  const out: PostalRange[] = [];
  for (const { cc, c, inside } of countriesInCircle(center, km)) {
    const ranges: Array<[string, string]> = [];
    let from: string | undefined;
    for (let i = 0; i < c.keys.length; i++) {
      const isInside = inside(i);
      // A run from the country's first code takes every key before it too, as the last one every key after it.
      if (isInside && from === undefined) from = i === 0 ? '' : c.keys[i]!;
      else if (!isInside && from !== undefined) {
        ranges.push([from, c.keys[i]!]);
        from = undefined;
      }
    }
    const letters = COUNTRY_LETTERS[cc];
    if (from !== undefined) ranges.push([from, letters ? AFTER_DIGITS : AFTER_ALL_KEYS]);
    for (const [a, b] of ranges) out.push({ country: cc, from: a, to: b });
    if (letters) for (const [a, b] of ranges) out.push({ country: cc, from: letters + a, to: letters + b });
  }
  return out;
}

/**
 * The countries whose box meets the circle's, each with the one test of its i-th code's centre
 * (in the circle's box, then within `km` by the great circle) that postalRangesWithin and
 * postalCentresWithin share, so that a code's range and its centre always agree.
 */
function countriesInCircle(center: Point, km: number): Array<{ cc: string; c: CountryCodes; inside: (i: number) => boolean }> {
  const box = boundingBox(center, km);
  const found: Array<{ cc: string; c: CountryCodes; inside: (i: number) => boolean }> = [];
  for (const [cc, raw] of Object.entries(data().countries)) {
    const [minLat, minLon, maxLat, maxLon] = raw.box.split(' ').map(Number) as [number, number, number, number];
    if (maxLat < box.minLat || minLat > box.maxLat) continue;
    if (box.minLon !== null && box.maxLon !== null && (maxLon < box.minLon || minLon > box.maxLon)) continue;
    const c = country(cc)!;
    const inside = (i: number) => {
      const lat = c.latitude[i]!;
      const lon = c.longitude[i]!;
      return (
        lat >= box.minLat &&
        lat <= box.maxLat &&
        (box.minLon === null || (lon >= box.minLon && lon <= box.maxLon!)) &&
        distanceKm(center, { latitude: lat, longitude: lon }) <= km
      );
    };
    found.push({ cc, c, inside });
  }
  return found;
}

/** A code within a radius: the first key of the run it stands for, and its centre. */
export interface PostalCentreStart {
  country: string;
  /** the code's key; for a country's first code, '' (every key before it falls to it too) */
  from: string;
  latitude: number;
  longitude: number;
}

/**
 * The codes whose centre lies within `km` of a point, each as the start of the keys it stands for
 * in postalRangesWithin's ranges (the same test of the same centres): from its key up to the next
 * code of the data, a key the data does not know falling to the code before it. A row placed by
 * its postal code alone lies at the centre of the code whose start is the last at or before its
 * key (market/distance.ts: the distance the radius search placed it by). Countries whose codes may
 * carry their letters get each start with them too.
 */
export function postalCentresWithin(center: Point, km: number): PostalCentreStart[] {
  const out: PostalCentreStart[] = [];
  for (const { cc, c, inside } of countriesInCircle(center, km)) {
    const letters = COUNTRY_LETTERS[cc];
    for (let i = 0; i < c.keys.length; i++) {
      if (!inside(i)) continue;
      const from = i === 0 ? '' : c.keys[i]!;
      const at = { latitude: round(c.latitude[i]!), longitude: round(c.longitude[i]!) };
      out.push({ country: cc, from, ...at });
      if (letters) out.push({ country: cc, from: letters + from, ...at });
    }
  }
  return out;
}
