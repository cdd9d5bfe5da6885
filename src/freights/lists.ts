import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readInt, readString, type Params } from '../kernel/params.ts';
import type { PieceRow } from './fields.ts';
import type { FreightRow } from './lifecycle.ts';
import { admitsSql, hadBidSql, roleOf, type Role } from './policy.ts';
import { freightSelection, piecesJsonSql, presentMany, type ReadContext } from './store.ts';

/**
 * GET /freights/enlist/{filterId}: every list page is one SQL statement (membership, order, page,
 * company names and piece lines). Membership follows decisions.md §4 exactly; "had bid" is a
 * non-revoked bid of the caller's company. Statuses are effective ones: a freight past its
 * deadline is in the expired lists and out of the market ones, whether the sweeper wrote it yet
 * or not (lifecycle.ts).
 */

type EB = ExpressionBuilder<DB, 'freights'>;
type Where = (eb: EB, company: number, now: Date) => Expression<SqlBool>;

const MARKET = ['open', 'pending'];
const ARCHIVE = ['archived', 'closed', 'revoked', 'expired'];
const DONE_BY_WINNER = ['taken', 'closed', 'archived'];

const own = (eb: EB, c: number) => eb('freights.company_id', '=', c);
const foreign = (eb: EB, c: number) => eb('freights.company_id', '<>', c);
/** Statuses as SQL literals (constants of this file, never input), so partial indexes match in any plan. */
const literal = (list: readonly string[]) => sql.raw(list.map((s) => `'${s}'`).join(', '));
const storedIn = (list: readonly string[]) => sql<SqlBool>`freights.status in (${literal(list)})`;
/**
 * The effective status is one of `list`: market statuses only while the deadline has not passed;
 * `expired` also for market freights past their deadline.
 */
const status = (eb: EB, list: readonly string[], now: Date): Expression<SqlBool> => {
  const market = list.filter((s) => MARKET.includes(s));
  const notDue = eb.or([eb('freights.deadline', 'is', null), eb('freights.deadline', '>=', now)]);
  if (market.length && !list.includes('expired')) {
    if (market.length === list.length) return eb.and([storedIn(list), notDue]);
    return eb.and([storedIn(list), eb.or([eb.not(storedIn(MARKET)), notDue])]);
  }
  if (list.includes('expired') && !market.length) return eb.or([storedIn(list), eb.and([storedIn(MARKET), eb('freights.deadline', '<', now)])]);
  return storedIn(list);
};
const anyBid = (eb: EB) =>
  eb.exists(eb.selectFrom('bids').select(sql`1`.as('one')).whereRef('bids.freight_id', '=', 'freights.id').where('bids.status', '<>', 'revoked'));
const ffr = (eb: EB) => eb('freights.type', '=', 'FFR');
/** A booking request addressed to the company: it is the winner (flight), or the whitelist names it while the request is open. */
const addressedTo = (eb: EB, c: number, now: Date) =>
  eb.or([
    eb('freights.winner_id', '=', c),
    eb.and([status(eb, MARKET, now), eb('freights.visibility', '=', -2), sql<SqlBool>`${c} = any(freights.whitelist)`]),
  ]);

/**
 * "had bid" (or won) as `id = any(array(…))`: the company's few bids are read once and the
 * freights looked up by primary key, instead of filtering every archived freight (6, 9, 219).
 */
const bidOn = (eb: EB, c: number, orWon = false) => {
  const won = orWon ? sql` union all select id from freights as won where won.winner_id = ${c}` : sql``;
  return sql<SqlBool>`freights.id = any(array(select freight_id from bids where bids.company_id = ${c} and bids.status <> 'revoked'${won}))`;
};

export const FILTERS: Record<number, Where> = {
  // as provider
  8: (eb, c, now) => eb.and([foreign(eb, c), status(eb, MARKET, now), admitsSql(eb, c), eb.not(hadBidSql(eb, c))]),
  7: (eb, c, now) => eb.and([foreign(eb, c), status(eb, MARKET, now), hadBidSql(eb, c)]),
  6: (eb, c, now) => eb.and([foreign(eb, c), status(eb, DONE_BY_WINNER, now), eb.or([eb('freights.winner_id', 'is', null), eb('freights.winner_id', '<>', c)]), bidOn(eb, c)]),
  2: (eb, c, now) => eb.and([eb('freights.winner_id', '=', c), status(eb, ['taken'], now)]),
  9: (eb, c, now) => eb.and([foreign(eb, c), status(eb, ARCHIVE, now), bidOn(eb, c, true)]),
  // as principal
  20: (eb, c, now) => eb.and([own(eb, c), status(eb, ['draft'], now)]),
  10: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now)]),
  17: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now), anyBid(eb)]),
  18: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now), eb.not(anyBid(eb))]),
  12: (eb, c, now) => eb.and([own(eb, c), status(eb, ['taken'], now)]),
  19: (eb, c, now) => eb.and([own(eb, c), status(eb, ARCHIVE, now)]),
  // booking requests (type FFR): outgoing, then incoming
  200: (eb, c, now) => eb.and([own(eb, c), ffr(eb), status(eb, ['draft', ...MARKET], now)]),
  201: (eb, c, now) => eb.and([own(eb, c), ffr(eb), status(eb, ['taken'], now)]),
  209: (eb, c, now) => eb.and([own(eb, c), ffr(eb), status(eb, ARCHIVE, now)]),
  210: (eb, c, now) => eb.and([foreign(eb, c), ffr(eb), status(eb, ['draft', ...MARKET], now), addressedTo(eb, c, now)]),
  211: (eb, c, now) => eb.and([foreign(eb, c), ffr(eb), status(eb, ['taken'], now), eb('freights.winner_id', '=', c)]),
  219: (eb, c, now) => eb.and([foreign(eb, c), ffr(eb), status(eb, ARCHIVE, now), bidOn(eb, c, true)]),
};

/**
 * Lists of other modules on the same path (TMS 51-53, decisions.md §6): the TMS module
 * registers its handler here; until then these ids answer an empty list.
 */
export type ExternalList = (rc: ReadContext, page: Paging) => Promise<unknown[]>;
export const externalLists = new Map<number, ExternalList>([
  [51, async () => []],
  [52, async () => []],
  [53, async () => []],
]);
export function registerEnlistFilter(id: number, list: ExternalList): void {
  externalLists.set(id, list);
}

const SORTS = { id: 'id', created: 'created', modified: 'modified', deadline: 'deadline', etd: 'etd', eta: 'eta', weight: 'weight' } as const;

const NOT_NULL_SORTS = new Set<string>(['id', 'created', 'modified']);

export interface Paging {
  page: number;
  limit: number;
  sort: (typeof SORTS)[keyof typeof SORTS];
  direction: 'asc' | 'desc';
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_PAGE = 1_000_000;

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

/** page (default 1), limit (default 20, capped at 100), sort `Routes.<field>`, direction. */
/** Paging of every list endpoint (api.md Endpoints 11, decisions.md §4); problems go to `warnings`. */
export function readPaging(params: Params, warnings: Warning[] = []): Paging {
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
  let sort: Paging['sort'] = 'created';
  const sortText = readString(params.sort);
  if (sortText !== undefined) {
    const key = sortText.replace(/^Routes\./, '') as keyof typeof SORTS;
    if (Object.hasOwn(SORTS, key)) sort = SORTS[key];
    else warnings.push({ field: 'sort', reason: `not one of ${Object.keys(SORTS).map((k) => `Routes.${k}`).join(', ')}` });
  }
  const dirText = readString(params.direction)?.toLowerCase();
  const direction = dirText === 'asc' ? 'asc' : 'desc';
  if (dirText !== undefined && dirText !== 'asc' && dirText !== 'desc') warnings.push({ field: 'direction', reason: 'not asc or desc' });
  return { page, limit, sort, direction };
}

/** A freight of a list with the caller's role on it (which decides masking). */
export interface ListedFreight {
  row: FreightRow;
  role: Role;
  companyName: string;
  /** the piece lines, when the list was asked for them */
  pieces?: PieceRow[];
}

/**
 * The statement of one list page (FILTERS): membership, order and page, with the company name
 * and, when asked, the piece lines as JSON. Undefined for an id that is no freight list.
 * Exported for the benchmark's EXPLAIN (bench/freights.ts).
 */
export function listStatement(db: ReadContext['db'], companyId: number, now: Date, filterId: number, paging: Paging, withPieces: boolean) {
  const where = FILTERS[filterId];
  if (!where) return undefined;
  const { sort, direction } = paging;
  return (
    db
      .selectFrom('freights')
      .innerJoin('companies', 'companies.id', 'freights.company_id')
      .select(freightSelection(now))
      .select('companies.name as company_name')
      .$if(withPieces, (q) => q.select(piecesJsonSql.as('pieces_json')))
      .where((eb) => where(eb, companyId, now))
      // Nullable sort keys (deadline, etd, eta, weight) put rows without a value last either way;
      // the not-null ones keep the plain order, which the (… created desc, id desc) indexes serve.
      .orderBy(`freights.${sort}`, (ob) => {
        const ordered = direction === 'asc' ? ob.asc() : ob.desc();
        return NOT_NULL_SORTS.has(sort) ? ordered : ordered.nullsLast();
      })
      .orderBy('freights.id', direction)
      .limit(paging.limit)
      .offset(offsetOf(paging))
  );
}

/**
 * One page of a freight list (FILTERS) in one statement. Undefined for an id that is no freight
 * list. Shared by /freights/enlist (with pieces) and /routes/enlist (Shipments, without).
 */
export async function listFreights(rc: Pick<ReadContext, 'db' | 'clock' | 'caller'>, filterId: number, paging: Paging, options: { withPieces?: boolean } = {}): Promise<ListedFreight[] | undefined> {
  const company = rc.caller.companyId;
  const statement = listStatement(rc.db, company, rc.clock.now(), filterId, paging, options.withPieces ?? false);
  if (!statement) return undefined;
  const rows = (await statement.execute()) as Array<FreightRow & { company_name: string; pieces_json?: PieceRow[] }>;
  const items: ListedFreight[] = [];
  for (const { company_name, pieces_json, ...row } of rows) {
    // Membership implies visibility; the role decides masking (6 and 9 masked unless winner).
    const role = roleOf(row as FreightRow, company, true);
    if (role) items.push({ row: row as FreightRow, role, companyName: company_name, pieces: pieces_json });
  }
  return items;
}

/** The list of a filter id, or undefined for an unknown id. */
export async function enlist(rc: ReadContext, filterId: number, paging: Paging): Promise<unknown[] | undefined> {
  const external = externalLists.get(filterId);
  if (external) return external(rc, paging);
  const items = await listFreights(rc, filterId, paging, { withPieces: true });
  return items && presentMany(rc, items);
}
