import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { executeShape } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { countsAt, isEmptySearch, searchToParams, type LoadSearch } from '../../market/index.ts';
import { inMarketSql } from '../in-market.ts';
import { maskGuard, searchConditions } from '../search.ts';
import { FILTERS, VIA_BIDS } from './membership.ts';
import { type FreightListId, LIST, LISTS, listInfo, listsCounted, type ListId } from './registry.ts';

/** The lists counted over the company's own freights. */
const OWN = listsCounted('own');
/** The lists counted over the freights the company bid on (`had_bid`) or won. */
const BID_OR_WON = listsCounted('bidOrWon');
/** Small indexed counts of their own. */
const SINGLE = listsCounted('single');
/** The count statement's column of a list. */
const column = (id: ListId) => `f${id}`;

type EB = ExpressionBuilder<DB, 'freights'>;
const countWhere = (condition: Expression<SqlBool>) => sql<number>`(count(*) filter (where ${condition}))::int`;
const all = (eb: EB, conditions: Expression<SqlBool>[]) => (conditions.length ? eb.and(conditions) : sql<SqlBool>`true`);

/**
 * GET /freights/counts: how many freights each list holds for the caller's company, narrowed by
 * the same search as the lists (so the tabs can show the counts of the current search).
 *
 * One statement (freightCountsQuery). The lists fall into three families, each counted over one
 * set of rows with `count(*) filter (where <the list's membership>)`, the membership being the
 * lists' own (membership.ts), so a count cannot disagree with its list:
 * - the company's own freights (drafts, open tenders with and without bids, awarded, archive,
 *   outgoing booking requests);
 * - the freights it bid on or won (its bids, lost, won, archive, incoming booking requests
 *   taken and ended): its live bids and won freights, each freight read once by primary key;
 * - the market: index-only over `freights_market_counts_idx` (migration 0012), no table reads.
 * Incoming booking requests and the TMS's lists are small indexed counts of their own (which
 * list is counted how: registry.ts). The statement is prepared by its text (one text per search
 * shape: planning it cost half its run, 12 of 25 ms); its answers are kept per database snapshot
 * by the market's counts (market/counts.ts), so an answer is never older than the database state
 * the request itself would read.
 */
export function countFreightLists(
  db: Kysely<DB>,
  companyId: number,
  now: Date,
  search: LoadSearch,
  others: OtherListCounts,
): Promise<Record<string, number>> {
  const key = `${companyId}|${isEmptySearch(search) ? '' : JSON.stringify(searchToParams(search))}`;
  return countsAt(db, key, now, async () => {
    const [row] = await executeShape<Record<string, unknown>>(db, freightCountsQuery(db, companyId, now, search, others).compile());
    if (!row) throw new Error('the counts statement answered no row');
    return { counts: countsOfRow(row), snapshot: String(row.snapshot), until: row.until === null ? null : new Date(row.until as Date) };
  });
}

/**
 * What the count statement counts of other modules' lists on the same path (the TMS's), as SQL
 * pieces the owning module writes (src/searches/counts.ts passes the TMS module's).
 */
export interface OtherListCounts {
  /** A condition: the freight (its id an SQL expression) is on no tour (LIST.tmsUnplanned: won orders on no tour). */
  notPlanned: (freightId: RawBuilder<number>) => RawBuilder<SqlBool>;
  /** Scalar sub-queries counting the company's other lists (LIST.tmsPlanned, LIST.tmsTours), by list. */
  counts: (companyId: number) => Partial<Record<ListId, RawBuilder<number>>>;
}

/**
 * The count statement of the freight lists (countFreightLists runs it; the benchmark explains
 * it): one row with `f<id>` per list, the snapshot it read in and `until`,
 * the first market deadline from `now` on (until then no freight changes its effective status,
 * so the counts hold for that snapshot).
 */
export function freightCountsQuery(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch, others: OtherListCounts) {
  const c = companyId;
  const searching = !isEmptySearch(search);
  // The TMS's unplanned orders: won orders on no tour (all of them among the freights won, the second family).
  const onNoTour = sql<SqlBool>`(freights.winner_id = ${c} and freights.status = 'taken' and ${others.notPlanned(sql`freights.id`)})`;
  // The search without the role test applies to every family; the masked lists (6, 9, 219) add it.
  const searched = (eb: EB) => searchConditions(eb, search, c, now, { mayBeMasked: false });
  const member = (eb: EB, id: ListId, membership: Expression<SqlBool>) => {
    const guard = listInfo(id)?.mayBeMasked ? maskGuard(eb, search, c, now) : undefined;
    return guard ? eb.and([membership, guard]) : membership;
  };

  const own = db
    .selectFrom('freights')
    .where('freights.company_id', '=', c)
    .where((eb) => all(eb, searched(eb)))
    .select((eb) => OWN.map((id) => countWhere(member(eb, id, FILTERS[id](eb, c, now))).as(column(id))));

  // The company's live bids and won freights, one row per freight: `had_bid` is the lists'
  // "had bid" (bidOn in lists.ts), every row is "had bid or won" (bidOn with orWon).
  const bidOrWon = db
    .selectFrom(
      db
        .selectFrom(
          db
            .selectFrom('bids')
            .select(['bids.freight_id as id', sql<boolean>`true`.as('had_bid')])
            .where('bids.company_id', '=', c)
            .where(sql<SqlBool>`bids.status <> 'revoked'`)
            .unionAll(
              db
                .selectFrom('freights')
                .select(['freights.id', sql<boolean>`false`.as('had_bid')])
                .where('freights.winner_id', '=', c),
            )
            .as('u'),
        )
        .select(['u.id', sql<boolean>`bool_or(u.had_bid)`.as('had_bid')])
        .groupBy('u.id')
        .as('d'),
    )
    .innerJoin('freights', 'freights.id', 'd.id')
    // A search narrows the family in the WHERE, where its index can drive the join (a few rows
    // instead of every freight bid on); 51 takes no search, so it is counted apart then.
    .where((eb) => all(eb as never, searched(eb as never)))
    .select((eb) => {
      const f = eb as unknown as EB;
      const hadBid = sql<SqlBool>`d.had_bid`;
      const membership = (id: FreightListId): Expression<SqlBool> => {
        const via = VIA_BIDS[id];
        // VIA_BIDS lists: their rest and "had bid" (or, with orWon, any row of d); others: FILTERS.
        if (!via) return FILTERS[id](f, c, now);
        return via.orWon ? via.rest(f, c, now) : f.and([via.rest(f, c, now), hadBid]);
      };
      const counts = BID_OR_WON.map((id) => countWhere(member(f, id, membership(id))).as(column(id)));
      return searching ? counts : [...counts, countWhere(onNoTour).as(column(LIST.tmsUnplanned))];
    });

  const market = db
    .selectFrom('freights')
    .where((eb) => all(eb, [FILTERS[LIST.market](eb, c, now), ...searched(eb)]))
    .select(sql<number>`count(*)::int`.as(column(LIST.market)));

  const single = (id: FreightListId) =>
    db
      .selectFrom('freights')
      .select(sql<number>`count(*)::int`.as('n'))
      .where((eb) => all(eb, [member(eb, id, FILTERS[id](eb, c, now)), ...searched(eb)]));

  return db
    .selectFrom([own.as('own'), bidOrWon.as('bid_or_won'), market.as('market')])
    .selectAll(['own', 'bid_or_won', 'market'])
    .select((eb) => [
      ...SINGLE.map((id) => single(id).as(column(id))),
      ...(searching
        ? [eb.selectFrom('freights').select(countWhere(onNoTour).as('n')).where('freights.winner_id', '=', c).as(column(LIST.tmsUnplanned))]
        : []),
      // The other modules' lists (the TMS's orders on the company's tours, and its tours).
      ...Object.entries(others.counts(c)).map(([id, count]) => count!.as(column(Number(id) as ListId))),
      sql<string>`pg_current_snapshot()::text`.as('snapshot'),
      sql<Date | null>`(select min(m.market_until) from freights as m where ${inMarketSql(now, 'm')} and m.market_until < 'infinity')`.as(
        'until',
      ),
    ]);
}

/** The counts statement's row as `data.counts`: every list by its id (a difference list from its two). */
function countsOfRow(row: Record<string, unknown>): Record<string, number> {
  const n = (id: ListId) => Number(row[column(id)] ?? 0);
  const counts: Record<string, number> = {};
  for (const list of LISTS) {
    counts[String(list.id)] = typeof list.count === 'object' ? n(list.count.difference[0]) - n(list.count.difference[1]) : n(list.id);
  }
  return counts;
}
