import { sql, type Kysely } from 'kysely';

/**
 * Every process drops a changed caller from its token cache at once (issue 49; docs/choices.md,
 * "The token cache, dropped by NOTIFY"): a change of what a token's caller is — the user's nonce
 * (a rotated token), company, e-mail, name or language, the user deleted, the company renamed or
 * deleted — sends `u<user id>` or `c<company id>` on the channel `fx_callers`, delivered at the
 * commit to every process listening (accounts/authenticator.ts). A trigger, so that no write
 * path (the CLI, an operator's SQL, a module above accounts) can forget to say so.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function fx_caller_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('fx_callers', case when tg_table_name = 'users' then 'u' else 'c' end || old.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger users_caller_changed
    after update of token_nonce, company_id, email, username, realname, language or delete on users
    for each row execute function fx_caller_changed()`.execute(db);
  await sql`create trigger companies_caller_changed after update of name or delete on companies
    for each row execute function fx_caller_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists companies_caller_changed on companies`.execute(db);
  await sql`drop trigger if exists users_caller_changed on users`.execute(db);
  await sql`drop function if exists fx_caller_changed()`.execute(db);
}
