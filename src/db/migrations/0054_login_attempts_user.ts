import { sql, type Kysely } from 'kysely';

/**
 * Login failures are counted per name as typed and, apart, per user (docs/choices.md, Login
 * throttling): `login` is now always the typed name, `user_id` the user it named, if any. Rows
 * of the old form (`user:7`, `name:x`) age out of the 10-minute window on their own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('login_attempts').addColumn('user_id', 'integer').execute();
  await sql`create index login_attempts_user_idx on login_attempts (user_id, at) where user_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists login_attempts_user_idx`.execute(db);
  await db.schema.alterTable('login_attempts').dropColumn('user_id').execute();
}
