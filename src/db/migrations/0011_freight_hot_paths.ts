import { sql, type Kysely } from 'kysely';

/**
 * Hot paths in one statement each (src/freights/lists.ts, store.ts): the lists of freights a
 * company bid on (6, 7, 9, 219) read the company's bids in the order of their freights, so a
 * page stops after its rows. `bids.freight_created` is the freight's `created` (which never
 * changes), filled by a trigger whatever inserts the bid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bids add column freight_created timestamptz`.execute(db);
  await sql`update bids set freight_created = freights.created from freights where freights.id = bids.freight_id`.execute(db);
  await sql`
    create function bids_freight_created() returns trigger language plpgsql as $$
    begin
      new.freight_created := (select created from freights where id = new.freight_id);
      return new;
    end $$`.execute(db);
  await sql`create trigger bids_freight_created before insert or update of freight_id on bids for each row execute function bids_freight_created()`.execute(
    db,
  );
  // Lists 6, 7, 9, 219 in their default order: the company's live bids, newest freight first.
  await sql`create index bids_company_created_idx on bids (company_id, freight_created desc, freight_id desc) where status <> 'revoked'`.execute(
    db,
  );
  // Lists 9 and 219 (won without a bid) and 2 (won, taken), newest first.
  await sql`create index freights_winner_created_idx on freights (winner_id, created desc, id desc) where winner_id is not null`.execute(
    db,
  );
  // The sweeper's batches (open/pending past their deadline, oldest first) and the market by deadline.
  await sql`create index freights_market_deadline_idx on freights (deadline, id) where status in ('open', 'pending')`.execute(db);
  await sql`drop index if exists freights_deadline_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists freights_deadline_idx on freights (deadline) where status in ('open', 'pending')`.execute(db);
  for (const name of ['freights_market_deadline_idx', 'freights_winner_created_idx', 'bids_company_created_idx'])
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  await sql`drop trigger if exists bids_freight_created on bids`.execute(db);
  await sql`drop function if exists bids_freight_created()`.execute(db);
  await sql`alter table bids drop column if exists freight_created`.execute(db);
}
