import { sql, type Kysely } from 'kysely';

/**
 * One alert per load per user (issue 47, item 7; docs/choices.md, "One alert per load"): a
 * user's `freight.matched` notifications of one freight (its saved search's and each fitting
 * vehicle offer's) are kept as rows, one per reason, so every query by reason still works
 * (a withdrawn offer's freights, the unique indexes), but only the first is shown: the others
 * point to it with `merged_into` and are listed as its further reasons.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table notifications add column merged_into integer references notifications(id) on delete cascade`.execute(db);
  await sql`create index notifications_merged_idx on notifications (merged_into) where merged_into is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists notifications_merged_idx`.execute(db);
  await sql`alter table notifications drop column merged_into`.execute(db);
}
