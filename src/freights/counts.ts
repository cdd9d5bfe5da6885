import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { FILTERS, MAY_BE_MASKED, VIA_BIDS } from './lists.ts';
import { maskGuard, searchConditions } from './search.ts';
import { isEmptySearch, type LoadSearch } from '../market/index.ts';

/** The lists counted over the company's own freights (18 is 10 without 17: see presentCounts). */
const OWN = [20, 10, 17, 12, 19, 200, 201, 209] as const;
/** The lists counted over the freights the company bid on (`had_bid`) or won. */
const BID_OR_WON = [7, 6, 9, 219, 2, 211] as const;

type EB = ExpressionBuilder<DB, 'freights'>;
const countWhere = (condition: Expression<SqlBool>) => sql<number>`(count(*) filter (where ${condition}))::int`;
const all = (eb: EB, conditions: Expression<SqlBool>[]) => (conditions.length ? eb.and(conditions) : sql<SqlBool>`true`);

/**
 * What the count statement counts of other modules' lists on the same path (TMS 51-53), as SQL
 * pieces the owning module writes (src/searches/counts.ts passes the TMS module's).
 */
export interface OtherListCounts {
  /** A condition: the freight (its id an SQL expression) is on no tour (list 51: won orders on no tour). */
  notPlanned: (freightId: RawBuilder<number>) => RawBuilder<SqlBool>;
  /** Scalar sub-queries counting the company's other lists, by column name (`f52`, `f53`). */
  counts: (companyId: number) => Record<string, RawBuilder<number>>;
}

/**
 * The count statement of the freight lists (src/searches/counts.ts countLists caches it; the
 * benchmark explains it): one row with `f<id>` per list, the snapshot it read in and `until`,
 * the first market deadline from `now` on (until then no freight changes its effective status,
 * so the counts hold for that snapshot).
 */
export function freightCountsQuery(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch, others: OtherListCounts) {
  const c = companyId;
  const searching = !isEmptySearch(search);
  // 51 (TMS): won orders on no tour (all of them among the freights won, the second family).
  const onNoTour = sql<SqlBool>`(freights.winner_id = ${c} and freights.status = 'taken' and ${others.notPlanned(sql`freights.id`)})`;
  // The search without the role test applies to every family; the masked lists (6, 9, 219) add it.
  const searched = (eb: EB) => searchConditions(eb, search, c, now, { mayBeMasked: false });
  const member = (eb: EB, id: number, membership: Expression<SqlBool>) => {
    const guard = MAY_BE_MASKED.has(id) ? maskGuard(eb, search, c, now) : undefined;
    return guard ? eb.and([membership, guard]) : membership;
  };

  const own = db
    .selectFrom('freights')
    .where('freights.company_id', '=', c)
    .where((eb) => all(eb, searched(eb)))
    .select((eb) => OWN.map((id) => countWhere(member(eb, id, FILTERS[id]!(eb, c, now))).as(`f${id}`)));

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
      const membership = (id: (typeof BID_OR_WON)[number]): Expression<SqlBool> => {
        const via = VIA_BIDS[id];
        // VIA_BIDS lists: their rest and "had bid" (or, with orWon, any row of d); others: FILTERS.
        if (!via) return FILTERS[id]!(f, c, now);
        return via.orWon ? via.rest(f, c, now) : f.and([via.rest(f, c, now), hadBid]);
      };
      const counts = BID_OR_WON.map((id) => countWhere(member(f, id, membership(id))).as(`f${id}`));
      return searching ? counts : [...counts, countWhere(onNoTour).as('f51')];
    });

  const market = db
    .selectFrom('freights')
    .where((eb) => all(eb, [FILTERS[8]!(eb, c, now), ...searched(eb)]))
    .select(sql<number>`count(*)::int`.as('f8'));

  const single = (id: number) =>
    db
      .selectFrom('freights')
      .select(sql<number>`count(*)::int`.as('n'))
      .where((eb) => all(eb, [member(eb, id, FILTERS[id]!(eb, c, now)), ...searched(eb)]));

  return db
    .selectFrom([own.as('own'), bidOrWon.as('bid_or_won'), market.as('market')])
    .selectAll(['own', 'bid_or_won', 'market'])
    .select((eb) => [
      single(210).as('f210'),
      ...(searching ? [eb.selectFrom('freights').select(countWhere(onNoTour).as('n')).where('freights.winner_id', '=', c).as('f51')] : []),
      // The other modules' lists (52: orders on the company's tours; 53: its tours).
      ...Object.entries(others.counts(c)).map(([name, count]) => count.as(name)),
      sql<string>`pg_current_snapshot()::text`.as('snapshot'),
      sql<Date | null>`(select min(m.deadline) from freights as m where m.status in ('open', 'pending') and m.deadline >= ${now})`.as(
        'until',
      ),
    ]);
}
