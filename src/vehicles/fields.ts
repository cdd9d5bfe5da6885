import { companyRef } from '../accounts/index.ts';
import { Type } from '@sinclair/typebox';
import { airportByCode } from '../airports/index.ts';
import { field, presenter } from '../kernel/fields.ts';
import { readLocaleDecimal, readLocaleWeightKg } from '../kernel/locale.ts';
import { isRecord, readDecimal, readFlag, readIdList, readString, type Params } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import {
  type Body as LoadBody,
  formatPlacePattern,
  MAX_RADIUS_KM,
  MIN_RADIUS_KM,
  parsePlacePattern,
  type PlacePattern,
} from '../market/index.ts';
import {
  countryByCode,
  airportPoint,
  type Point,
  countryAndPostal,
  airportCode,
  isAirportCode,
  splitLocation,
  postalCentre,
} from '../places/index.ts';
import { effectiveStatus } from './policy.ts';
import { BODIES, VEHICLE_STATUSES, type Body, type VehicleRow } from './tables.ts';

/**
 * The vehicle offer's field table (docs/reference.md#vehicles): reading an add or edit body, strictly
 * (unlike the freight fields of docs/reference.md#the-api, a missing or impossible field refuses the offer, each
 * problem named with its field), and presenting a row as `data.vehicle`.
 */

// A truck's bodies are a load's (tables.ts BODIES, the market's BODIES): a body added to one list only fails here.
const sameBodies: [Body, LoadBody] extends [LoadBody, Body] ? true : never = true;
void sameBodies;

export const DEFAULT_RADIUS = 50;
export const MAX_CAPACITY_KG = 40_000;
export const MAX_LOADING_METERS = 13.6;
export const MAX_PRICE_PER_KM = 100;
export const MAX_NOTE = 500;
export const MAX_TO_PATTERNS = 20;
export const MAX_WHITELIST = 100;

/** The body fields an offer reads; anything else is ignored (as everywhere in the API). */
export const OFFER_FIELDS = [
  'from',
  'from_country',
  'from_latitude',
  'from_longitude',
  'from_radius',
  'to',
  'available_from',
  'available_to',
  'body',
  'capacity',
  'loading_meters',
  'price_per_km',
  'adr',
  'note',
  'whitelist',
] as const;
export type OfferField = (typeof OFFER_FIELDS)[number];

/** What an offer stores (tables.ts columns), read and checked. */
export interface OfferValues {
  from_code: string | null;
  from_country: string | null;
  from_latitude: number;
  from_longitude: number;
  from_radius: number;
  to_patterns: string[];
  available_from: Date;
  available_to: Date;
  body: Body;
  capacity: string;
  loading_meters: string | null;
  price_per_km: string | null;
  /** 1: carries dangerous goods (ADR); 0 when not sent */
  adr: number;
  note: string;
  whitelist: number[];
}

export type OfferRead = { ok: true; values: OfferValues } | { ok: false; errors: Partial<Record<OfferField, string>> };

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A decimal within [min, max] with at most `decimals` places, as exact text; or the reason it is not. */
function decimalWithin(raw: unknown, min: number, max: number, decimals: number, unit: string): { value: string } | { reason: string } {
  const text = readDecimal(raw);
  const n = text === undefined ? Number.NaN : Number(text);
  if (text === undefined || !Number.isFinite(n)) return { reason: `not a number (${unit})` };
  if ((text.split('.')[1]?.length ?? 0) > decimals) return { reason: `at most ${decimals} decimals` };
  if (n < min || n > max) return { reason: `must be from ${min} to ${max} ${unit}` };
  return { value: String(Number(text)) === text ? text : text.replace(/^(-?)0+(?=\d)/, '$1') };
}

function coordinate(raw: unknown, limit: number): number | undefined {
  const text = readDecimal(raw);
  const n = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** The origin: `airport:FRA` (or FRA), `city:60311` with `from_country` (or `city:DE-60311`), or coordinates only. */
function readOrigin(
  params: Params,
  errors: Partial<Record<OfferField, string>>,
): { code: string | null; country: string | null; point: Point } | undefined {
  const lat = params.from_latitude;
  const lon = params.from_longitude;
  let point: Point | undefined;
  if (!blank(lat) || !blank(lon)) {
    const latitude = coordinate(lat, 90);
    const longitude = coordinate(lon, 180);
    if (latitude === undefined) errors.from_latitude = blank(lat) ? 'required with from_longitude' : 'not a latitude (-90 to 90)';
    if (longitude === undefined) errors.from_longitude = blank(lon) ? 'required with from_latitude' : 'not a longitude (-180 to 180)';
    if (latitude === undefined || longitude === undefined) return undefined;
    point = { latitude, longitude };
  }
  const text = readString(params.from)?.trim() ?? (blank(params.from) ? '' : undefined);
  if (text === undefined || text.length > 100 || text.includes('\u0000')) {
    errors.from = 'not a place';
    return undefined;
  }
  if (text === '') {
    if (point) return { code: null, country: null, point };
    errors.from = 'required: airport:FRA, city:60311 with from_country, or from_latitude and from_longitude';
    return undefined;
  }
  const { prefix, rest } = splitLocation(text);
  const code = prefix !== 'city' ? airportCode(rest) : null;
  if (code !== null) {
    const airport = airportByCode(code);
    if (!airport) {
      errors.from = `unknown airport ${code}`;
      return undefined;
    }
    return { code, country: airport.country, point: point ?? airportPoint(airport) };
  }
  if (prefix === 'airport') {
    errors.from = 'not an IATA airport code';
    return undefined;
  }
  const area = countryAndPostal(rest);
  const countryText = readString(params.from_country)?.trim().toUpperCase();
  const country = area?.country ?? (countryText || undefined);
  const postal = (area?.postal ?? rest).trim();
  if (!country) {
    errors.from_country = 'required with a postal code';
    return undefined;
  }
  if (!countryByCode(country)) {
    errors.from_country = `${country.slice(0, 10)} is no country code`;
    return undefined;
  }
  if (!/^[0-9A-Za-z][0-9A-Za-z -]{0,11}$/.test(postal) || isAirportCode(postal)) {
    errors.from = 'not a postal code';
    return undefined;
  }
  if (point) return { code: postal, country, point };
  const centre = postalCentre(country, postal);
  if (!centre) {
    errors.from = `postal code ${postal} of ${country} is unknown: send from_latitude and from_longitude`;
    return undefined;
  }
  return { code: postal, country, point: { latitude: centre.latitude, longitude: centre.longitude } };
}

/** `to`: comma-separated §7 patterns; empty means anywhere. Stored normalised (`DE`, `FR-75`, `airport:JFK`). */
export function readToPatterns(raw: unknown): { patterns: string[] } | { reason: string } {
  if (blank(raw)) return { patterns: [] };
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (!items || (typeof raw === 'string' && raw.length > 500)) return { reason: 'not a list of places' };
  const filled = items.map((i) => (typeof i === 'string' ? i.trim() : i)).filter((i) => i !== '');
  if (filled.length > MAX_TO_PATTERNS) return { reason: `more than ${MAX_TO_PATTERNS} places` };
  const out: string[] = [];
  for (const item of filled) {
    if (typeof item !== 'string' || item.length > 40) return { reason: 'not a place: DE, FR-75 or airport:JFK' };
    const p = parsePlacePattern(item);
    if (typeof p === 'string') return { reason: p };
    const text = formatPlacePattern(p);
    if (!out.includes(text)) out.push(text);
  }
  return { patterns: out };
}

/** A stored code as a location text: three letters are an airport (as in the market's SQL), anything else a postal code. */
export const locationText = (code: string | null) => (code === null ? null : isAirportCode(code) ? `airport:${code}` : `city:${code}`);

/** The stored patterns read back for the market's SQL pieces. */
export function patternsOf(texts: readonly string[]): PlacePattern[] {
  return texts.map((t) => parsePlacePattern(t)).filter((p): p is PlacePattern => typeof p !== 'string');
}

/** The fields of a row as a body, so an edit reads the sent fields over the stored ones. */
function bodyOf(row: VehicleRow, clock: Clock): Params {
  return {
    from: locationText(row.from_code) ?? '',
    from_country: row.from_country ?? '',
    from_latitude: String(row.from_latitude),
    from_longitude: String(row.from_longitude),
    from_radius: row.from_radius,
    to: row.to_patterns.join(','),
    available_from: clock.format(row.available_from),
    available_to: clock.format(row.available_to),
    body: row.body,
    capacity: row.capacity,
    loading_meters: row.loading_meters ?? '',
    price_per_km: row.price_per_km ?? '',
    adr: row.adr,
    note: row.note,
    whitelist: row.whitelist,
  };
}

/**
 * The form's numbers as the person typed them, read in their language (the freight form's reader):
 * `20.000` is 20,000 kg in German, `12,5 t` is 12,500 kg, `1,20` € per km. What cannot be read
 * stays as typed, for readOffer to name beside its field. The JSON API reads plain numbers only.
 */
export function typedInLanguage(params: Params, language: string): Params {
  const out: Params = { ...params };
  const read = (name: string, reader: (v: unknown, l: string) => string | undefined) => {
    const raw = readString(params[name])?.trim();
    const value = raw ? reader(raw, language) : undefined;
    if (value !== undefined) out[name] = value;
  };
  read('capacity', readLocaleWeightKg);
  for (const name of ['from_radius', 'loading_meters', 'price_per_km']) read(name, readLocaleDecimal);
  return out;
}

/**
 * Reads an offer: every field of an add body, or for an edit the sent fields over the stored
 * ones (a new `from` without coordinates is resolved anew). `now` refuses a window already over.
 */
export function readOffer(raw: Params, clock: Clock, existing?: VehicleRow): OfferRead {
  let params: Params = raw;
  if (existing) {
    const stored = bodyOf(existing, clock);
    // A new origin brings its own point: the stored coordinates stay only when no place is sent.
    if ('from' in raw && !('from_latitude' in raw) && !('from_longitude' in raw)) {
      stored.from_latitude = '';
      stored.from_longitude = '';
      stored.from_country = '';
    }
    params = { ...stored, ...Object.fromEntries(OFFER_FIELDS.filter((f) => f in raw).map((f) => [f, raw[f]])) };
  }
  const errors: Partial<Record<OfferField, string>> = {};
  const origin = readOrigin(params, errors);

  let radius = DEFAULT_RADIUS;
  if (!blank(params.from_radius)) {
    const r = readDecimal(params.from_radius);
    const n = r === undefined ? Number.NaN : Number(r);
    if (!Number.isInteger(n) || n < MIN_RADIUS_KM || n > MAX_RADIUS_KM)
      errors.from_radius = `must be a whole number of km from ${MIN_RADIUS_KM} to ${MAX_RADIUS_KM}`;
    else radius = n;
  }

  const to = readToPatterns(params.to);
  if ('reason' in to) errors.to = to.reason;

  const from = blank(params.available_from) ? undefined : clock.parse(params.available_from);
  const until = blank(params.available_to) ? undefined : clock.parse(params.available_to);
  if (from === undefined) errors.available_from = 'required (YYYY-MM-DD HH:MM:SS)';
  else if (from === null) errors.available_from = 'not a time YYYY-MM-DD HH:MM:SS';
  if (until === undefined) errors.available_to = 'required (YYYY-MM-DD HH:MM:SS)';
  else if (until === null) errors.available_to = 'not a time YYYY-MM-DD HH:MM:SS';
  else if (from && until <= from) errors.available_to = 'must be after available_from';
  else if (until <= clock.now()) errors.available_to = 'has already passed';

  const bodyText = readString(params.body)?.trim().toLowerCase();
  if (blank(params.body)) errors.body = `required: one of ${BODIES.join(', ')}`;
  else if (!bodyText || !(BODIES as readonly string[]).includes(bodyText)) errors.body = `not one of ${BODIES.join(', ')}`;

  let capacity: string | undefined;
  if (blank(params.capacity)) errors.capacity = `required (kg, 1 to ${MAX_CAPACITY_KG})`;
  else {
    const c = decimalWithin(params.capacity, 1, MAX_CAPACITY_KG, 3, 'kg');
    if ('reason' in c) errors.capacity = c.reason;
    else capacity = c.value;
  }

  let loadingMeters: string | null = null;
  if (!blank(params.loading_meters)) {
    const m = decimalWithin(params.loading_meters, 0, MAX_LOADING_METERS, 2, 'm');
    if ('reason' in m) errors.loading_meters = m.reason;
    else loadingMeters = m.value;
  }

  let pricePerKm: string | null = null;
  if (!blank(params.price_per_km)) {
    const p = decimalWithin(params.price_per_km, 0.01, MAX_PRICE_PER_KM, 2, 'EUR/km');
    if ('reason' in p) errors.price_per_km = p.reason;
    else pricePerKm = p.value;
  }

  // Optional (docs/choices.md, "Loads described as trucks are"): an offer that says nothing carries no ADR load.
  let adr = 0;
  if (!blank(params.adr)) {
    const flag = readFlag(typeof params.adr === 'string' ? params.adr.trim() : params.adr);
    if (flag === undefined) errors.adr = 'not 0 or 1';
    else adr = flag;
  }

  let note = '';
  if (!blank(params.note)) {
    const text = readString(params.note);
    if (text === undefined) errors.note = 'not a text';
    else if (text.length > MAX_NOTE) errors.note = `longer than ${MAX_NOTE} characters`;
    else if (text.includes('\u0000')) errors.note = 'not a text';
    else note = text.trim();
  }

  let whitelist: number[] = [];
  if (!blank(params.whitelist) && !(Array.isArray(params.whitelist) && params.whitelist.length === 0)) {
    const ids = readIdList(params.whitelist, MAX_WHITELIST);
    if (!ids.ok) errors.whitelist = ids.reason === 'too_many' ? `more than ${MAX_WHITELIST} companies` : 'not a list of company ids';
    else whitelist = ids.ids;
  }

  if (Object.keys(errors).length || !origin || !from || !until || !capacity) return { ok: false, errors };
  return {
    ok: true,
    values: {
      from_code: origin.code,
      from_country: origin.country,
      from_latitude: origin.point.latitude,
      from_longitude: origin.point.longitude,
      from_radius: radius,
      to_patterns: 'patterns' in to ? to.patterns : [],
      available_from: from,
      available_to: until,
      body: bodyText as Body,
      capacity,
      loading_meters: loadingMeters,
      price_per_km: pricePerKm,
      adr,
      note,
      whitelist,
    },
  };
}

/** A row with its company's name and verified mark (docs/reference.md#trust), as the store reads it for presenting. */
export type VehicleRead = VehicleRow & { company_name: string; company_verified: boolean | null };

const number = (v: string | null) => (v === null ? null : Number(v));

/** `data.vehicle`: the offer as the API answers it (the status as it reads at `now`: expired once available_to passed). */
export const VEHICLE = presenter<VehicleRead & { now: Date; viewer: number }>()(
  'Vehicle',
  'A vehicle offer: free capacity of a carrier (decisions.md §11)',
  {
    id: field.id('id'),
    status: field.computed(
      Type.Union(
        VEHICLE_STATUSES.map((s) => Type.Literal(s)),
        { description: 'open; withdrawn by its company; expired once available_to has passed' },
      ),
      (row) => effectiveStatus(row, row.now),
    ),
    company: field.computed(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        verified: Type.Boolean({ description: 'the operator verified the company (decisions.md §12)' }),
      }),
      (row) => companyRef(row.company_id, row.company_name, row.company_verified),
    ),
    from: field.computed(
      Type.Union([Type.String(), Type.Null()], { description: 'the origin as sent: airport:FRA, city:60311; null for coordinates only' }),
      (row) => locationText(row.from_code),
    ),
    from_country: field.textOrNull('from_country'),
    from_latitude: field.computed(Type.Number(), (row) => row.from_latitude),
    from_longitude: field.computed(Type.Number(), (row) => row.from_longitude),
    from_radius: field.computed(
      Type.Integer({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: 'km' }),
      (row) => row.from_radius,
    ),
    to: field.computed(
      Type.String({ description: 'comma-separated destination patterns (DE, FR-75, airport:JFK); empty: anywhere' }),
      (row) => row.to_patterns.join(','),
    ),
    available_from: field.time('available_from'),
    available_to: field.time('available_to'),
    body: field.choice('body', BODIES),
    capacity: field.computed(Type.Number({ description: 'kg' }), (row) => Number(row.capacity)),
    loading_meters: field.computed(Type.Union([Type.Number(), Type.Null()], { description: 'm' }), (row) => number(row.loading_meters)),
    price_per_km: field.computed(Type.Union([Type.Number(), Type.Null()], { description: 'EUR per km, non-binding' }), (row) =>
      number(row.price_per_km),
    ),
    adr: field.computed(
      Type.Integer({
        minimum: 0,
        maximum: 1,
        description: '1: the truck carries dangerous goods (ADR): only such an offer fits a freight with an adr_class',
      }),
      (row) => row.adr,
    ),
    note: field.text('note'),
    whitelist: field.computed(
      Type.Union([Type.Array(Type.Integer()), Type.Null()], {
        description:
          'company ids; empty: every company. Shown to the offer’s company only (its partners are its own): null for anyone else',
      }),
      (row) => (row.viewer === row.company_id ? row.whitelist : null),
    ),
    created: field.time('created'),
    modified: field.time('modified'),
  },
);

export type VehicleView = ReturnType<typeof VEHICLE.present>;

/** The offer as company `viewer` may see it: its whitelist only for the offer's own company. */
export function presentVehicle(row: VehicleRead, clock: Clock, viewer: number): VehicleView {
  return VEHICLE.present({ ...row, now: clock.now(), viewer }, { clock });
}

/** Whether a parameter object looks like one (bodies may arrive as anything). */
export const isParams = (v: unknown): v is Params => isRecord(v);
