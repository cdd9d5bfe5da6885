import { sql, type Kysely } from 'kysely';

/** Indexes for the freight lists (src/freights/lists.ts) at 100,000s of freights. */
export async function up(db: Kysely<any>): Promise<void> {
  // Filter 8/7 (the market, newest first): an ordered scan over open/pending freights only.
  await sql`create index freights_market_created_idx on freights (created desc, id desc) where status in ('open', 'pending')`.execute(db);
  // Own lists (10, 17, 18, 12, 19, 20) newest first: an ordered scan of the company's freights.
  await sql`create index freights_company_market_idx on freights (company_id, created desc, id desc) where status in ('open', 'pending')`.execute(
    db,
  );
  await sql`create index freights_company_created_idx on freights (company_id, created desc, id desc)`.execute(db);
  // "had bid" (a non-revoked bid of the caller's company): filters 8, 7, 6, 9 and the view policy.
  await sql`create index bids_company_live_idx on bids (company_id, freight_id) where status <> 'revoked'`.execute(db);
  // Booking requests (filters 200-219).
  await sql`create index freights_ffr_idx on freights (company_id, status) where type = 'FFR'`.execute(db);
  await sql`create index templates_company_name_idx on templates (company_id, name)`.execute(db);
  await sql`create index flights_etd_idx on flights (etd, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'freights_company_created_idx',
    'freights_company_market_idx',
    'flights_etd_idx',
    'templates_company_name_idx',
    'freights_ffr_idx',
    'bids_company_live_idx',
    'freights_market_created_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
