import { sql, type Kysely } from 'kysely';

/**
 * Trust (docs/reference.md#trust): a company's profile fields and the operator's verification on
 * `companies`; blocks between companies (accounts: the freight lists read them, so their owner
 * is below freights); ratings after delivery (trust). Partial indexes count the freights a
 * company completed (awarded and delivered) as owner and as carrier for its profile.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('country', 'text')
    .addColumn('city', 'text')
    .addColumn('postcode', 'text')
    .addColumn('vat_id', 'text')
    .addColumn('phone', 'text')
    .addColumn('website', 'text')
    .addColumn('description', 'text')
    .addColumn('fleet_size', 'integer')
    .addColumn('founded', 'integer')
    .addColumn('verified_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('company_blocks')
    .addColumn('blocker_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('blocked_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_blocks_pkey', ['blocker_id', 'blocked_id'])
    .execute();

  await db.schema
    .createTable('ratings')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('rater_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('rated_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('score', 'smallint', (c) => c.notNull().check(sql`score between 1 and 5`))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('reply', 'text')
    .addColumn('replied', 'timestamptz')
    .execute();
  // Once each side per freight: a second rating loses the race here, whatever the process.
  await sql`create unique index ratings_freight_rater_idx on ratings (freight_id, rater_id)`.execute(db);
  await sql`create index ratings_rated_idx on ratings (rated_id, created desc, id desc) include (score)`.execute(db);

  await sql`create index freights_completed_owner_idx on freights (company_id) where delivery_status = 3 and winner_id is not null`.execute(
    db,
  );
  await sql`create index freights_completed_winner_idx on freights (winner_id) where delivery_status = 3 and winner_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_completed_winner_idx`.execute(db);
  await sql`drop index if exists freights_completed_owner_idx`.execute(db);
  await db.schema.dropTable('ratings').execute();
  await db.schema.dropTable('company_blocks').execute();
  for (const c of ['country', 'city', 'postcode', 'vat_id', 'phone', 'website', 'description', 'fleet_size', 'founded', 'verified_at'])
    await db.schema.alterTable('companies').dropColumn(c).execute();
}
