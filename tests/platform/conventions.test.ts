import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession, cookiesOf, csrfOf } from '../support/session.ts';

let app: TestApp;
let alice: Actor;

before(async () => {
  app = await startTestApp();
  alice = await app.actor('Alice');
});
after(() => app.close());

describe('login', () => {
  test('JSON auth.user with e-mail answers the envelope with the token', async () => {
    const res = await app.post('/users/login.json', { json: { auth: { user: alice.email, password: alice.password } } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.deepEqual(res.body.auth, { email: alice.email, token: alice.token, language: 'eng' });
    assert.ok('data' in res.body);
  });

  test('form auth[user] with the username, case-insensitive, gives the same token again', async () => {
    const res = await app.post('/users/login.json', {
      form: `auth[user]=${alice.username.toUpperCase()}&auth[password]=${alice.password}`,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.auth.token, alice.token);
  });

  test('query parameters work as body fields', async () => {
    const res = await app.post(`/users/login.json?auth[user]=${encodeURIComponent(alice.email)}&auth[password]=${alice.password}`);
    assert.equal(res.body.status, 'success');
  });

  test('wrong password, unknown user, missing or odd body: 401 with status error', async () => {
    for (const json of [
      { auth: { user: alice.email, password: 'nope-nope' } },
      { auth: { user: 'ghost@example.test', password: 'x' } },
      {},
      { auth: 'x' },
      { auth: { user: ['a'], password: { a: 1 } } },
      [],
    ]) {
      const res = await app.post('/users/login.json', { json });
      assert.equal(res.status, 401, JSON.stringify(json));
      assert.equal(res.body.status, 'error');
      assert.deepEqual(res.body.data, []);
      assert.equal(res.body.auth.token, undefined);
    }
  });
});

describe('tokens', () => {
  test('header TokenPass, query auth_token and body auth_token authenticate', async () => {
    for (const res of [
      await app.get('/users/me.json', { token: alice.token }),
      await app.get(`/users/me.json?auth_token=${alice.token}`),
    ]) {
      assert.equal(res.status, 200);
      assert.equal(res.body.data.user.id, alice.user);
      assert.equal(res.body.data.user.company.id, alice.company);
    }
  });

  test('auth_token works as a body field too', async () => {
    const res = await app.post('/quotes/add.json', { json: { auth_token: alice.token, route: 999999, amount: 1, currency_code: 'EUR' } });
    assert.notEqual(res.status, 401);
    assert.equal(res.body.auth.email, alice.email);
  });

  test('missing, malformed, forged and foreign-scheme tokens are 401 JSON', async () => {
    const forged = `${alice.user}.${'A'.repeat(43)}`;
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'TokenPass nope' },
      { authorization: `TokenPass ${forged}` },
      { authorization: `Bearer ${alice.token}` },
      { authorization: 'TokenPass' },
    ]) {
      const res = await app.get('/users/me.json', { headers });
      assert.equal(res.status, 401);
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.equal(res.body.status, 'error');
    }
  });

  test('a token of the other environment is a 401', async () => {
    const row = await app.services.db.selectFrom('users').select('token_nonce').where('id', '=', alice.user).executeTakeFirstOrThrow();
    const production = new TokenIssuer('test-secret-0123456789abcdef', 'production').issue(alice.user, row.token_nonce);
    assert.notEqual(production, alice.token);
    const res = await app.get('/users/me.json', { token: production });
    assert.equal(res.status, 401);
  });

  test('no token and no password is stored in plain text', async () => {
    const rows = await app.services.db.selectFrom('users').selectAll().execute();
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(alice.token));
    assert.ok(!dump.includes(alice.token.split('.')[1]!));
    assert.ok(!dump.includes(alice.password));
    assert.match(rows.find((r) => r.id === alice.user)!.password_hash, /^scrypt\$/);
  });

  test("a user's password is stored at scrypt's full cost (N 16384, r 8, p 1), and logs in by it", async () => {
    // The harness's actors take a lower cost (tests/support/harness.ts); a user made as the exchange makes them does not.
    const company = await app.company('Full Cost Ltd');
    const user = await createUser(app.services.db, app.tokens, {
      company: company.id,
      email: 'full-cost@example.test',
      password: 'full-cost-pw',
    });
    const row = await app.services.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$16384\$8\$1\$/);
    const res = await app.post('/users/login.json', { json: { auth: { user: 'full-cost@example.test', password: 'full-cost-pw' } } });
    assert.equal(res.body.status, 'success', res.text);
    const wrong = await app.post('/users/login.json', { json: { auth: { user: 'full-cost@example.test', password: 'full-cost-px' } } });
    assert.notEqual(wrong.body.status, 'success');
  });
});

describe('conventions', () => {
  test('unknown routes: 404 with data [] as JSON, an HTML page without .json', async () => {
    const json = await app.get('/nothing/here.json', { token: alice.token });
    assert.equal(json.status, 404);
    assert.deepEqual(json.body.data, []);
    assert.equal(json.body.status, 'error');
    const html = await app.get('/nothing/here');
    assert.equal(html.status, 404);
    assert.match(String(html.headers['content-type']), /text\/html/);
  });

  test('the same path without .json is the HTML interface', async () => {
    const res = await app.get('/users/login');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.text, /name="auth\[user\]"/);
    assert.match(res.text, /name="_csrf"/);
  });

  test('malformed JSON: 400 in the envelope, never a 500', async () => {
    const res = await app.post('/users/login.json', { headers: { 'content-type': 'application/json' }, form: '{"auth": ' });
    assert.equal(res.status, 400);
    assert.equal(res.body.status, 'error');
    assert.deepEqual(res.body.data, []);
  });

  test('an empty JSON body is an empty object', async () => {
    const res = await app.post('/users/login.json', { headers: { 'content-type': 'application/json' }, form: '' });
    assert.equal(res.status, 401);
  });

  test('other content types are read leniently; multipart is ignored', async () => {
    const text = await app.post('/users/login.json', {
      headers: { 'content-type': 'text/plain' },
      form: JSON.stringify({ auth: { user: alice.email, password: alice.password } }),
    });
    assert.equal(text.body.status, 'success');
    const multipart = await app.post('/users/login.json', {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      form: '--x--',
    });
    assert.equal(multipart.status, 401);
  });

  test('a huge body is refused with 413 in the envelope', async () => {
    const res = await app.post('/users/login.json', { json: { auth: { user: 'x'.repeat(2 * 1024 * 1024) } } });
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 'error');
  });

  test('prototype keys in bodies do nothing', async () => {
    const res = await app.post('/users/login.json', {
      headers: { 'content-type': 'application/json' },
      form: '{"__proto__": {"admin": true}, "auth": {"user": "x", "password": "y"}}',
    });
    assert.equal(res.status, 401);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  test('NUL characters are dropped from parameters instead of reaching the database', async () => {
    const res = await app.post('/users/login.json', { json: { auth: { user: `${alice.email}\u0000`, password: alice.password } } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
  });

  test('an over-long path parameter or a malformed URL answers in the envelope', async () => {
    const long = await app.get(`/freights/track/${'1'.repeat(600)}.json`);
    assert.equal(long.status, 414);
    assert.equal(long.body.status, 'error');
    const bad = await app.get('/freights/track/%E0%A4%A.json');
    assert.ok(bad.status === 400 || bad.status === 404, String(bad.status));
    assert.equal(bad.body.status, 'error');
  });

  test('healthz answers with the database engine', async () => {
    const res = await app.get('/healthz');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.database, app.services.dbKind);
  });
});

describe('browser session', () => {
  test('pages without a session redirect to the login page', async () => {
    const res = await app.get('/users/me');
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/users/login?next=%2Fusers%2Fme');
  });

  test('login form with CSRF token sets an HttpOnly session cookie and redirects; logout ends it', async () => {
    const form = await app.get('/users/login');
    const csrf = csrfOf(form.text);
    const cookie = cookiesOf(form);
    const login = await app.post('/users/login', {
      headers: { cookie },
      form: { _csrf: csrf, 'auth[user]': alice.email, 'auth[password]': alice.password, next: '/users/me' },
    });
    assert.equal(login.status, 302);
    assert.equal(login.headers.location, '/users/me');
    const setCookie = String(login.headers['set-cookie']);
    assert.match(setCookie, /fx_session=.*HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    const session = `${cookie}; ${cookiesOf(login)}`;
    const page = await app.get('/users/me', { headers: { cookie: session } });
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(alice.companyName));

    const home = await app.get('/', { headers: { cookie: session } });
    const logoutCsrf = csrfOf(home.text);
    const logout = await app.post('/users/logout', { headers: { cookie: `${session}; ${cookiesOf(home)}` }, form: { _csrf: logoutCsrf } });
    assert.equal(logout.status, 302);
    assert.equal((await app.get('/users/me', { headers: { cookie: session } })).status, 302);
  });

  test('a JSON GET may use the browser session (page scripts); a JSON POST needs the token', async () => {
    const session = (await browserSession(app, alice)).cookie;
    const get = await app.get('/users/me.json', { headers: { cookie: session } });
    assert.equal(get.status, 200);
    assert.equal(get.body.data.user.id, alice.user);
    const post = await app.post('/quotes/add.json', { headers: { cookie: session }, json: { route: 1, amount: 1, currency_code: 'EUR' } });
    assert.equal(post.status, 401);
    const wrongToken = await app.get('/users/me.json', { headers: { cookie: session, authorization: 'TokenPass bogus' } });
    assert.equal(wrongToken.status, 401, 'a bad token is not rescued by the session');
  });

  test("a page's script writes JSON with the session only together with the page's CSRF token", async () => {
    const { cookie, csrf } = await browserSession(app, alice);
    const page = await app.get('/', { headers: { cookie } });
    const token = csrfOf(page.text);
    const jar = `${cookie}; ${cookiesOf(page)}`;
    const draft = { from: 'FRA', to: 'AMS' };
    const withToken = await app.post('/freights/add.json', { headers: { cookie: jar }, form: { ...draft, _csrf: token } });
    assert.equal(withToken.status, 200, withToken.text);
    assert.equal(withToken.body.status, 'success', withToken.text);
    const byHeader = await app.post('/freights/add.json', { headers: { cookie: jar, 'x-csrf-token': csrf }, json: draft });
    assert.equal(byHeader.body.status, 'success', byHeader.text);
    const forged = await app.post('/freights/add.json', { headers: { cookie: jar }, form: { ...draft, _csrf: 'forged' } });
    assert.equal(forged.status, 403, 'a wrong CSRF token is refused');
    const none = await app.post('/freights/add.json', { headers: { cookie: jar }, json: draft });
    assert.equal(none.status, 401, 'without the token the session does not write');
    const elsewhere = await app.post('/freights/add.json', {
      headers: { authorization: 'TokenPass bogus', cookie: jar },
      form: { ...draft, _csrf: token },
    });
    assert.equal(elsewhere.status, 401, 'a bad API token is not rescued by the session and its CSRF token');
  });

  test('a form post without the CSRF token is refused', async () => {
    const res = await app.post('/users/login', { form: { 'auth[user]': alice.email, 'auth[password]': alice.password } });
    assert.equal(res.status, 403);
    assert.ok(!String(res.headers['set-cookie'] ?? '').includes('fx_session'));
  });

  test('a failed login redirects back with a visible message', async () => {
    const form = await app.get('/users/login');
    const csrf = csrfOf(form.text);
    const cookie = cookiesOf(form);
    const res = await app.post('/users/login', {
      headers: { cookie },
      form: { _csrf: csrf, 'auth[user]': alice.email, 'auth[password]': 'wrong-wrong' },
    });
    assert.equal(res.status, 302);
    const again = await app.get(String(res.headers.location), { headers: { cookie: `${cookie}; ${cookiesOf(res)}` } });
    assert.match(again.text, /wrong password/);
  });

  test('the login redirect never leaves the site', async () => {
    const form = await app.get('/users/login');
    const csrf = csrfOf(form.text);
    const res = await app.post('/users/login', {
      headers: { cookie: cookiesOf(form) },
      form: { _csrf: csrf, 'auth[user]': alice.email, 'auth[password]': alice.password, next: '//evil.example/' },
    });
    assert.equal(res.headers.location, '/');
  });

  test('pages send security headers', async () => {
    const res = await app.get('/users/login');
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test("the API's JSON answers send the headers that protect a JSON answer, and not a page's", async () => {
    for (const res of [
      await app.get('/users/me.json', { token: alice.token }),
      await app.get('/nothing/here.json', { token: alice.token }),
      await app.get('/users/me.json'),
    ]) {
      const what = `${res.status} ${res.text.slice(0, 80)}`;
      assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'", what);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
      assert.equal(res.headers['x-frame-options'], 'DENY', what);
      assert.equal(res.headers['cross-origin-resource-policy'], 'same-origin', what);
      assert.equal(res.headers['cache-control'], 'no-store', what);
      assert.match(String(res.headers['content-type']), /^application\/json/, what);
      for (const name of ['x-dns-prefetch-control', 'x-download-options', 'x-xss-protection', 'origin-agent-cluster'])
        assert.equal(res.headers[name], undefined, `${what}: ${name}`);
    }
  });
});
