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

export function callerFrom(user: UserRecord, tokens: TokenIssuer): Caller {
  return {
    userId: user.id,
    companyId: user.company_id,
    companyName: user.company_name,
    email: user.email,
    username: user.username,
    realname: user.realname,
    language: isLanguage(user.language) ? user.language : 'eng',
    token: tokens.issue(user.id, user.token_nonce),
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
      return callerFrom(user, tokens);
    },
    async bySession(sessionId) {
      if (sessionId.length > 200) return null;
      const user = await findUserBySession(db, hashSessionId(sessionId), clock.now());
      return user ? callerFrom(user, tokens) : null;
    },
  };
}
