import { sql, type Kysely } from 'kysely';

/** TMS tours of a carrier and the won orders (freights) planned on them. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tours')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('date', 'date')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index tours_company_idx on tours (company_id, date desc, id desc)`.execute(db);

  // A freight is on at most one tour: the primary key settles concurrent planning.
  await db.schema
    .createTable('tour_freights')
    .addColumn('freight_id', 'integer', (c) => c.primaryKey().references('freights.id').onDelete('cascade'))
    .addColumn('tour_id', 'integer', (c) => c.notNull().references('tours.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index tour_freights_tour_idx on tour_freights (tour_id, position)`.execute(db);
  await sql`create index tour_freights_company_idx on tour_freights (company_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['tour_freights', 'tours']) await db.schema.dropTable(t).execute();
}
