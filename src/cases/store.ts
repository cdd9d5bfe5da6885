import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import { offsetOf } from '../kernel/params.ts';
import type { Paging } from '../kernel/paging.ts';
import type { CaseLinksTable, CasesTable } from './tables.ts';

export type CaseRow = Selectable<CasesTable>;
export type CaseLinkRow = Selectable<CaseLinksTable>;

export function listCases(db: Kysely<DB>, caller: Caller, paging: Paging): Promise<CaseRow[]> {
  return db
    .selectFrom('cases')
    .selectAll()
    .where('company_id', '=', caller.companyId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
}

export function createCase(db: Kysely<DB>, now: Date, caller: Caller, name: string): Promise<CaseRow> {
  return db
    .insertInto('cases')
    .values({ company_id: caller.companyId, user_id: caller.userId, name, created: now, modified: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A case of the caller's company; another company's case is as missing (404). */
export function findCase(db: Kysely<DB>, caller: Caller, id: number): Promise<CaseRow | undefined> {
  return db.selectFrom('cases').selectAll().where('id', '=', id).where('company_id', '=', caller.companyId).executeTakeFirst();
}

/**
 * Links a freight to a case once: a second link of the same freight changes nothing (the
 * unique index settles concurrent ones). A new link touches the case's `modified`.
 */
export async function linkFreight(db: Kysely<DB>, now: Date, caller: Caller, caseId: number, freightId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('case_links')
      .values({ case_id: caseId, freight_id: freightId, company_id: caller.companyId, user_id: caller.userId, created: now, modified: now })
      .onConflict((oc) => oc.columns(['case_id', 'freight_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) await trx.updateTable('cases').set({ modified: now }).where('id', '=', caseId).execute();
  });
}

/** Links per case, oldest first. */
export async function linksOf(db: Kysely<DB>, caseIds: readonly number[]): Promise<Map<number, CaseLinkRow[]>> {
  const out = new Map<number, CaseLinkRow[]>(caseIds.map((id) => [id, []]));
  if (caseIds.length === 0) return out;
  const rows = await db.selectFrom('case_links').selectAll().where('case_id', 'in', caseIds).orderBy('case_id').orderBy('id').execute();
  for (const r of rows) out.get(r.case_id)!.push(r);
  return out;
}
