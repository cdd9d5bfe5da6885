import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The account row a caller is built from. */
export interface UserRecord {
  id: number;
  company_id: number;
  company_name: string;
  email: string;
  username: string | null;
  realname: string;
  language: string;
  password_hash: string;
  token_nonce: string;
}

function usersWithCompany(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.id',
      'users.company_id',
      'companies.name as company_name',
      'users.email',
      'users.username',
      'users.realname',
      'users.language',
      'users.password_hash',
      'users.token_nonce',
    ]);
}

export function findUserById(db: Kysely<DB>, id: number): Promise<UserRecord | undefined> {
  return usersWithCompany(db).where('users.id', '=', id).executeTakeFirst();
}

/** The users of these ids that exist (at most TOKEN_CACHE_SIZE at once: the token cache's refresh). */
export function findUsersByIds(db: Kysely<DB>, ids: readonly number[]): Promise<UserRecord[]> {
  return usersWithCompany(db)
    .where(sql<boolean>`users.id = any(${[...ids]}::int[])`)
    .execute();
}

/** Login accepts the e-mail or the username, both case-insensitive. */
export function findUserByLogin(db: Kysely<DB>, login: string): Promise<UserRecord | undefined> {
  const key = login.trim().toLowerCase();
  return usersWithCompany(db)
    .where((eb) => eb.or([eb(sql`lower(users.email)`, '=', key), eb(sql`lower(users.username)`, '=', key)]))
    .orderBy('users.id')
    .executeTakeFirst();
}

export function findUserBySession(db: Kysely<DB>, idHash: string, now: Date): Promise<UserRecord | undefined> {
  return usersWithCompany(db)
    .innerJoin('sessions', 'sessions.user_id', 'users.id')
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires', '>', now)
    .executeTakeFirst();
}

export async function companyExists(db: Kysely<DB>, id: number): Promise<boolean> {
  return !!(await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());
}

export async function emailOrUsernameTaken(db: Kysely<DB>, email: string, username: string | null): Promise<string | null> {
  const lowered = [email.toLowerCase(), ...(username ? [username.toLowerCase()] : [])];
  const row = await db
    .selectFrom('users')
    .select(['email', 'username'])
    .where((eb) => eb.or([eb(sql`lower(email)`, 'in', lowered), eb(sql`lower(username)`, 'in', lowered)]))
    .executeTakeFirst();
  if (!row) return null;
  return row.email.toLowerCase() === email.toLowerCase() ? 'email' : 'username';
}

/** A user as mail addresses them (src/mail): whom, in which language. */
export interface Addressee {
  id: number;
  company_id: number;
  email: string;
  realname: string;
  language: string;
}

/** The users of these companies (mail: an event's recipient company is told through its users). */
export function usersOfCompanies(db: Kysely<DB>, companyIds: readonly number[]): Promise<Addressee[]> {
  if (!companyIds.length) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'company_id', 'email', 'realname', 'language'])
    .where(sql<boolean>`company_id = any(${[...new Set(companyIds)]}::int[])`)
    .orderBy('id')
    .execute();
}

/** These users as mail addresses them (those that exist). */
export function addressees(db: Kysely<DB>, ids: readonly number[]): Promise<Addressee[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'company_id', 'email', 'realname', 'language'])
    .where(sql<boolean>`id = any(${[...new Set(ids)]}::int[])`)
    .execute();
}
