import { sql, type Kysely } from 'kysely';

/**
 * Links without an account (links/tables.ts; docs/reference.md#tracking, #ecmr). Only the token's SHA-256 is
 * stored, so a copy of the database opens no page. A link belongs to its freight: deleting the
 * freight deletes its links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('freight_links')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('tracking', 'cmr')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('expires', 'timestamptz', (c) => c.notNull())
    .addColumn('ended', 'timestamptz')
    .execute();
  await db.schema.createIndex('freight_links_freight_idx').on('freight_links').columns(['freight_id', 'purpose']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('freight_links').execute();
}
