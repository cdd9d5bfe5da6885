import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { cookiesOf, csrfOf } from '../support/session.ts';

/** A failed login keeps what was typed as user name or e-mail in the form, and never the password. */

let app: TestApp;
let user: Actor;

before(async () => {
  app = await startTestApp();
  user = await app.actor('Shipper');
});
after(() => app?.close());

/** The value of the login form's user field, or null when it has none. */
const typedUser = (html: string) => /<input name="auth\[user\]"[^>]*?value="([^"]*)"/.exec(html)?.[1] ?? null;

async function failLogin(login: string, password: string) {
  const form = await app.get('/users/login?next=%2Ffreights%2Fenlist%2F10');
  const jar = cookiesOf(form);
  const res = await app.post('/users/login', {
    headers: { cookie: jar },
    form: { _csrf: csrfOf(form.text), next: '/freights/enlist/10', 'auth[user]': login, 'auth[password]': password },
  });
  return { res, jar };
}

describe('the login form after a failure', () => {
  test('shows the e-mail typed again, once; the password is in no header, cookie or page', async () => {
    const password = 'Wrong-Secret-4711';
    const { res, jar } = await failLogin(user.email, password);
    assert.equal(res.status, 302);
    const location = String(res.headers.location);
    assert.match(location, /^\/users\/login\?next=/);
    assert.ok(!location.includes(user.email.split('@')[0]!), 'the e-mail stays out of the URL (logs, history)');
    const set = JSON.stringify(res.headers['set-cookie']);
    assert.ok(!set.includes(password) && !set.includes(encodeURIComponent(password)), 'no password in a cookie');

    const page = await app.get(location, { headers: { cookie: `${jar}; ${cookiesOf(res)}` } });
    assert.equal(page.status, 200);
    assert.equal(typedUser(page.text), user.email);
    assert.match(page.text, /class="flash error"|data-testid="flash"/, 'the failure is said');
    assert.ok(!page.text.includes(password), 'the password is not on the page');
    assert.match(page.text, /<input name="auth\[password\]"[^>]*autofocus/, 'the cursor waits in the password field');
    assert.match(String(JSON.stringify(page.headers['set-cookie'])), /fx_login=;/, 'shown once: the cookie is cleared');

    const again = await app.get(location, { headers: { cookie: jar } });
    assert.equal(typedUser(again.text) ?? '', '', 'a fresh form is empty');
  });

  test('a user name with characters HTML gives meaning to is shown as text', async () => {
    const login = 'dispo"><script>alert(1)</script>';
    const { res, jar } = await failLogin(login, 'whatever-pw');
    const page = await app.get(String(res.headers.location), { headers: { cookie: `${jar}; ${cookiesOf(res)}` } });
    assert.ok(!page.text.includes('<script>alert(1)'), 'escaped');
    assert.ok(page.text.includes('dispo&quot;'), 'the quote cannot end the attribute');
  });

  test('the JSON login answers 401 and sets nothing for a form', async () => {
    const res = await app.post('/users/login.json', { json: { auth: { user: user.email, password: 'wrong-pw' } } });
    assert.equal(res.status, 401);
    assert.ok(!JSON.stringify(res.headers['set-cookie'] ?? '').includes('fx_login'));
  });
});
