import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { LANGUAGES, isLanguage } from '../kernel/i18n.ts';
import { hashPassword } from './passwords.ts';
import { companyExists, emailOrUsernameTaken } from './store.ts';
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

export async function createCompany(db: Kysely<DB>, name: string): Promise<{ id: number; name: string }> {
  const trimmed = name.trim();
  if (!trimmed) throw new AccountInputError('--name: a company needs a name');
  if (trimmed.length > 200) throw new AccountInputError('--name: at most 200 characters');
  const row = await db.insertInto('companies').values({ name: trimmed }).returning(['id', 'name']).executeTakeFirstOrThrow();
  return row;
}

export async function createUser(db: Kysely<DB>, tokens: TokenIssuer, input: NewUser) {
  const email = input.email.trim();
  const username = input.username?.trim() || null;
  const language = input.language?.trim() || 'eng';
  if (!Number.isSafeInteger(input.company) || input.company <= 0) throw new AccountInputError('--company: must be a company id');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new AccountInputError(`--email: "${input.email}" is not an e-mail address`);
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new AccountInputError(`--password: at least ${MIN_PASSWORD_LENGTH} characters`);
  if (username !== null && (username.includes('@') || /\s/.test(username) || username.length > 100)) {
    throw new AccountInputError('--username: no spaces, no "@", at most 100 characters');
  }
  if (!isLanguage(language)) throw new AccountInputError(`--language: one of ${LANGUAGES.join(', ')}`);
  if (!(await companyExists(db, input.company))) throw new AccountInputError(`--company: no company with id ${input.company}`);
  const taken = await emailOrUsernameTaken(db, email, username);
  if (taken) throw new AccountInputError(taken === 'email' ? `--email: ${email} is already registered` : `--username: ${username} is already taken`);

  const nonce = newNonce();
  const row = await db
    .insertInto('users')
    .values({
      company_id: input.company,
      email,
      username,
      realname: input.realname?.trim() || '',
      language,
      password_hash: await hashPassword(input.password),
      token_nonce: nonce,
    })
    .returning(['id', 'company_id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, company: row.company_id, email, token: tokens.issue(row.id, nonce) };
}
