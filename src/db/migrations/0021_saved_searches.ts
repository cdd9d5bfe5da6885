import { sql, type Kysely } from 'kysely';

/**
 * Saved load searches of users (docs/reference.md#load-search) and the notifications their alerts create.
 * A notification keeps the search's name, so it still reads well after the search is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saved_searches')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filter_id', 'integer', (c) => c.notNull())
    // The normalised query parameters (src/freights/search.ts searchToParams), as sent back.
    .addColumn('params', 'json', (c) => c.notNull())
    .addColumn('alert', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index saved_searches_user_idx on saved_searches (user_id, id)`.execute(db);
  // Publishing looks up the alerting searches of the companies that may see the freight.
  await sql`create index saved_searches_alert_idx on saved_searches (company_id) where alert`.execute(db);

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('search_id', 'integer', (c) => c.references('saved_searches.id').onDelete('set null'))
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .execute();
  // One notification per user and freight, however many of the user's searches it matches.
  await sql`create unique index notifications_user_freight_idx on notifications (user_id, freight_id)`.execute(db);
  await sql`create index notifications_user_idx on notifications (user_id, id desc)`.execute(db);
  await sql`create index notifications_unread_idx on notifications (user_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('saved_searches').execute();
}
