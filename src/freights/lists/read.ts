import { sql, type Expression, type OrderByItemBuilder, type SqlBool } from 'kysely';
import { PreparedStatement, statementBuilder } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import type { Paging } from '../../kernel/paging.ts';
import { DEFAULT_LIMIT, offsetOf } from '../../kernel/params.ts';
import { airportsNear, isEmptySearch, nearWays, routingOn, runSearched, writtenPage, type LoadSearch } from '../../market/index.ts';
import { companyRef } from '../../accounts/index.ts';
import type { Language } from '../../kernel/i18n.ts';
import { presentFreight, type PieceRow } from '../fields.ts';
import { type FreightPresentations, isStoredAudience, presentationFormat, storedListRow, storedListSql } from '../presented.ts';
import { piecesJsonSql } from '../pieces.ts';
import { hiddenBySql, notHiddenBySql } from '../marks.ts';
import { hadBidSql, roleOf, type Role } from '../policy.ts';
import { airportKeySql, freightDistanceSql, searchConditions } from '../search.ts';
import { companyNameSql, companyVerifiedSql, freightJsonRow, freightRowFromJson, type ReadContext } from '../store.ts';
import type { FreightRow } from '../tables.ts';
import { membershipOf, viaBidsOf, type EB, type Instant, type Where } from './membership.ts';
import { LIST, listInfo } from './registry.ts';

/**
 * GET /freights/enlist/{filterId}: every list page is one SQL statement (membership, order, page,
 * company names and piece lines).
 */

/** Sort keys that are never null (plain order; the others put rows without a value last). */
const NOT_NULL_SORTS = new Set<string>(['id', 'created', 'modified']);

/**
 * SQL: the sort key that is no column, the distance (market/distance.ts), over the row `freights`. A list
 * that may hold masked rows (a former bidder's view, docs/reference.md#freights) orders only the rows the
 * caller won by it (their places are shown); the masked ones have none, so their order tells
 * nothing about the places hidden.
 */
function distanceKeySql(maskedUnlessWinner: boolean, company: number) {
  return maskedUnlessWinner
    ? sql<number | null>`(case when ${sql.ref('freights.winner_id')} = ${company} then ${freightDistanceSql()} end)`
    : freightDistanceSql();
}

/** A freight of a list with the caller's role on it (which decides masking). */
export interface ListedFreight {
  row: FreightRow;
  role: Role;
  companyName: string;
  /** its company is verified by the operator (the verified mark) */
  companyVerified: boolean;
  /** the piece lines, when the list was asked for them */
  pieces?: PieceRow[];
}

type ListArgs = [company: number, now: Date, limit: number, offset: number, upto: number, user: number, language: Language, format: string];

const builder = statementBuilder<DB>();
/** Prepared list statements by filter, order, shape (rows, pieces, pieces with stored texts), page window and view (at most 17 × 7 × 2 × 3 × 6, and the market's hidden view). */
const listStatements = new Map<string, PreparedStatement<ListArgs>>();

/**
 * The statement of one list page (FILTERS), prepared (src/db/prepared.ts): the page of freights
 * (membership, order, limit and offset) first, then for those rows only the effective status,
 * the company name and, when asked, the piece lines as JSON. Undefined for an id that is no
 * freight list. Arguments: company, now, limit, offset, limit + offset.
 */
export function listStatement(
  filterId: number,
  paging: Pick<Paging, 'sort' | 'direction' | 'page' | 'limit'>,
  withPieces: boolean,
  view: MarketView = 'shown',
  stored = false,
): PreparedStatement<ListArgs> | undefined {
  if (!membershipOf(filterId)) return undefined;
  if (view === 'hidden' && filterId !== LIST.market) return undefined;
  const { sort, direction } = paging;
  // The first pages in the default size have their limit and offset written in (market/lists.ts).
  const written = writtenPage(paging);
  // The distance reads the routing server's table when one is set (market/distance.ts distanceSql).
  const routed = sort === 'distance' && routingOn() ? '_routed' : '';
  const key = `fx_list_${filterId}${view === 'hidden' ? 'h' : ''}_${sort}${routed}_${direction}_${withPieces ? 'pieces' : 'rows'}${stored ? '_stored' : ''}${written ? `_page${written}` : ''}`;
  let statement = listStatements.get(key);
  if (!statement) {
    statement = new PreparedStatement<ListArgs>(
      key,
      8,
      (c: number, now: Date, limit: number, offset: number, upto: number, user: number, language: Language, format: string) => {
        // Membership compares deadlines with `(select now)`: an estimate that is the same for custom
        // and generic plans (a third of the rows either way), so PostgreSQL settles on the generic
        // plan after five runs instead of planning 7, 10, 17 and 18 anew on every execution. With
        // the value visible, custom plans priced lower (nearly every deadline is ahead) and won.
        const hidden = sql<Date>`(select ${now}::timestamptz)`;
        const window = pageWindow(paging, { limit, offset, upto });
        const presented = stored ? { language, format } : undefined;
        return listQuery({ filterId, order: paging, withPieces, company: c, user, view, now, memberNow: hidden, presented, ...window });
      },
    );
    listStatements.set(key, statement);
  }
  return statement;
}

/** The rows of a page: how many, after how many, and how many each alternative reads (limit + offset). */
interface PageWindowSql {
  limit: number;
  offset: number;
  upto: number;
}

/**
 * A page's window for its statement: the first pages of the default size written in as constants
 * (market/lists.ts writtenPage), any other as the values given (by default the page's own).
 */
function pageWindow(paging: Pick<Paging, 'limit' | 'page'>, values?: PageWindowSql): PageWindowSql {
  const written = writtenPage(paging);
  if (written)
    return {
      limit: sql.lit(DEFAULT_LIMIT) as never,
      offset: sql.lit((written - 1) * DEFAULT_LIMIT) as never,
      upto: sql.lit(written * DEFAULT_LIMIT) as never,
    };
  const offset = offsetOf(paging);
  return values ?? { limit: paging.limit, offset, upto: paging.limit + offset };
}

/** What one list page is: the list, its order, the caller's company at `now`, the page, and a narrowing search. */
interface ListPageRequest extends PageWindowSql {
  filterId: number;
  order: Pick<Paging, 'sort' | 'direction'>;
  withPieces: boolean;
  company: number;
  /** The caller (the market list leaves out the loads it hides, docs/choices.md "Hidden and seen loads"). */
  user: number;
  /** The market list as shown (without the user's hidden loads), or its hidden loads alone. */
  view?: MarketView;
  /** The effective status is computed at this time. */
  now: Date;
  /** Membership compares deadlines with this (the prepared statements hide `now` from the planner). */
  memberNow?: Instant;
  /** The load search's conditions; several: alternatives whose rows never overlap (nearWays). */
  narrow?: Narrow | Alternative[];
  /** Rows from their stored presentations where one serves (freights/presented.ts storedListSql), in this language and format. */
  presented?: { language: Language; format: string };
}

/** The list page query (prepared by listStatement; built per request when a search narrows it). */
function listQuery(r: ListPageRequest) {
  const { sort, direction } = r.order;
  // Nullable sort keys (deadline, etd, eta, weight) put rows without a value last either way;
  // the not-null ones keep the plain order, which the (… created desc, id desc) indexes serve.
  const order = (ob: OrderByItemBuilder) => {
    const ordered = direction === 'asc' ? ob.asc() : ob.desc();
    return NOT_NULL_SORTS.has(sort) ? ordered : ordered.nullsLast();
  };
  const page = pageOf(r, order);
  // The page as one JSON text (store.ts freightJsonRow): an array of {row, company_name, pieces}
  // in list order. `sort` and `direction` are names from SORTS and asc/desc, never input text.
  const inOrder =
    sort === 'distance'
      ? sql`${distanceKeySql(maskedUnlessWinner(r.filterId), r.company)} ${sql.raw(direction)} nulls last, freights.id ${sql.raw(direction)}`
      : sql.raw(`freights.${sort} ${direction}${NOT_NULL_SORTS.has(sort) ? '' : ' nulls last'}, freights.id ${direction}`);
  const pieces = r.withPieces ? sql`, 'pieces', ${piecesJsonSql}` : sql``;
  const longWay = sql`json_build_object('row', r, 'company_name', ${companyNameSql}, 'company_verified', ${companyVerifiedSql}${pieces})`;
  const rows = builder.selectFrom(page.as('freights')).innerJoinLateral(freightJsonRow(r.now).as('r'), (join) => join.onTrue());
  if (!r.presented) return rows.select(sql<string>`coalesce(json_agg(${longWay} order by ${inOrder}), '[]')::text`.as('page'));
  // A row whose stored presentation serves the caller comes as its texts (`stored`), the others the
  // long way (`row`, `pieces`); the company's name and mark once for both, so that the statement
  // holds each subquery once (a page past the written ones is planned at every run).
  const stored = storedListSql(r.company, r.presented.language, r.presented.format, r.now);
  const item = sql`json_build_object('company_name', ${companyNameSql}, 'company_verified', ${companyVerifiedSql},
    'stored', case when ${stored.serves} then json_build_object('company_id', freights.company_id, 'fields', ${stored.fields}, 'display', ${stored.display}) end,
    'row', case when ${stored.serves} then null else r end${r.withPieces ? sql`, 'pieces', case when ${stored.serves} then null else ${piecesJsonSql} end` : sql``})`;
  return rows
    .leftJoin('freight_presentations as p', (join) => join.onRef('p.freight_id', '=', 'freights.id').on(stored.source).on(stored.status))
    .select(sql<string>`coalesce(json_agg(${item} order by ${inOrder}), '[]')::text`.as('page'));
}

/**
 * The market list (8) as the user sees it: without the loads the user hides (marks.ts), or, as the
 * hidden view, those alone. Other lists are as they are.
 */
export type MarketView = 'shown' | 'hidden';

/** A list page narrowed by a load search, compiled (listFreights runs it; the benchmark explains it). */
export function searchedListQuery(
  filterId: number,
  paging: Paging,
  withPieces: boolean,
  company: number,
  now: Date,
  search: LoadSearch,
  user = 0,
  view: MarketView = 'shown',
  presented?: { language: Language; format: string },
) {
  const narrow =
    (s: LoadSearch): Narrow =>
    (eb) =>
      searchConditions(eb, s, company, now, {
        mayBeMasked: listInfo(filterId)?.mayBeMasked ?? false,
        marketOnly: filterId === LIST.market,
      });
  // A radius search reads its two ways apart when the page comes from one scan (not via bids).
  const ways = paging.sort === 'created' && viaBidsOf(filterId) ? undefined : nearWays(search);
  return listQuery({
    filterId,
    order: paging,
    withPieces,
    company,
    user,
    view,
    now,
    // As in listStatement: the deadline's comparison hidden from the planner and the first pages'
    // window written in, so that a search prepared by its text settles on its generic plan
    // instead of being planned at every run (1.0–1.4 ms of the server each at a million freights).
    memberNow: sql<Date>`(select ${now}::timestamptz)`,
    ...pageWindow(paging),
    narrow: ways ? ways.map((way) => ({ where: narrow(way), byAirport: airportWayOf(way) })) : narrow(search),
    presented,
  }).compile();
}

/**
 * Extra conditions on a list's freights: the load search (src/freights/search.ts); several
 * narrows are alternatives whose rows never overlap (search.ts nearWays).
 */
type Narrow = (eb: EB) => Expression<SqlBool>[];

/** One way of a radius search (nearWays): its conditions, and for the airport way the airports' key and codes. */
interface Alternative {
  where: Narrow;
  byAirport?: { key: Expression<unknown>; codes: readonly string[] };
}

/** The airport way of a radius search: the codes of the airports in its circle, and the side's airport key. */
function airportWayOf(s: LoadSearch): Alternative['byAirport'] {
  const side = s.fromNear?.way === 'airport' ? 'from' : s.toNear?.way === 'airport' ? 'to' : undefined;
  const near = side === 'from' ? s.fromNear : s.toNear;
  return side && near ? { key: airportKeySql(side), codes: airportsNear(near) } : undefined;
}

/** Whether a list's rows are masked for the caller unless it won them (lists 6, 9, 219). */
const maskedUnlessWinner = (filterId: number) => listInfo(filterId)?.mayBeMasked ?? false;

/** The freights of one page, stored columns (the status as stored), in the list's order. */
function pageOf(r: ListPageRequest, order: (ob: OrderByItemBuilder) => OrderByItemBuilder) {
  const { filterId, limit, offset, upto, company: c } = r;
  const { sort, direction } = r.order;
  const membership = withHides(filterId, r.user, r.view ?? 'shown');
  // The order's key: a column, or the distance (an expression over the row's coordinates).
  const key = sort === 'distance' ? distanceKeySql(maskedUnlessWinner(filterId), c) : sql.ref<unknown>(`freights.${sort}`);
  const now = r.memberNow ?? r.now;
  // The row's version for its stored presentation (storedListSql), which the page's rows carry out.
  const versioned = r.presented !== undefined;
  const narrows = r.narrow;
  const via = sort === 'created' ? viaBidsOf(filterId) : undefined;
  const alternatives = Array.isArray(narrows) ? narrows : undefined;
  const narrow = Array.isArray(narrows) ? undefined : narrows;
  const member =
    (where: Where, n = narrow) =>
    (eb: EB) =>
      n ? eb.and([where(eb, c, now), ...n(eb)]) : where(eb, c, now);
  if (!via && alternatives) {
    // Each alternative's first `upto` ids in list order (ids and the sort key only, so a covering
    // index answers without reading the table: migration 0013), merged, then the page's rows.
    const arms = alternatives.map((alternative, i) => {
      const first = builder
        .selectFrom('freights')
        .select(['freights.id', sort === 'distance' ? key.as('distance') : (`freights.${sort}` as 'freights.created')])
        .where(member(membership, alternative.where))
        .orderBy(key, order)
        .orderBy('freights.id', direction)
        .limit(upto);
      // The airport way newest first: each airport's first `upto` from its range of the airport
      // index (migration 0600, ordered by creation within a code), instead of every freight of
      // every airport in the circle read and sorted.
      const airports = sort === 'created' ? alternative.byAirport : undefined;
      const arm = airports
        ? builder
            .selectFrom(sql<{ code: string }>`(select distinct unnest(${airports.codes}::text[]) as code)`.as('airport'))
            .innerJoinLateral(first.where(sql<SqlBool>`${airports.key} = airport.code`).as('near'), (join) => join.onTrue())
            .select(['near.id', 'near.created'])
        : first;
      // Either way the rows are (id, created) or (id, sort key): the same columns to merge.
      return builder.selectFrom((arm as typeof first).as(`a${i}`)).selectAll(`a${i}` as 'a0');
    });
    const merged = arms.slice(1).reduce((all, arm) => all.unionAll(arm), arms[0]!);
    const ids = builder
      .selectFrom(merged.as('u'))
      .select('u.id')
      .orderBy(`u.${sort}` as 'u.created', order)
      .orderBy('u.id', direction)
      .limit(limit)
      .offset(offset);
    return builder
      .selectFrom(ids.as('ids'))
      .innerJoin('freights', 'freights.id', 'ids.id')
      .selectAll('freights')
      .$call(withVersion(versioned));
  }
  if (!via) {
    return builder
      .selectFrom('freights')
      .selectAll('freights')
      .$call(withVersion(versioned))
      .where(member(membership))
      .orderBy(key, order)
      .orderBy('freights.id', direction)
      .limit(limit)
      .offset(offset);
  }
  // The company's live bids, one row per freight, newest freight first (index bids_company_created_idx).
  const mine = builder
    .selectFrom('bids')
    .select(['bids.freight_id', 'bids.freight_created'])
    .distinctOn(['bids.freight_created', 'bids.freight_id'])
    .where('bids.company_id', '=', c)
    .where(sql<SqlBool>`bids.status <> 'revoked'`)
    .orderBy('bids.freight_created', direction)
    .orderBy('bids.freight_id', direction)
    .as('mine');
  const bidOnes = builder
    .selectFrom(mine)
    .innerJoin('freights', 'freights.id', 'mine.freight_id')
    .selectAll('freights')
    .$call(withVersion(versioned))
    .where(member(via.rest) as never)
    .orderBy('mine.freight_created', direction)
    .orderBy('mine.freight_id', direction);
  if (!via.orWon) return bidOnes.limit(limit).offset(offset);
  // Won without a bid of its own (flight requests): from the winner's index, in the same order.
  const wonOnes = builder
    .selectFrom('freights')
    .selectAll('freights')
    .$call(withVersion(versioned))
    .where('freights.winner_id', '=', c)
    .where(member((eb, c, now) => eb.and([via.rest(eb, c, now), eb.not(hadBidSql(eb, c))])))
    .orderBy('freights.created', direction)
    .orderBy('freights.id', direction)
    .limit(upto);
  return builder
    .selectFrom(
      builder
        .selectFrom(bidOnes.limit(upto).as('b'))
        .selectAll('b')
        .unionAll(builder.selectFrom(wonOnes.as('w')).selectAll('w'))
        .as('freights'),
    )
    .selectAll('freights')
    .orderBy('freights.created', direction)
    .orderBy('freights.id', direction)
    .limit(limit)
    .offset(offset);
}

/**
 * Adds, when `versioned`, the freight row's version (`xmin`, which `freights.*` leaves out) as
 * `row_version`: read in SQL only (storedListSql), so the builder's type stays as it is.
 */
const withVersion =
  (versioned: boolean) =>
  <Q extends { select(selection: unknown): unknown }>(qb: Q): Q =>
    versioned ? (qb.select(sql<string>`freights.xmin::text`.as('row_version')) as Q) : qb;

/**
 * A list's membership with the user's hides (marks.ts): the market list leaves them out, its
 * hidden view keeps them alone. The user's hidden ids are read once per statement (an InitPlan).
 */
function withHides(filterId: number, user: number, view: MarketView): Where {
  const where = membershipOf(filterId)!;
  if (filterId !== LIST.market) return where;
  const mark = view === 'hidden' ? hiddenBySql : notHiddenBySql;
  return (eb, c, now) => eb.and([where(eb, c, now), mark(user, sql`freights.id`)]);
}

/** A row of a list page's JSON (listQuery): read the long way, or, with `presented`, as its stored texts. */
interface PageItem {
  company_name: string;
  company_verified: boolean;
  /** the row read the long way (null where its stored texts came instead) */
  row: Record<string, unknown> | null;
  pieces?: PieceRow[] | null;
  /** with `presented`, where the row's stored presentation serves the caller */
  stored?: { company_id: number; fields: string; display: string } | null;
}

/** The JSON rows of one list page (listQuery), in order; undefined for an id that is no freight list. */
async function readPage(
  rc: Pick<ReadContext, 'db' | 'clock' | 'caller'>,
  filterId: number,
  paging: Paging,
  options: { withPieces?: boolean; search?: LoadSearch; view?: MarketView },
  presented?: { language: Language; format: string },
): Promise<PageItem[] | undefined> {
  const company = rc.caller.companyId;
  const user = rc.caller.userId;
  const view = options.view ?? 'shown';
  const withPieces = options.withPieces ?? false;
  const statement = listStatement(filterId, paging, withPieces, view, presented !== undefined);
  if (!statement) return undefined;
  const offset = offsetOf(paging);
  type Page = { page: string };
  const now = rc.clock.now();
  const search = options.search;
  // A load search adds its own conditions and values: built for this request, prepared per shape
  // (db/prepared.ts executeShape) where the plan does not depend on the values.
  const searched =
    search && !isEmptySearch(search)
      ? searchedListQuery(filterId, paging, withPieces, company, now, search, user, view, presented)
      : undefined;
  const { language = 'eng', format = '' } = presented ?? {};
  const [found] = !searched
    ? await statement.execute<Page>(rc.db, company, now, paging.limit, offset, paging.limit + offset, user, language, format)
    : await runSearched<Page>(rc.db, searched, search!);
  return JSON.parse(found?.page ?? '[]') as PageItem[];
}

/** A row of a page read the long way, with the caller's role on it; null where the caller has none. */
function listedOf(item: PageItem, company: number): ListedFreight | null {
  if (!item.row) return null;
  const row = freightRowFromJson(item.row);
  // Membership implies visibility; the role decides masking (6 and 9 masked unless winner).
  const role = roleOf(row, company, true);
  return role
    ? { row, role, companyName: item.company_name, companyVerified: item.company_verified, pieces: item.pieces ?? undefined }
    : null;
}

/**
 * One page of a freight list (FILTERS) in one statement. Undefined for an id that is no freight
 * list. Shared by /freights/enlist (with pieces) and /routes/enlist (Shipments, without).
 */
export async function listFreights(
  rc: Pick<ReadContext, 'db' | 'clock' | 'caller'>,
  filterId: number,
  paging: Paging,
  options: { withPieces?: boolean; search?: LoadSearch; view?: MarketView } = {},
): Promise<ListedFreight[] | undefined> {
  const page = await readPage(rc, filterId, paging, options);
  if (!page) return undefined;
  const items: ListedFreight[] = [];
  for (const item of page) {
    const listed = listedOf(item, rc.caller.companyId);
    if (listed) items.push(listed);
  }
  return items;
}

/**
 * One page of a freight list with its piece lines as the JSON text of its rows (`[…]`), each
 * byte for byte presentMany's: a row from its stored presentation where one serves the caller
 * (freights/presented.ts), the others read the long way and presented, their presentations handed
 * to `presentations` to be written after the answer. Undefined for an id that is no freight list.
 */
export async function listFreightsJson(
  rc: Pick<ReadContext, 'db' | 'clock' | 'caller' | 't'>,
  language: Language,
  filterId: number,
  paging: Paging,
  options: { search?: LoadSearch; view?: MarketView },
  presentations?: FreightPresentations,
): Promise<string | undefined> {
  const presented = { language, format: presentationFormat(rc.clock) };
  const page = await readPage(rc, filterId, paging, { ...options, withPieces: true }, presented);
  if (!page) return undefined;
  const company = rc.caller.companyId;
  const texts: string[] = [];
  for (const item of page) {
    const { stored } = item;
    if (stored) {
      texts.push(storedListRow(stored, companyRef(stored.company_id, item.company_name, item.company_verified)));
      continue;
    }
    const listed = listedOf(item, company);
    if (!listed) continue;
    const { row, role, companyName, companyVerified, pieces } = listed;
    texts.push(
      JSON.stringify(
        presentFreight(row, role, rc, { pieces: pieces ?? [], company: companyRef(row.company_id, companyName, companyVerified) }),
      ),
    );
    if (isStoredAudience(role)) presentations?.stale(row.id);
  }
  return `[${texts.join(',')}]`;
}
