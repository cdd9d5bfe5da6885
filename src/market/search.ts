import { DateTime } from 'luxon';
import { airportByCode } from '../airports/index.ts';
import type { Warning } from '../kernel/outcome.ts';
import { preview, readDecimal, readFlag, readList, readString, type Params } from '../kernel/params.ts';
import { countryByCode, airportCodeOf, airportPoint, type Point, isAirportCode, isPostalPrefix, postalKey } from '../places/index.ts';

/**
 * The load search's parameters (docs/reference.md#load-search), read and written: `readLoadSearch` reads them
 * leniently (an unreadable one is ignored with a warning) into a `LoadSearch`, `searchToParams`
 * writes one back as the normalised query a link, a bookmark or a saved search keeps. What a
 * search means for rows of a table is sql.ts (the pieces) and the module that owns the table
 * (freights/search.ts for freights).
 */

export const SEARCH_PARAMS = [
  'from',
  'to',
  'from_near',
  'from_radius',
  'to_near',
  'to_radius',
  'pickup_from',
  'pickup_to',
  'delivery_from',
  'delivery_to',
  'weight_min',
  'weight_max',
  'media',
  'q',
  'body',
  'adr',
  'loading_meters_max',
  'pallet_exchange',
] as const;
export type SearchParamName = (typeof SEARCH_PARAMS)[number];

export type PlacePattern =
  | { kind: 'country'; country: string }
  | { kind: 'postal'; country: string; prefix: string }
  | { kind: 'airport'; code: string };

export interface Near {
  center: Point;
  km: number;
  /** set when the centre was given as an airport */
  airport?: string;
  /**
   * Only one of the ways a freight is near (nearWays): by its coordinates, or, without
   * coordinates, by its airport or by its postal code's centre. Unset: any.
   */
  way?: 'point' | 'airport' | 'postal';
}

/** A date window, inclusive days in APP_TIMEZONE; `start`/`end` are the instants it spans ([start, end)). */
export interface DayWindow {
  from?: string;
  to?: string;
  start: Date | null;
  end: Date | null;
  /**
   * `end` is an instant of the window too ([start, end]): a window of instants rather than days
   * (a vehicle offer's availability, a freight's loading window as matching reads them).
   */
  closed?: boolean;
}

/**
 * The load's description shared by freights and vehicle offers (docs/choices.md, "Loads described
 * as trucks are"): the body a load needs and a truck has (docs/reference.md#vehicles), the most
 * loading metres of a trailer, and the UN dangerous-goods (ADR) classes.
 */
export const BODIES = ['tautliner', 'box', 'reefer', 'flatbed', 'van', 'tank', 'other'] as const;
export type Body = (typeof BODIES)[number];
export const MAX_LOADING_METERS = 13.6;
export const ADR_CLASSES = ['1', '2', '3', '4.1', '4.2', '4.3', '5.1', '5.2', '6.1', '6.2', '7', '8', '9'] as const;
export type AdrClass = (typeof ADR_CLASSES)[number];

/**
 * What a truck offers a load, as matching reads it (docs/reference.md#vehicles; never a query
 * parameter): a load that names a body needs that body, a load's loading metres must fit the
 * truck's (when the truck names its own), an ADR load needs a truck that carries ADR. A load
 * without these fields fits as before.
 */
export interface TruckFit {
  body: Body;
  loadingMeters: string | null;
  adr: boolean;
}

/** A load search (docs/reference.md#load-search), read: what a list of freights (or, later, of vehicle offers) is narrowed by. */
export interface LoadSearch {
  from?: PlacePattern[];
  to?: PlacePattern[];
  fromNear?: Near;
  toNear?: Near;
  pickup?: DayWindow;
  delivery?: DayWindow;
  weightMin?: string;
  weightMax?: string;
  media?: 'road' | 'air';
  /** words that must each appear */
  q?: string[];
  /** the load's body is one of these */
  body?: Body[];
  /** an ADR load (any class) or, false, a load without an ADR class */
  adr?: boolean;
  /** the load's loading metres at most this */
  loadingMetersMax?: string;
  /** with pallet exchange (true) or without (false) */
  palletExchange?: boolean;
  /** matching only: what a vehicle offer can carry (TruckFit) */
  truck?: TruckFit;
}

export const MAX_PATTERNS = 20;
export const MIN_RADIUS_KM = 1;
export const MAX_RADIUS_KM = 500;
/** Radius when a centre is given without one (or with an unreadable one). */
export const DEFAULT_RADIUS_KM = 50;
const MAX_Q = 100;
const MAX_Q_WORDS = 5;

export const isEmptySearch = (s: LoadSearch) => Object.keys(s).length === 0;

// ---------------------------------------------------------------------------------------------
// Reading the parameters

const warn = (warnings: Warning[], field: string, reason: string) => warnings.push({ field, reason });

/** A parameter's text, or undefined (absent or empty: no warning; a list or object: warning). */
function text(params: Params, name: string, warnings: Warning[], max = 500): string | undefined {
  const raw = params[name];
  if (raw === undefined || raw === null) return undefined;
  const value = readString(raw);
  if (value === undefined) {
    warn(warnings, name, 'not a text');
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed.length > max) {
    warn(warnings, name, `longer than ${max} characters`);
    return undefined;
  }
  return trimmed === '' ? undefined : trimmed;
}

/**
 * One place pattern: `DE` (country), `DE-60` or `DE 60` (country and postal prefix; the
 * rate-search form `city:DE-60` too), `airport:FRA` (or three letters, as freight locations).
 */
export function parsePlacePattern(token: string): PlacePattern | string {
  const t = token.trim();
  const airport = airportCodeOf(t);
  if (airport !== null) return { kind: 'airport', code: airport };
  const country = /^([A-Za-z]{2})$/.exec(t);
  if (country) {
    const code = country[1]!.toUpperCase();
    return countryByCode(code) ? { kind: 'country', country: code } : `${code} is no country code`;
  }
  const postal = /^(?:city:\s*)?([A-Za-z]{2})\s*[-\s]\s*([0-9A-Za-z][0-9A-Za-z -]{0,11})$/i.exec(t);
  if (postal) {
    const code = postal[1]!.toUpperCase();
    if (!countryByCode(code)) return `${code} is no country code`;
    const prefix = postalKey(postal[2]!);
    if (!isPostalPrefix(code, prefix)) return `${prefix} cannot begin a postal code of ${code}`;
    return { kind: 'postal', country: code, prefix };
  }
  return `"${preview(t, 30)}" is not DE, DE-60 or airport:FRA`;
}

function readPlaces(params: Params, name: 'from' | 'to', warnings: Warning[]): PlacePattern[] | undefined {
  const value = text(params, name, warnings);
  if (value === undefined) return undefined;
  const list = readList(value, MAX_PATTERNS);
  if (!list.ok) {
    warn(warnings, name, `more than ${MAX_PATTERNS} places`);
    return undefined;
  }
  const out: PlacePattern[] = [];
  for (const item of list.items) {
    if (item === '') continue;
    const p = parsePlacePattern(String(item));
    if (typeof p === 'string') warn(warnings, name, `${p}: ignored`);
    else if (!out.some((o) => JSON.stringify(o) === JSON.stringify(p))) out.push(p);
  }
  return out.length ? out : undefined;
}

/** `lat,lon` (decimal degrees) or `airport:XXX` / `XXX`. */
export function parseCenter(value: string): { center: Point; airport?: string } | string {
  const pair = /^(-?\d{1,3}(?:\.\d{1,10})?)\s*[,;]\s*(-?\d{1,3}(?:\.\d{1,10})?)$/.exec(value);
  if (pair) {
    const latitude = Number(pair[1]);
    const longitude = Number(pair[2]);
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return 'coordinates out of range';
    return { center: { latitude, longitude } };
  }
  const code = airportCodeOf(value);
  if (code !== null) {
    const airport = airportByCode(code);
    return airport ? { center: airportPoint(airport), airport: code } : `unknown airport ${code}`;
  }
  return 'not lat,lon or airport:XXX';
}

function readNear(params: Params, side: 'from' | 'to', warnings: Warning[]): Near | undefined {
  const nearName = `${side}_near`;
  const radiusName = `${side}_radius`;
  const value = text(params, nearName, warnings, 100);
  let km: number | undefined;
  const rawRadius = params[radiusName];
  if (rawRadius !== undefined && rawRadius !== null && rawRadius !== '') {
    const r = readDecimal(rawRadius);
    const n = r === undefined ? NaN : Number(r);
    if (!(n >= MIN_RADIUS_KM && n <= MAX_RADIUS_KM))
      warn(warnings, radiusName, `not a radius from ${MIN_RADIUS_KM} to ${MAX_RADIUS_KM} km: ${DEFAULT_RADIUS_KM} km used`);
    else km = n;
    if (value === undefined) warn(warnings, radiusName, `has no effect without ${nearName}`);
  }
  if (value === undefined) return undefined;
  const center = parseCenter(value);
  if (typeof center === 'string') {
    warn(warnings, nearName, `${center}: ignored`);
    return undefined;
  }
  return { ...center, km: km ?? DEFAULT_RADIUS_KM };
}

function readDay(params: Params, name: string, zone: string, warnings: Warning[]): DateTime | undefined {
  const value = text(params, name, warnings, 20);
  if (value === undefined) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? DateTime.fromISO(value, { zone }) : undefined;
  if (!day?.isValid || day.year < 1900 || day.year > 9998) {
    warn(warnings, name, 'not a date YYYY-MM-DD');
    return undefined;
  }
  return day.startOf('day');
}

function readWindow(params: Params, prefix: 'pickup' | 'delivery', zone: string, warnings: Warning[]): DayWindow | undefined {
  const from = readDay(params, `${prefix}_from`, zone, warnings);
  const to = readDay(params, `${prefix}_to`, zone, warnings);
  if (!from && !to) return undefined;
  if (from && to && from > to) {
    warn(warnings, `${prefix}_from`, `after ${prefix}_to: both ignored`);
    return undefined;
  }
  return {
    from: from?.toISODate() ?? undefined,
    to: to?.toISODate() ?? undefined,
    start: from ? from.toJSDate() : null,
    end: to ? to.plus({ days: 1 }).toJSDate() : null,
  };
}

function readWeight(params: Params, name: string, warnings: Warning[]): string | undefined {
  const raw = params[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = readDecimal(raw);
  if (value === undefined || value.startsWith('-') || (value.split('.')[1]?.length ?? 0) > 3) {
    warn(warnings, name, 'not a weight in kg (up to 3 decimals)');
    return undefined;
  }
  return value;
}

/** `body`: comma-separated bodies (a list too); unknown ones are ignored with a warning. */
function readBodies(params: Params, warnings: Warning[]): Body[] | undefined {
  const raw = params.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = readList(raw, BODIES.length * 2);
  if (!list.ok) {
    warn(warnings, 'body', `not a list of ${BODIES.join(', ')}`);
    return undefined;
  }
  const out: Body[] = [];
  for (const item of list.items) {
    const b = readString(item)?.trim().toLowerCase() ?? '';
    if ((BODIES as readonly string[]).includes(b)) {
      if (!out.includes(b as Body)) out.push(b as Body);
    } else if (b) warn(warnings, 'body', `${b.slice(0, 20)} is not one of ${BODIES.join(', ')}: ignored`);
  }
  return out.length ? BODIES.filter((b) => out.includes(b)) : undefined;
}

function readSearchFlag(params: Params, name: string, warnings: Warning[]): boolean | undefined {
  const raw = params[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const flag = readFlag(typeof raw === 'string' ? raw.trim() : raw);
  if (flag === undefined) warn(warnings, name, 'not 0 or 1');
  return flag === undefined ? undefined : flag === 1;
}

function readLoadingMeters(params: Params, name: string, warnings: Warning[]): string | undefined {
  const raw = params[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = readDecimal(raw);
  const n = value === undefined ? Number.NaN : Number(value);
  if (value === undefined || !(n >= 0 && n <= MAX_LOADING_METERS) || (value.split('.')[1]?.length ?? 0) > 2) {
    warn(warnings, name, `not loading metres from 0 to ${MAX_LOADING_METERS} (up to 2 decimals)`);
    return undefined;
  }
  return String(n);
}

/**
 * The search parameters of a list request (docs/reference.md#load-search). Each unreadable parameter is
 * ignored and named in `warnings`; the others apply. `zone` is APP_TIMEZONE (dates are days there).
 */
export function readLoadSearch(params: Params, zone: string, warnings: Warning[] = []): LoadSearch {
  const s: LoadSearch = {};
  const from = readPlaces(params, 'from', warnings);
  if (from) s.from = from;
  const to = readPlaces(params, 'to', warnings);
  if (to) s.to = to;
  const fromNear = readNear(params, 'from', warnings);
  if (fromNear) s.fromNear = fromNear;
  const toNear = readNear(params, 'to', warnings);
  if (toNear) s.toNear = toNear;
  const pickup = readWindow(params, 'pickup', zone, warnings);
  if (pickup) s.pickup = pickup;
  const delivery = readWindow(params, 'delivery', zone, warnings);
  if (delivery) s.delivery = delivery;
  const min = readWeight(params, 'weight_min', warnings);
  const max = readWeight(params, 'weight_max', warnings);
  if (min !== undefined && max !== undefined && Number(min) > Number(max)) {
    warn(warnings, 'weight_min', 'above weight_max: both ignored');
  } else {
    if (min !== undefined) s.weightMin = min;
    if (max !== undefined) s.weightMax = max;
  }
  const media = text(params, 'media', warnings, 20)?.toLowerCase();
  if (media === 'road' || media === 'air') s.media = media;
  else if (media !== undefined) warn(warnings, 'media', 'not road or air');
  const q = text(params, 'q', warnings, MAX_Q);
  if (q !== undefined) {
    const words = [...new Set(q.split(/\s+/).filter(Boolean))];
    if (words.length > MAX_Q_WORDS) warn(warnings, 'q', `more than ${MAX_Q_WORDS} words: the first ${MAX_Q_WORDS} used`);
    s.q = words.slice(0, MAX_Q_WORDS);
  }
  const body = readBodies(params, warnings);
  if (body) s.body = body;
  const adr = readSearchFlag(params, 'adr', warnings);
  if (adr !== undefined) s.adr = adr;
  const loadingMeters = readLoadingMeters(params, 'loading_meters_max', warnings);
  if (loadingMeters !== undefined) s.loadingMetersMax = loadingMeters;
  const pallets = readSearchFlag(params, 'pallet_exchange', warnings);
  if (pallets !== undefined) s.palletExchange = pallets;
  return s;
}

const round = (n: number, digits: number) => String(Number(n.toFixed(digits)));

/**
 * Every pattern text (formatPlacePattern) a place matches, for finding saved searches by a
 * freight's places: its country, its country with each prefix of its postal key, and the airport
 * when its code is three letters. A superset where placeSql excludes airport codes from postal
 * patterns: the exact match follows.
 */
export function placeKeys(code: string | null | undefined, country: string | null | undefined): string[] {
  const key = (code ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  const c = (country ?? '').trim().toUpperCase();
  const keys: string[] = [];
  if (c) {
    keys.push(c);
    for (let i = 1; i <= Math.min(key.length, 12); i++) keys.push(`${c}-${key.slice(0, i)}`);
  }
  if (isAirportCode(key)) keys.push(`airport:${key}`);
  return keys;
}

export function formatPlacePattern(p: PlacePattern): string {
  if (p.kind === 'country') return p.country;
  if (p.kind === 'postal') return `${p.country}-${p.prefix}`;
  return `airport:${p.code}`;
}

/**
 * The search as query parameters, normalised (what a bookmark, a page's links and a saved
 * search keep). Reading them back gives the same search.
 */
export function searchToParams(s: LoadSearch): Partial<Record<SearchParamName, string>> {
  const out: Partial<Record<SearchParamName, string>> = {};
  if (s.from) out.from = s.from.map(formatPlacePattern).join(',');
  if (s.to) out.to = s.to.map(formatPlacePattern).join(',');
  for (const [side, near] of [
    ['from', s.fromNear],
    ['to', s.toNear],
  ] as const) {
    if (!near) continue;
    out[`${side}_near`] = near.airport ? `airport:${near.airport}` : `${round(near.center.latitude, 6)},${round(near.center.longitude, 6)}`;
    out[`${side}_radius`] = round(near.km, 3);
  }
  for (const [prefix, w] of [
    ['pickup', s.pickup],
    ['delivery', s.delivery],
  ] as const) {
    if (w?.from) out[`${prefix}_from`] = w.from;
    if (w?.to) out[`${prefix}_to`] = w.to;
  }
  if (s.weightMin !== undefined) out.weight_min = s.weightMin;
  if (s.weightMax !== undefined) out.weight_max = s.weightMax;
  if (s.media) out.media = s.media;
  if (s.q?.length) out.q = s.q.join(' ');
  if (s.body?.length) out.body = s.body.join(',');
  if (s.adr !== undefined) out.adr = s.adr ? '1' : '0';
  if (s.loadingMetersMax !== undefined) out.loading_meters_max = s.loadingMetersMax;
  if (s.palletExchange !== undefined) out.pallet_exchange = s.palletExchange ? '1' : '0';
  return out;
}
