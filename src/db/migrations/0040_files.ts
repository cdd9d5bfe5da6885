import { sql, type Kysely } from 'kysely';

/** Files received by file push (POST /files/push.json), with their outcome. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // null when the push named no action
    .addColumn('action', 'text')
    // how the content arrived: base64 | plain
    .addColumn('encoding', 'text', (c) => c.notNull())
    // decoded size in bytes, and its SHA-256 (hex): duplicates and audits without reading content
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // the decoded content itself, kept for audit and re-processing (size-limited by the endpoint)
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
    // processed | ignored (unknown action)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    // action `rates`: the rate sheet the file became
    .addColumn('sheet_id', 'integer', (c) => c.references('rate_sheets.id').onDelete('set null'))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index files_company_idx on files (company_id, created desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('files').execute();
}
