// TEMPORARY: until src/freights/policy.ts and lifecycle.ts land, a minimal stand-in with the
// same signatures (decisions.md §4 visibility). Replaced by re-exports of the freights module.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { FreightsTable } from '../freights/tables.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';

export async function expireDueFreights(db: Kysely<DB>, now: Date): Promise<void> {
  await db
    .updateTable('freights')
    .set({ status: 'expired', modified: now })
    .where('status', 'in', ['open', 'pending'])
    .where('deadline', '<=', now)
    .execute();
}

export async function loadVisibleFreight(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number): Promise<Selectable<FreightsTable> | null> {
  await expireDueFreights(db, clock.now());
  const f = await db.selectFrom('freights').selectAll().where('id', '=', freightId).executeTakeFirst();
  if (!f) return null;
  const c = caller.companyId;
  if (f.company_id === c || f.winner_id === c) return f;
  if (f.status === 'open' || f.status === 'pending') {
    if (f.visibility === -1) return null;
    if (f.visibility === -2 && !f.whitelist.includes(c)) return null;
    return f;
  }
  if (f.status === 'draft') return null;
  const bid = await db.selectFrom('bids').select('id').where('freight_id', '=', f.id).where('company_id', '=', c).where('status', '!=', 'revoked').executeTakeFirst();
  void sql;
  return bid ? f : null;
}
