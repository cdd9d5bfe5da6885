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

/**
 * How long a verified API token's caller is served from memory. It is also the longest a change
 * of the user takes to be honoured on every server process (token rotation changes
 * `users.token_nonce`, a password change, a deleted user, a new name or language): an entry is
 * never older than this, counted from the moment its lookup was sent to the database.
 */
export const TOKEN_CACHE_MS = 1_000;
/** At most this many tokens are remembered (the oldest go first). */
export const TOKEN_CACHE_SIZE = 10_000;

/**
 * Verified tokens, for at most TOKEN_CACHE_MS (docs/architecture.md, Authentication cache).
 * Only successes are kept: a wrong token always reaches the database (and the HMAC check).
 * Lookups of the same token in flight at once share one query.
 */
class TokenCache {
  private readonly entries = new Map<string, { caller: Caller; at: number }>();
  private readonly loading = new Map<string, Promise<Caller | null>>();
  /** Bumped by `forget`: a lookup started before it does not store its (maybe stale) result. */
  private epoch = 0;

  constructor(private readonly lookup: (token: string) => Promise<Caller | null>) {}

  get(token: string): Promise<Caller | null> {
    const hit = this.entries.get(token);
    if (hit && performance.now() - hit.at < TOKEN_CACHE_MS) return Promise.resolve(hit.caller);
    return this.loading.get(token) ?? this.load(token);
  }

  private load(token: string): Promise<Caller | null> {
    const at = performance.now();
    const epoch = this.epoch;
    const pending = this.lookup(token).then(
      (caller) => {
        this.loading.delete(token);
        this.entries.delete(token);
        if (caller && epoch === this.epoch) {
          if (this.entries.size >= TOKEN_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
          this.entries.set(token, { caller: Object.freeze(caller), at });
        }
        return caller;
      },
      (err: unknown) => {
        this.loading.delete(token);
        throw err;
      },
    );
    this.loading.set(token, pending);
    return pending;
  }

  /** Drops what is remembered of a user (or of everyone): this process honours a change at once. */
  forget(userId?: number): void {
    this.epoch++;
    for (const [token, entry] of this.entries) if (userId === undefined || entry.caller.userId === userId) this.entries.delete(token);
  }
}

/** Every token cache of this process (one per app), for `forgetCachedCallers`. */
const caches = new Set<WeakRef<TokenCache>>();

/**
 * Makes every app of this process forget a changed user now (token rotated, password set, user
 * deleted); other processes follow within TOKEN_CACHE_MS by themselves. Call after the commit.
 */
export function forgetCachedCallers(userId?: number): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) cache.forget(userId);
    else caches.delete(ref);
  }
}

/**
 * Resolves API tokens (cached for at most TOKEN_CACHE_MS, see above) and browser sessions (one
 * indexed lookup each, not cached: a logout ends the session at once).
 */
export function createAuthenticator(db: Kysely<DB>, tokens: TokenIssuer, clock: Clock): Authenticator {
  const byToken = new TokenCache(async (token) => {
    const userId = tokens.claimedUser(token);
    if (userId === null) return null;
    const user = await findUserById(db, userId);
    if (!user || !tokens.matches(token, user.id, user.token_nonce)) return null;
    return callerFrom(user, tokens, token);
  });
  caches.add(new WeakRef(byToken));
  return {
    byToken(token) {
      // Malformed tokens never reach the cache or the database.
      if (tokens.claimedUser(token) === null) return Promise.resolve(null);
      return byToken.get(token);
    },
    async bySession(sessionId) {
      if (sessionId.length > 200) return null;
      const user = await findUserBySession(db, hashSessionId(sessionId), clock.now());
      return user ? callerFrom(user, tokens) : null;
    },
  };
}
