import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readInt, readString, type Params } from '../kernel/params.ts';
import { expireDueFreights, type FreightRow } from './lifecycle.ts';
import { admitsSql, hadBidSql, roleOf, type Role } from './policy.ts';
import { presentMany, type ReadContext } from './store.ts';

/**
 * GET /freights/enlist/{filterId}: every list is one SQL query (membership, order and page),
 * plus one query for the page's piece lines. Membership follows decisions.md §4 exactly;
 * "had bid" is a non-revoked bid of the caller's company.
 */

type EB = ExpressionBuilder<DB, 'freights'>;
type Where = (eb: EB, company: number) => Expression<SqlBool>;

const MARKET = ['open', 'pending'];
const ARCHIVE = ['archived', 'closed', 'revoked', 'expired'];
const DONE_BY_WINNER = ['taken', 'closed', 'archived'];

const own = (eb: EB, c: number) => eb('freights.company_id', '=', c);
const foreign = (eb: EB, c: number) => eb('freights.company_id', '<>', c);
const status = (eb: EB, list: string[]) => (list.length === 1 ? eb('freights.status', '=', list[0]!) : eb('freights.status', 'in', list));
const anyBid = (eb: EB) =>
  eb.exists(eb.selectFrom('bids').select(sql`1`.as('one')).whereRef('bids.freight_id', '=', 'freights.id').where('bids.status', '<>', 'revoked'));
const ffr = (eb: EB) => eb('freights.type', '=', 'FFR');
/** A booking request addressed to the company: it is the winner (flight), or the whitelist names it while the request is open. */
const addressedTo = (eb: EB, c: number) =>
  eb.or([
    eb('freights.winner_id', '=', c),
    eb.and([status(eb, MARKET), eb('freights.visibility', '=', -2), sql<SqlBool>`${c} = any(freights.whitelist)`]),
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
  8: (eb, c) => eb.and([foreign(eb, c), status(eb, MARKET), admitsSql(eb, c), eb.not(hadBidSql(eb, c))]),
  7: (eb, c) => eb.and([foreign(eb, c), status(eb, MARKET), hadBidSql(eb, c)]),
  6: (eb, c) => eb.and([foreign(eb, c), status(eb, DONE_BY_WINNER), eb.or([eb('freights.winner_id', 'is', null), eb('freights.winner_id', '<>', c)]), bidOn(eb, c)]),
  2: (eb, c) => eb.and([eb('freights.winner_id', '=', c), status(eb, ['taken'])]),
  9: (eb, c) => eb.and([foreign(eb, c), status(eb, ARCHIVE), bidOn(eb, c, true)]),
  // as principal
  20: (eb, c) => eb.and([own(eb, c), status(eb, ['draft'])]),
  10: (eb, c) => eb.and([own(eb, c), status(eb, MARKET)]),
  17: (eb, c) => eb.and([own(eb, c), status(eb, MARKET), anyBid(eb)]),
  18: (eb, c) => eb.and([own(eb, c), status(eb, MARKET), eb.not(anyBid(eb))]),
  12: (eb, c) => eb.and([own(eb, c), status(eb, ['taken'])]),
  19: (eb, c) => eb.and([own(eb, c), status(eb, ARCHIVE)]),
  // booking requests (type FFR): outgoing, then incoming
  200: (eb, c) => eb.and([own(eb, c), ffr(eb), status(eb, ['draft', ...MARKET])]),
  201: (eb, c) => eb.and([own(eb, c), ffr(eb), status(eb, ['taken'])]),
  209: (eb, c) => eb.and([own(eb, c), ffr(eb), status(eb, ARCHIVE)]),
  210: (eb, c) => eb.and([foreign(eb, c), ffr(eb), status(eb, ['draft', ...MARKET]), addressedTo(eb, c)]),
  211: (eb, c) => eb.and([foreign(eb, c), ffr(eb), status(eb, ['taken']), eb('freights.winner_id', '=', c)]),
  219: (eb, c) => eb.and([foreign(eb, c), ffr(eb), status(eb, ARCHIVE), bidOn(eb, c, true)]),
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
}

/**
 * One page of a freight list (FILTERS): membership, order and page in one query. Undefined for
 * an id that is no freight list. Shared by /freights/enlist and /routes/enlist (Shipments).
 */
export async function listFreights(rc: Pick<ReadContext, 'db' | 'clock' | 'caller'>, filterId: number, paging: Paging): Promise<ListedFreight[] | undefined> {
  const where = FILTERS[filterId];
  if (!where) return undefined;
  const company = rc.caller.companyId;
  await expireDueFreights(rc.db, rc.clock.now());
  const { sort, direction } = paging;
  const rows = await rc.db
    .selectFrom('freights')
    .innerJoin('companies', 'companies.id', 'freights.company_id')
    .selectAll('freights')
    .select('companies.name as company_name')
    .where((eb) => where(eb, company))
    // Nullable sort keys (deadline, etd, eta, weight) put rows without a value last either way;
    // the not-null ones keep the plain order, which the (… created desc, id desc) indexes serve.
    .orderBy(`freights.${sort}`, (ob) => {
      const ordered = direction === 'asc' ? ob.asc() : ob.desc();
      return NOT_NULL_SORTS.has(sort) ? ordered : ordered.nullsLast();
    })
    .orderBy('freights.id', direction)
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
  const items: ListedFreight[] = [];
  for (const { company_name, ...row } of rows) {
    // Membership implies visibility; the role decides masking (6 and 9 masked unless winner).
    const role = roleOf(row as FreightRow, company, true);
    if (role) items.push({ row: row as FreightRow, role, companyName: company_name });
  }
  return items;
}

/** The list of a filter id, or undefined for an unknown id. */
export async function enlist(rc: ReadContext, filterId: number, paging: Paging): Promise<unknown[] | undefined> {
  const external = externalLists.get(filterId);
  if (external) return external(rc, paging);
  const items = await listFreights(rc, filterId, paging);
  return items && presentMany(rc, items);
}
