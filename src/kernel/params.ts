import qs from 'qs';
import type { Warning } from './outcome.ts';

/**
 * Query, form and JSON body are one set of parameters (docs/reference.md#conventions item 2). Forms and query
 * strings use bracket keys (`auth[user]`, `pieces[0][weight]`), parsed into the same nesting
 * a JSON body has. Body values win over query values of the same name.
 */
export const QS_OPTIONS: qs.IParseOptions = {
  depth: 8,
  arrayLimit: 1000,
  parameterLimit: 5000,
  allowPrototypes: false,
  plainObjects: false,
};

export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
}

export type Params = Record<string, unknown>;

export function mergeParams(query: unknown, body: unknown): Params {
  const merged: Params = {};
  if (isRecord(query)) Object.assign(merged, query);
  if (isRecord(body)) Object.assign(merged, body);
  return cleanInput(merged) as Params;
}

/**
 * Every text a request brings in, keys included, as the database can store it and every other
 * company can read it back: NUL characters are dropped (PostgreSQL cannot store them, no field
 * has a use for them), and a lone UTF-16 surrogate (a raw JSON escape such as `"\udc00"`) becomes
 * U+FFFD. A lone surrogate would pass into a `json` column as its escape, and every statement that
 * later reads the text out of that column (`json_each_text` in the load search's `q`) would fail
 * for whoever searches: one company must not be able to break another's reads.
 */
export function cleanInput(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanInput);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[cleanText(k)] = cleanInput(v);
    return out;
  }
  return value;
}

/** A high surrogate without its low half, or a low one without its high half (String.prototype.toWellFormed of ES2024). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function cleanText(text: string): string {
  const noNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  return noNul.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A JSON text a caller sent inside a parameter (a saved search's `params`, `pieces_json`), read
 * as the body parser reads bodies: prototype keys dropped, text cleaned (cleanInput), since its
 * escapes can spell what the outer text could not. Throws a SyntaxError when it is no JSON.
 */
export function parseJsonText(text: string): unknown {
  return cleanInput(JSON.parse(text, safeReviver));
}

/** JSON.parse reviver that drops prototype-polluting keys. */
export function safeReviver(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}

/** Whether a value is one of a list of literals (a status, a type read from a row), typed as it. */
export const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);

/**
 * `table[key]` for a key a caller chose (a field name, an action), own entries only: a plain
 * object answers `toString`, `valueOf` or `hasOwnProperty` with Object.prototype's methods.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Lenient readers: a value from JSON (number, boolean) or from a form (string) alike.
// Each answers undefined for anything it cannot read, so callers decide what "ignored" means.

export function readString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function readInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

/** An integer from `min` to `max`: a value outside is moved to the nearer end, an unreadable one is `fallback`. */
export function readIntWithin(value: unknown, fallback: number, min: number, max: number): number {
  return Math.min(Math.max(readInt(value) ?? fallback, min), max);
}

/** A positive database id from a path segment or field; anything else is undefined (a 404). */
export function readId(value: unknown): number | undefined {
  const n = readInt(value);
  return n !== undefined && n > 0 && n <= 2147483647 ? n : undefined;
}

/**
 * What `find` answers for the id in `value` (a path segment, readId), or undefined without asking
 * when it is no id: a 404 either way, so a malformed id and a missing record look alike.
 */
export async function findById<T>(value: unknown, find: (id: number) => Promise<T | null | undefined>): Promise<T | undefined> {
  const id = readId(value);
  return id === undefined ? undefined : ((await find(id)) ?? undefined);
}

/** A decimal number kept as its canonical text, so money and weights stay exact. */
export function readDecimal(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'string') text = value.trim().replace(',', '.');
  if (text === undefined || !/^-?\d{1,12}(\.\d+)?$/.test(text)) return undefined;
  return text;
}

/**
 * A short, printable preview of any parameter value for messages. Never calls the value's own
 * methods (`{"toString": 1}` would throw in `String(value)`).
 */
export function preview(value: unknown, max = 40): string {
  if (typeof value === 'string') return value.slice(0, max);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return '';
  return 'an object';
}

export type ListRead = { ok: true; items: unknown[] } | { ok: false; reason: 'not_a_list' | 'too_many' };

/**
 * The items of a list parameter: a JSON array, form bracket keys (an object keyed by index, as
 * qs gives beyond its array limit), a comma-separated string or a single number. The count is
 * checked before anything else is done with the items (docs/reference.md#safety), so a body of 150,000
 * entries costs no more than a short one.
 */
export function readList(value: unknown, max: number): ListRead {
  let items: unknown[];
  if (Array.isArray(value)) {
    if (value.length > max) return { ok: false, reason: 'too_many' };
    items = value;
  } else if (isRecord(value)) {
    let count = 0;
    for (const _ in value) if (++count > max) return { ok: false, reason: 'too_many' };
    items = Object.values(value);
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return { ok: true, items: [] };
    let count = 1;
    for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) if (++count > max) return { ok: false, reason: 'too_many' };
    items = text.split(',').map((s) => s.trim());
  } else if (typeof value === 'number') {
    items = [value];
  } else {
    return { ok: false, reason: 'not_a_list' };
  }
  return { ok: true, items };
}

/** Piece lines of a freight or a rate search (`pieces`, `pieces_json`): at most this many. */
export const MAX_PIECE_LINES = 500;

/**
 * The lines of a list of objects such as piece lines: a JSON array or form bracket keys
 * (`pieces[0][weight]`); a text or a number is no such list. At most `max`, counted first.
 */
export function readLines(value: unknown, max: number): ListRead {
  return Array.isArray(value) || isRecord(value) ? readList(value, max) : { ok: false, reason: 'not_a_list' };
}

export type IdListRead =
  | { ok: true; ids: number[] }
  | { ok: false; reason: 'not_a_list' | 'too_many' }
  | { ok: false; reason: 'not_an_id'; item: string };

/** A list of database ids (readList's forms), duplicates collapsed in order; at most `max` entries. */
export function readIdList(value: unknown, max: number): IdListRead {
  const list = readList(value, max);
  if (!list.ok) return list;
  const ids = new Set<number>();
  for (const item of list.items) {
    const id = readId(item);
    if (id === undefined) return { ok: false, reason: 'not_an_id', item: preview(item, 30) };
    ids.add(id);
  }
  return { ok: true, ids: [...ids] };
}

export function readFlag(value: unknown): 0 | 1 | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true' || value === 'yes') return 1;
  if (value === false || value === 0 || value === '0' || value === 'false' || value === 'no') return 0;
  return undefined;
}

/** The page of a list (docs/reference.md#conventions item 11 and Limits): 1-based `page`, `limit` rows. */
export interface PageWindow {
  page: number;
  limit: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_PAGE = 1_000_000;

/**
 * `page` (default 1; outside 1 to 1,000,000 it is 1) and `limit` (default 20; below 1 it is 20,
 * above 100 it is 100) of a list endpoint. A page or limit that was sent but not taken is named
 * in `warnings`.
 */
export function readPageWindow(params: Params, warnings: Warning[] = []): PageWindow {
  let page = readInt(params.page) ?? 1;
  if (page < 1 || page > MAX_PAGE) {
    if (params.page !== undefined) warnings.push({ field: 'page', reason: `not a page number from 1 to ${MAX_PAGE}` });
    page = 1;
  }
  let limit = readInt(params.limit) ?? DEFAULT_LIMIT;
  if (limit < 1) {
    warnings.push({ field: 'limit', reason: 'not a positive number' });
    limit = DEFAULT_LIMIT;
  }
  if (limit > MAX_LIMIT) limit = MAX_LIMIT;
  return { page, limit };
}

/** The rows a page skips. */
export const offsetOf = (p: PageWindow) => (p.page - 1) * p.limit;
