import { sql, type Kysely } from 'kysely';

/**
 * The events outbox: one row per event and recipient company, written in the transaction of
 * the change that caused it. `body` is the exact JSON delivered (rendered and masked for that
 * company at the time of the change), so every retry sends the same bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('freight_id', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index events_created_idx on events (created)`.execute(db);
  await sql`create index events_company_idx on events (company_id, seq desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
