import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DayWindow, WindowColumns } from '../market/index.ts';
import type { VehicleRow, VehicleStatus } from './tables.ts';

/**
 * Who sees a vehicle offer and what it reads as (docs/reference.md#vehicles), in TypeScript for rows in
 * hand and in SQL for the statements, written once here:
 * - an offer is in the market while it is stored `open` and `available_to` has not passed; past
 *   it, it reads as `expired` everywhere at once (computed at read time with the app's clock,
 *   never SQL now(), like a freight's deadline in freights/in-market.ts);
 * - its company always sees it; another company only when the whitelist is empty or names it
 *   (anyone else: 404, as an unknown id).
 */

/** Whether the offer is in the market at `now`. */
export function offerInMarket(row: Pick<VehicleRow, 'status' | 'available_to'>, now: Date): boolean {
  return row.status === 'open' && row.available_to >= now;
}

/** The status an offer reads as at `now`. */
export function effectiveStatus(row: Pick<VehicleRow, 'status' | 'available_to'>, now: Date): VehicleStatus {
  return row.status === 'open' && row.available_to < now ? 'expired' : row.status;
}

/** Whether the company may see the offer. */
export function seesOffer(row: Pick<VehicleRow, 'company_id' | 'whitelist'>, companyId: number): boolean {
  return row.company_id === companyId || row.whitelist.length === 0 || row.whitelist.includes(companyId);
}

// SQL: the same rules on an offer row (`v` unless another alias is named). The status is a
// literal, so the partial indexes on `status = 'open'` match in any plan.

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** SQL of offerInMarket. */
export const offerInMarketSql = (now: Date | RawBuilder<Date>, alias = 'v'): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${ref(alias, 'status')} = 'open' and ${ref(alias, 'available_to')} >= ${now})`;

/** SQL of effectiveStatus. */
export const effectiveStatusSql = (now: Date, alias = 'v') =>
  sql<VehicleStatus>`case when ${ref(alias, 'status')} = 'open' and ${ref(alias, 'available_to')} < ${now} then 'expired' else ${ref(alias, 'status')} end`;

/**
 * SQL of seesOffer for a company given as a value or as an expression (a freight's owner).
 * `whitelist = '{}'` rather than `cardinality(whitelist) = 0`: the column's statistics know how
 * many offers are for everyone, where the function's guess (half a percent) made the planner
 * expect one row and sort every offer instead of reading an index in order (bench/vehicles.ts).
 */
export const seesOfferSql = (company: number | RawBuilder<number>, alias = 'v'): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${ref(alias, 'whitelist')} = '{}'::integer[] or ${ref(alias, 'company_id')} = ${company} or ${company} = any(${ref(alias, 'whitelist')}))`;

/**
 * When an offer and a freight meet in time (docs/reference.md#vehicles, "its loading window overlaps the
 * availability window"), written once for both directions of matching: the availability
 * [available_from, available_to] and the loading window [etd, etd_end] (etd alone without an
 * end) both include their ends, so a freight loading exactly at `available_to` fits, as the offer
 * is still in the market at that instant (offerInMarket). Each side is one of the market's
 * windows (market/sql.ts windowSql): the offer's window searched against the freights' indexed
 * loading range, the freight's against the offers' columns.
 */
export const AVAILABILITY: WindowColumns = { start: 'v.available_from', end: 'v.available_to' };

/** A window of instants, both ends included (DayWindow `closed`). */
export const instants = (start: Date, end: Date): DayWindow => ({ start, end, closed: true });

/** The offer's availability, searched against the freights' loading windows. */
export const availabilityOf = (offer: Pick<VehicleRow, 'available_from' | 'available_to'>): DayWindow =>
  instants(offer.available_from, offer.available_to);

/** A freight's loading window, searched against the offers' availability (AVAILABILITY): an end before etd counts as etd. */
export const loadingOf = (freight: { etd: Date; etd_end: Date | null }): DayWindow =>
  instants(freight.etd, freight.etd_end && freight.etd_end >= freight.etd ? freight.etd_end : freight.etd);
