import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { BidStatus, FreightRow, FreightStatus } from './tables.ts';

/**
 * "In the market", the rule everything else reads (docs/reference.md#freights): a freight is in the market
 * (visible to the companies its visibility admits, open for bids) while its status is open or
 * pending and its deadline has not passed. Past the deadline it reads as `expired` everywhere at
 * once, whether or not the sweeper wrote it down yet (lifecycle.ts). Written once here, in
 * TypeScript for rows in hand and in SQL for the statements, which compare with a `now` given
 * by the app's clock (never SQL now(), so tests can move time).
 */

/** The stored statuses of the market. */
export const MARKET_STATUSES = ['open', 'pending'] as const satisfies readonly FreightStatus[];

/** Bids that can still take part in an award: open, or confirmed by one side. */
export const BIDS_IN_PLAY = ['open', 'pending'] as const satisfies readonly BidStatus[];

/**
 * The stored statuses after an award: taken, then closed at delivery, then archived (an archived
 * freight may also be one that left the market unawarded: readers that need the award test the
 * winner too). Read by the lists of the winner, the work queue, the lane prices, the freight page
 * and the AWB's parties.
 */
export const AWARDED_STATUSES = ['taken', 'closed', 'archived'] as const satisfies readonly FreightStatus[];

export type AwardedStatus = (typeof AWARDED_STATUSES)[number];

/** Whether a status (stored or read back) is one of AWARDED_STATUSES. */
export const isAwardedStatus = (status: string): status is AwardedStatus => (AWARDED_STATUSES as readonly string[]).includes(status);

/** Whether a status is one of the market's (the deadline aside: statuses read back are effective already). */
export const isMarketStatus = (status: FreightStatus): boolean => (MARKET_STATUSES as readonly FreightStatus[]).includes(status);

/** Stored in the market but past its deadline: it reads as expired. */
export function isDue(row: Pick<FreightRow, 'status' | 'deadline'>, now: Date): boolean {
  return isMarketStatus(row.status) && row.deadline !== null && row.deadline < now;
}

/** In the market at `now`: a market status and the deadline not passed. */
export function inMarket(row: Pick<FreightRow, 'status' | 'deadline'>, now: Date): boolean {
  return isMarketStatus(row.status) && !isDue(row, now);
}

// SQL: the same rules on a freight row (`freights` unless another alias is named), read from
// `market_until` (migration 0150: the deadline while the stored status is open or pending,
// `infinity` without one, null otherwise): in the market is `market_until >= now`, due is
// `market_until < now`. One range of one column, so the planner estimates the market as it is
// (status and deadline as two conditions made it multiply two selectivities of the same rows),
// and the market's partial indexes (`where market_until is not null`) match in any plan.

/** The clock in a statement: a date, or (prepared statements) the statement's argument hidden from the planner. */
export type Instant = Date | Expression<Date>;

const column = (alias: string, name: 'status' | 'market_until') => sql.ref(`${alias}.${name}`);
const literals = (list: readonly string[]) => sql.raw(list.map((s) => `'${s}'`).join(', '));

/** The stored status is one of `list` (a literal list of this module's statuses, never input). */
export const storedInSql = (list: readonly FreightStatus[], alias = 'freights') =>
  sql<SqlBool>`${column(alias, 'status')} in (${literals(list)})`;

/** SQL of isMarketStatus on the stored status. */
export const marketStatusSql = (alias = 'freights') => sql<SqlBool>`${column(alias, 'market_until')} is not null`;

/** SQL of isDue. */
export const dueSql = (now: Instant, alias = 'freights'): RawBuilder<SqlBool> => sql<SqlBool>`(${column(alias, 'market_until')} < ${now})`;

/** SQL of inMarket. */
export const inMarketSql = (now: Instant, alias = 'freights'): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${column(alias, 'market_until')} >= ${now})`;

/** SQL: the status a freight reads as at `now` (`expired` when due). */
export const effectiveStatusSql = (now: Instant) => sql<string>`case when ${dueSql(now)} then 'expired' else freights.status end`;
