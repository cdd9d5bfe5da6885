import { blockedIds, pushRule } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import { admits, fromFreights, inMarket } from '../freights/index.ts';

/**
 * Who may see a freight in the market at a given moment, for many companies at once (the live
 * board's market events, docs/reference.md#live-board, read when a stream reads them), through the freights'
 * read model and rules: the freight is in the market (`inMarket`), its visibility admits the
 * company (`admits`), it is another company's, and the company has not blocked its owner
 * (docs/reference.md#trust, accounts/blocks.ts): the rules of the market list
 * (freights/lists/membership.ts), applied to the rows in hand.
 */

const marketRows = (db: Db, ids: readonly number[]) =>
  fromFreights(db)
    .select(['id', 'company_id', 'status', 'deadline', 'visibility', 'whitelist'])
    .where('id', 'in', [...ids])
    .execute();

/** Those of `companies` that may see the freight in the market at `now`. */
export async function marketViewers(db: Db, freightId: number, companies: readonly number[], now: Date): Promise<Set<number>> {
  if (!companies.length) return new Set();
  const [row] = await marketRows(db, [freightId]);
  if (!row || !inMarket(row, now)) return new Set();
  const admitted = companies.filter((c) => c !== row.company_id && admits(row, c));
  // The rule every push asks (accounts/blocks.ts pushRule): a company that blocked the owner gets no market event of its.
  const owner = [row.company_id];
  const may = await pushRule(db, owner, admitted);
  return new Set(admitted.filter((c) => may(c, owner)));
}

/** Those of `freightIds` the company may see in the market at `now`. */
export async function marketFreightsOf(db: Db, companyId: number, freightIds: readonly number[], now: Date): Promise<Set<number>> {
  if (!freightIds.length) return new Set();
  const [rows, blocked] = await Promise.all([marketRows(db, [...new Set(freightIds)]), blockedIds(db, companyId)]);
  return new Set(
    rows
      .filter((r) => inMarket(r, now) && r.company_id !== companyId && admits(r, companyId) && !blocked.has(r.company_id))
      .map((r) => r.id),
  );
}
