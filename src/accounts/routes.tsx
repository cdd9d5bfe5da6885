import { randomBytes } from 'node:crypto';
import { CsrfField } from '../kernel/html.tsx';
import { notFound, ok, redirect, rejected } from '../kernel/outcome.ts';
import { isRecord, readString } from '../kernel/params.ts';
import { SESSION_COOKIE, publicEndpoint, userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { callerFrom, hashSessionId } from './authenticator.ts';
import { DUMMY_HASH, verifyPassword } from './passwords.ts';
import { findUserByLogin } from './store.ts';
import type { TokenIssuer } from './tokens.ts';

const SESSION_DAYS = 30;

/** Only a local path may be a post-login target (no open redirect). */
function safeNext(value: unknown): string {
  const next = readString(value);
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export function accountEndpoints(tokens: TokenIssuer): Endpoint[] {
  return [
    publicEndpoint({
      method: 'POST',
      path: '/users/login',
      async handle(ctx) {
        // JSON `auth.user`, form `auth[user]` (same after parsing), or flat `user` from the HTML form.
        const auth = isRecord(ctx.params.auth) ? ctx.params.auth : {};
        const login = readString(auth.user) ?? '';
        const password = readString(auth.password) ?? '';
        const user = login && login.length <= 254 ? await findUserByLogin(ctx.db, login) : undefined;
        const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
        if (!user || !valid) {
          ctx.req.log.info({ login: login.slice(0, 100) }, 'login failed');
          if (ctx.format === 'json') return rejected(401, 'unknown user or wrong password');
          return redirect(`/users/login?next=${encodeURIComponent(safeNext(ctx.params.next))}`, false, ctx.t('login.failed'));
        }
        const caller = callerFrom(user, tokens);
        ctx.caller = caller;
        if (ctx.format === 'json') {
          return ok({ user: { id: user.id, company: user.company_id, realname: user.realname, username: user.username } });
        }
        const sessionId = randomBytes(32).toString('base64url');
        const expires = new Date(ctx.clock.now().getTime() + SESSION_DAYS * 86400_000);
        await ctx.db.insertInto('sessions').values({ id_hash: hashSessionId(sessionId), user_id: user.id, expires }).execute();
        ctx.reply.setCookie(SESSION_COOKIE, sessionId, { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', expires });
        return redirect(safeNext(ctx.params.next), true);
      },
    }),
    publicEndpoint({
      method: 'GET',
      path: '/users/login',
      async handle(ctx) {
        return ctx.format === 'json' ? notFound() : ok({ next: safeNext(ctx.params.next) });
      },
      page(outcome, ctx) {
        const { next } = outcome.data as { next: string };
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
                  <input name="auth[user]" autocomplete="username" required autofocus />
                </label>
                <label>
                  {ctx.t('login.password')}
                  <input name="auth[password]" type="password" autocomplete="current-password" required />
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
      async handle(ctx) {
        const id = ctx.req.cookies[SESSION_COOKIE];
        if (id) await ctx.db.deleteFrom('sessions').where('id_hash', '=', hashSessionId(id)).execute();
        ctx.reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return redirect('/users/login', true);
      },
    }),
    userEndpoint({
      // Not in api.md: lets a client check its token and learn its user and company ids.
      method: 'GET',
      path: '/users/me',
      async handle(ctx) {
        const c = ctx.caller;
        return ok({ user: { id: c.userId, email: c.email, username: c.username, realname: c.realname, language: c.language, company: { id: c.companyId, name: c.companyName } } });
      },
    }),
    userEndpoint({
      method: 'GET',
      path: '/',
      async handle(ctx) {
        return ok({ user: { id: ctx.caller.userId, company: ctx.caller.companyId } });
      },
      page(_outcome, ctx) {
        return {
          title: ctx.t('home.title'),
          body: (
            <section>
              <h1>{ctx.t('home.title')}</h1>
              <p>{ctx.t('home.welcome', { name: ctx.caller.realname || ctx.caller.email })}</p>
            </section>
          ),
        };
      },
    }),
  ];
}
