import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { notBlockedBySql } from '../../accounts/index.ts';
import type { DB } from '../../db/schema.ts';
import { AWARDED_STATUSES, dueSql, inMarketSql, MARKET_STATUSES, marketStatusSql, storedInSql, type Instant } from '../in-market.ts';
import { admitsSql, hadBidSql } from '../policy.ts';
import { type FreightStatus, VISIBILITY } from '../tables.ts';
import { type FreightListId, isFreightList, LIST } from './registry.ts';

/**
 * Who belongs to each freight list (registry.ts), as one condition on `freights`: docs/reference.md#freights
 * exactly; "had bid" is a non-revoked bid of the caller's company. Statuses are effective ones: a
 * freight past its deadline is in the expired lists and out of the market ones, whether the
 * sweeper wrote it yet or not (lifecycle.ts). The list pages (read.ts), the counts (counts.ts) and
 * the saved searches (src/searches) read membership from here.
 */

export type EB = ExpressionBuilder<DB, 'freights'>;
export type { Instant };
export type Where = (eb: EB, company: number, now: Instant) => Expression<SqlBool>;

/** The market's stored statuses (in-market.ts); past the deadline they read as expired. */
const MARKET: readonly FreightStatus[] = MARKET_STATUSES;
const ARCHIVE: readonly FreightStatus[] = ['archived', 'closed', 'revoked', 'expired'];
const DONE_BY_WINNER: readonly FreightStatus[] = AWARDED_STATUSES;

const own = (eb: EB, c: number) => eb('freights.company_id', '=', c);
/**
 * Another company's freight, unless the company blocked that company (docs/reference.md#trust): a
 * blocked company's freights leave every list, search and count of the blocker, in the same
 * statement (accounts/blocks.ts notBlockedBySql, read once per statement).
 */
const notBlocked = (c: number) => notBlockedBySql(c, sql`freights.company_id`);
const foreign = (eb: EB, c: number) => eb.and([eb('freights.company_id', '<>', c), notBlocked(c)]);
const storedIn = (list: readonly FreightStatus[]) => storedInSql(list);
/**
 * The effective status is one of `list`: market statuses only while the deadline has not passed;
 * `expired` also for market freights past their deadline.
 */
const status = (eb: EB, list: readonly FreightStatus[], now: Instant): Expression<SqlBool> => {
  const market = list.filter((s) => MARKET.includes(s));
  if (market.length && !list.includes('expired')) {
    // The whole market is one range of market_until (in-market.ts); part of it, that range and the status.
    if (market.length === list.length)
      return market.length === MARKET.length ? inMarketSql(now) : eb.and([storedIn(list), inMarketSql(now)]);
    return eb.and([storedIn(list), eb.or([eb.not(marketStatusSql()), inMarketSql(now)])]);
  }
  if (list.includes('expired') && !market.length) return eb.or([storedIn(list), dueSql(now)]);
  return storedIn(list);
};
const anyBid = (eb: EB) =>
  eb.exists(
    eb
      .selectFrom('bids')
      .select(sql`1`.as('one'))
      .whereRef('bids.freight_id', '=', 'freights.id')
      .where(sql<SqlBool>`bids.status <> 'revoked'`),
  );
const ffr = () => sql<SqlBool>`freights.type = 'FFR'`;
/**
 * A booking request addressed to the company: it is the winner (flight), or the whitelist names it
 * while the request is open. The first condition follows from the second and adds nothing to the
 * membership; it lets the planner start from the winner index and the whitelist's GIN index
 * (`@>`) instead of reading every open booking request (list 210 and its count).
 */
const addressedTo = (eb: EB, c: number, now: Instant) =>
  eb.and([
    sql<SqlBool>`(freights.winner_id = ${c} or freights.whitelist @> array[${c}]::integer[])`,
    eb.or([
      eb('freights.winner_id', '=', c),
      eb.and([
        status(eb, MARKET, now),
        sql<SqlBool>`freights.visibility = ${sql.lit(VISIBILITY.whitelist)}`,
        sql<SqlBool>`${c} = any(freights.whitelist)`,
      ]),
    ]),
  ]);

/**
 * "had bid" (or won) as `id = any(array(…))`: the company's few bids are read once and the
 * freights looked up by primary key, instead of filtering the whole market or archive (7, 6, 9, 219
 * in orders other than their default, see VIA_BIDS).
 */
const bidOn = (c: number, orWon = false) => {
  const won = orWon ? sql` union all select id from freights as won where won.winner_id = ${c}` : sql``;
  return sql<SqlBool>`freights.id = any(array(select freight_id from bids where bids.company_id = ${c} and bids.status <> 'revoked'${won}))`;
};

/**
 * The lists whose members are freights the company bid on (or won): their default order
 * (created) is read from the company's bids in that order (`bids.freight_created`, migration
 * 0011), so a page stops after its rows instead of sorting everything the company ever bid on.
 * `rest` is the membership besides "had bid"; `orWon` adds freights the company won without a bid.
 */
export const VIA_BIDS: Partial<Record<FreightListId, { rest: Where; orWon?: boolean }>> = {
  [LIST.bidOn]: { rest: (eb, c, now) => eb.and([foreign(eb, c), status(eb, MARKET, now)]) },
  [LIST.lost]: {
    rest: (eb, c, now) =>
      eb.and([
        foreign(eb, c),
        status(eb, DONE_BY_WINNER, now),
        eb.or([eb('freights.winner_id', 'is', null), eb('freights.winner_id', '<>', c)]),
      ]),
  },
  [LIST.foreignArchive]: { rest: (eb, c, now) => eb.and([foreign(eb, c), status(eb, ARCHIVE, now)]), orWon: true },
  [LIST.bookingsInArchive]: { rest: (eb, c, now) => eb.and([foreign(eb, c), ffr(), status(eb, ARCHIVE, now)]), orWon: true },
};

/**
 * Membership of every freight list (docs/reference.md#freights), as one condition on `freights`: a full
 * record over the registry's freight lists, so a list without its rule fails the typecheck.
 */
export const FILTERS: Record<FreightListId, Where> = {
  // As provider
  [LIST.market]: (eb, c, now) => eb.and([foreign(eb, c), status(eb, MARKET, now), admitsSql(eb, c), eb.not(hadBidSql(eb, c))]),
  [LIST.bidOn]: (eb, c, now) => eb.and([VIA_BIDS[LIST.bidOn]!.rest(eb, c, now), bidOn(c)]),
  [LIST.lost]: (eb, c, now) => eb.and([VIA_BIDS[LIST.lost]!.rest(eb, c, now), bidOn(c)]),
  [LIST.won]: (eb, c, now) => eb.and([eb('freights.winner_id', '=', c), status(eb, ['taken'], now), notBlocked(c)]),
  [LIST.foreignArchive]: (eb, c, now) => eb.and([VIA_BIDS[LIST.foreignArchive]!.rest(eb, c, now), bidOn(c, true)]),
  // As principal
  [LIST.drafts]: (eb, c, now) => eb.and([own(eb, c), status(eb, ['draft'], now)]),
  [LIST.ownOpen]: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now)]),
  [LIST.withBids]: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now), anyBid(eb)]),
  [LIST.withoutBids]: (eb, c, now) => eb.and([own(eb, c), status(eb, MARKET, now), eb.not(anyBid(eb))]),
  [LIST.awarded]: (eb, c, now) => eb.and([own(eb, c), status(eb, ['taken'], now)]),
  [LIST.ownArchive]: (eb, c, now) => eb.and([own(eb, c), status(eb, ARCHIVE, now)]),
  // Booking requests (type FFR): outgoing, then incoming
  [LIST.bookingsOut]: (eb, c, now) => eb.and([own(eb, c), ffr(), status(eb, ['draft', ...MARKET], now)]),
  [LIST.bookingsOutTaken]: (eb, c, now) => eb.and([own(eb, c), ffr(), status(eb, ['taken'], now)]),
  [LIST.bookingsOutArchive]: (eb, c, now) => eb.and([own(eb, c), ffr(), status(eb, ARCHIVE, now)]),
  [LIST.bookingsIn]: (eb, c, now) => eb.and([foreign(eb, c), ffr(), status(eb, ['draft', ...MARKET], now), addressedTo(eb, c, now)]),
  [LIST.bookingsInTaken]: (eb, c, now) => eb.and([foreign(eb, c), ffr(), status(eb, ['taken'], now), eb('freights.winner_id', '=', c)]),
  [LIST.bookingsInArchive]: (eb, c, now) => eb.and([VIA_BIDS[LIST.bookingsInArchive]!.rest(eb, c, now), bidOn(c, true)]),
};

/** The membership of a list by its number, or undefined for a number that is no freight list. */
export const membershipOf = (id: number): Where | undefined => (isFreightList(id) ? FILTERS[id] : undefined);

/** How a list is read from the company's bids (VIA_BIDS), by its number. */
export const viaBidsOf = (id: number) => (isFreightList(id) ? VIA_BIDS[id] : undefined);
