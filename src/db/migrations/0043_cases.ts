import { sql, type Kysely } from 'kysely';

/** Case records (cdr): a company's cases and the shipments (freights) linked to them. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cases')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index cases_company_idx on cases (company_id, created desc, id desc)`.execute(db);

  await db.schema
    .createTable('case_links')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade'))
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  // Linking the same shipment twice is idempotent: the second insert does nothing.
  await sql`create unique index case_links_case_freight_key on case_links (case_id, freight_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['case_links', 'cases']) await db.schema.dropTable(t).execute();
}
