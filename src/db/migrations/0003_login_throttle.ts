import { sql, type Kysely } from 'kysely';

/** Login attempts counted in the database, so every server process throttles alike (docs/reference.md#safety). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    // The login name as typed, lower-cased (e-mail or username): counted whether or not it exists.
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index login_attempts_login_idx on login_attempts (login, at)`.execute(db);
  await sql`create index login_attempts_address_idx on login_attempts (address, at)`.execute(db);
  await sql`create index login_attempts_at_idx on login_attempts (at)`.execute(db);
  // Expired browser sessions are purged; this keeps the purge an index range.
  await sql`create index sessions_expires_idx on sessions (expires)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_attempts').execute();
  await sql`drop index if exists sessions_expires_idx`.execute(db);
}
