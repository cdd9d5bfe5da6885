import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  airportsWithin,
  boundingBox,
  greatCircleKmSql,
  type Box,
  isAirportCodeSql,
  postalCentresWithin,
  postalRangesWithin,
} from '../places/index.ts';
import type { DayWindow, LoadSearch, Near, PlacePattern } from './search.ts';

/**
 * What a load search means for the rows of a table, as SQL pieces over the columns that hold a
 * place or a time window. The module that owns the table names its columns and puts the pieces
 * together with its own rules (freights/search.ts: who sees a freight masked, refs, media); the
 * coming vehicle offers take the same pieces over theirs.
 *
 * The expressions are the ones its indexes are built on (migration 0020_load_search for
 * freights; the planner matches them by structure, whatever the quoting): codes as letters and
 * digits in upper case in the "C" collation (a prefix is then a range on the index in every
 * database locale), points as `point(longitude, latitude)` on GiST (a bounding box, then the exact great
 * circle), windows as GiST-indexed ranges. They work the same on PGlite and PostgreSQL, without
 * extensions.
 */

/** The columns of one side (origin or destination) of a row: `table.column` each. */
export interface PlaceColumns {
  code: string;
  country: string;
  latitude: string;
  longitude: string;
  /**
   * The postal way of a radius search over the owner's table as the owner reads it best (freights:
   * the market's rows range by range); without it, a test of each row against the ranges.
   */
  postalRows?: (ranges: PostalRanges) => RawBuilder<SqlBool>;
}

/**
 * Postal ranges as three parallel arrays, each one array value in PostgreSQL's text form
 * (arrayText: a statement's text is the same for every centre, and the value is written once per
 * circle, not escaped element by element on every request).
 */
export interface PostalRanges {
  countries: string;
  from: string;
  to: string;
}

/**
 * An array in PostgreSQL's text form (`{"DE 6","DE 7"}`, `{50.1,8.6}`), sent as one text and cast
 * by the statement (`::text[]`, `::float8[]`). The circles' arrays hold hundreds to tens of
 * thousands of elements: `pg` escapes a JavaScript array element by element on every execution
 * (a fifth of the matching statement's time in the server's thread), a cached text not at all.
 */
export function arrayText(values: readonly (string | number)[]): string {
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

/** The columns of a time window: its start and its (optional) end. */
export interface WindowColumns {
  start: string;
  end: string;
}

const col = (name: string) => sql.ref(name);

/** The indexed key of a code: letters and digits in upper case, "C" collation. */
export const codeKey = (c: PlaceColumns) => sql`(upper(regexp_replace(${col(c.code)}, '[^0-9A-Za-z]', '', 'g')) collate "C")`;
const countryKey = (c: PlaceColumns) => sql`upper(${col(c.country)})`;
const isAirportCode = (c: PlaceColumns) => isAirportCodeSql(col(c.code));
/** A row's country and postal key as one text, as the radius search's bounds hold them (`DE 60311`). */
const countryAndKey = (c: PlaceColumns) => sql`((${countryKey(c)} || ' ' || ${codeKey(c)}) collate "C")`;

/**
 * A window as a range (the indexed expression); a window ending before it starts counts as its
 * start, one without a start as none.
 */
export function windowRange(w: WindowColumns) {
  const start = col(w.start);
  const end = col(w.end);
  return sql`(case when ${start} is null then null when ${end} is null or ${end} < ${start} then tstzrange(${start}, ${start}, '[]') else tstzrange(${start}, ${end}, '[]') end)`;
}

/**
 * The keys a postal prefix begins, as a range in the "C" collation: from the prefix up to the
 * prefix with its last character one higher (keys are letters and digits). A range rather than
 * LIKE 'prefix%' because a prepared statement's generic plan can use a range of parameters on the
 * index, a LIKE of a parameter not.
 */
function prefixRange(c: PlaceColumns, prefix: string) {
  if (!/^[0-9A-Z]+$/.test(prefix)) return sql<SqlBool>`${codeKey(c)} like ${`${prefix}%`}`;
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql<SqlBool>`${codeKey(c)} >= ${prefix} and ${codeKey(c)} < ${upper}`;
}

function placeSql(c: PlaceColumns, p: PlacePattern) {
  // A country is written into the statement (a code the country list knows, so no input text):
  // its statement is prepared by its text (market/lists.ts planAlike) with a plan for that country.
  if (p.kind === 'country') return sql<SqlBool>`${countryKey(c)} = ${sql.lit(p.country)}`;
  if (p.kind === 'postal')
    return sql<SqlBool>`(${countryKey(c)} = ${p.country} and ${prefixRange(c, p.prefix)} and not ${isAirportCode(c)})`;
  return sql<SqlBool>`${codeKey(c)} = ${p.code}`;
}

/** The place matches one of the patterns. */
export function placesSql(c: PlaceColumns, patterns: readonly PlacePattern[]): RawBuilder<SqlBool> {
  if (patterns.length === 1) return placeSql(c, patterns[0]!);
  return sql<SqlBool>`(${sql.join(
    patterns.map((p) => placeSql(c, p)),
    sql` or `,
  )})`;
}

/**
 * What a radius holds besides coordinates, computed from packaged data: the airports in the circle
 * (every airport's distance, ~0.3 ms) and the postal ranges whose codes' centres are in it
 * (postal-centres.ts, ~1 ms; at most about 500 ranges for 500 km anywhere in Europe). Kept for
 * the last centres searched, which carriers repeat (saved searches, paging, bookmarks). The data
 * is static, so an entry never goes stale, and nothing in it belongs to a caller.
 */
interface Around {
  airports: string[];
  /** the postal ranges */
  postal: PostalRanges;
  /**
   * the same ranges as the sorted bounds of "CC key" (the space sorts before every letter and
   * digit, so a country's bounds stay together whatever follows): a row is inside when
   * width_bucket puts it in an odd bucket
   */
  bounds: string[];
  /** `bounds` as one array text (arrayText) */
  boundsText: string;
}
/**
 * The centres of the codes in a circle as parallel arrays sorted by `bounds` ("CC key", the first
 * key each code stands for): width_bucket of a row's "CC key" names its code's index. Each array
 * also as its text (arrayText), which the statements send.
 */
export interface PostalCentres {
  bounds: string[];
  boundsText: string;
  latitudesText: string;
  longitudesText: string;
}
const aroundCentres = new Map<string, Around>();
const MAX_CENTRES = 1000;
function around(near: Near): Around {
  const key = `${near.center.latitude},${near.center.longitude},${near.km}`;
  let found = aroundCentres.get(key);
  if (!found) {
    const ranges = postalRangesWithin(near.center, near.km);
    const bounds = ranges.flatMap((r) => [`${r.country} ${r.from}`, `${r.country} ${r.to}`]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    found = {
      airports: airportsWithin(near.center, near.km),
      postal: {
        countries: arrayText(ranges.map((r) => r.country)),
        from: arrayText(ranges.map((r) => r.from)),
        to: arrayText(ranges.map((r) => r.to)),
      },
      bounds,
      boundsText: arrayText(bounds),
    };
    if (aroundCentres.size >= MAX_CENTRES) aroundCentres.delete(aroundCentres.keys().next().value!);
    aroundCentres.set(key, found);
  }
  return found;
}

/** The airports within the radius (the same cached list nearSql reads). */
export const airportsNear = (near: Near): readonly string[] => around(near).airports;

/**
 * The centres of the last circles measured from (matching pages through one offer's fits), kept
 * while they hold at most CENTRES_BUDGET codes together: a circle of 500 km in the middle of
 * Europe holds some 30,000 codes, far more than its ranges, so they are kept apart and fewer.
 */
const centresCache = new Map<string, PostalCentres>();
const CENTRES_BUDGET = 250_000;
let centresHeld = 0;

/** The centres of the postal codes within the radius (the codes whose ranges nearSql reads). */
function postalCentresNear(near: Near): PostalCentres {
  const key = `${near.center.latitude},${near.center.longitude},${near.km}`;
  const cached = centresCache.get(key);
  if (cached) return cached;
  const starts = postalCentresWithin(near.center, near.km)
    .map((s) => ({ bound: `${s.country} ${s.from}`, latitude: s.latitude, longitude: s.longitude }))
    .sort((a, b) => (a.bound < b.bound ? -1 : a.bound > b.bound ? 1 : 0));
  const bounds = starts.map((s) => s.bound);
  const found: PostalCentres = {
    bounds,
    boundsText: arrayText(bounds),
    latitudesText: arrayText(starts.map((s) => s.latitude)),
    longitudesText: arrayText(starts.map((s) => s.longitude)),
  };
  while (centresCache.size && centresHeld + found.bounds.length > CENTRES_BUDGET) {
    const [oldest, entry] = centresCache.entries().next().value!;
    centresCache.delete(oldest);
    centresHeld -= entry.bounds.length;
  }
  centresCache.set(key, found);
  centresHeld += found.bounds.length;
  return found;
}

/**
 * SQL: the centre of the postal code a row without coordinates was found by in the radius search
 * (its postal key in one of the circle's ranges: the code whose run it falls in), as latitude
 * and longitude expressions; null for a row placed otherwise or outside the circle's codes.
 */
export function postalCentreNearSql(
  c: PlaceColumns,
  near: Near,
): { placed: RawBuilder<SqlBool>; latitude: RawBuilder<number>; longitude: RawBuilder<number> } {
  const { bounds, boundsText, latitudesText, longitudesText } = postalCentresNear(near);
  if (!bounds.length) return { placed: sql<SqlBool>`false`, latitude: sql<number>`null`, longitude: sql<number>`null` };
  const at = sql`width_bucket(${countryAndKey(c)}, ${boundsText}::text[])`;
  return {
    placed: sql<SqlBool>`(${col(c.latitude)} is null and not ${isAirportCode(c)} and ${at} > 0)`,
    latitude: sql<number>`(${latitudesText}::float8[])[${at}]`,
    longitude: sql<number>`(${longitudesText}::float8[])[${at}]`,
  };
}

/**
 * The row's point in the box, as the GiST indexes of migration 0110 hold it: `point(longitude,
 * latitude)` contained in the box's corners (a box over a pole or the antimeridian spans every
 * longitude). A GiST index reads only the box's points; a btree on (latitude, longitude) read the
 * whole band of latitudes.
 */
export function inBoxSql(c: Pick<PlaceColumns, 'latitude' | 'longitude'>, box: Box): RawBuilder<SqlBool> {
  const [minLon, maxLon] = box.minLon === null ? [-180, 180] : [box.minLon, box.maxLon!];
  return sql<SqlBool>`(point(${col(c.longitude)}, ${col(c.latitude)}) <@ box(point(${minLon}::float8, ${box.minLat}::float8), point(${maxLon}::float8, ${box.maxLat}::float8)))`;
}

/**
 * Within `km` of the centre: by the row's coordinates (bounding box on the GiST index, then the exact
 * great circle), else, without coordinates, by its airport's position or by the centre of its
 * postal code (docs/reference.md#load-search: packaged data, nothing stored).
 */
export function nearSql(c: PlaceColumns, near: Near): RawBuilder<SqlBool> {
  const lat = col(c.latitude);
  const lon = col(c.longitude);
  const box = boundingBox(near.center, near.km);
  const { latitude, longitude } = near.center;
  const km = greatCircleKmSql({ latitude: lat, longitude: lon }, { latitude: sql`${latitude}`, longitude: sql`${longitude}` });
  const byPoint = sql<SqlBool>`(${inBoxSql(c, box)} and ${km} <= ${near.km}::float8)`;
  if (near.way === 'point') return byPoint;
  const { airports, postal, bounds, boundsText } = around(near);
  // One array value, whatever the number of airports: the statement's text is the same for every centre.
  const byAirport = sql<SqlBool>`(${lat} is null and ${codeKey(c)} = any(${airports}::text[]))`;
  if (near.way === 'airport') return airports.length ? byAirport : sql<SqlBool>`false`;
  if (near.way === 'postal') {
    if (!bounds.length) return sql<SqlBool>`false`;
    // Alone (a way of its own, nearWays): as the owner reads its rows by range, or as ranges to join.
    if (c.postalRows) return sql<SqlBool>`(${lat} is null and not ${isAirportCode(c)} and ${c.postalRows(postal)})`;
    return sql<SqlBool>`(${lat} is null and not ${isAirportCode(c)} and exists (select 1 from unnest(${postal.countries}::text[], ${postal.from}::text[], ${postal.to}::text[]) as postal_range(country, low, high)
      where ${countryKey(c)} = postal_range.country and ${codeKey(c)} >= postal_range.low and ${codeKey(c)} < postal_range.high))`;
  }
  // Among the other ways, a test of the row: a binary search of its country and key among the
  // ranges' bounds (width_bucket: bucket i when bound i-1 <= value < bound i; odd: in a range).
  const byPostal = sql<SqlBool>`(${lat} is null and not ${isAirportCode(c)} and width_bucket(${countryAndKey(c)}, ${boundsText}::text[]) % 2 = 1)`;
  const ways = [byPoint, ...(airports.length ? [byAirport] : []), ...(bounds.length ? [byPostal] : [])];
  return ways.length === 1 ? byPoint : sql<SqlBool>`(${sql.join(ways, sql` or `)})`;
}

/**
 * A radius search as searches whose results never overlap and together are the search's: near
 * by coordinates, by airport and by postal code (the last two for rows without coordinates).
 * Each can start from an index of its own and read nothing else (freights/lists.ts reads them and
 * merges them), where the search as one condition reads every row any index finds. Undefined
 * unless the search has exactly one radius with airports or postal codes in it.
 */
export function nearWays(s: LoadSearch): LoadSearch[] | undefined {
  if (Boolean(s.fromNear) === Boolean(s.toNear)) return undefined;
  const key = s.fromNear ? 'fromNear' : 'toNear';
  const near = s[key]!;
  if (near.way) return undefined;
  const { airports, bounds } = around(near);
  const ways = (['point', ...(airports.length ? ['airport'] : []), ...(bounds.length ? ['postal'] : [])] as const).map(
    (way): LoadSearch => ({ ...s, [key]: { ...near, way } }),
  );
  return ways.length > 1 ? ways : undefined;
}

/** The window overlaps the days searched (or, `closed`, the instants from start to end, both included). */
export function windowSql(w: WindowColumns, days: DayWindow): RawBuilder<SqlBool> {
  const bounds = days.closed ? sql.lit('[]') : sql.lit('[)');
  return sql<SqlBool>`${windowRange(w)} && tstzrange(${days.start}::timestamptz, ${days.end}::timestamptz, ${bounds})`;
}

/** LIKE pattern for text containing `word`, matched case-insensitively (the escape character is `\`). */
export const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
