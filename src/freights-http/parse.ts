import { Decimal } from 'decimal.js';
import { airportAddress, airportByCode } from '../airports/index.ts';
import {
  FIELDS,
  MAX_WHITELIST,
  PIECE_FIELDS,
  storableDate,
  type DecimalSpec,
  type FieldDef,
  type FreightRow,
  type FreightValues,
  type PieceValues,
} from '../freights/index.ts';
import type { Warning } from '../kernel/outcome.ts';
import {
  isRecord,
  MAX_PIECE_LINES,
  ownEntry,
  readDecimal,
  readFlag,
  readIdList,
  readInt,
  readLines,
  readList,
  readString,
  type ListRead,
  type Params,
} from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import { countryAndPostal, isAirportCode, splitLocation } from '../places/index.ts';

/**
 * A create/edit body read leniently by the freight's field table (freights/fields.ts FIELDS,
 * docs/reference.md#freight-fields): normalising (prefixes, airport resolution, weight rule, time
 * windows, a reefer's temperatures), every unreadable or unknown field named in the warnings. The
 * HTTP face reads the request (POST /freights/add and edit, booking requests; templates replay a
 * stored body); the core takes the values it answers (lifecycle.ts createFreight, editFreight).
 */

type Column = keyof FreightValues;

const BY_API = new Map(FIELDS.map((f) => [f.api, f]));

/** Body keys that are not freight fields but never worth a warning (transport and form plumbing). */
const PLUMBING = new Set(['auth_token', '_csrf', 'auth']);

export interface ParsedFreight {
  /** column -> value for the sent, readable fields (after normalising) */
  values: FreightValues;
  /** the new piece list when `pieces` was sent (it replaces the old one) */
  pieces?: PieceValues[];
  warnings: Warning[];
}

export interface ParseOptions {
  clock: Clock;
  /** the stored freight on edit: airport resolution looks at its addresses */
  existing?: FreightRow | null;
  /** keys the endpoint reads itself (winner_direct, name, pricing_search_id, …) */
  handled?: readonly string[];
}

const blank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

const warn = (warnings: Warning[], field: string, reason: string) => warnings.push({ field, reason });

function readDecimalField(value: unknown, spec: DecimalSpec): string | undefined {
  let text = readDecimal(value);
  if (text === undefined) return undefined;
  let d = new Decimal(text);
  if (d.decimalPlaces() > spec.scale) {
    if (!spec.round) return undefined;
    d = d.toDecimalPlaces(spec.scale);
  }
  if (d.abs().truncated().toString().length > spec.int) return undefined;
  if (spec.min !== undefined && d.lessThan(spec.min)) return undefined;
  if (spec.max !== undefined && d.greaterThan(spec.max)) return undefined;
  if (spec.positive && !d.greaterThan(0)) return undefined;
  text = d.toFixed();
  return text;
}

/** Company ids (whitelist): at most MAX_WHITELIST, counted before they are read. */
export function readIds(value: unknown): number[] | undefined {
  const read = readIdList(value, MAX_WHITELIST);
  return read.ok ? read.ids : undefined;
}

export interface Location {
  code: string;
  country?: string;
  iata: boolean;
}

/**
 * `airport:<IATA>`, `city:<postal code>`, `city:<CC>-<postal code>` (the rate-search form) or a
 * bare value (an IATA code when it is three letters). Only the code is stored; the country
 * letters of the rate-search form go to `*_country`.
 */
export function parseLocation(value: unknown): Location | undefined {
  const text = readString(value)?.trim();
  if (!text || text.length > 100 || text.includes('\u0000')) return undefined;
  const { prefix, rest } = splitLocation(text);
  if (prefix && !rest) return undefined;
  if (prefix !== 'city') return isAirportCode(rest) ? { code: rest.toUpperCase(), iata: true } : { code: rest, iata: false };
  const area = countryAndPostal(rest);
  return area ? { code: area.postal, country: area.country, iata: false } : { code: rest, iata: false };
}

type FieldResult = { ok: true; value: unknown } | { ok: false; reason: string };

function readField(def: FieldDef, raw: unknown, clock: Clock): FieldResult {
  const k = def.kind;
  // Not-null columns: an empty whitelist or refs container means "none".
  if (k.type === 'ids' && blank(raw)) return { ok: true, value: [] };
  if (k.type === 'refs' && blank(raw)) return { ok: true, value: '{}' };
  if (k.type === 'set' && blank(raw)) return { ok: true, value: [] };
  // The currency of book_now and auto_award is never empty: EUR unless another is named.
  if (k.type === 'currency' && (raw === null || raw === undefined || blank(raw))) return { ok: true, value: 'EUR' };
  if (raw === null || blank(raw)) {
    if ((k.type === 'enum' && !k.optional) || k.type === 'int') return { ok: false, reason: 'may not be empty' };
    return { ok: true, value: null };
  }
  switch (k.type) {
    case 'text': {
      const s = readString(raw)?.trim();
      // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
      if (s === undefined || s.includes('\u0000')) return { ok: false, reason: 'not a text' };
      if (s.length > k.max) return { ok: false, reason: `longer than ${k.max} characters` };
      return { ok: true, value: s };
    }
    case 'enum': {
      const s = readString(raw)?.trim();
      const v = s === undefined ? undefined : k.case === 'lower' ? s.toLowerCase() : s.toUpperCase();
      return v !== undefined && k.values.includes(v) ? { ok: true, value: v } : { ok: false, reason: `not one of ${k.values.join(', ')}` };
    }
    case 'decimal': {
      const v = readDecimalField(raw, k.spec);
      return v === undefined ? { ok: false, reason: 'not a number in range' } : { ok: true, value: v };
    }
    case 'int': {
      const v = readInt(raw);
      return v === undefined || v < k.min || v > k.max
        ? { ok: false, reason: `not an integer from ${k.min} to ${k.max}` }
        : { ok: true, value: v };
    }
    case 'flag': {
      const v = readFlag(raw);
      return v === undefined ? { ok: false, reason: 'not a flag (0 or 1)' } : { ok: true, value: v };
    }
    case 'time': {
      const text = readString(raw)?.trim();
      // docs/reference.md#conventions item 5: a date without time is dropped, the field becomes null.
      if (text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text)) return { ok: true, value: null };
      const d = storableDate(clock.parse(text));
      return d ? { ok: true, value: d } : { ok: false, reason: 'not a time YYYY-MM-DD HH:MM[:SS]' };
    }
    case 'deadline': {
      const d = storableDate(clock.parseDeadline(typeof raw === 'string' ? raw : undefined));
      return d ? { ok: true, value: d } : { ok: false, reason: 'not a time or +N minutes|hours|days|weeks' };
    }
    case 'ids': {
      const v = readIds(raw);
      return v === undefined ? { ok: false, reason: 'not a list of company ids' } : { ok: true, value: v };
    }
    case 'refs': {
      if (!isRecord(raw)) return { ok: false, reason: 'not an object' };
      return { ok: true, value: JSON.stringify(raw) };
    }
    case 'set': {
      const v = readSet(raw, k.values);
      return v === undefined ? { ok: false, reason: `not a list of ${k.values.join(', ')}` } : { ok: true, value: v };
    }
    case 'currency': {
      const c = readString(raw)?.trim();
      return c !== undefined && /^[A-Za-z]{3}$/.test(c)
        ? { ok: true, value: c.toUpperCase() }
        : { ok: false, reason: 'not a currency (three letters)' };
    }
    case 'location': {
      const loc = parseLocation(raw);
      return loc ? { ok: true, value: loc } : { ok: false, reason: 'not a location' };
    }
    case 'id':
    case 'shared':
      return { ok: false, reason: 'set by the server' };
  }
}

/**
 * Some of `values`: a list (JSON array, a form's repeated or bracket keys) or a comma-separated
 * text; blank items are skipped (the form sends an empty one beside its checkboxes), case and
 * order do not matter. Answered in the order of `values`, each once; undefined when an item is
 * none of them.
 */
export function readSet(raw: unknown, values: readonly string[]): string[] | undefined {
  const list = readList(raw, values.length * 4);
  if (!list.ok) return undefined;
  const chosen = new Set<string>();
  for (const item of list.items) {
    const text = readString(item)?.trim().toLowerCase();
    if (text === undefined) return undefined;
    if (text === '') continue;
    if (!values.includes(text)) return undefined;
    chosen.add(text);
  }
  return values.filter((v) => chosen.has(v));
}

export function readPieces(raw: unknown, clock: Clock, warnings: Warning[]): PieceValues[] | undefined {
  // A list (or bracket keys) of lines, or empty for none.
  const read: ListRead = raw === null || raw === '' ? { ok: true, items: [] } : readLines(raw, MAX_PIECE_LINES);
  if (!read.ok) {
    warn(warnings, 'pieces', read.reason === 'too_many' ? `more than ${MAX_PIECE_LINES} piece lines` : 'not a list of piece lines');
    return undefined;
  }
  const list = read.items;
  const pieces: PieceValues[] = [];
  list.forEach((line, i) => {
    if (!isRecord(line)) {
      warn(warnings, `pieces[${i}]`, 'not an object');
      return;
    }
    const piece: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(line)) {
      const kind = ownEntry(PIECE_FIELDS, key);
      if (!kind) {
        warn(warnings, `pieces[${i}][${key}]`, 'unknown field');
        continue;
      }
      const r = readField({ api: key, kind, input: 'write' }, value, clock);
      if (r.ok) piece[key] = r.value;
      else warn(warnings, `pieces[${i}][${key}]`, r.reason);
    }
    pieces.push(piece as PieceValues);
  });
  return pieces;
}

/** `a to b` (space, to, space); anything else leaves both fields empty (docs/reference.md#conventions item 6). */
function readRange(raw: unknown, clock: Clock): { start: Date | null; end: Date | null; ok: boolean } {
  const text = readString(raw);
  const parts = text?.split(' to ');
  if (parts?.length !== 2) return { start: null, end: null, ok: false };
  const read = (s: string) => (/^\d{4}-\d{2}-\d{2}$/.test(s.trim()) ? null : storableDate(clock.parse(s)));
  return { start: read(parts[0]!), end: read(parts[1]!), ok: true };
}

/**
 * Reads a create/edit body leniently: every readable freight field is taken, everything else
 * is ignored and named in `warnings` (docs/reference.md#conventions item 10). Only sent fields appear in
 * `values`, so an edit changes only those.
 */
export function parseFreight(params: Params, options: ParseOptions): ParsedFreight {
  const { clock } = options;
  const warnings: Warning[] = [];
  const values: FreightValues = {};
  const handled = new Set(options.handled ?? []);
  const weights: Partial<Record<'weight' | 'weight_actual' | 'weight_volume', string | null>> = {};
  const locations: Partial<Record<'from' | 'to', Location | null>> = {};
  let pieces: PieceValues[] | undefined;

  for (const [key, raw] of Object.entries(params)) {
    if (PLUMBING.has(key) || handled.has(key)) continue;
    if (key === 'pieces') {
      pieces = readPieces(raw, clock, warnings);
      continue;
    }
    if (key === 'eta_range' || key === 'etd_range') continue; // after the single fields: the range wins
    const def = BY_API.get(key);
    if (!def) {
      warn(warnings, key, 'unknown field');
      continue;
    }
    if (def.input === 'server') {
      warn(warnings, key, 'set by the server');
      continue;
    }
    const r = readField(def, raw, clock);
    if (!r.ok) {
      warn(warnings, key, r.reason);
      continue;
    }
    if (raw !== null && !blank(raw) && r.value === null && def.kind.type === 'time') warn(warnings, key, 'a date without time is dropped');
    if (def.input === 'weight') weights[key as keyof typeof weights] = r.value as string | null;
    else if (def.kind.type === 'location') locations[key as 'from' | 'to'] = r.value as Location | null;
    else values[def.column!] = r.value;
  }

  for (const [key, start, end] of [
    ['etd_range', 'etd', 'etd_end'],
    ['eta_range', 'eta', 'eta_end'],
  ] as const) {
    if (!(key in params)) continue;
    const range = readRange(params[key], clock);
    if (!range.ok) warn(warnings, key, "no ' to ' between two times: both fields left empty");
    values[start] = range.start;
    values[end] = range.end;
  }

  applyWeightRule(weights, values, warnings);
  applyTemperature(values, options.existing ?? null, warnings);
  for (const side of ['from', 'to'] as const) {
    if (side in locations) applyLocation(side, locations[side] ?? null, values, options.existing ?? null, warnings);
  }
  return { values, pieces, warnings };
}

/** docs/reference.md#conventions item 8: `weight`, or `weight_actual` and `weight_volume` together (the larger applies). */
function applyWeightRule(
  w: Partial<Record<'weight' | 'weight_actual' | 'weight_volume', string | null>>,
  values: FreightValues,
  warnings: Warning[],
) {
  const hasActual = 'weight_actual' in w;
  const hasVolume = 'weight_volume' in w;
  if (hasActual && hasVolume) {
    values.weight_actual = w.weight_actual;
    values.weight_volume = w.weight_volume;
    if (!('weight' in w) && w.weight_actual != null && w.weight_volume != null) {
      values.weight = Decimal.max(w.weight_actual, w.weight_volume).toFixed();
    }
  } else if (hasActual || hasVolume) {
    warn(warnings, hasActual ? 'weight_actual' : 'weight_volume', 'has no effect without weight_actual and weight_volume together');
  }
  if ('weight' in w) values.weight = w.weight;
}

const TEMPERATURES = ['temperature_min', 'temperature_max'] as const;

/**
 * A temperature range belongs to a reefer load, its minimum at most its maximum (docs/choices.md,
 * "Loads described as trucks are"), read against the sent fields over the stored ones: a sent
 * temperature is ignored with a warning when the load (as sent or stored) is no reefer or the range
 * would be upside down; a body changed away from reefer clears a stored range, with a warning.
 */
function applyTemperature(values: FreightValues, existing: FreightRow | null, warnings: Warning[]) {
  const sent = (c: Column) => c in values;
  const body = sent('body') ? values.body : (existing?.body ?? null);
  const stored = (c: (typeof TEMPERATURES)[number]) => existing?.[c] ?? null;
  const current = (c: (typeof TEMPERATURES)[number]) => (sent(c) ? values[c] : stored(c)) as string | null;
  if (body !== 'reefer') {
    for (const c of TEMPERATURES) {
      if (sent(c) && values[c] !== null) {
        delete values[c];
        warn(warnings, c, 'only for body reefer: ignored');
      } else if (!sent(c) && stored(c) !== null) {
        values[c] = null;
        warn(warnings, c, 'emptied: a temperature range is only for body reefer');
      }
    }
    return;
  }
  const min = current('temperature_min');
  const max = current('temperature_max');
  if (min === null || max === null || !new Decimal(min).greaterThan(max)) return;
  for (const c of TEMPERATURES) {
    if (!sent(c)) continue;
    delete values[c];
    warn(warnings, c, 'temperature_min above temperature_max: ignored');
  }
}

/**
 * Stores the code (and the country of a `city:CC-…` value); for an IATA code fills country,
 * address and coordinates from the airport data, but only while that side's address is empty
 * (docs/reference.md#conventions item 7). Fields sent in the same body win over resolved ones.
 */
function applyLocation(side: 'from' | 'to', loc: Location | null, values: FreightValues, existing: FreightRow | null, warnings: Warning[]) {
  const col = (name: string) => `${side}_${name}` as Column;
  values[col('code')] = loc?.code ?? null;
  if (!loc) return;
  if (loc.country && !(col('country') in values)) values[col('country')] = loc.country;
  if (!loc.iata) return;
  const addr = col('addr') in values ? values[col('addr')] : existing?.[col('addr') as keyof FreightRow];
  if (addr !== null && addr !== undefined && addr !== '') return;
  const airport = airportByCode(loc.code);
  if (!airport) {
    warn(warnings, side, `unknown IATA code ${loc.code}: not resolved`);
    return;
  }
  values[col('addr')] = airportAddress(airport);
  values[col('country')] ??= airport.country;
  values[col('latitude')] ??= airport.latitude;
  values[col('longitude')] ??= airport.longitude;
}
