import { sql, type Kysely } from 'kysely';

/**
 * A tender's invitation is a notification too (docs/reference.md#tenders: the invited companies
 * get event and notification `tender.published`): a notification names a freight or a tender, so
 * `freight_id` may be null and `tender_id` names the tender, once per user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table notifications alter column freight_id drop not null`.execute(db);
  await sql`alter table notifications add column tender_id integer references tenders(id) on delete cascade`.execute(db);
  await sql`alter table notifications add constraint notifications_names_one
    check ((freight_id is null) <> (tender_id is null))`.execute(db);
  await sql`create unique index notifications_user_tender_idx on notifications (user_id, tender_id) where tender_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where tender_id is not null`.execute(db);
  await sql`drop index if exists notifications_user_tender_idx`.execute(db);
  await sql`alter table notifications drop constraint if exists notifications_names_one`.execute(db);
  await sql`alter table notifications drop column tender_id`.execute(db);
  await sql`alter table notifications alter column freight_id set not null`.execute(db);
}
