import { sql, type Kysely } from 'kysely';

/**
 * A user's marks on market loads (issue 47, item 11; docs/choices.md, "Hidden and seen loads"):
 * one row per user and freight, `seen` when the user first opened the freight's page, `hidden`
 * while the user keeps it out of the market list. The freights module's (freights/marks.ts). The
 * partial index holds the hidden ones only: the market list reads a user's hidden ids from it once
 * per statement, the hidden view pages through it newest first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('freight_marks')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('seen', 'timestamptz')
    .addColumn('hidden', 'timestamptz')
    .addPrimaryKeyConstraint('freight_marks_pkey', ['user_id', 'freight_id'])
    .execute();
  await sql`create index freight_marks_hidden_idx on freight_marks (user_id, hidden desc, freight_id) where hidden is not null`.execute(db);
  // Deleting a freight finds its marks (the cascade) without reading every user's.
  await sql`create index freight_marks_freight_idx on freight_marks (freight_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('freight_marks').execute();
}
