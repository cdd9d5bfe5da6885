import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { LANGUAGES, isLanguage } from '../kernel/i18n.ts';
import { forgetCachedCallers } from './authenticator.ts';
import { hashPassword, PASSWORD_COST, type PasswordCost } from './passwords.ts';
import { companyExists, emailOrUsernameTaken, findUserById, findUserByLogin } from './store.ts';
import { newNonce, type TokenIssuer } from './tokens.ts';

/** A refused account change; the message names the field and is shown as it is. */
export class AccountInputError extends Error {}

export interface NewUser {
  company: number;
  email: string;
  password: string;
  username?: string | null;
  realname?: string | null;
  language?: string | null;
}

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 1000;

export async function createCompany(db: Kysely<DB>, name: string): Promise<{ id: number; name: string }> {
  const trimmed = name.trim();
  if (!trimmed) throw new AccountInputError('--name: a company needs a name');
  if (trimmed.length > 200) throw new AccountInputError('--name: at most 200 characters');
  const row = await db.insertInto('companies').values({ name: trimmed }).returning(['id', 'name']).executeTakeFirstOrThrow();
  return row;
}

/**
 * A user of a company, with its API token. `cost`: scrypt's parameters for the password, the
 * exchange's own unless given (the test harness's many throwaway users take a lower one).
 */
export async function createUser(db: Kysely<DB>, tokens: TokenIssuer, input: NewUser, cost: Readonly<PasswordCost> = PASSWORD_COST) {
  const email = input.email.trim();
  const username = input.username?.trim() || null;
  const language = input.language?.trim() || 'eng';
  if (!Number.isSafeInteger(input.company) || input.company <= 0) throw new AccountInputError('--company: must be a company id');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw new AccountInputError(`--email: "${input.email}" is not an e-mail address`);
  checkNewPassword(input.password);
  if (username !== null && (username.includes('@') || /\s/.test(username) || username.length > 100)) {
    throw new AccountInputError('--username: no spaces, no "@", at most 100 characters');
  }
  if (!isLanguage(language)) throw new AccountInputError(`--language: one of ${LANGUAGES.join(', ')}`);
  if (!(await companyExists(db, input.company))) throw new AccountInputError(`--company: no company with id ${input.company}`);
  const taken = await emailOrUsernameTaken(db, email, username);
  if (taken)
    throw new AccountInputError(taken === 'email' ? `--email: ${email} is already registered` : `--username: ${username} is already taken`);

  const nonce = newNonce();
  const row = await db
    .insertInto('users')
    .values({
      company_id: input.company,
      email,
      username,
      realname: input.realname?.trim() || '',
      language,
      password_hash: await hashPassword(input.password, cost),
      token_nonce: nonce,
    })
    .returning(['id', 'company_id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, company: row.company_id, email, token: tokens.issue(row.id, nonce) };
}

/** A user named by id or by e-mail/username, as the admin command line accepts it. */
async function findUser(db: Kysely<DB>, ref: string) {
  const byId = /^\d{1,10}$/.test(ref) && Number(ref) <= 2147483647 ? await findUserById(db, Number(ref)) : undefined;
  const user = byId ?? (await findUserByLogin(db, ref));
  if (!user) throw new AccountInputError(`--user: no user "${ref.slice(0, 100)}" (an id, e-mail or username)`);
  return user;
}

/**
 * A new API token for a user (the old one is a 401 from now on): a new nonce, since the token is
 * derived from it. For a leaked token; docs/reference.md#the-api's tokens otherwise never change. The user's browser
 * sessions end with it, as with a password change: whoever leaked the token may hold a session
 * too. (A session's answers never carry the token, render.tsx envelope.)
 */
export async function rotateToken(db: Kysely<DB>, tokens: TokenIssuer, ref: string) {
  const user = await findUser(db, ref);
  const nonce = newNonce();
  const sessionsEnded = await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ token_nonce: nonce }).where('id', '=', user.id).execute();
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    return Number(ended.numDeletedRows);
  });
  forgetCachedCallers(user.id);
  return { id: user.id, email: user.email, token: tokens.issue(user.id, nonce), sessions_ended: sessionsEnded };
}

export function checkNewPassword(password: string, field = '--password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AccountInputError(`${field}: at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new AccountInputError(`${field}: at most ${MAX_PASSWORD_LENGTH} characters`);
}

/**
 * Sets a user's password and ends their browser sessions (all of them, or all but `keepSession`,
 * the hash of the session that made the change). The API token stays (docs/reference.md#the-api: it does not rotate).
 */
export async function setPassword(db: Kysely<DB>, userId: number, password: string, keepSession?: string): Promise<number> {
  checkNewPassword(password);
  const hash = await hashPassword(password);
  const sessionsEnded = await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    let ended = trx.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepSession) ended = ended.where('id_hash', '<>', keepSession);
    const result = await ended.executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  forgetCachedCallers(userId);
  return sessionsEnded;
}

export async function setPasswordOf(db: Kysely<DB>, ref: string, password: string) {
  checkNewPassword(password);
  const user = await findUser(db, ref);
  const sessionsEnded = await setPassword(db, user.id, password);
  return { id: user.id, email: user.email, sessions_ended: sessionsEnded };
}
