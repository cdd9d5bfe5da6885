import { randomBytes } from 'node:crypto';
import { sitePath } from '../kernel/format.ts';
import { CsrfField } from '../kernel/html.tsx';
import { ok, redirect, rejected } from '../kernel/outcome.ts';
import { isRecord, readString } from '../kernel/params.ts';
import { SESSION_COOKIE, publicEndpoint, userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { callerFrom, hashSessionId } from './authenticator.ts';
import { LOGIN_DATA, LOGIN_INPUT, ME_DATA } from './schema.ts';
import { MAX_PASSWORD_LENGTH } from './commands.ts';
import { DUMMY_HASH, verifyPassword } from './passwords.ts';
import { findUserByLogin } from './store.ts';
import { beginLoginAttempt, endLoginAttempt, purgeExpired } from './throttle.ts';
import type { TokenIssuer } from './tokens.ts';

const SESSION_DAYS = 30;
/**
 * After a failed login the form shows the user name or e-mail typed (never the password) again.
 * It travels in a cookie of the login page for a minute, not in the URL, so it stays out of access
 * logs, proxies and the browser's history.
 */
const TYPED_LOGIN_COOKIE = 'fx_login';
const TYPED_LOGIN_COOKIE_OPTIONS = { path: '/users/login', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: 60 } as const;
/** Longer names and passwords are no account's; reading them costs nothing. */
const MAX_LOGIN_LENGTH = 300;

/** Only a path of this site may be a post-login target (no open redirect). */
function safeNext(value: unknown): string {
  return sitePath(readString(value)) ?? '/';
}

export function accountEndpoints(tokens: TokenIssuer): Endpoint[] {
  return [
    publicEndpoint({
      method: 'POST',
      path: '/users/login',
      doc: {
        summary: 'Log in: the API token in auth.token (it does not expire; log in once and reuse it)',
        input: LOGIN_INPUT,
        data: LOGIN_DATA,
        answers: {
          401: 'Unknown user or wrong password.',
          429: 'Too many failed logins for this user or from this address within 10 minutes (Retry-After says when to try again).',
        },
      },
      async handle(ctx) {
        // JSON `auth.user`, form `auth[user]` (same after parsing), or flat `user` from the HTML form.
        const auth = isRecord(ctx.params.auth) ? ctx.params.auth : {};
        const login = (readString(auth.user) ?? '').slice(0, MAX_LOGIN_LENGTH);
        const password = (readString(auth.password) ?? '').slice(0, MAX_PASSWORD_LENGTH);
        const now = ctx.clock.now();
        const user = login && login.length <= 254 ? await findUserByLogin(ctx.db, login) : undefined;
        const attempt = await beginLoginAttempt(ctx.db, { login, userId: user?.id }, ctx.req.ip, now);
        if (attempt.kind !== 'allowed') ctx.services.observe?.loginThrottled(attempt.kind);
        if (attempt.kind === 'throttled') {
          ctx.req.log.warn({ login: login.slice(0, 100), address: ctx.req.ip }, 'login throttled');
          ctx.reply.header('retry-after', String(attempt.retryAfterSeconds));
          const message = ctx.t('login.throttled', { minutes: Math.ceil(attempt.retryAfterSeconds / 60) });
          if (ctx.format === 'json') return rejected(429, 'login.throttled', message);
          ctx.reply.setCookie(TYPED_LOGIN_COOKIE, login, TYPED_LOGIN_COOKIE_OPTIONS);
          return redirect(`/users/login?next=${encodeURIComponent(safeNext(ctx.params.next))}`, false, message);
        }
        // A user blocked under its other name is refused like a wrong password (throttle.ts says why),
        // after the same work, so neither the answer nor its time tells the two apart.
        const hash = attempt.kind === 'user_blocked' ? DUMMY_HASH : user?.password_hash;
        const valid = await verifyPassword(password, hash ?? DUMMY_HASH);
        if (!user || !valid || attempt.kind === 'user_blocked') {
          // The attempt stays: it is a failure counted for throttling.
          ctx.req.log.info({ login: login.slice(0, 100) }, 'login failed');
          if (ctx.format === 'json') return rejected(401, 'login.failed', 'unknown user or wrong password');
          ctx.reply.setCookie(TYPED_LOGIN_COOKIE, login, TYPED_LOGIN_COOKIE_OPTIONS);
          return redirect(`/users/login?next=${encodeURIComponent(safeNext(ctx.params.next))}`, false, ctx.t('login.failed'));
        }
        await endLoginAttempt(ctx.db, attempt.id);
        await purgeExpired(ctx.db, now);
        const caller = callerFrom(user, tokens);
        ctx.caller = caller;
        if (ctx.format === 'json') {
          return ok({ user: { id: user.id, company: user.company_id, realname: user.realname, username: user.username } });
        }
        const sessionId = randomBytes(32).toString('base64url');
        const expires = new Date(ctx.clock.now().getTime() + SESSION_DAYS * 86400_000);
        await ctx.db
          .insertInto('sessions')
          .values({ id_hash: hashSessionId(sessionId), user_id: user.id, expires })
          .execute();
        ctx.reply.setCookie(SESSION_COOKIE, sessionId, { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', expires });
        return redirect(safeNext(ctx.params.next), true);
      },
    }),
    publicEndpoint({
      method: 'GET',
      path: '/users/login',
      json: false,
      async handle(ctx) {
        // Shown once: a reload after that starts from an empty form.
        const typed = (readString(ctx.req.cookies[TYPED_LOGIN_COOKIE]) ?? '').slice(0, MAX_LOGIN_LENGTH);
        if (typed) ctx.reply.clearCookie(TYPED_LOGIN_COOKIE, { path: TYPED_LOGIN_COOKIE_OPTIONS.path });
        return ok({ next: safeNext(ctx.params.next), login: typed });
      },
      page(outcome, ctx) {
        const next = outcome.kind === 'ok' ? outcome.data.next : '/';
        const typed = outcome.kind === 'ok' ? outcome.data.login : '';
        return {
          title: ctx.t('login.title'),
          body: (
            <section class="narrow">
              <h1>{ctx.t('login.title')}</h1>
              <form method="post" action="/users/login" class="stack">
                <CsrfField token={ctx.reply.generateCsrf()} />
                <input type="hidden" name="next" value={next} />
                <label>
                  {ctx.t('login.user')}
                  <input name="auth[user]" autocomplete="username" required autofocus={!typed} value={typed} />
                </label>
                <label>
                  {ctx.t('login.password')}
                  <input name="auth[password]" type="password" autocomplete="current-password" required autofocus={Boolean(typed)} />
                </label>
                <button type="submit">{ctx.t('login.submit')}</button>
              </form>
            </section>
          ),
        };
      },
    }),
    publicEndpoint({
      method: 'POST',
      path: '/users/logout',
      json: false,
      async handle(ctx) {
        const id = ctx.req.cookies[SESSION_COOKIE];
        if (id) await ctx.db.deleteFrom('sessions').where('id_hash', '=', hashSessionId(id)).execute();
        ctx.reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return redirect('/users/login', true);
      },
    }),
    userEndpoint({
      // Not in docs/reference.md#the-api: lets a client check its token and learn its user and company ids.
      method: 'GET',
      path: '/users/me',
      doc: { summary: 'The caller: user and company (an addition to api.md, to check a token)', data: ME_DATA },
      async handle(ctx) {
        const c = ctx.caller;
        return ok({
          user: {
            id: c.userId,
            email: c.email,
            username: c.username,
            realname: c.realname,
            language: c.language,
            company: { id: c.companyId, name: c.companyName },
          },
        });
      },
    }),
  ];
}
