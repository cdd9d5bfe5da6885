import type { Ctx } from '../kernel/context.ts';
import { CsrfField } from '../kernel/html.tsx';
import { fail, ok, rejected } from '../kernel/outcome.ts';
import { readString } from '../kernel/params.ts';
import { SESSION_COOKIE, userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { hashSessionId } from './authenticator.ts';
import { AccountInputError, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, setPassword } from './commands.ts';
import { verifyPassword } from './passwords.ts';
import { PASSWORD_DATA, PASSWORD_INPUT } from './schema.ts';
import { findUserById } from './store.ts';
import { beginLoginAttempt, endLoginAttempt } from './throttle.ts';

const text = (value: unknown) => (readString(value) ?? '').slice(0, MAX_PASSWORD_LENGTH + 1);

/**
 * POST /users/password (page and `.json`): the caller changes their own password with the
 * current one. A wrong current password counts as a failed login (throttling, docs/reference.md#safety).
 */
async function changePassword(ctx: Ctx) {
  const current = text(ctx.params.current_password);
  const next = text(ctx.params.password);
  const repeat = ctx.params.password_repeat;
  const user = await findUserById(ctx.db, ctx.caller.userId);
  if (!user) return fail(ctx.t, 'password.wrong_current');
  const attempt = await beginLoginAttempt(ctx.db, { login: user.email, userId: user.id }, ctx.req.ip, ctx.clock.now());
  // The caller is the user: a block under its username may be named here.
  if (attempt.kind !== 'allowed') {
    ctx.services.observe?.loginThrottled(attempt.kind);
    if (attempt.kind === 'user_blocked') await endLoginAttempt(ctx.db, attempt.id);
    ctx.reply.header('retry-after', String(attempt.retryAfterSeconds));
    return rejected(429, 'login.throttled', ctx.t('login.throttled', { minutes: Math.ceil(attempt.retryAfterSeconds / 60) }));
  }
  if (!(await verifyPassword(current, user.password_hash))) return fail(ctx.t, 'password.wrong_current');
  await endLoginAttempt(ctx.db, attempt.id);
  if (repeat !== undefined && text(repeat) !== next) return fail(ctx.t, 'password.mismatch');
  const session = ctx.format === 'html' ? ctx.req.cookies[SESSION_COOKIE] : undefined;
  try {
    await setPassword(ctx.db, user.id, next, session ? hashSessionId(session) : undefined);
  } catch (err) {
    // The new password's length (commands.ts checkNewPassword, the command line's rule too).
    if (err instanceof AccountInputError) return fail(ctx.t, 'password.length', { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH });
    throw err;
  }
  return ok({ user: { id: user.id } });
}

export function passwordEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/users/password',
      json: false,
      handle: async () => ok({}),
      page: (_outcome, ctx) => ({
        title: ctx.t('password.title'),
        body: (
          <section class="narrow">
            <h1>{ctx.t('password.title')}</h1>
            <p class="hint">{ctx.t('password.hint')}</p>
            <form method="post" action="/users/password" class="stack">
              <CsrfField token={ctx.reply.generateCsrf()} />
              <input type="hidden" name="username" value={ctx.caller.email} autocomplete="username" />
              <label>
                {ctx.t('password.current')}
                <input name="current_password" type="password" autocomplete="current-password" required />
              </label>
              <label>
                {ctx.t('password.new')}
                <input name="password" type="password" autocomplete="new-password" minLength={6} required />
              </label>
              <label>
                {ctx.t('password.repeat')}
                <input name="password_repeat" type="password" autocomplete="new-password" minLength={6} required />
              </label>
              <button type="submit">{ctx.t('password.submit')}</button>
            </form>
          </section>
        ),
      }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/users/password',
      doc: {
        summary: 'Change the caller’s password (ends their other browser sessions; the API token stays)',
        input: PASSWORD_INPUT,
        data: PASSWORD_DATA,
        answers: { 429: 'Too many wrong current passwords (they count as failed logins).' },
      },
      handle: changePassword,
      page: (outcome, ctx) => ({
        redirect: '/users/password',
        ok: outcome.kind === 'ok',
        message: outcome.kind === 'ok' ? ctx.t('password.changed') : outcome.message,
      }),
    }),
  ];
}
