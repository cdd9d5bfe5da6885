import assert from 'node:assert/strict';
import type { Actor, TestApp } from './harness.ts';

/** The `name=value` pairs a response sets, ready for a Cookie header. */
export function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'];
  const list = Array.isArray(set) ? set : set ? [String(set)] : [];
  return list.map((c: string) => c.split(';')[0]!).join('; ');
}

/** The CSRF token of the first form on a page. */
export function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
}

/** Logs in through the HTML form: the session's cookie header and a CSRF token for form posts. */
export async function browserSession(app: TestApp, who: Actor): Promise<{ cookie: string; csrf: string }> {
  const form = await app.get('/users/login');
  const csrf = csrfOf(form.text);
  const jar = cookiesOf(form);
  const login = await app.post('/users/login', {
    headers: { cookie: jar },
    form: { _csrf: csrf, 'auth[user]': who.email, 'auth[password]': who.password },
  });
  assert.equal(login.status, 302);
  return { cookie: `${jar}; ${cookiesOf(login)}`, csrf };
}
