import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Authenticator, Caller } from '../kernel/context.ts';
import { isLanguage } from '../kernel/i18n.ts';
import type { Clock } from '../kernel/time.ts';
import { findUserById, findUserBySession, type UserRecord } from './store.ts';
import type { TokenIssuer } from './tokens.ts';

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The caller a user is; `token` when already verified, else derived (sessions, login). */
export function callerFrom(user: UserRecord, tokens: TokenIssuer, token = tokens.issue(user.id, user.token_nonce)): Caller {
  return {
    userId: user.id,
    companyId: user.company_id,
    companyName: user.company_name,
    email: user.email,
    username: user.username,
    realname: user.realname,
    language: isLanguage(user.language) ? user.language : 'eng',
    token,
  };
}

/** Resolves API tokens and browser sessions to callers; one indexed lookup each, nothing cached. */
export function createAuthenticator(db: Kysely<DB>, tokens: TokenIssuer, clock: Clock): Authenticator {
  return {
    async byToken(token) {
      const userId = tokens.claimedUser(token);
      if (userId === null) return null;
      const user = await findUserById(db, userId);
      if (!user || !tokens.matches(token, user.id, user.token_nonce)) return null;
      return callerFrom(user, tokens, token);
    },
    async bySession(sessionId) {
      if (sessionId.length > 200) return null;
      const user = await findUserBySession(db, hashSessionId(sessionId), clock.now());
      return user ? callerFrom(user, tokens) : null;
    },
  };
}
