import type { Insertable } from 'kysely';
import type { Translate } from '../kernel/i18n.ts';
import { ADR_CLASSES, BODIES, MAX_LOADING_METERS } from '../market/index.ts';
import { isRecord, readDecimal, readString } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import type { BidView } from './bids.ts';
import { type FreightRow, type FreightStatus, type FreightPiecesTable, type FreightsTable, VISIBILITY } from './tables.ts';
import type { Role } from './policy.ts';
import type { WaterfallView } from './waterfall-view.ts';

/**
 * The freight's one field table (docs/reference.md#freight-fields): it drives lenient parsing of create/edit
 * bodies (the HTTP face's freights-http/parse.ts reads a body by it: normalising prefixes, airport
 * resolution, weight rule, time windows), presenting (API names, numbers, timestamps) and masking
 * by the caller's role (docs/reference.md#freights).
 */

type Column = keyof FreightsTable;

export interface DecimalSpec {
  /** integer digits the numeric column holds */
  int: number;
  scale: number;
  /** more decimals than the column holds: rounded (coordinates) instead of ignored (weights, money) */
  round?: boolean;
  min?: number;
  max?: number;
  /** greater than zero (a price one may book or be awarded at) */
  positive?: boolean;
}

export type Kind =
  | { type: 'text'; max: number }
  /** `optional`: a nullable column, emptied by an empty value (class and type may not be empty) */
  | { type: 'enum'; values: readonly string[]; case: 'lower' | 'upper'; optional?: boolean }
  | { type: 'decimal'; spec: DecimalSpec }
  | { type: 'int'; min: number; max: number }
  | { type: 'flag' }
  | { type: 'time' }
  | { type: 'deadline' }
  | { type: 'ids' }
  | { type: 'refs' }
  | { type: 'set'; values: readonly string[] }
  | { type: 'shared' }
  | { type: 'location' }
  | { type: 'currency' }
  | { type: 'id' };

export interface FieldDef {
  api: string;
  /** stored column; absent for derived fields (target) */
  column?: Column;
  kind: Kind;
  /**
   * `write`: read from create/edit bodies; `weight`: through the weight rule (docs/reference.md#the-api,
   * Endpoints 8); `server`: set by the server, a sent value is ignored with a warning.
   */
  input: 'write' | 'weight' | 'server';
  /**
   * `market`: hidden from everyone but owner and winner; `masked`: hidden from a former bidder
   * only; `owner`: shown to the owner alone (the whitelist: the owner's other partners are its own)
   */
  hide?: 'market' | 'masked' | 'owner';
}

const TEXT = (max = 255): Kind => ({ type: 'text', max });
const COORD = (limit: number): Kind => ({ type: 'decimal', spec: { int: 3, scale: 6, round: true, min: -limit, max: limit } });
const WEIGHT: Kind = { type: 'decimal', spec: { int: 11, scale: 3, min: 0 } };
const TIME: Kind = { type: 'time' };
const FLAG: Kind = { type: 'flag' };
const ID: Kind = { type: 'id' };
/** A price > 0 with cents (docs/reference.md#one-step: book_now, auto_award; numeric(14,2)). */
const PRICE: Kind = { type: 'decimal', spec: { int: 12, scale: 2, min: 0, positive: true } };

export const MAX_WHITELIST = 1000;

/**
 * The load's temperature range in °C (docs/choices.md, "Loads described as trucks are"): what a
 * reefer holds, deep-frozen to chilled and kept warm; only for body `reefer`.
 */
export const TEMPERATURE = { min: -40, max: 40 } as const;
const CELSIUS: Kind = { type: 'decimal', spec: { int: 2, scale: 1, min: TEMPERATURE.min, max: TEMPERATURE.max } };

/**
 * What the owner may show carriers of its refs (docs/choices.md, "What a carrier prices a load
 * by"): the goods description (`refs.commodity`) and the target price (`refs.target_rate`,
 * `refs.target_currency`). Stored in `share`; presented to the freight's audience in `shared`.
 */
export const SHARE_KEYS = ['goods', 'target_price'] as const;
export type ShareKey = (typeof SHARE_KEYS)[number];

export const CLASSES = ['rfs', 'air', 'rfs_order'] as const;
/** The statuses in which a freight shows its bids (`_bids`): on the market and once taken. */
export const BIDS_SHOWN_STATUSES: readonly FreightStatus[] = ['open', 'pending', 'taken'];
export const TYPES = ['AHR', 'FFR', 'DTR', 'DTO'] as const;

export const FIELDS: readonly FieldDef[] = [
  { api: 'id', column: 'id', kind: ID, input: 'server' },
  { api: 'class', column: 'class', kind: { type: 'enum', values: CLASSES, case: 'lower' }, input: 'write' },
  { api: 'type', column: 'type', kind: { type: 'enum', values: TYPES, case: 'upper' }, input: 'write' },
  { api: 'status', column: 'status', kind: TEXT(), input: 'server' },
  { api: 'category', column: 'category', kind: TEXT(100), input: 'write' },
  { api: 'target', kind: ID, input: 'server' },
  { api: 'from', column: 'from_code', kind: { type: 'location' }, input: 'write', hide: 'masked' },
  { api: 'from_country', column: 'from_country', kind: TEXT(2), input: 'write', hide: 'masked' },
  { api: 'from_addr', column: 'from_addr', kind: TEXT(1000), input: 'write', hide: 'market' },
  { api: 'from_latitude', column: 'from_latitude', kind: COORD(90), input: 'write', hide: 'masked' },
  { api: 'from_longitude', column: 'from_longitude', kind: COORD(180), input: 'write', hide: 'masked' },
  { api: 'to', column: 'to_code', kind: { type: 'location' }, input: 'write', hide: 'masked' },
  { api: 'to_country', column: 'to_country', kind: TEXT(2), input: 'write', hide: 'masked' },
  { api: 'to_addr', column: 'to_addr', kind: TEXT(1000), input: 'write', hide: 'market' },
  { api: 'to_latitude', column: 'to_latitude', kind: COORD(90), input: 'write', hide: 'masked' },
  { api: 'to_longitude', column: 'to_longitude', kind: COORD(180), input: 'write', hide: 'masked' },
  { api: 'weight', column: 'weight', kind: WEIGHT, input: 'weight' },
  { api: 'weight_actual', column: 'weight_actual', kind: WEIGHT, input: 'weight' },
  { api: 'weight_volume', column: 'weight_volume', kind: WEIGHT, input: 'weight' },
  { api: 'direction', column: 'direction', kind: TEXT(50), input: 'write' },
  { api: 'etd', column: 'etd', kind: TIME, input: 'write' },
  { api: 'etd_end', column: 'etd_end', kind: TIME, input: 'write' },
  { api: 'eta', column: 'eta', kind: TIME, input: 'write' },
  { api: 'eta_end', column: 'eta_end', kind: TIME, input: 'write' },
  { api: 'deadline', column: 'deadline', kind: { type: 'deadline' }, input: 'write' },
  { api: 'dangerous', column: 'dangerous', kind: TEXT(50), input: 'write' },
  { api: 'dangerous_goods', column: 'dangerous_goods', kind: TEXT(1000), input: 'write' },
  { api: 'secured', column: 'secured', kind: FLAG, input: 'write' },
  { api: 'stackable', column: 'stackable', kind: FLAG, input: 'write' },
  { api: 'dutiable', column: 'dutiable', kind: FLAG, input: 'write' },
  { api: 'awb', column: 'awb', kind: TEXT(50), input: 'write' },
  { api: 'price', column: 'price', kind: { type: 'decimal', spec: { int: 12, scale: 2, min: 0 } }, input: 'write', hide: 'masked' },
  // docs/reference.md#one-step: the price to take it at once, shown wherever the freight is shown; the
  // walk-away price of automatic award, the owner's secret (never in another company's answer).
  { api: 'book_now', column: 'book_now', kind: PRICE, input: 'write' },
  { api: 'book_now_currency', column: 'book_now_currency', kind: { type: 'currency' }, input: 'write' },
  { api: 'auto_award', column: 'auto_award', kind: PRICE, input: 'write', hide: 'owner' },
  { api: 'visibility', column: 'visibility', kind: { type: 'int', min: VISIBILITY.whitelist, max: VISIBILITY.max }, input: 'write' },
  // Whom the owner addressed it to: its own business, never another company's (a whitelisted company too sees null).
  { api: 'whitelist', column: 'whitelist', kind: { type: 'ids' }, input: 'write', hide: 'owner' },
  { api: 'company', column: 'company_id', kind: ID, input: 'server' },
  { api: 'user', column: 'user_id', kind: ID, input: 'server' },
  { api: 'winner', column: 'winner_id', kind: ID, input: 'server', hide: 'masked' },
  // The carrier equals the winner: masked with it, or the mask would be pointless.
  { api: 'transport_company_id', column: 'transport_company_id', kind: ID, input: 'server', hide: 'masked' },
  { api: 'delivery_status', column: 'delivery_status', kind: ID, input: 'server' },
  { api: 'parent_id', column: 'parent_id', kind: ID, input: 'server' },
  { api: 'refs', column: 'refs', kind: { type: 'refs' }, input: 'write', hide: 'market' },
  // The owner's choice of refs to show carriers: its own setting, seen like refs.
  { api: 'share', column: 'share', kind: { type: 'set', values: SHARE_KEYS }, input: 'write', hide: 'market' },
  // Derived from share and refs: what every company that sees the freight unmasked is shown.
  { api: 'shared', kind: { type: 'shared' }, input: 'server', hide: 'masked' },
  // The load described as trucks are (docs/choices.md, "Loads described as trucks are"): shown like weight, never masked.
  { api: 'body', column: 'body', kind: { type: 'enum', values: BODIES, case: 'lower', optional: true }, input: 'write' },
  {
    api: 'loading_meters',
    column: 'loading_meters',
    kind: { type: 'decimal', spec: { int: 2, scale: 2, min: 0, max: MAX_LOADING_METERS } },
    input: 'write',
  },
  { api: 'adr_class', column: 'adr_class', kind: { type: 'enum', values: ADR_CLASSES, case: 'lower', optional: true }, input: 'write' },
  { api: 'temperature_min', column: 'temperature_min', kind: CELSIUS, input: 'write' },
  { api: 'temperature_max', column: 'temperature_max', kind: CELSIUS, input: 'write' },
  { api: 'pallet_exchange', column: 'pallet_exchange', kind: FLAG, input: 'write' },
  { api: 'created', column: 'created', kind: TIME, input: 'server' },
  { api: 'modified', column: 'modified', kind: TIME, input: 'server' },
];

export type FreightValues = Partial<Record<Column, unknown>>;

export type PieceValues = Omit<Insertable<FreightPiecesTable>, 'freight_id' | 'position'>;

/**
 * The kernel's relative deadlines can overflow (`+999999 weeks` is an Invalid Date): only dates
 * that format back as `YYYY-MM-DD HH:MM:SS` are stored.
 */
export function storableDate(d: Date | null): Date | null {
  if (!d || !Number.isFinite(d.getTime())) return null;
  const year = d.getUTCFullYear();
  return year >= 1000 && year <= 9998 ? d : null;
}

/** A piece line's fields (`pieces`), read like the freight's (freights-http/parse.ts readPieces). */
export const PIECE_FIELDS: Record<string, Kind> = {
  pieces: { type: 'int', min: 0, max: 1_000_000 },
  depth: { type: 'decimal', spec: { int: 8, scale: 2, min: 0 } },
  width: { type: 'decimal', spec: { int: 8, scale: 2, min: 0 } },
  height: { type: 'decimal', spec: { int: 8, scale: 2, min: 0 } },
  weight: WEIGHT,
  stackable: FLAG,
  weight_per_piece: FLAG,
  refs: { type: 'refs' },
};

/** class -> target (docs/reference.md#the-api): air 2, trucking 3. */
export const targetOf = (cls: string) => (cls === 'air' ? 2 : 3);

// ---------------------------------------------------------------------------------------------
// Presenting

export interface PieceRow {
  freight_id: number;
  position: number;
  pieces: number | null;
  depth: string | null;
  width: string | null;
  height: string | null;
  weight: string | null;
  stackable: number | null;
  weight_per_piece: number | null;
  refs: unknown;
}

export interface PresentContext {
  clock: Clock;
  t: Translate;
}

export interface PresentExtras {
  pieces?: PieceRow[];
  /** already presented bids; undefined leaves `_bids` out */
  bids?: BidView[];
  company?: { id: number; name: string };
  /** the view's waterfall as the caller sees it (docs/reference.md#one-step); undefined leaves `waterfall` out */
  waterfall?: WaterfallView | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * What the owner shows carriers of its refs (`share`): `commodity` for goods, `target_rate` and
 * `target_currency` for the target price, only the shared keys (null where refs have no such
 * value, the rate as a number); null when nothing is shared.
 */
export interface SharedRefs {
  commodity?: string | null;
  target_rate?: number | null;
  target_currency?: string | null;
}

export function sharedOf(row: Pick<FreightRow, 'share' | 'refs'>): SharedRefs | null {
  const share = row.share ?? [];
  if (!share.length) return null;
  const refs = isRecord(row.refs) ? row.refs : {};
  const text = (v: unknown) => {
    const s = readString(v)?.trim();
    return s ? s : null;
  };
  const out: SharedRefs = {};
  if (share.includes('goods')) out.commodity = text(refs.commodity);
  if (share.includes('target_price')) {
    const rate = readDecimal(refs.target_rate);
    out.target_rate = rate === undefined ? null : Number(rate);
    out.target_currency = text(refs.target_currency);
  }
  return out;
}

function presentValue(def: FieldDef, row: FreightRow, clock: Clock): unknown {
  if (def.api === 'target') return targetOf(row.class);
  if (def.kind.type === 'shared') return sharedOf(row);
  const v = row[def.column as keyof FreightRow];
  switch (def.kind.type) {
    case 'decimal':
      return num(v);
    case 'time':
    case 'deadline':
      return clock.format(v as Date | null);
    case 'refs':
      return v ?? {};
    case 'ids':
      return ((v as number[] | null) ?? []).map(Number);
    case 'set':
      return [...((v as string[] | null) ?? [])];
    case 'flag':
      return v === null || v === undefined ? null : Number(v);
    default:
      return v ?? null;
  }
}

function hidden(def: FieldDef, role: Role): boolean {
  if (!def.hide || role === 'owner') return false;
  if (def.hide === 'owner') return true;
  if (role === 'winner') return false;
  return role === 'bidder' || def.hide === 'market';
}

function presentPiece(p: PieceRow, masked: boolean) {
  return {
    pieces: p.pieces,
    depth: num(p.depth),
    width: num(p.width),
    height: num(p.height),
    weight: num(p.weight),
    stackable: p.stackable,
    weight_per_piece: p.weight_per_piece,
    refs: masked ? null : (p.refs ?? null),
  };
}

export type PresentedPiece = ReturnType<typeof presentPiece>;

/**
 * A freight as presentFreight answers it (`data.route`, `data.routes`): every field of FIELDS
 * by its api name (null when hidden from the caller's role), those the pages read typed here
 * as presentValue gives them; the nested fields when given; the display fields.
 */
export type FreightView = Record<string, unknown> &
  ReturnType<typeof displayFields> & {
    id: number;
    status: FreightStatus;
    type: string;
    company: number;
    /** the creating user (never hidden) */
    user: number;
    winner: number | null;
    etd: string | null;
    refs: unknown;
    /** the owner's choice of refs shown to carriers (owner and winner only) */
    share: string[] | null;
    /** the shared refs (null: nothing shared, or masked) */
    shared: SharedRefs | null;
    _route_pieces?: PresentedPiece[];
    _bids?: BidView[];
    _company?: { id: number; name: string; verified: boolean };
    waterfall?: WaterfallView | null;
    book_now: number | null;
    book_now_currency: string;
  };

/** The freight as the caller's role may see it: core fields, nested fields, display fields. */
export function presentFreight(row: FreightRow, role: Role, ctx: PresentContext, extras: PresentExtras = {}): FreightView {
  const out: Record<string, unknown> = {};
  for (const def of FIELDS) out[def.api] = hidden(def, role) ? null : presentValue(def, row, ctx.clock);
  const masked = role === 'bidder';
  if (extras.pieces) out._route_pieces = extras.pieces.map((p) => presentPiece(p, masked || role === 'market'));
  if (extras.bids) out._bids = extras.bids;
  if (extras.company) out._company = extras.company;
  if (extras.waterfall !== undefined) out.waterfall = extras.waterfall;
  // The loop above wrote every field of FIELDS; FreightView names those it types.
  return Object.assign(out, displayFields(row, out, role, ctx, extras.pieces)) as FreightView;
}

const DELIVERY_WORDS = ['freight.delivery.0', 'freight.delivery.1', 'freight.delivery.2', 'freight.delivery.3'] as const;

function displayFields(row: FreightRow, out: Record<string, unknown>, role: Role, ctx: PresentContext, pieces?: PieceRow[]) {
  const { t, clock } = ctx;
  const none = t('placeholder.undefined');
  const place = (code: unknown, country: unknown) => {
    if (role === 'bidder') return 'xxx (XX)';
    if (code === null || code === undefined || code === '') return none;
    return country ? `${code} (${country})` : String(code);
  };
  const short = (d: Date | null) => clock.formatShort(d) ?? none;
  const refs = out.refs;
  const customer =
    isRecord(refs) && (typeof refs.customer === 'string' || typeof refs.customer === 'number') && refs.customer !== ''
      ? refs.customer
      : null;
  const fFrom = place(out.from, out.from_country);
  const fTo = place(out.to, out.to_country);
  const displayId = customer ?? row.id;
  const totalPieces = pieces?.reduce((sum, p) => sum + (p.pieces ?? 0), 0);
  const info = [
    row.weight !== null ? `${Number(row.weight)} kg` : null,
    totalPieces ? t('freight.info.pieces', { count: totalPieces }) : null,
    row.category ?? null,
  ].filter(Boolean);
  return {
    f_from: fFrom,
    f_to: fTo,
    f_etd: short(row.etd),
    f_eta: short(row.eta),
    f_etd_end: short(row.etd_end),
    f_eta_end: short(row.eta_end),
    caption: `${fFrom} to ${fTo} - (${displayId})`,
    display_id: displayId,
    info: info.length ? info.join(', ') : none,
    delivery_status_in_words: t(DELIVERY_WORDS[row.delivery_status] ?? 'placeholder.undefined'),
    list_icon: row.class === 'air' ? 'plane' : 'truck',
    media_types: row.class === 'air' ? ['air'] : ['road'],
    // Agrees with edit (lifecycle.ts EDITABLE_STATUSES): a pending freight's terms are frozen.
    editable: role === 'owner' && (row.status === 'draft' || row.status === 'open'),
  };
}
