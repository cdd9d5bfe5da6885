import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { DB, Db } from '../db/schema.ts';
import { inMarketSql } from './in-market.ts';
import { loadFreightForCaller } from './store.ts';

/**
 * A user's own marks on the market's loads (issue 47, item 11; docs/choices.md, "Hidden and seen
 * loads"), in `freight_marks` (migration 0540): `seen` when the user first opened a load's page,
 * `hidden` while the user keeps it out of the market list (8) and its load search. Per user, not
 * per company: a colleague's board is the colleague's. Nothing of it is shown to anyone but its
 * user; a freight the user may not see cannot be marked (it answers like a missing one).
 */

/** At most this many loads hidden by one user at once (a bound on the market list's piece, as MAX_BLOCKS is). */
export const MAX_HIDDEN = 1000;

/**
 * SQL: the freight whose id is `freightId` (an SQL expression of the outer statement) is not hidden
 * by `user`. As accounts' notBlockedBySql: the user's hidden ids are read once per statement (an
 * InitPlan over freight_marks_hidden_idx), then each row is one comparison against that small
 * array; no hides (the usual case) admits every row.
 */
export function notHiddenBySql(user: number | RawBuilder<number>, freightId: RawBuilder<unknown>) {
  return sql<SqlBool>`${freightId} <> all(array(select freight_marks.freight_id from freight_marks where freight_marks.user_id = ${user} and freight_marks.hidden is not null))`;
}

/** SQL: the freight is one `user` hides (the hidden view: the same array, the other way round). */
export function hiddenBySql(user: number | RawBuilder<number>, freightId: RawBuilder<unknown>) {
  return sql<SqlBool>`${freightId} = any(array(select freight_marks.freight_id from freight_marks where freight_marks.user_id = ${user} and freight_marks.hidden is not null))`;
}

export type HideResult = { kind: 'ok'; hidden: Date } | { kind: 'not_found' } | { kind: 'own' } | { kind: 'too_many' };

/**
 * Hides a load from the caller's market list. A freight the caller may not see is not found (as
 * GET /freights/view answers); one of its own company's is not in its market (`own`). Hiding a
 * hidden load again keeps its first time. At MAX_HIDDEN, the hides of loads that left the market
 * (they hide nothing any more) are dropped first; still full: `too_many`.
 */
export async function hideFreight(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number): Promise<HideResult> {
  const found = await loadFreightForCaller(db, clock, caller, freightId);
  if (!found) return { kind: 'not_found' };
  if (found.row.company_id === caller.companyId) return { kind: 'own' };
  const now = clock.now();
  const hide = () =>
    db
      .insertInto('freight_marks')
      .columns(['user_id', 'freight_id', 'hidden'])
      .expression(
        db
          .selectNoFrom([
            sql<number>`${caller.userId}::int`.as('user_id'),
            sql<number>`${freightId}::int`.as('freight_id'),
            sql<Date>`${now}::timestamptz`.as('hidden'),
          ])
          .where(
            sql<SqlBool>`(select count(*) from freight_marks where user_id = ${caller.userId} and hidden is not null and freight_id <> ${freightId}) < ${MAX_HIDDEN}`,
          ),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'freight_id']).doUpdateSet({ hidden: sql`coalesce(freight_marks.hidden, excluded.hidden)` }),
      )
      .returning('hidden')
      .executeTakeFirst();
  let row = await hide();
  if (!row) {
    await forgetLeftMarket(db, caller.userId, now);
    row = await hide();
  }
  return row?.hidden ? { kind: 'ok', hidden: row.hidden } : { kind: 'too_many' };
}

/** Drops the user's hides of loads no longer in the market (and marks left with nothing). */
async function forgetLeftMarket(db: Db, user: number, now: Date): Promise<void> {
  await db
    .updateTable('freight_marks')
    .set({ hidden: null })
    .where('freight_marks.user_id', '=', user)
    .where('freight_marks.hidden', 'is not', null)
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('freights').select(sql`1`.as('one')).whereRef('freights.id', '=', 'freight_marks.freight_id').where(inMarketSql(now)),
        ),
      ),
    )
    .execute();
  await db.deleteFrom('freight_marks').where('user_id', '=', user).where('hidden', 'is', null).where('seen', 'is', null).execute();
}

/**
 * Shows a hidden load again. The caller's own hide is undone whether or not it may still see the
 * freight (the mark is its own); without one, a freight it may not see is not found, one it may
 * see was not hidden and stays so (true).
 */
export async function unhideFreight(db: Kysely<DB>, clock: Clock, caller: Caller, freightId: number): Promise<boolean> {
  // A mark that only hid goes; one that also says seen keeps that.
  const gone = await db
    .deleteFrom('freight_marks')
    .where('user_id', '=', caller.userId)
    .where('freight_id', '=', freightId)
    .where('hidden', 'is not', null)
    .where('seen', 'is', null)
    .returning('freight_id')
    .executeTakeFirst();
  if (gone) return true;
  const undone = await db
    .updateTable('freight_marks')
    .set({ hidden: null })
    .where('user_id', '=', caller.userId)
    .where('freight_id', '=', freightId)
    .where('hidden', 'is not', null)
    .returning('freight_id')
    .executeTakeFirst();
  if (undone) return true;
  return (await loadFreightForCaller(db, clock, caller, freightId)) !== null;
}

/**
 * Notes that the user opened the page of a load of another company (its first time is kept). The
 * caller has just read the freight as visible to it: nothing is checked again.
 */
export async function markSeen(db: Db, user: number, freightId: number, now: Date): Promise<void> {
  await db
    .insertInto('freight_marks')
    .values({ user_id: user, freight_id: freightId, seen: now, hidden: null })
    .onConflict((oc) => oc.columns(['user_id', 'freight_id']).doUpdateSet({ seen: sql`coalesce(freight_marks.seen, excluded.seen)` }))
    .execute();
}

/** Which of `freightIds` the user has opened (a list page's rows; one statement over the primary key). */
export async function seenAmong(db: Db, user: number, freightIds: readonly number[]): Promise<Set<number>> {
  if (!freightIds.length) return new Set();
  const rows = await db
    .selectFrom('freight_marks')
    .select('freight_id')
    .where('user_id', '=', user)
    .where('freight_id', 'in', [...freightIds])
    .where('seen', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.freight_id));
}
