import { sql, type Kysely } from 'kysely';

/**
 * Counts of every freight list (src/searches/counts.ts) without table reads: each family of lists
 * is counted over an index that carries every column its membership tests (index-only scans).
 * - The market (list 8): the market's deadline index also carries company, visibility and
 *   whitelist (it keeps serving the sweeper and the market by deadline).
 * - The company's own freights (20, 10, 17, 18, 12, 19, 200, 201, 209): the company/status index
 *   also carries deadline and type.
 * - The freights a company bid on or won (7, 6, 9, 219, 2, 211): looked up by id in an index that
 *   carries what their membership tests.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_market_deadline_idx`.execute(db);
  await sql`create index freights_market_deadline_idx on freights (deadline, id) include (company_id, visibility, whitelist) where status in ('open', 'pending')`.execute(
    db,
  );
  await sql`drop index if exists freights_company_status_idx`.execute(db);
  await sql`create index freights_company_status_idx on freights (company_id, status, created desc, id desc) include (deadline, type)`.execute(
    db,
  );
  await sql`create index freights_membership_idx on freights (id) include (company_id, status, deadline, winner_id, type)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_membership_idx`.execute(db);
  await sql`drop index if exists freights_company_status_idx`.execute(db);
  await sql`create index freights_company_status_idx on freights (company_id, status, created desc, id desc)`.execute(db);
  await sql`drop index if exists freights_market_deadline_idx`.execute(db);
  await sql`create index freights_market_deadline_idx on freights (deadline, id) where status in ('open', 'pending')`.execute(db);
}
