import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Login throttling (docs/reference.md#safety): 10 failed logins for one login name, or 100 from one
 * client address, within 10 minutes, and further attempts answer 429 until the window has
 * passed, even with the right password. Counted in the database, so every server process
 * agrees.
 *
 * An attempt is written before the password is checked and counted with everything else in
 * the window, so parallel attempts count each other (80 at once cannot all slip under the
 * limit). A refused attempt is taken back (it is no failure: the block ends when the window
 * has passed); so is a successful one.
 *
 * A user has two names (e-mail and username). Failures are counted per name as typed, which
 * decides the 429, and per user across both names. A user blocked under one name is refused
 * under the other too, but the login answers that like a wrong password: a 429 there would tell
 * an outsider that this e-mail and that username are one account (docs/choices.md).
 */
export const WINDOW_MS = 10 * 60_000;
export const MAX_FAILURES_PER_LOGIN = 10;
export const MAX_FAILURES_PER_ADDRESS = 100;

/** Who an attempt is for: the name as typed and the user it names, if any. */
export interface AttemptFor {
  login: string;
  userId: number | undefined;
}

/** The name failures are counted against: as typed, any case. */
export const attemptName = (login: string) => login.trim().toLowerCase();

export type Attempt =
  | { kind: 'allowed'; id: number }
  /** The name or the address is blocked: the answer may say so (429), it tells nothing about accounts. */
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** The user is blocked under its other name: refuse without checking the password, counted as a failure. */
  | { kind: 'user_blocked'; id: number; retryAfterSeconds: number };

export async function beginLoginAttempt(db: Kysely<DB>, who: AttemptFor, address: string, now: Date): Promise<Attempt> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const login = attemptName(who.login);
  const userId = who.userId ?? null;
  const { id } = await db
    .insertInto('login_attempts')
    .values({ login, address, at: now, user_id: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const counts = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) filter (where login = ${login})`.as('by_login'),
      sql<number>`count(*) filter (where address = ${address})`.as('by_address'),
      sql<number>`count(*) filter (where user_id = ${userId})`.as('by_user'),
    ])
    .where('at', '>', since)
    .where((eb) => eb.or([eb('login', '=', login), eb('address', '=', address), ...(userId === null ? [] : [eb('user_id', '=', userId)])]))
    .executeTakeFirstOrThrow();
  // The counts include this attempt: the limit is on the failures before it.
  const loginBlocked = Number(counts.by_login) > MAX_FAILURES_PER_LOGIN;
  const addressBlocked = Number(counts.by_address) > MAX_FAILURES_PER_ADDRESS;
  const userBlocked = Number(counts.by_user) > MAX_FAILURES_PER_LOGIN;
  if (!loginBlocked && !addressBlocked && !userBlocked) return { kind: 'allowed', id };
  if (!loginBlocked && !addressBlocked) {
    const until = await unblockedAt(db, 'user_id', userId!, MAX_FAILURES_PER_LOGIN, since);
    return { kind: 'user_blocked', id, retryAfterSeconds: secondsUntil(until, now) };
  }
  await endLoginAttempt(db, id);
  const until = Math.max(
    loginBlocked ? await unblockedAt(db, 'login', login, MAX_FAILURES_PER_LOGIN, since) : 0,
    addressBlocked ? await unblockedAt(db, 'address', address, MAX_FAILURES_PER_ADDRESS, since) : 0,
  );
  return { kind: 'throttled', retryAfterSeconds: secondsUntil(until, now) };
}

const secondsUntil = (until: number, now: Date) => Math.max(1, Math.ceil((until - now.getTime()) / 1000));

/** When the limit-th newest failure leaves the window, fewer than `limit` remain in it. */
async function unblockedAt(
  db: Kysely<DB>,
  column: 'login' | 'address' | 'user_id',
  value: string | number,
  limit: number,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom('login_attempts')
    .select('at')
    .where(column, '=', value as never)
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
