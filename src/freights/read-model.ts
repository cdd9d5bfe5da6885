import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/schema.ts';
import { DELIVERY } from './tables.ts';

/**
 * The freights as other modules read them: the published read model. The freights module owns
 * `freights` and `bids`, so no other module names them; a module that reads freights in its own
 * statement (the desk's work queue, trust's parties, the live board's audience, the vehicle offers'
 * nearest freights, the lane prices' awards) starts it here and keeps it in its own folder, with
 * the freights' rules as the SQL pieces below and in index.ts (in the market: `inMarketSql`,
 * `effectiveStatusSql`; who sees: `admitsSql`, `hadBidSql`; the load search: `searchConditions`,
 * `originDistanceSql`). The statements are typed as the tables are; what they may change is
 * nothing: writes stay the freights module's (lifecycle.ts, bidding.ts, award.ts).
 *
 * The structure test refuses a table of this module named anywhere else, and an SQL piece of it
 * exported from any file but this one and the rule files it re-exports (index.ts).
 */

/** A statement over freights (`freights`). */
export const fromFreights = (db: Db) => db.selectFrom('freights');

/** A statement over bids (`bids`). */
export const fromBids = (db: Db) => db.selectFrom('bids');

/** A statement over freights with their bids (`freights`, `bids`: a row per bid). */
export const freightsWithBids = (db: Db) => db.selectFrom('freights').innerJoin('bids', 'bids.freight_id', 'freights.id');

/** A statement over bids with their freight (`bids`, `freights`). */
export const bidsWithFreights = (db: Db) => db.selectFrom('bids').innerJoin('freights', 'freights.id', 'bids.freight_id');

/** Bids with their freight and the freight's accepted bid (`bids`, `freights`, `accepted`): the bids of awarded freights. */
export const bidsWithAward = (db: Db) =>
  bidsWithFreights(db).innerJoin('bids as accepted', (join) =>
    join.onRef('accepted.freight_id', '=', 'freights.id').on(sql<SqlBool>`accepted.status = 'accepted'`),
  );

/** Freights with their running or ended waterfall (`freights`, `w`: freight_waterfalls; docs/reference.md#one-step): whose turn it is. */
export const freightsWithWaterfalls = (db: Db) =>
  db.selectFrom('freights').innerJoin('freight_waterfalls as w', 'w.freight_id', 'freights.id');

/** The two tables for a statement written in SQL: `from ${FREIGHTS} as f join ${BIDS} as b …`. */
export const FREIGHTS: RawBuilder<unknown> = sql.table('freights');
export const BIDS: RawBuilder<unknown> = sql.table('bids');

/**
 * SQL: a freight delivered between two companies (awarded to another company, then closed), the
 * predicate of the partial indexes freights_completed_owner_idx and _winner_idx (migration 0180),
 * on the freight row `alias`.
 */
export const completedSql = (alias: string) =>
  sql.raw(`${alias}.delivery_status = ${DELIVERY.delivered} and ${alias}.winner_id is not null and ${alias}.winner_id <> ${alias}.company_id
    and ${alias}.status in ('closed', 'archived')`);
