import { sql, type Kysely } from 'kysely';

/**
 * A pushed file's content in parts of 128 KiB: one 15 MiB value written in one statement
 * holds the embedded database (and with it every other request) for seconds; parts are
 * written one short statement at a time. `files.content` stays for files stored before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_parts')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_parts_pkey', ['file_id', 'part'])
    .execute();
  await sql`alter table files alter column content drop not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_parts').execute();
}
