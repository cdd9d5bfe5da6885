import { sql, type AliasableExpression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { AWARDED_STATUSES, isMarketStatus } from './in-market.ts';
import { type FreightRow, VISIBILITY } from './tables.ts';

/**
 * Who sees a freight and how (docs/reference.md#freights):
 * - owner: always, unmasked; winner: unmasked;
 * - `market`: open/pending and admitted by visibility: unmasked except addresses and refs;
 * - `bidder`: after open/pending, a company that had a non-revoked bid: masked.
 * Anyone else: not found.
 */
export type Role = 'owner' | 'winner' | 'market' | 'bidder';

/** Whether visibility admits a company to an open freight (tables.ts VISIBILITY). */
export function admits(row: Pick<FreightRow, 'visibility' | 'whitelist' | 'company_id'>, companyId: number): boolean {
  if (row.company_id === companyId) return true;
  if (row.visibility === VISIBILITY.whitelist) return (row.whitelist ?? []).includes(companyId);
  if (row.visibility === VISIBILITY.ownCompany) return false;
  return row.visibility >= VISIBILITY.everyone;
}

/**
 * The companies visibility admits to an open freight besides its owner (admits, as a set): every
 * company, only those listed (whitelist), or none (own company only). Matching reads it to test
 * many companies in one statement (src/vehicles).
 */
export function audienceOf(row: Pick<FreightRow, 'visibility' | 'whitelist'>): { everyone: true } | { everyone: false; only: number[] } {
  if (row.visibility === VISIBILITY.whitelist) return { everyone: false, only: row.whitelist ?? [] };
  if (row.visibility === VISIBILITY.ownCompany) return { everyone: false, only: [] };
  return row.visibility >= VISIBILITY.everyone ? { everyone: true } : { everyone: false, only: [] };
}

/** The caller's role for a row, given whether the caller's company had a non-revoked bid. */
export function roleOf(row: FreightRow, companyId: number, hadBid: boolean): Role | null {
  if (row.company_id === companyId) return 'owner';
  if (row.winner_id !== null && row.winner_id === companyId) return 'winner';
  if (isMarketStatus(row.status)) return admits(row, companyId) || hadBid ? 'market' : null;
  if (row.status === 'draft') return null;
  return hadBid ? 'bidder' : null;
}

/**
 * SQL: bid `b` is a non-revoked bid of the company, the bid that makes a "had bid" (the rule,
 * once: hadBidSql looks for one, the view reads it from the freight's bids it scans anyway).
 * Constants as SQL text: the partial index bids_company_live_idx matches in any plan.
 */
export function liveBidOfSql(companyId: number) {
  return sql<SqlBool>`(b.company_id = ${companyId} and b.status <> 'revoked')`;
}

/** SQL: the caller's company has a non-revoked bid on the freight ("had bid"). */
export function hadBidSql(eb: ExpressionBuilder<DB, 'freights'>, companyId: number): AliasableExpression<SqlBool> {
  return eb.exists(
    eb.selectFrom('bids as b').select(sql`1`.as('one')).whereRef('b.freight_id', '=', 'freights.id').where(liveBidOfSql(companyId)),
  );
}

/** SQL: visibility admits the company (for freights of other companies). */
export function admitsSql(eb: ExpressionBuilder<DB, 'freights'>, companyId: number) {
  return eb.or([
    sql<SqlBool>`freights.visibility >= ${sql.lit(VISIBILITY.everyone)}`,
    eb.and([sql<SqlBool>`freights.visibility = ${sql.lit(VISIBILITY.whitelist)}`, sql<SqlBool>`${companyId} = any(freights.whitelist)`]),
  ]);
}

/**
 * The freights whose companies (owner, winner, transport company) are parties to the AWB they
 * carry, the rule of public tracking and of `shipment.status` events (docs/choices.md,
 * Tracking): awarded by two companies, i.e. taken, closed or archived with a winner other than
 * the owner. A draft, an open tender, or a freight a company awarded to itself (its own bid, a
 * template) costs nothing to create, so naming an AWB on one proves nothing about the shipment.
 */
export function partyToAwbSql(eb: ExpressionBuilder<DB, 'freights'>) {
  return eb.and([
    eb('freights.status', 'in', [...AWARDED_STATUSES]),
    eb('freights.winner_id', 'is not', null),
    eb('freights.winner_id', '<>', eb.ref('freights.company_id')),
  ]);
}

/** A freight carrying an AWB that makes its companies parties to it (partyToAwbSql), and when it was awarded. */
export interface AwbFreight {
  id: number;
  company_id: number;
  winner_id: number | null;
  transport_company_id: number | null;
  awb: string | null;
  /** when its bid was accepted (null: not known) */
  awarded: Date | null;
}

/** The parties to a freight carrying an AWB: owner, winner, transport company. */
export function partiesOf(f: AwbFreight): number[] {
  return [...new Set([f.company_id, f.winner_id, f.transport_company_id].filter((c): c is number => c !== null))];
}
