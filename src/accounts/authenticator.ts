import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Authenticator, Caller } from '../kernel/context.ts';
import { isLanguage } from '../kernel/i18n.ts';
import type { Clock } from '../kernel/time.ts';
import type { Listen } from '../db/connection.ts';
import { findUserById, findUserBySession, findUsersByIds, type UserRecord } from './store.ts';
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
 * While the server listens, every TOKEN_REFRESH_MS the tokens used since their last lookup and
 * at least half of TOKEN_CACHE_MS old are looked up again, all in one statement, so that a token
 * in steady use never makes a request wait for its lookup (docs/benchmarks.md, "Where the view's
 * time went at a million freights": with 500 companies asking, a third of the views waited for one).
 */
export const TOKEN_REFRESH_MS = 250;
const REFRESH_AFTER_MS = TOKEN_CACHE_MS / 2;

interface CachedCaller {
  caller: Caller;
  /** when the lookup it came from was sent (performance.now()) */
  at: number;
  /** served since that lookup: worth looking up again before it expires */
  used: boolean;
}

/** Looks up the callers of many tokens at once: the caller of each token still valid, by token. */
type LookupMany = (tokens: readonly string[]) => Promise<Map<string, Caller>>;

/**
 * Verified tokens, for at most TOKEN_CACHE_MS (docs/architecture.md, Authentication cache).
 * Only successes are kept: a wrong token always reaches the database (and the HMAC check).
 * Lookups of the same token in flight at once share one query.
 */
class TokenCache {
  private readonly entries = new Map<string, CachedCaller>();
  private readonly loading = new Map<string, Promise<Caller | null>>();
  /** Bumped by `forget`: a lookup started before it does not store its (maybe stale) result. */
  private epoch = 0;

  constructor(
    private readonly lookup: (token: string) => Promise<Caller | null>,
    private readonly lookupMany: LookupMany,
  ) {}

  get(token: string): Promise<Caller | null> {
    const hit = this.entries.get(token);
    if (hit && performance.now() - hit.at < TOKEN_CACHE_MS) {
      hit.used = true;
      return Promise.resolve(hit.caller);
    }
    return this.loading.get(token) ?? this.load(token);
  }

  /**
   * Looks up again, in one statement, the tokens served since their last lookup that are at
   * least REFRESH_AFTER_MS old: each gets the caller read now and the time this lookup was sent
   * (so none is ever older than TOKEN_CACHE_MS), or goes when its token is no longer valid.
   * Tokens nobody used meanwhile are left to expire.
   */
  async refresh(): Promise<void> {
    const sent = performance.now();
    const due = [...this.entries].filter(([, e]) => e.used && sent - e.at >= REFRESH_AFTER_MS);
    if (!due.length) return;
    const callers = await this.lookupMany(due.map(([token]) => token));
    for (const [token, entry] of due) {
      // Forgotten (forgetCachedCallers) or looked up anew meanwhile: that one stands.
      if (this.entries.get(token) !== entry) continue;
      const caller = callers.get(token);
      if (caller) this.entries.set(token, { caller: Object.freeze(caller), at: sent, used: false });
      else this.entries.delete(token);
    }
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
          this.entries.set(token, { caller: Object.freeze(caller), at, used: false });
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
    this.forgetWhere(userId === undefined ? () => true : (c) => c.userId === userId);
  }

  /** Drops the callers of a company (renamed or deleted: `companyName` is part of a caller). */
  forgetCompany(companyId: number): void {
    this.forgetWhere((c) => c.companyId === companyId);
  }

  private forgetWhere(matches: (caller: Caller) => boolean): void {
    this.epoch++;
    for (const [token, entry] of this.entries) if (matches(entry.caller)) this.entries.delete(token);
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
export interface TokenAuthenticator extends Authenticator {
  /** Looks up again the tokens in steady use (TokenCache.refresh); the app runs it every TOKEN_REFRESH_MS while it listens. */
  refreshTokens(): Promise<void>;
  /**
   * A notification of CALLER_CHANNEL (`u<user id>`, `c<company id>`): that user's or company's
   * callers are forgotten at once; anything else (or null: notifications were missed) forgets all.
   */
  callerChanged(payload: string | null): void;
}

/**
 * The channel on which the database announces a changed caller (migration 0409, a trigger on
 * users and companies): every process listening drops it from its token cache at the commit.
 */
export const CALLER_CHANNEL = 'fx_callers';

export function createAuthenticator(db: Kysely<DB>, tokens: TokenIssuer, clock: Clock): TokenAuthenticator {
  const verified = (token: string, user: UserRecord | undefined) =>
    user && tokens.matches(token, user.id, user.token_nonce) ? callerFrom(user, tokens, token) : null;
  const byToken = new TokenCache(
    async (token) => {
      const userId = tokens.claimedUser(token);
      return userId === null ? null : verified(token, await findUserById(db, userId));
    },
    async (list) => {
      // Each token's claimed user read once (only verified tokens are cached, so each claims one).
      const claims = list.map((token) => [token, tokens.claimedUser(token) ?? 0] as const);
      const users = new Map((await findUsersByIds(db, [...new Set(claims.map(([, id]) => id))])).map((u) => [u.id, u]));
      const callers = new Map<string, Caller>();
      for (const [token, userId] of claims) {
        const caller = verified(token, users.get(userId));
        if (caller) callers.set(token, caller);
      }
      return callers;
    },
  );
  caches.add(new WeakRef(byToken));
  return {
    refreshTokens: () => byToken.refresh(),
    callerChanged(payload) {
      const id = payload ? Number(payload.slice(1)) : Number.NaN;
      if (Number.isInteger(id) && payload?.startsWith('u')) byToken.forget(id);
      else if (Number.isInteger(id) && payload?.startsWith('c')) byToken.forgetCompany(id);
      else byToken.forget();
    },
    byToken(token) {
      // Malformed tokens never reach the cache or the database.
      if (tokens.claimedUser(token) === null) return Promise.resolve(null);
      return byToken.get(token);
    },
    async bySession(sessionId) {
      if (sessionId.length > 200) return null;
      const user = await findUserBySession(db, hashSessionId(sessionId), clock.now());
      return user ? { ...callerFrom(user, tokens), session: true } : null;
    },
  };
}

/**
 * Runs the token refresh every TOKEN_REFRESH_MS while the server listens, one at a time; a failed
 * one (the database away) is logged, its tokens expire as they would without it. Closing waits for
 * the one under way. With `listen`, the process also listens on CALLER_CHANNEL while the server
 * listens: a caller changed by any process (or by SQL) is dropped at the commit, and when the
 * listening connection was lost (notifications missed) every cached caller is dropped.
 */
export function attachTokenRefresh(http: FastifyInstance, auth: TokenAuthenticator, listen?: Listen): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  if (listen) {
    http.addHook('onListen', async () => {
      unlisten ??= listen(
        CALLER_CHANNEL,
        (payload) => auth.callerChanged(payload),
        () => auth.callerChanged(null),
      ).catch((err: unknown) => {
        // Without the channel the cache still honours a change within TOKEN_CACHE_MS.
        http.log.warn({ err }, 'listening for changed callers failed');
        return undefined;
      });
      await unlisten;
    });
    http.addHook('onClose', async () => {
      const stop = await unlisten;
      unlisten = undefined;
      await stop?.();
    });
  }
  const turn = () => {
    running ??= auth
      .refreshTokens()
      .catch((err: unknown) => http.log.warn({ err }, 'token refresh failed'))
      .finally(() => {
        running = undefined;
      });
  };
  http.addHook('onListen', async () => {
    timer ??= setInterval(turn, TOKEN_REFRESH_MS).unref();
  });
  http.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
