import { DateTime } from 'luxon';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { FailureCode } from '../kernel/errors.ts';
import type { MessageKey } from '../kernel/i18n.ts';
import { readCsvInSlices } from '../kernel/pace.ts';
import { isRecord, readDecimal, readInt, readLines, readList, readId, readString } from '../kernel/params.ts';
import { formatPlacePattern, parsePlacePattern } from '../market/index.ts';
import { BODIES } from '../vehicles/index.ts';
import {
  LOADS_MAX,
  MAX_INVITED,
  MAX_ITEMS,
  MAX_LANES,
  NAME_MAX,
  NOTE_MAX,
  PERIOD_MAX_DAYS,
  PRICE_MAX,
  RANK_MAX,
  WEIGHT_MAX,
} from './tables.ts';

/**
 * Reading a tender, bids and awards (docs/reference.md#tenders): every list is counted before any item is
 * read (docs/reference.md#safety), every text bounded; the first bad lane or item refuses the whole
 * request, named by its position (1-based) and field. Lanes read their places with the load
 * search's pattern reader (market parsePlacePattern) and keep its normal text.
 */

/** A refusal: its code, the words' variables, and where (`field` as the API names it; `position` of a lane or item). */
export interface Problem {
  code: FailureCode;
  vars?: Record<string, string | number>;
  /** a lane's or item's field: `lanes[3].from` */
  field?: string;
  position?: number;
  /** the reason's message key (for a lane or item) */
  reason?: MessageKey;
  /** a CSV's line and column (the page's upload) */
  line?: number;
  column?: number;
}

export interface LaneInput {
  position: number;
  from: string;
  to: string;
  loads: number;
  weight: string | null;
  body: string | null;
  note: string | null;
}

export interface TenderInput {
  name: string;
  validFrom: string;
  validTo: string;
  deadline: Date;
  currency: string;
  invited: number[];
  lanes: LaneInput[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A date `YYYY-MM-DD` that exists, or undefined. */
export function readDay(value: unknown): string | undefined {
  const text = readString(value)?.trim();
  if (!text || !DAY.test(text)) return undefined;
  const d = DateTime.fromISO(text, { zone: 'UTC' });
  return d.isValid && d.year >= 2000 && d.year <= 9999 ? text : undefined;
}

const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

type LaneField = 'from' | 'to' | 'loads' | 'weight' | 'body' | 'note';
type LaneRead =
  | { ok: true; lane: LaneInput }
  | { ok: false; field: LaneField | 'lane'; reason: MessageKey; vars?: Record<string, string | number> };

/** One lane: `from`, `to` (patterns of §7), `loads` (≥ 1), optional `weight`, `body`, `note`. */
export function readLane(raw: unknown, position: number): LaneRead {
  if (!isRecord(raw)) return { ok: false, field: 'lane', reason: 'tenders.reason.object' };
  const places: Record<'from' | 'to', string> = { from: '', to: '' };
  for (const side of ['from', 'to'] as const) {
    const text = readString(raw[side]);
    if (text === undefined || text.length > 40) return { ok: false, field: side, reason: 'tenders.reason.pattern' };
    const p = parsePlacePattern(text);
    if (typeof p === 'string') return { ok: false, field: side, reason: 'tenders.reason.pattern' };
    places[side] = formatPlacePattern(p);
  }
  const loads = readInt(raw.loads);
  if (loads === undefined || loads < 1 || loads > LOADS_MAX)
    return { ok: false, field: 'loads', reason: 'tenders.reason.loads', vars: { max: LOADS_MAX } };
  let weight: string | null = null;
  if (!blank(raw.weight)) {
    const w = readDecimal(raw.weight);
    if (w === undefined || Number(w) <= 0 || Number(w) > WEIGHT_MAX)
      return { ok: false, field: 'weight', reason: 'tenders.reason.weight', vars: { max: WEIGHT_MAX } };
    weight = String(Number(Number(w).toFixed(3)));
  }
  let body: string | null = null;
  if (!blank(raw.body)) {
    const b = readString(raw.body)?.trim().toLowerCase();
    if (!b || !(BODIES as readonly string[]).includes(b))
      return { ok: false, field: 'body', reason: 'tenders.reason.body', vars: { list: BODIES.join(', ') } };
    body = b;
  }
  let note: string | null = null;
  if (!blank(raw.note)) {
    const n = readString(raw.note);
    if (n === undefined || [...n].length > NOTE_MAX)
      return { ok: false, field: 'note', reason: 'tenders.reason.note', vars: { max: NOTE_MAX } };
    note = n.trim();
  }
  return { ok: true, lane: { position, from: places.from, to: places.to, loads, weight, body, note } };
}

/** The CSV columns of a lane, in the template's order (the page's upload and its template). */
export const CSV_COLUMNS: readonly LaneField[] = ['from', 'to', 'loads', 'weight', 'body', 'note'];
export const CSV_TEMPLATE = 'from;to;loads;weight;body;note\nDE-60;FR-75;12;24000;tautliner;\nDE-8;IT-20;4;;reefer;ramp 3\n';
/** The CSV upload's text: at most this many characters (1,000 lanes of long notes fit). */
export const CSV_MAX_CHARS = 2_000_000;

/**
 * Lanes from CSV text (the page's upload): a header line naming the columns (any order; `;` or
 * `,` between them), then one lane a line. A bad lane names its line and column.
 */
export async function lanesFromCsv(text: string): Promise<{ ok: true; lanes: unknown[] } | { ok: false; problem: Problem }> {
  if (text.length > CSV_MAX_CHARS) return { ok: false, problem: { code: 'tenders.lanes_invalid', vars: { max: MAX_LANES } } };
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const delimiter = firstLine.includes(';') ? ';' : ',';
  const rows: Array<{ record: string[]; line: number }> = [];
  let tooMany = false;
  try {
    await readCsvInSlices(
      text,
      { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 4000 },
      (record, line) => {
        if (rows.length > MAX_LANES) {
          tooMany = true;
          return;
        }
        rows.push({ record, line });
      },
    );
  } catch (err) {
    const line = Number((err as { lines?: number }).lines ?? 1);
    return {
      ok: false,
      problem: {
        code: 'tenders.lane_invalid',
        vars: { position: Math.max(line - 1, 1), field: 'csv', reason: String((err as Error).message).slice(0, 100) },
        line,
        column: 1,
      },
    };
  }
  const header = rows.shift()?.record.map((h) => h.trim().toLowerCase()) ?? [];
  if (tooMany || rows.length > MAX_LANES || rows.length < 1)
    return { ok: false, problem: { code: 'tenders.lanes_invalid', vars: { max: MAX_LANES } } };
  const columns = header.length && header.includes('from') ? header : [...CSV_COLUMNS];
  if (!header.includes('from')) rows.unshift({ record: header, line: 1 });
  const lanes = rows.map(({ record, line }) => {
    const lane: Record<string, unknown> = { _line: line };
    columns.forEach((name, i) => {
      if ((CSV_COLUMNS as readonly string[]).includes(name) && record[i] !== undefined) lane[name] = record[i];
    });
    lane._columns = columns;
    return lane;
  });
  return { ok: true, lanes };
}

/** The tender's body, whole or refused at its first problem (nothing is stored before this reads it all). */
export async function readTender(ctx: Ctx<Caller>): Promise<{ ok: true; tender: TenderInput } | { ok: false; problem: Problem }> {
  const p = ctx.params;
  const refuse = (problem: Problem) => ({ ok: false as const, problem });
  const name = readString(p.name)?.trim();
  if (!name || [...name].length > NAME_MAX) return refuse({ code: 'tenders.name_invalid', vars: { max: NAME_MAX }, field: 'name' });
  const validFrom = readDay(p.valid_from);
  const validTo = readDay(p.valid_to);
  if (!validFrom || !validTo || validFrom > validTo || daysBetween(validFrom, validTo) > PERIOD_MAX_DAYS)
    return refuse({ code: 'tenders.period_invalid', vars: { max: PERIOD_MAX_DAYS }, field: validFrom ? 'valid_to' : 'valid_from' });
  const deadline = ctx.clock.parse(typeof p.deadline === 'string' ? p.deadline.slice(0, 40) : p.deadline);
  const endOfPeriod = DateTime.fromISO(validTo, { zone: ctx.clock.zone }).endOf('day').toJSDate();
  if (!deadline || deadline <= ctx.clock.now() || deadline > endOfPeriod)
    return refuse({ code: 'tenders.deadline_invalid', field: 'deadline' });
  const currencyText = blank(p.currency) ? 'EUR' : readString(p.currency)?.trim();
  if (!currencyText || !/^[A-Za-z]{3}$/.test(currencyText)) return refuse({ code: 'tenders.currency_invalid', field: 'currency' });
  const invited: number[] = [];
  if (!blank(p.invited)) {
    const list = readList(p.invited, MAX_INVITED);
    if (!list.ok) return refuse({ code: 'tenders.invited_invalid', vars: { max: MAX_INVITED }, field: 'invited' });
    for (const item of list.items) {
      if (typeof item === 'string' && item.trim() === '') continue;
      const id = readId(item);
      if (id === undefined || id === ctx.caller.companyId)
        return refuse({ code: 'tenders.invited_invalid', vars: { max: MAX_INVITED }, field: 'invited' });
      if (!invited.includes(id)) invited.push(id);
    }
  }
  let rawLanes: unknown[];
  if (blank(p.lanes) && typeof p.lanes_csv === 'string' && p.lanes_csv.trim() !== '') {
    const csv = await lanesFromCsv(p.lanes_csv);
    if (!csv.ok) return refuse(csv.problem);
    rawLanes = csv.lanes;
  } else {
    const list = readLines(p.lanes, MAX_LANES);
    if (!list.ok || list.items.length < 1) return refuse({ code: 'tenders.lanes_invalid', vars: { max: MAX_LANES }, field: 'lanes' });
    rawLanes = list.items;
  }
  const lanes: LaneInput[] = [];
  for (let i = 0; i < rawLanes.length; i++) {
    const read = readLane(rawLanes[i], i + 1);
    if (!read.ok) {
      const raw = rawLanes[i] as Record<string, unknown>;
      const line = typeof raw?._line === 'number' ? raw._line : undefined;
      const columns = Array.isArray(raw?._columns) ? (raw._columns as string[]) : undefined;
      const column = columns ? Math.max(columns.indexOf(read.field), 0) + 1 : undefined;
      const reason = ctx.t(read.reason, read.vars);
      return refuse({
        code: 'tenders.lane_invalid',
        vars: { position: i + 1, field: read.field, reason },
        field: `lanes[${i}].${read.field}`,
        position: i + 1,
        reason: read.reason,
        line,
        column,
      });
    }
    lanes.push(read.lane);
  }
  return { ok: true, tender: { name, validFrom, validTo, deadline, currency: currencyText.toUpperCase(), invited, lanes } };
}

export interface BidItem {
  lane: number;
  price: string;
  capacity: number;
}

/** The refusal of a request's item `i` of `list` (one bad item refuses the whole request), naming its position and field. */
const itemRefusal =
  <Code extends 'tenders.bid_invalid' | 'tenders.award_invalid'>(ctx: Ctx<Caller>, code: Code, list: 'bids' | 'awards') =>
  (i: number, field: string, reason: MessageKey, vars?: Record<string, string | number>) => ({
    ok: false as const,
    problem: {
      code,
      vars: { position: i + 1, field, reason: ctx.t(reason, vars) },
      field: `${list}[${i}].${field}`,
      position: i + 1,
      reason,
    },
  });

/** `bids`: 1–1,000 items of {lane, price (> 0), capacity (≥ 1)}, each lane once; the lanes are checked against the tender after. */
export function readBids(ctx: Ctx<Caller>): { ok: true; bids: BidItem[] } | { ok: false; problem: Problem } {
  const list = readLines(ctx.params.bids, MAX_ITEMS);
  if (!list.ok || list.items.length < 1)
    return { ok: false, problem: { code: 'tenders.bids_invalid', vars: { max: MAX_ITEMS }, field: 'bids' } };
  const bids: BidItem[] = [];
  const seen = new Set<number>();
  const bad = itemRefusal(ctx, 'tenders.bid_invalid', 'bids');
  for (let i = 0; i < list.items.length; i++) {
    const item = list.items[i];
    if (!isRecord(item)) return bad(i, 'lane', 'tenders.reason.lane');
    const lane = readId(item.lane);
    if (lane === undefined) return bad(i, 'lane', 'tenders.reason.lane');
    if (seen.has(lane)) return bad(i, 'lane', 'tenders.reason.twice');
    seen.add(lane);
    const price = readPrice(item.price);
    if (price === undefined) return bad(i, 'price', 'tenders.reason.price');
    const capacity = readInt(item.capacity);
    if (capacity === undefined || capacity < 1 || capacity > LOADS_MAX)
      return bad(i, 'capacity', 'tenders.reason.capacity', { max: LOADS_MAX });
    bids.push({ lane, price, capacity });
  }
  return { ok: true, bids };
}

/** A price per load: > 0, at most 2 decimals, below PRICE_MAX; its canonical text. */
export function readPrice(value: unknown): string | undefined {
  const text = readDecimal(value);
  if (text === undefined || text.startsWith('-')) return undefined;
  const [int, frac = ''] = text.split('.');
  const cents = frac.replace(/0+$/, '');
  if (cents.length > 2) return undefined;
  const n = Number(text);
  if (!(n > 0) || n > PRICE_MAX) return undefined;
  return cents ? `${Number(int)}.${cents}` : String(Number(int));
}

export interface AwardItem {
  lane: number;
  company: number;
  rank: number;
}

/** `awards`: 1–1,000 items of {lane, company, rank}; checked against the bids after. */
export function readAwards(ctx: Ctx<Caller>): { ok: true; awards: AwardItem[] } | { ok: false; problem: Problem } {
  const list = readLines(ctx.params.awards, MAX_ITEMS * 5);
  if (!list.ok || list.items.length < 1)
    return { ok: false, problem: { code: 'tenders.awards_invalid', vars: { max: MAX_ITEMS * 5 }, field: 'awards' } };
  const awards: AwardItem[] = [];
  const pairs = new Set<string>();
  const ranks = new Set<string>();
  const bad = itemRefusal(ctx, 'tenders.award_invalid', 'awards');
  for (let i = 0; i < list.items.length; i++) {
    const item = list.items[i];
    if (!isRecord(item)) return bad(i, 'lane', 'tenders.reason.lane');
    const lane = readId(item.lane);
    if (lane === undefined) return bad(i, 'lane', 'tenders.reason.lane');
    const company = readId(item.company);
    if (company === undefined) return bad(i, 'company', 'tenders.reason.company');
    const rank = readInt(item.rank);
    if (rank === undefined || rank < 1 || rank > RANK_MAX) return bad(i, 'rank', 'tenders.reason.rank', { max: RANK_MAX });
    if (pairs.has(`${lane}:${company}`)) return bad(i, 'company', 'tenders.reason.twice');
    if (ranks.has(`${lane}:${rank}`)) return bad(i, 'rank', 'tenders.reason.rank', { max: RANK_MAX });
    pairs.add(`${lane}:${company}`);
    ranks.add(`${lane}:${rank}`);
    awards.push({ lane, company, rank });
  }
  return { ok: true, awards };
}
