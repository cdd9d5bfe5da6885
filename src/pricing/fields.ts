import { airportByCode } from '../airports/index.ts';
import { airportCode, airportText, cityText, countryAndPostal, splitLocation } from '../places/index.ts';
import {
  isRecord,
  MAX_PIECE_LINES,
  parseJsonText,
  preview,
  readDecimal,
  readFlag,
  readInt,
  readLines,
  readString,
  type Params,
} from '../kernel/params.ts';
import type { Translate } from '../kernel/i18n.ts';
import { readLocaleDecimal, readLocaleWeightKg } from '../kernel/locale.ts';

/** A location of a rate line or a search: an airport, or a postal area of a country. */
export type Location = { kind: 'airport'; code: string } | { kind: 'city'; country: string; postal: string };

export function formatLocation(loc: Location): string {
  return loc.kind === 'airport' ? airportText(loc.code) : cityText(loc.country, loc.postal);
}

/**
 * Reads `airport:FRA` (also a bare `FRA`) or `city:DE-60311` (case-insensitive, spaces in the
 * postal code dropped). The airport must be known (OurAirports). Answers the location or a
 * message saying what is wrong.
 */
export function parseLocation(value: unknown, maxPostal = 12): Location | string {
  const text = readString(value)?.trim();
  if (!text) return 'is required (airport:<IATA> or city:<country>-<postal code>)';
  const { prefix, rest } = splitLocation(text);
  const code = prefix !== 'city' ? airportCode(rest) : null;
  if (code !== null) {
    return airportByCode(code) ? { kind: 'airport', code } : `"${text}": unknown airport ${code}`;
  }
  const area = prefix === 'city' ? countryAndPostal(rest, true) : null;
  if (area && /^[A-Za-z0-9 ]+$/.test(area.postal)) {
    const postal = area.postal.replace(/\s+/g, '').toUpperCase();
    if (postal.length > maxPostal) return `"${text}": postal code longer than ${maxPostal} characters`;
    return { kind: 'city', country: area.country, postal };
  }
  if (/^city:/i.test(text)) return `"${text}": a postal area is city:<country>-<postal code>, e.g. city:DE-60311`;
  return `"${text}" is neither airport:<IATA> nor city:<country>-<postal code>`;
}

/** Every prefix of a postal code, shortest first: 60311 -> 6, 60, 603, 6031, 60311. */
export function postalPrefixes(postal: string): string[] {
  return Array.from({ length: postal.length }, (_, i) => postal.slice(0, i + 1));
}

export interface PieceLine {
  pieces?: number;
  depth?: string;
  width?: string;
  height?: string;
  /** The weight of the line (all its pieces), kg. */
  weight?: string;
}

/** A search as stored (pricing_searches.params) and repeated in `data.searchEntity`. */
export interface SearchParams {
  origin: string;
  destination: string;
  weight: string | null;
  direction: 'auto' | 'export' | 'import';
  allow_combinations: 0 | 1;
  pieces_json: PieceLine[];
  unitOfLength: 'cm' | 'in';
  search_type: 'standard' | 'uld';
  uld_count: number | null;
}

export class SearchInputError extends Error {}

function nonNegativeDecimal(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const d = readDecimal(value);
  if (d === undefined) throw new SearchInputError(`${field}: "${preview(value)}" is not a number`);
  if (d.startsWith('-') && !/^-0*(\.0*)?$/.test(d)) throw new SearchInputError(`${field}: must not be negative`);
  return d.replace(/^-/, '');
}

function readPieces(value: unknown): PieceLine[] {
  if (value === undefined || value === null || value === '') return [];
  let raw: unknown = value;
  if (typeof raw === 'string') {
    try {
      raw = parseJsonText(raw);
    } catch {
      throw new SearchInputError('pieces_json: not a JSON array of piece lines');
    }
  }
  // A form sends pieces_json[0][depth]=…, parsed as an array or as an object keyed by index.
  const list = readLines(raw, MAX_PIECE_LINES);
  if (!list.ok && list.reason === 'too_many') throw new SearchInputError(`pieces_json: at most ${MAX_PIECE_LINES} piece lines`);
  if (!list.ok) throw new SearchInputError('pieces_json: not an array of piece lines');
  return list.items.map((p, i) => {
    const at = `pieces_json[${i}]`;
    if (!isRecord(p)) throw new SearchInputError(`${at}: not a piece line (pieces, depth, width, height, weight)`);
    const line: PieceLine = {};
    if (p.pieces !== undefined && p.pieces !== null && p.pieces !== '') {
      const n = readInt(p.pieces);
      if (n === undefined || n < 0 || n > 100000) throw new SearchInputError(`${at}.pieces: a whole number from 0 to 100000`);
      line.pieces = n;
    }
    for (const f of ['depth', 'width', 'height', 'weight'] as const) {
      const d = nonNegativeDecimal(p[f], `${at}.${f}`);
      if (d !== undefined) line[f] = d;
    }
    return line;
  });
}

/**
 * The RateSearchRequest of docs/reference.md#the-api, read leniently (JSON numbers or form strings) but refused
 * with a message naming the field when a value is present and wrong (docs/reference.md#rate-search).
 */
export function readSearchParams(p: Params): SearchParams {
  const origin = parseLocation(p.origin);
  if (typeof origin === 'string') throw new SearchInputError(`origin: ${origin}`);
  const destination = parseLocation(p.destination);
  if (typeof destination === 'string') throw new SearchInputError(`destination: ${destination}`);
  if (formatLocation(origin) === formatLocation(destination)) throw new SearchInputError('destination: must differ from origin');

  const weight = nonNegativeDecimal(p.weight, 'weight') ?? null;

  const directionText = (readString(p.direction) ?? '').trim().toLowerCase() || 'auto';
  if (directionText !== 'auto' && directionText !== 'export' && directionText !== 'import') {
    throw new SearchInputError(`direction: one of auto, export, import (got "${directionText.slice(0, 20)}")`);
  }

  const unitText = (readString(p.unitOfLength) ?? '').trim().toLowerCase() || 'cm';
  let unitOfLength: SearchParams['unitOfLength'];
  if (unitText === 'cm') unitOfLength = 'cm';
  else if (unitText === 'in' || unitText === 'inch' || unitText === 'inches') unitOfLength = 'in';
  else throw new SearchInputError(`unitOfLength: cm or in (got "${unitText.slice(0, 20)}")`);

  const searchType: SearchParams['search_type'] = (readString(p.search_type) ?? '').trim().toLowerCase() === 'uld' ? 'uld' : 'standard';
  let uldCount: number | null = null;
  if (searchType === 'uld') {
    const present = p.uld_count !== undefined && p.uld_count !== null && p.uld_count !== '';
    const n = present ? readInt(p.uld_count) : 1;
    if (n === undefined || n < 1 || n > 1000) throw new SearchInputError('uld_count: a whole number from 1 to 1000');
    uldCount = n;
  }

  return {
    origin: formatLocation(origin),
    destination: formatLocation(destination),
    weight,
    direction: directionText,
    allow_combinations: readFlag(p.allow_combinations) === 1 ? 1 : 0,
    pieces_json: readPieces(p.pieces_json),
    unitOfLength,
    search_type: searchType,
    uld_count: uldCount,
  };
}

// ---------------------------------------------------------------------------------------------
// The rate search page's form (HTML only; docs/choices.md "Web interface")

/** The rate search form as typed: form field name (`weight`, `pieces_json[0][depth]`) -> message, and -> text as typed. */
export interface SearchFormState {
  problems: Record<string, string>;
  typed: Record<string, string>;
}

/**
 * Reads the rate search form's numbers as a person types them in their language (`1.250,5` kg in
 * German, `1,250.5` in English, `1,5 t`) with the freight form's reader (kernel/locale.ts),
 * in place of `ctx.params`, before the API's own rules run: the JSON API keeps its lenient readers.
 * What the form cannot read is named next to its field in the user's language and the search is
 * not run; every field, the combinations box included, comes back as it was.
 */
export function normaliseSearchForm(p: Params, t: Translate, language: string): SearchFormState {
  const problems: Record<string, string> = {};
  const typed: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) if (typeof v === 'string') typed[k] = v;
  // A checkbox sends nothing when it is off: the form comes back with it as it was ticked.
  typed.allow_combinations = readFlag(p.allow_combinations) === 1 ? '1' : '0';
  const example = language === 'deu' ? '1.250,5' : '1,250.5';
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  if (!blank(p.weight)) {
    const kg = readLocaleWeightKg(p.weight, language);
    if (kg === undefined) problems.weight = t('form.error.weight', { example });
    else p.weight = kg;
  }
  if (!blank(p.uld_count)) {
    const n = readLocaleDecimal(p.uld_count, language);
    if (n === undefined || !/^\d+$/.test(n)) problems.uld_count = t('form.error.integer');
    else p.uld_count = n;
  }
  const lines = Array.isArray(p.pieces_json) ? p.pieces_json : isRecord(p.pieces_json) ? Object.values(p.pieces_json) : [];
  lines.forEach((line, i) => {
    if (!isRecord(line)) return;
    for (const [k, v] of Object.entries(line)) {
      const name = `pieces_json[${i}][${k}]`;
      if (typeof v === 'string') typed[name] = v;
      if (blank(v)) continue;
      if (k === 'pieces') {
        const n = readLocaleDecimal(v, language);
        if (n === undefined || !/^\d+$/.test(n)) problems[name] = t('form.error.integer');
        else line[k] = n;
      } else if (k === 'weight') {
        const kg = readLocaleWeightKg(v, language);
        if (kg === undefined) problems[name] = t('form.error.weight', { example });
        else line[k] = kg;
      } else if (k === 'depth' || k === 'width' || k === 'height') {
        const n = readLocaleDecimal(v, language);
        if (n === undefined) problems[name] = t('form.error.number', { example: language === 'deu' ? '120,5' : '120.5' });
        else line[k] = n;
      }
    }
  });
  return { problems, typed };
}

/**
 * A refusal of the rate search (readSearchParams: `field: what is wrong`) next to the form's
 * field it names, in the user's words where the form can say it better: a place to pick, a
 * number. Answers the field and the message, or undefined for a refusal of no one field.
 */
export function problemOfRefusal(message: string, t: Translate): { field: string; message: string } | undefined {
  const m = /^(origin|destination|weight|uld_count|direction|unitOfLength|pieces_json\[(\d+)\]\.(\w+)|pieces_json)\s*:\s*(.*)$/s.exec(
    message,
  );
  if (!m) return undefined;
  const field = m[2] !== undefined ? `pieces_json[${m[2]}][${m[3]}]` : m[1]!;
  const reason = m[4]!;
  if (field === 'origin' || field === 'destination') {
    if (reason.startsWith('is required')) return { field, message: t('pv.error.place_required') };
    if (reason.startsWith('must differ')) return { field, message: t('pv.error.same_place') };
    return { field, message: t('pv.error.place') };
  }
  return { field, message: t('pv.error.other', { reason }) };
}
