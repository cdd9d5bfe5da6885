import { sql, type Kysely } from 'kysely';

/**
 * The deal room (docs/reference.md#deal-room): the conversations beside a freight, one per other company
 * (`partner_id`), and the documents of its two parties, their bytes in the database (every
 * server process and every backup has them). A message is unread until its recipient company
 * reads the conversation; the partial index answers the header's unread count.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deal_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('partner_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('from_company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('to_company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull().check(sql`char_length(text) between 1 and 4000`))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz')
    .execute();
  await sql`create index deal_messages_freight_idx on deal_messages (freight_id, partner_id, id)`.execute(db);
  await sql`create index deal_messages_unread_idx on deal_messages (to_company_id, freight_id) where read_at is null`.execute(db);

  await db.schema
    .createTable('deal_documents')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index deal_documents_freight_idx on deal_documents (freight_id, id)`.execute(db);
  // The exchange's transport order is written once per freight, whatever the process.
  await sql`create unique index deal_documents_order_idx on deal_documents (freight_id) where kind = 'order'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deal_documents').execute();
  await db.schema.dropTable('deal_messages').execute();
}
