import { airportByCode } from '../airports/index.ts';
import { airportText, cityText, countryAndPostal, isIataForm, splitLocation } from '../places/location.ts';
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
  if (prefix !== 'city' && isIataForm(rest)) {
    const code = rest.toUpperCase();
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
 * The RateSearchRequest of api.md, read leniently (JSON numbers or form strings) but refused
 * with a message naming the field when a value is present and wrong (decisions.md §5).
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
