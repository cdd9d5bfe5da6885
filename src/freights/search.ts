import { Type } from '@sinclair/typebox';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { DateTime } from 'luxon';
import { airportByCode } from '../airports/index.ts';
import type { DB } from '../db/schema.ts';
import type { Warning } from '../kernel/outcome.ts';
import { preview, readDecimal, readList, readString, type Params } from '../kernel/params.ts';
import { countryByCode } from '../places/countries.ts';
import { airportPoint, airportsWithin, boundingBox, EARTH_KM, type Point } from '../places/geo.ts';
import { isPostalPrefix, postalKey } from '../places/postal.ts';

/**
 * Load search (decisions.md §7): the one definition of "a freight matches these parameters",
 * shared by the lists (GET /freights/enlist), the counts (GET /freights/counts) and the alerts
 * of saved searches. Two halves: `readFreightSearch` reads the parameters leniently (an
 * unreadable one is ignored with a warning), `searchConditions` turns them into SQL over the
 * `freights` table for a caller's company. Masked fields never match: origin, destination and
 * coordinates only where the caller's role shows them, refs only for owner and winner.
 *
 * The SQL uses the expression indexes of migration 0020_load_search (same expressions there; the
 * market's radius indexes of 0013 too): postal keys, origin/destination points (a latitude/longitude btree as a bounding box, then the
 * exact great circle), and the loading/delivery windows as GiST-indexed ranges. They work the
 * same on PGlite and PostgreSQL, without extensions.
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
   * Only one of the two ways a freight is near (nearWays): by its coordinates, or, without
   * coordinates, by its airport. Unset: either.
   */
  way?: 'point' | 'airport';
}

/** A date window, inclusive days in APP_TIMEZONE; `start`/`end` are the instants it spans ([start, end)). */
export interface DayWindow {
  from?: string;
  to?: string;
  start: Date | null;
  end: Date | null;
}

export interface FreightSearch {
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
}

export const MAX_PATTERNS = 20;
export const MIN_RADIUS_KM = 1;
export const MAX_RADIUS_KM = 500;
/** Radius when a centre is given without one (or with an unreadable one). */
export const DEFAULT_RADIUS_KM = 50;
const MAX_Q = 100;
const MAX_Q_WORDS = 5;

export const isEmptySearch = (s: FreightSearch) => Object.keys(s).length === 0;

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
  const airport = /^(?:airport:\s*)?([A-Za-z]{3})$/i.exec(t);
  if (airport) return { kind: 'airport', code: airport[1]!.toUpperCase() };
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
  const code = /^(?:airport:\s*)?([A-Za-z]{3})$/i.exec(value)?.[1]?.toUpperCase();
  if (code) {
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

/**
 * The search parameters of a list request (decisions.md §7). Each unreadable parameter is
 * ignored and named in `warnings`; the others apply. `zone` is APP_TIMEZONE (dates are days there).
 */
export function readFreightSearch(params: Params, zone: string, warnings: Warning[] = []): FreightSearch {
  const s: FreightSearch = {};
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
  return s;
}

const round = (n: number, digits: number) => String(Number(n.toFixed(digits)));

export function formatPlacePattern(p: PlacePattern): string {
  if (p.kind === 'country') return p.country;
  if (p.kind === 'postal') return `${p.country}-${p.prefix}`;
  return `airport:${p.code}`;
}

/**
 * The search as query parameters, normalised (what a bookmark, a page's links and a saved
 * search keep). Reading them back gives the same search.
 */
export function searchToParams(s: FreightSearch): Partial<Record<SearchParamName, string>> {
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
  return out;
}

// ---------------------------------------------------------------------------------------------
// SQL

type EB = ExpressionBuilder<DB, 'freights'>;
type Side = 'from' | 'to';

/**
 * The indexed expressions (migration 0020_load_search has the same ones; the planner matches
 * them by structure). Codes as letters and digits in upper case, "C" collation so a prefix
 * LIKE is a range on the index in every database locale.
 */
const codeKey = (side: Side) => sql.raw(`(upper(regexp_replace(freights.${side}_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`);
const countryKey = (side: Side) => sql.raw(`upper(freights.${side}_country)`);
const isAirportCode = (side: Side) => sql.raw(`(freights.${side}_code ~ '^[A-Za-z]{3}$')`);
/** Loading (etd) or delivery (eta) window as a range; a window ending before it starts counts as its start. */
const windowRange = (col: 'etd' | 'eta') =>
  sql.raw(
    `(case when freights.${col} is null then null when freights.${col}_end is null or freights.${col}_end < freights.${col} ` +
      `then tstzrange(freights.${col}, freights.${col}, '[]') else tstzrange(freights.${col}, freights.${col}_end, '[]') end)`,
  );

/** LIKE pattern for text containing `word`, matched case-insensitively (the escape character is `\`). */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The caller sees origin, destination and coordinates unmasked: owner, winner, or the freight is
 * in the market (open/pending, deadline not passed). A former bidder sees them masked
 * (decisions.md §4), so they must not match.
 */
function unmasked(companyId: number, now: Date) {
  return sql<SqlBool>`(freights.company_id = ${companyId} or freights.winner_id = ${companyId} or (freights.status in ('open', 'pending') and (freights.deadline is null or freights.deadline >= ${now})))`;
}

/** Addresses and refs: owner and winner only. */
function ownerOrWinner(companyId: number) {
  return sql<SqlBool>`(freights.company_id = ${companyId} or freights.winner_id = ${companyId})`;
}

/**
 * The keys a postal prefix begins, as a range in the "C" collation: from the prefix up to the
 * prefix with its last character one higher (keys are letters and digits). A range rather than
 * LIKE 'prefix%' because a prepared statement's generic plan can use a range of parameters on the
 * index, a LIKE of a parameter not.
 */
function prefixRange(side: Side, prefix: string) {
  if (!/^[0-9A-Z]+$/.test(prefix)) return sql<SqlBool>`${codeKey(side)} like ${`${prefix}%`}`;
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql<SqlBool>`${codeKey(side)} >= ${prefix} and ${codeKey(side)} < ${upper}`;
}

function placeSql(side: Side, p: PlacePattern) {
  if (p.kind === 'country') return sql<SqlBool>`${countryKey(side)} = ${p.country}`;
  if (p.kind === 'postal')
    return sql<SqlBool>`(${countryKey(side)} = ${p.country} and ${prefixRange(side, p.prefix)} and not ${isAirportCode(side)})`;
  return sql<SqlBool>`${codeKey(side)} = ${p.code}`;
}

/**
 * The airports within a search's radius (every airport's distance is computed, ~0.3 ms): kept
 * for the last centres searched, which carriers repeat (saved searches, paging, bookmarks). The
 * airport data set is static, so an entry never goes stale.
 */
const airportsNearCentres = new Map<string, string[]>();
const MAX_CENTRES = 1000;
function airportsAround(near: Near): string[] {
  const key = `${near.center.latitude},${near.center.longitude},${near.km}`;
  let airports = airportsNearCentres.get(key);
  if (!airports) {
    airports = airportsWithin(near.center, near.km);
    if (airportsNearCentres.size >= MAX_CENTRES) airportsNearCentres.delete(airportsNearCentres.keys().next().value!);
    airportsNearCentres.set(key, airports);
  }
  return airports;
}

/**
 * Within `km` of the centre: by the freight's coordinates (bounding box on the btree, then the
 * exact great circle), else, without coordinates, by its airport's position.
 */
function nearSql(side: Side, near: Near) {
  const lat = sql.raw(`freights.${side}_latitude`);
  const lon = sql.raw(`freights.${side}_longitude`);
  const box = boundingBox(near.center, near.km);
  const { latitude, longitude } = near.center;
  const lonBox = box.minLon === null ? sql`` : sql` and ${lon} between ${box.minLon} and ${box.maxLon}`;
  const byPoint = sql<SqlBool>`(${lat} between ${box.minLat} and ${box.maxLat}${lonBox} and ${EARTH_KM}::float8 * 2 * asin(least(1, sqrt(
      power(sin(radians(${lat}::float8 - ${latitude}::float8) / 2), 2)
      + cos(radians(${lat}::float8)) * cos(radians(${latitude}::float8)) * power(sin(radians(${lon}::float8 - ${longitude}::float8) / 2), 2)))) <= ${near.km}::float8)`;
  if (near.way === 'point') return byPoint;
  const airports = airportsAround(near);
  if (!airports.length) return near.way === 'airport' ? sql<SqlBool>`false` : byPoint;
  // One array value, whatever the number of airports: the statement's text is the same for every centre.
  const byAirport = sql<SqlBool>`(${lat} is null and ${codeKey(side)} = any(${airports}::text[]))`;
  if (near.way === 'airport') return byAirport;
  return sql<SqlBool>`(${byPoint} or ${byAirport})`;
}

/**
 * A radius search as two searches whose results never overlap and together are the search's:
 * near by coordinates, and near by airport for freights without coordinates. Each can start from
 * an index of its own and read nothing else (lists.ts reads the two and merges them), where the
 * search as one condition reads every freight either index finds. Undefined unless the search
 * has exactly one radius with airports in it.
 */
export function nearWays(s: FreightSearch): [FreightSearch, FreightSearch] | undefined {
  if (Boolean(s.fromNear) === Boolean(s.toNear)) return undefined;
  const key = s.fromNear ? 'fromNear' : 'toNear';
  const near = s[key]!;
  if (near.way || !airportsAround(near).length) return undefined;
  return [
    { ...s, [key]: { ...near, way: 'point' } },
    { ...s, [key]: { ...near, way: 'airport' } },
  ];
}

function windowSql(col: 'etd' | 'eta', w: DayWindow) {
  return sql<SqlBool>`${windowRange(col)} && tstzrange(${w.start}::timestamptz, ${w.end}::timestamptz, '[)')`;
}

function wordSql(word: string, companyId: number, now: Date) {
  const pattern = containing(word);
  const places = sql<SqlBool>`(freights.from_code ilike ${pattern} or freights.from_country ilike ${pattern} or freights.to_code ilike ${pattern} or freights.to_country ilike ${pattern})`;
  const refs = sql<SqlBool>`exists (select 1 from json_each_text(case when json_typeof(freights.refs) = 'object' then freights.refs else '{}'::json end) as ref where ref.value ilike ${pattern})`;
  return sql<SqlBool>`(freights.id::text ilike ${pattern} or (${unmasked(companyId, now)} and ${places}) or (${ownerOrWinner(companyId)} and ${refs}))`;
}

/**
 * The search as SQL conditions on `freights` for the caller's company at `now` (all must hold;
 * none for an empty search). Lists, counts and alerts AND them with their own membership;
 * `mayBeMasked: false` says that membership already makes every row unmasked for the caller.
 */
export function searchConditions(
  eb: EB,
  s: FreightSearch,
  companyId: number,
  now: Date,
  options: { mayBeMasked?: boolean } = {},
): Expression<SqlBool>[] {
  const guard = options.mayBeMasked === false ? undefined : maskGuard(eb, s, companyId, now);
  return [...(guard ? [guard] : []), ...searchConditionsUnguarded(s, companyId, now)];
}

/** Whether the search has conditions on fields a former bidder sees masked (places and radii). */
const searchesMasked = (s: FreightSearch) => Boolean(s.from || s.to || s.fromNear || s.toNear);

/**
 * The role test a search adds on lists that can hold masked rows (searchConditions with
 * `mayBeMasked`), or undefined when the search has no masked field to test. The counts put the
 * unguarded conditions on a family of lists and this test on the masked lists among them.
 */
export function maskGuard(_eb: EB, s: FreightSearch, companyId: number, now: Date): Expression<SqlBool> | undefined {
  return searchesMasked(s) ? unmasked(companyId, now) : undefined;
}

/** The search's conditions without the role test of maskGuard (rows the caller sees unmasked). */
function searchConditionsUnguarded(s: FreightSearch, companyId: number, now: Date): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  const masked: Expression<SqlBool>[] = [];
  for (const side of ['from', 'to'] as const) {
    const places = s[side];
    if (places)
      masked.push(
        places.length === 1
          ? placeSql(side, places[0]!)
          : sql<SqlBool>`(${sql.join(
              places.map((p) => placeSql(side, p)),
              sql` or `,
            )})`,
      );
    const near = side === 'from' ? s.fromNear : s.toNear;
    if (near) masked.push(nearSql(side, near));
  }
  // Lists whose members are never masked for the caller (all but 6, 9, 219: lists.ts MAY_BE_MASKED)
  // skip the role test (maskGuard), which would only cost the planner an index scan of the whole market.
  out.push(...masked);
  if (s.pickup) out.push(windowSql('etd', s.pickup));
  if (s.delivery) out.push(windowSql('eta', s.delivery));
  if (s.weightMin !== undefined) out.push(sql<SqlBool>`freights.weight >= ${s.weightMin}::numeric`);
  if (s.weightMax !== undefined) out.push(sql<SqlBool>`freights.weight <= ${s.weightMax}::numeric`);
  if (s.media) out.push(s.media === 'air' ? sql<SqlBool>`freights.class = 'air'` : sql<SqlBool>`freights.class <> 'air'`);
  for (const word of s.q ?? []) out.push(wordSql(word, companyId, now));
  return out;
}

// ---------------------------------------------------------------------------------------------
// API description (GET /openapi.json): the parameters as the lists, counts and saved searches take them

const described = (description: string) => Type.Optional(Type.String({ description }));

export const SEARCH_INPUT_PROPERTIES = {
  from: described('origin: comma-separated DE (country), DE-60 (country and postal prefix), airport:FRA'),
  to: described('destination, as from'),
  from_near: described('origin within from_radius of lat,lon or airport:XXX (the freight’s coordinates, else its airport’s)'),
  from_radius: Type.Optional(
    Type.Number({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: `km; default ${DEFAULT_RADIUS_KM}` }),
  ),
  to_near: described('destination within to_radius of lat,lon or airport:XXX'),
  to_radius: Type.Optional(
    Type.Number({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: `km; default ${DEFAULT_RADIUS_KM}` }),
  ),
  pickup_from: described('YYYY-MM-DD: the loading window (etd … etd_end) overlaps the days from here (application time zone)'),
  pickup_to: described('YYYY-MM-DD, inclusive'),
  delivery_from: described('YYYY-MM-DD: the delivery window (eta … eta_end) overlaps the days from here'),
  delivery_to: described('YYYY-MM-DD, inclusive'),
  weight_min: Type.Optional(Type.Number({ minimum: 0, description: 'kg' })),
  weight_max: Type.Optional(Type.Number({ minimum: 0, description: 'kg' })),
  media: Type.Optional(Type.Union([Type.Literal('road'), Type.Literal('air')])),
  q: described('words that must each appear in display_id, the places of the caption, or (owner and winner) refs values; case-insensitive'),
};

/** A freight in the market, as saved searches are matched against it (src/searches/alerts.ts). */
export function marketCandidate(db: Kysely<DB> | Transaction<DB>, freightId: number) {
  return db
    .selectFrom('freights')
    .select(['id', 'company_id', 'visibility', 'whitelist', 'status'])
    .where('id', '=', freightId)
    .executeTakeFirst();
}

/**
 * Which of the searches (each for the company that saved it) the freight matches, by the lists'
 * own SQL (searchConditions) evaluated on this one row for every search in one statement;
 * undefined when the freight is missing.
 */
export async function searchesMatching(
  db: Kysely<DB> | Transaction<DB>,
  freightId: number,
  searches: Array<{ search: () => FreightSearch; company: number }>,
  now: Date,
): Promise<boolean[] | undefined> {
  const row = await db
    .selectFrom('freights')
    .select((eb) =>
      searches.map((s, k) => {
        const conditions = searchConditions(eb, s.search(), s.company, now, { mayBeMasked: false });
        const matches = conditions.length ? sql<SqlBool>`${eb.and(conditions)}` : sql<SqlBool>`true`;
        return matches.as(`m${k}`);
      }),
    )
    .where('freights.id', '=', freightId)
    .executeTakeFirst();
  return row && searches.map((_, k) => (row as Record<string, unknown>)[`m${k}`] === true);
}
