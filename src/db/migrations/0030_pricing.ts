import { sql, type Kysely } from 'kysely';

/**
 * Rate sheets and their lines, stored for index probes (docs/choices.md, Rate search): a
 * search is a few equality probes on (zone_country, zone_prefix = any(all prefixes), kind,
 * airport) or on the airport pair, never a scan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_sheets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull().check(sql`visibility in ('private', 'exchange', 'public_search')`))
    .addColumn('valid_from', 'date')
    .addColumn('valid_to', 'date')
    .addColumn('breaks', sql`numeric[]`, (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_sheets_company_idx').on('rate_sheets').columns(['company_id', 'visibility']).execute();

  // No foreign key on sheet_id: lines are written only by the import, in the transaction that
  // creates their sheet; the per-row key check would double the import time (bench/search.ts).
  await db.schema
    .createTable('rate_lines')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('sheet_id', 'integer', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    // 1 city->airport, 2 airport->city, 3 airport->airport
    .addColumn('kind', 'smallint', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('airport', 'text', (c) => c.notNull())
    .addColumn('other_airport', 'text')
    .addColumn('zone_country', 'text')
    .addColumn('zone_prefix', sql`text collate "C"`)
    .addColumn('transit_days', 'integer')
    .addColumn('min_charge', 'numeric')
    .addColumn('prices', sql`numeric[]`, (c) => c.notNull())
    .addColumn('fsc_pct', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('ssc_per_kg', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('uld_price', 'numeric')
    .execute();
  // City lines: direct search (all four equal) and combination legs (any airport).
  await sql`create index rate_lines_zone_idx on rate_lines (zone_country, zone_prefix, kind, airport) where zone_country is not null`.execute(
    db,
  );
  // Airport-to-airport lines, from either end.
  await sql`create index rate_lines_from_airport_idx on rate_lines (airport, other_airport) where other_airport is not null`.execute(db);
  await sql`create index rate_lines_to_airport_idx on rate_lines (other_airport, airport) where other_airport is not null`.execute(db);
  await db.schema.createIndex('rate_lines_sheet_idx').on('rate_lines').column('sheet_id').execute();

  await db.schema
    .createTable('pricing_searches')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('public_company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('params', 'json', (c) => c.notNull())
    .addColumn('result_count', 'integer', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index pricing_searches_company_idx on pricing_searches (company_id, id desc) where company_id is not null`.execute(db);

  await db.schema
    .createTable('pricing_feedback')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('search_id', 'integer', (c) => c.notNull().references('pricing_searches.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('rating', 'smallint', (c) => c.notNull())
    .addColumn('rate_id', 'integer')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pricing_feedback_search_idx').on('pricing_feedback').column('search_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['pricing_feedback', 'pricing_searches', 'rate_lines', 'rate_sheets']) await db.schema.dropTable(t).execute();
}
