import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Login throttling (decisions.md §9): 10 failed logins for one login name, or 100 from one
 * client address, within 10 minutes, and further attempts answer 429 until the window has
 * passed, even with the right password. Counted in the database, so every server process
 * agrees.
 *
 * An attempt is written before the password is checked and counted with everything else in
 * the window, so parallel attempts count each other (80 at once cannot all slip under the
 * limit). A refused attempt is taken back (it is no failure: the block ends when the window
 * has passed); so is a successful one.
 */
export const WINDOW_MS = 10 * 60_000;
export const MAX_FAILURES_PER_LOGIN = 10;
export const MAX_FAILURES_PER_ADDRESS = 100;

/**
 * What failures are counted against: the user, however named (e-mail or username, any case),
 * or the name as typed when no user has it.
 */
export function attemptKey(user: { id: number } | undefined, login: string): string {
  return user ? `user:${user.id}` : `name:${login.trim().toLowerCase()}`;
}

export type Attempt = { kind: 'allowed'; id: number } | { kind: 'throttled'; retryAfterSeconds: number };

export async function beginLoginAttempt(db: Kysely<DB>, login: string, address: string, now: Date): Promise<Attempt> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const { id } = await db.insertInto('login_attempts').values({ login, address, at: now }).returning('id').executeTakeFirstOrThrow();
  const counts = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) filter (where login = ${login})`.as('by_login'),
      sql<number>`count(*) filter (where address = ${address})`.as('by_address'),
    ])
    .where('at', '>', since)
    .where((eb) => eb.or([eb('login', '=', login), eb('address', '=', address)]))
    .executeTakeFirstOrThrow();
  // The counts include this attempt: the limit is on the failures before it.
  const loginBlocked = Number(counts.by_login) > MAX_FAILURES_PER_LOGIN;
  const addressBlocked = Number(counts.by_address) > MAX_FAILURES_PER_ADDRESS;
  if (!loginBlocked && !addressBlocked) return { kind: 'allowed', id };
  await endLoginAttempt(db, id);
  const until = Math.max(
    loginBlocked ? await unblockedAt(db, 'login', login, MAX_FAILURES_PER_LOGIN, since) : 0,
    addressBlocked ? await unblockedAt(db, 'address', address, MAX_FAILURES_PER_ADDRESS, since) : 0,
  );
  return { kind: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
}

/** When the limit-th newest failure leaves the window, fewer than `limit` remain in it. */
async function unblockedAt(db: Kysely<DB>, column: 'login' | 'address', value: string, limit: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where(column, '=', value)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  return row ? row.at.getTime() + WINDOW_MS : since.getTime() + WINDOW_MS;
}

/** A successful (or refused) attempt is no failure. */
export async function endLoginAttempt(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('login_attempts').where('id', '=', id).execute();
}

/** Attempts older than the window count for nothing; expired sessions open nothing. */
export async function purgeExpired(db: Kysely<DB>, now: Date): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where('at', '<', new Date(now.getTime() - WINDOW_MS))
    .execute();
  await db.deleteFrom('sessions').where('expires', '<', now).execute();
}
