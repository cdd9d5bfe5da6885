import { sql, type Kysely } from 'kysely';

/**
 * Webhooks of a company, one delivery per event and webhook (the unit that is retried with one
 * `webhook-id`), and the log of every attempt.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index webhooks_company_idx on webhooks (company_id, id)`.execute(db);

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_seq', 'bigint', (c) => c.notNull().references('events.seq').onDelete('cascade'))
    // pending -> delivered (a 2xx) | failed (retries used up)
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When the next attempt is due; while an attempt runs, the end of its lease.
    .addColumn('next_attempt', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('finished', 'timestamptz')
    .execute();
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id desc)`.execute(db);
  await sql`create index webhook_deliveries_event_idx on webhook_deliveries (event_seq)`.execute(db);

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started', 'timestamptz', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('next_retry', 'timestamptz')
    .execute();
  await sql`create index webhook_attempts_webhook_idx on webhook_attempts (webhook_id, id desc)`.execute(db);
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await db.schema.dropTable(t).execute();
}
