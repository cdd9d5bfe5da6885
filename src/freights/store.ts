import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { PreparedStatement, statementBuilder } from '../db/prepared.ts';
import { companyNameSql as companyNameOf, companyRef, companyVerifiedSql as verifiedOf } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { presentBid, type ShownBid } from './bids.ts';
import { BIDS_SHOWN_STATUSES, presentFreight, type FreightValues, type PieceRow, type PieceValues, type PresentContext } from './fields.ts';
import { effectiveStatusSql } from './in-market.ts';
import { hadBidSql, liveBidOfSql, roleOf, type Role } from './policy.ts';
import { insertPieces, loadPieces, piecesJsonSql } from './pieces.ts';
import type { BidConfirmerColumn, BidRow, BidsTable, FreightRow, FreightsTable } from './tables.ts';
import type { Translate } from '../kernel/i18n.ts';
import { presentWaterfall, waterfallJsonSql, type WaterfallJson, type WaterfallView } from './waterfall-view.ts';

export interface NewFreight {
  values: FreightValues;
  pieces?: PieceValues[];
}

/** Inserts a freight and its piece lines in one transaction; company and user are the caller's. */
export async function insertFreight(
  db: Kysely<DB>,
  caller: Caller,
  now: Date,
  freight: NewFreight,
  /** More work in the same transaction (the booking request's event). */
  alsoInTransaction?: (trx: Transaction<DB>, row: FreightRow) => Promise<unknown>,
): Promise<FreightRow> {
  return db.transaction().execute(async (trx) => {
    const values = { ...freight.values } as Record<string, unknown>;
    // Server-set fields come last, so no body value can override them.
    const row = await trx
      .insertInto('freights')
      .values({ ...values, company_id: caller.companyId, user_id: caller.userId, created: now, modified: now } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (freight.pieces?.length) await insertPieces(trx, row.id, freight.pieces);
    await alsoInTransaction?.(trx, row);
    return row;
  });
}

export interface ReadContext {
  db: Kysely<DB>;
  clock: Clock;
  t: Translate;
  caller: Caller;
}

/**
 * Every stored column of a freight except `status`, which reads as the effective status
 * (lifecycle.ts: past its deadline an open/pending freight is `expired`, written or not).
 */
export const FREIGHT_COLUMNS = [
  'id',
  'class',
  'type',
  'category',
  'from_code',
  'from_country',
  'from_addr',
  'from_latitude',
  'from_longitude',
  'to_code',
  'to_country',
  'to_addr',
  'to_latitude',
  'to_longitude',
  'weight',
  'weight_actual',
  'weight_volume',
  'direction',
  'etd',
  'etd_end',
  'eta',
  'eta_end',
  'deadline',
  'dangerous',
  'dangerous_goods',
  'secured',
  'stackable',
  'dutiable',
  'awb',
  'price',
  'visibility',
  'whitelist',
  'company_id',
  'user_id',
  'winner_id',
  'transport_company_id',
  'delivery_status',
  'parent_id',
  'refs',
  'share',
  'book_now',
  'book_now_currency',
  'auto_award',
  'body',
  'loading_meters',
  'adr_class',
  'temperature_min',
  'temperature_max',
  'pallet_exchange',
  'created',
  'modified',
] as const satisfies ReadonlyArray<keyof FreightsTable>;
// Compile-time check that no column is forgotten (a new column must be read too); `market_until`
// is derived from status and deadline for the statements' conditions (in-market.ts), never read.
const everyColumn: Exclude<keyof FreightsTable, (typeof FREIGHT_COLUMNS)[number] | 'status' | 'market_until'> extends never ? true : never =
  true;
void everyColumn;

/** The freight's columns with the effective status: the select list of every freight read. */
export function freightSelection(now: Date) {
  return [...FREIGHT_COLUMNS.map((c) => `freights.${c}` as const), effectiveStatusSql(now).as('status')] as const;
}

/** Columns of FREIGHT_COLUMNS that are timestamps (Date in a FreightRow) or numerics (exact decimal strings). */
const TIME_COLUMNS = ['etd', 'etd_end', 'eta', 'eta_end', 'deadline', 'created', 'modified'] as const satisfies ReadonlyArray<
  (typeof FREIGHT_COLUMNS)[number]
>;
const DECIMAL_COLUMNS = new Set<string>([
  'from_latitude',
  'from_longitude',
  'to_latitude',
  'to_longitude',
  'weight',
  'weight_actual',
  'weight_volume',
  'price',
  'book_now',
  'auto_award',
  'loading_meters',
  'temperature_min',
  'temperature_max',
]);
const TIME_SET = new Set<string>(TIME_COLUMNS);

/**
 * The freight's columns for a JSON object (the hot reads: view and list pages). PostgreSQL builds
 * one JSON text per answer, which Node reads with one JSON.parse, instead of the driver parsing
 * ~45 typed columns per row (half of a list page's driver time). Values as the driver would give
 * them: numerics as their exact text, timestamps as epoch milliseconds (floor: what the driver's
 * Date of the same timestamp holds), integers, arrays and `refs` as JSON.
 */
const FREIGHT_JSON_COLUMNS = sql.raw(
  FREIGHT_COLUMNS.map((c) =>
    DECIMAL_COLUMNS.has(c)
      ? `freights.${c}::text as ${c}`
      : TIME_SET.has(c)
        ? `floor(extract(epoch from freights.${c}) * 1000)::int8 as ${c}`
        : `freights.${c}`,
  ).join(', '),
);

/**
 * SQL: a lateral row `r` of the freight's columns for JSON (FREIGHT_JSON_COLUMNS, status
 * effective at `now`): `cross join lateral (…) as r`, then `json_build_object('row', r, …)`.
 */
export function freightJsonRow(now: Date) {
  return sql`(select ${FREIGHT_JSON_COLUMNS}, ${effectiveStatusSql(now)} as status)`;
}

/** A FreightRow from its JSON object (freightJsonRow): timestamps back to Dates, in place. */
export function freightRowFromJson(o: Record<string, unknown>): FreightRow {
  for (const c of TIME_COLUMNS) {
    const v = o[c];
    if (v !== null) o[c] = new Date(v as number);
  }
  return o as unknown as FreightRow;
}

/** SQL: the name of the freight's company (a primary-key lookup per row, whatever the number of companies). */
export const companyNameSql = companyNameOf(sql`freights.company_id`);
/** SQL: whether the freight's company is verified (accounts/mark.tsx, the verified mark). */
export const companyVerifiedSql = verifiedOf(sql`freights.company_id`);

/**
 * The bid columns a freight's view reads, each once: the compiler refuses a column of the bids
 * table that is neither here nor named as left out, so a new column cannot be forgotten.
 */
const BID_JSON_COLUMNS = [
  'id',
  'freight_id',
  'company_id',
  'user_id',
  'display_company_id',
  'amount',
  'currency_code',
  'rate_base',
  'rate_fsc',
  'rate_ssc',
  'note',
  'status',
  'type',
  'owner_confirmed',
  'bidder_confirmed',
  'deadline',
  'created',
  'modified',
  'counter_amount',
  'counter_currency',
  'counter_note',
  'counter_created',
] as const satisfies ReadonlyArray<keyof BidsTable>;
/**
 * Left out (bids.ts ShownBid): the freight's creation time, copied onto the bid for the lists'
 * order (migration 0011), and who confirmed (migration 0014: the transport order's alone).
 */
const everyBidColumn: Exclude<keyof BidsTable, (typeof BID_JSON_COLUMNS)[number] | 'freight_created' | BidConfirmerColumn> extends never
  ? true
  : never = true;
void everyBidColumn;
const BID_DECIMAL_COLUMNS = new Set<string>(['amount', 'rate_base', 'rate_fsc', 'rate_ssc', 'counter_amount']);

/** `'id', b.id, 'amount', b.amount::text, …`: the pairs of the bid's JSON object (numerics as exact text). */
export const BID_JSON_PAIRS = sql.join(
  BID_JSON_COLUMNS.map((c) => sql`${sql.lit(c)}, ${BID_DECIMAL_COLUMNS.has(c) ? sql`${sql.ref(`b.${c}`)}::text` : sql.ref(`b.${c}`)}`),
);

/**
 * SQL: the freight's bids in one index scan (bids_freight_idx), as JSON: `had`, whether the
 * company had a non-revoked bid (policy.ts, the market rule), and `list`, the bids it may see
 * (all for the owner, its own for anyone else) in creation order; numerics as exact text,
 * timestamps as ISO text. One scan instead of two: each index a statement touches costs the
 * view about 5 % of its requests per second (docs/benchmarks.md).
 */
function bidsJsonSql(companyId: number) {
  return sql<{ had: boolean; list: BidJson[] }>`(select json_build_object('had', coalesce(bool_or(${liveBidOfSql(companyId)}), false),
    'list', coalesce(json_agg(json_build_object(${BID_JSON_PAIRS}) order by b.created, b.id)
      filter (where freights.company_id = ${companyId} or b.company_id = ${companyId}), '[]'::json))
    from bids as b where b.freight_id = freights.id)`;
}

/** A bid as the view's JSON holds it: the columns read, timestamps as text. */
export type BidJson = Omit<Pick<BidRow, (typeof BID_JSON_COLUMNS)[number]>, 'deadline' | 'created' | 'modified' | 'counter_created'> & {
  deadline: string | null;
  counter_created: string | null;
  created: string;
  modified: string;
};

export const bidFromJson = (b: BidJson): ShownBid => ({
  ...b,
  deadline: b.deadline === null ? null : new Date(b.deadline),
  counter_created: b.counter_created === null ? null : new Date(b.counter_created),
  created: new Date(b.created),
  modified: new Date(b.modified),
});

/**
 * A freight read for a company, with what its presentation needs beside the row, read in the same
 * statement: its company's name, its piece lines, the bids the company may see (all for the
 * owner, its own for anyone else), and whether the company had a live bid (its role).
 */
export interface FreightRead {
  row: FreightRow;
  hadBid: boolean;
  companyName: string;
  /** its company is verified by the operator (the verified mark) */
  companyVerified: boolean;
  pieces: PieceRow[];
  bids: ShownBid[];
  /** its waterfall (docs/reference.md#one-step), as stored: presented by the reader's part in it */
  waterfall: WaterfallJson | null;
}

/** A freight read for a caller who may see it, with the caller's role on it. */
export interface CallerFreight extends FreightRead {
  role: Role;
  /** what of the waterfall the caller sees (the owner all of it, the carrier in its turn its end) */
  waterfallView: WaterfallView | null;
}

type ViewArgs = [now: Date, companyId: number, id: number];
let viewPrepared: PreparedStatement<ViewArgs> | undefined;

/** The statement of `readFreight`, prepared (src/db/prepared.ts; exported for the benchmark's EXPLAIN): one JSON text. */
export function viewStatement(): PreparedStatement<ViewArgs> {
  viewPrepared ??= new PreparedStatement<ViewArgs>('fx_freight_view', 3, (now: Date, companyId: number, id: number) =>
    statementBuilder<DB>().selectFrom('freights').select(viewJsonSql(now, companyId).as('view')).where('freights.id', '=', id),
  );
  return viewPrepared;
}

/**
 * SQL: everything a freight's view needs as one JSON text (`readFreight`; read with `fromViewJson`),
 * for the freight row `freights` of the statement.
 */
export function viewJsonSql(now: Date, companyId: number) {
  return sql<string>`(select json_build_object('row', r, 'company_name', ${companyNameSql}, 'company_verified', ${companyVerifiedSql}, 'pieces', ${piecesJsonSql},
    'bids', ${bidsJsonSql(companyId)}, 'waterfall', ${waterfallJsonSql})::text from ${freightJsonRow(now)} as r)`;
}

interface ViewJson {
  row: Record<string, unknown>;
  company_name: string;
  company_verified: boolean;
  pieces: PieceRow[];
  bids: { had: boolean; list: BidJson[] };
  waterfall: WaterfallJson | null;
}

/**
 * One freight with everything its view needs, in one statement: the row with its effective
 * status at `now`, whether the company had a (non-revoked) bid, the company name, the piece
 * lines and the bids the company may see. Undefined when the id does not exist.
 */
export async function readFreight(db: Kysely<DB>, now: Date, companyId: number, id: number): Promise<FreightRead | undefined> {
  const [found] = await viewStatement().execute<{ view: string }>(db, now, companyId, id);
  return found ? fromViewJson(found.view) : undefined;
}

/** A freight read from its view's JSON text (viewJsonSql). */
export function fromViewJson(text: string): FreightRead {
  const view = JSON.parse(text) as ViewJson;
  return {
    row: freightRowFromJson(view.row),
    hadBid: view.bids.had,
    companyName: view.company_name,
    companyVerified: view.company_verified,
    pieces: view.pieces,
    bids: view.bids.list.map(bidFromJson),
    waterfall: view.waterfall,
  };
}

/**
 * The freight as the caller may see it (row with its effective status, role, pieces, company
 * name and the bids the caller may see), read in one statement (`readFreight`), or null
 * when the caller may not see it. Expiry is computed in that statement, never written first.
 */
export async function loadFreightForCaller(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number): Promise<CallerFreight | null> {
  const found = await readFreight(db, clock.now(), caller.companyId, freightId);
  if (!found) return null;
  const role = roleOf(found.row, caller.companyId, found.hadBid);
  return role ? { ...found, role, waterfallView: presentWaterfall(found.waterfall, role, caller.companyId, clock) } : null;
}

/**
 * The freight row when the caller may see it per docs/reference.md#freights, else null (used by the
 * quotes module too); its status is the effective one at the clock's now.
 */
export async function loadVisibleFreight(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number): Promise<FreightRow | null> {
  return (await loadFreightForCaller(db, clock, caller, freightId))?.row ?? null;
}

/**
 * One freight as `data.route`, from what was read for the caller (loadFreightForCaller): pieces,
 * `_company`, and `_bids` only while open, pending or taken (absent otherwise, docs/reference.md#the-api): all bids
 * for the owner, the caller's company's own bids for anyone else. Reads nothing.
 */
export function presentRead(found: CallerFreight, ctx: PresentContext) {
  const { row, role } = found;
  const bids = BIDS_SHOWN_STATUSES.includes(row.status) ? found.bids.map((b) => presentBid(b, ctx.clock)) : undefined;
  return presentFreight(row, role, ctx, {
    pieces: found.pieces,
    bids,
    company: companyRef(row.company_id, found.companyName, found.companyVerified),
    // Only to whom it is shown (the owner; the carrier in its turn): absent otherwise, as in a list's row.
    waterfall: found.waterfallView ?? undefined,
  });
}

/** A freight as a list page read it: with the caller's role, its company's name and its piece lines. */
export interface FreightWithParts {
  row: FreightRow;
  role: Role;
  companyName: string;
  companyVerified?: boolean;
  pieces: PieceRow[];
}

/** A page of a list (lists read the pieces in the same statement; other readers with `withPieces`). Reads nothing. */
export function presentMany(rows: readonly FreightWithParts[], ctx: PresentContext) {
  return rows.map(({ row, role, companyName, companyVerified, pieces }) =>
    presentFreight(row, role, ctx, { pieces, company: companyRef(row.company_id, companyName, companyVerified) }),
  );
}

/** Rows read without their piece lines (visibleFreights), with them: one statement for all. */
export async function withPieces<T extends { row: FreightRow }>(
  db: Kysely<DB>,
  rows: readonly T[],
): Promise<Array<T & { pieces: PieceRow[] }>> {
  const loaded = rows.length
    ? await loadPieces(
        db,
        rows.map((r) => r.row.id),
      )
    : new Map<number, PieceRow[]>();
  return rows.map((r) => ({ ...r, pieces: loaded.get(r.row.id) ?? [] }));
}

/** A freight among ids the company may see, with its role on it and its company. */
export interface VisibleFreight {
  row: FreightRow;
  role: Role;
  companyName: string;
  companyVerified: boolean;
}

/**
 * The freights among `ids` the company may see at `now` (docs/reference.md#freights), each with the
 * company's role on it and the name of the freight's company; missing or invisible ones are
 * absent. One statement whatever the number of ids (Shipments, notifications).
 */
export async function visibleFreights(db: Kysely<DB>, now: Date, companyId: number, ids: readonly number[]): Promise<VisibleFreight[]> {
  return visibleFreightsRead(db, now, companyId, ids, false);
}

/** visibleFreights with each freight's piece lines, read in the same statement (a vehicle offer's matches). */
export async function visibleFreightsWithPieces(
  db: Kysely<DB>,
  now: Date,
  companyId: number,
  ids: readonly number[],
): Promise<Array<VisibleFreight & { pieces: PieceRow[] }>> {
  return visibleFreightsRead(db, now, companyId, ids, true) as Promise<Array<VisibleFreight & { pieces: PieceRow[] }>>;
}

async function visibleFreightsRead(
  db: Kysely<DB>,
  now: Date,
  companyId: number,
  ids: readonly number[],
  pieces: boolean,
): Promise<Array<VisibleFreight & { pieces?: PieceRow[] }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('freights')
    .select(freightSelection(now))
    .select((eb) => [companyNameSql.as('company_name'), companyVerifiedSql.as('company_verified'), hadBidSql(eb, companyId).as('had_bid')])
    .$if(pieces, (qb) => qb.select(sql<string>`${piecesJsonSql}::text`.as('pieces_json')))
    .where(sql<SqlBool>`freights.id = any(${[...new Set(ids)]}::int[])`)
    .execute();
  const out: Array<VisibleFreight & { pieces?: PieceRow[] }> = [];
  for (const { company_name, company_verified, had_bid, ...rest } of rows) {
    const { pieces_json, ...row } = rest as typeof rest & { pieces_json?: string };
    const role = roleOf(row as FreightRow, companyId, Boolean(had_bid));
    if (!role) continue;
    const read = { row: row as FreightRow, role, companyName: company_name, companyVerified: Boolean(company_verified) };
    out.push(pieces_json === undefined ? read : { ...read, pieces: JSON.parse(pieces_json) as PieceRow[] });
  }
  return out;
}
