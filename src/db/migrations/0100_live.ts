import { sql, type Kysely } from 'kysely';

/**
 * The live board (docs/reference.md#live-board, src/live): every event is recorded now, whether or not a
 * webhook subscribes, so that streams receive it and replay it after a reconnect (24 hours).
 * - `company_id` null: a market row, "for every company that may see `freight_id` in the market":
 *   one row per published freight instead of one per company, its entitlement read when a stream
 *   or a replay reads it; `except_companies` are the companies that got a row of their own for the
 *   same change (owner, whitelist, bidders), so that none receives it twice.
 * - replay reads a company's rows and the market rows after a position: the company index of 0050
 *   and a partial index of the market rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events alter column company_id drop not null`.execute(db);
  await sql`alter table events add column except_companies integer[]`.execute(db);
  await sql`create index events_market_idx on events (seq) where company_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index events_market_idx`.execute(db);
  await sql`delete from events where company_id is null`.execute(db);
  await sql`alter table events drop column except_companies`.execute(db);
  await sql`alter table events alter column company_id set not null`.execute(db);
}
