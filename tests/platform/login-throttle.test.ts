// docs/reference.md#safety login throttling and issue 10 item 7 (password change). Failed before: 40 wrong
// passwords then the right one answered 200.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession, cookiesOf, csrfOf } from '../support/session.ts';

let app: TestApp;
const MINUTE = 60_000;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

const login = (user: string, password: string, remoteAddress = '127.0.0.1') =>
  app.http.inject({ method: 'POST', url: '/users/login.json', remoteAddress, payload: { auth: { user, password } } });

describe('login throttling', () => {
  test('10 failures for one user name, then even the right password is 429 until the window has passed', async () => {
    const t0 = new Date('2030-01-01T10:00:00Z');
    app.setNow(t0);
    const victim = await app.actor('Victim');
    const bystander = await app.actor('Bystander');
    for (let i = 0; i < 10; i++) assert.equal((await login(victim.email, `wrong-${i}`)).statusCode, 401);
    const blocked = await login(victim.email, victim.password);
    assert.equal(blocked.statusCode, 429);
    const body = blocked.json();
    assert.equal(body.status, 'error');
    assert.deepEqual(body.data, []);
    assert.match(body.message, /Too many failed logins/);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    // The user is blocked however named: the e-mail in other letters (429), and the username too,
    // where the answer is a plain 401: a 429 would tell that the two names are one account.
    assert.equal((await login(victim.email.toUpperCase(), victim.password)).statusCode, 429);
    const byUsername = await login(victim.username, victim.password);
    assert.equal(byUsername.statusCode, 401);
    assert.equal(byUsername.json().message, 'unknown user or wrong password');
    // Another user from the same address is not affected.
    assert.equal((await login(bystander.email, bystander.password)).statusCode, 200);
    // Refused attempts do not extend the block: 10 minutes after the failures it is over.
    app.setNow(new Date(t0.getTime() + 9 * MINUTE));
    assert.equal((await login(victim.email, victim.password)).statusCode, 429);
    app.setNow(new Date(t0.getTime() + 10 * MINUTE + 1000));
    assert.equal((await login(victim.email, victim.password)).statusCode, 200);
    app.setNow(null);
  });

  test('issue 22 item 8: a locked user name does not tell which e-mail belongs to it, nor whether it exists', async () => {
    const victim = await app.actor('Locked');
    const stranger = await app.actor('Stranger');
    const address = '10.9.8.7';
    for (let i = 0; i < 10; i++) assert.equal((await login(victim.username, `wrong-${i}`, address)).statusCode, 401);
    assert.equal((await login(victim.username, 'wrong', address)).statusCode, 429);
    // Candidate e-mails: the victim's, another user's, one nobody has. Every one answers alike.
    const answers = [];
    for (const candidate of [victim.email, stranger.email, 'nobody-at-all@example.test']) {
      const res = await login(candidate, 'guess', address);
      answers.push([res.statusCode, res.json().message, res.headers['retry-after'] ?? null]);
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.deepEqual(answers[0], answers[2]);
    assert.equal(answers[0]![0], 401);
    // Nor does the right password open the account under its other name while it is locked.
    assert.equal((await login(victim.email, victim.password, address)).statusCode, 401);
    // A name nobody has is throttled exactly like one that exists.
    for (let i = 0; i < 10; i++) await login('ghost-user', `wrong-${i}`, address);
    assert.equal((await login('ghost-user', 'wrong', address)).statusCode, 429);
  });

  test('parallel attempts count each other: of 30 at once at most 10 are checked, and no more after them', async () => {
    const victim = await app.actor('Parallel');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim.email, `wrong-${i}`)));
    const codes = answers.map((a) => a.statusCode);
    assert.equal(codes.filter((c) => c !== 401 && c !== 429).length, 0, codes.join(','));
    // Attempts that saw each other may all have been refused (none counted as a failure): the
    // limit holds over everything that was checked, at once and after.
    let checked = codes.filter((c) => c === 401).length;
    for (let i = 0; i < 12 && (await login(victim.email, `again-${i}`)).statusCode === 401; i++) checked++;
    assert.ok(checked <= 10, `${checked} wrong passwords checked: ${codes.join(',')}`);
    assert.equal((await login(victim.email, victim.password)).statusCode, 429);
  });

  test('100 failures from one client address block that address for every name', async () => {
    const t0 = new Date('2030-02-01T10:00:00Z');
    app.setNow(t0);
    const user = await app.actor('Shared');
    const address = '198.51.100.9';
    await Promise.all(Array.from({ length: 100 }, (_, i) => login(`nobody-${i}@example.test`, 'wrong', address)));
    assert.equal((await login(user.email, user.password, address)).statusCode, 429);
    assert.equal((await login(user.email, user.password, '198.51.100.10')).statusCode, 200);
    app.setNow(new Date(t0.getTime() + 11 * MINUTE));
    assert.equal((await login(user.email, user.password, address)).statusCode, 200);
    app.setNow(null);
  });

  test('the HTML form says so', async () => {
    const victim = await app.actor('Form');
    for (let i = 0; i < 10; i++) await login(victim.email, 'wrong');
    const form = await app.get('/users/login');
    const res = await app.post('/users/login', {
      headers: { cookie: cookiesOf(form) },
      form: { _csrf: csrfOf(form.text), 'auth[user]': victim.email, 'auth[password]': victim.password },
    });
    assert.equal(res.status, 302);
    const page = await app.get(String(res.headers.location), { headers: { cookie: `${cookiesOf(form)}; ${cookiesOf(res)}` } });
    assert.match(page.text, /Too many failed logins/);
  });
});

describe('password change', () => {
  let carol: Actor;
  before(async () => {
    carol = await app.actor('Carol');
  });

  test('a user changes the password on a page: other sessions end, this one and the token stay', async () => {
    const other = await browserSession(app, carol);
    const mine = await browserSession(app, carol);
    const page = await app.get('/users/password', { headers: { cookie: mine.cookie } });
    assert.equal(page.status, 200);
    assert.match(page.text, /name="current_password"/);
    const res = await app.post('/users/password', {
      headers: { cookie: mine.cookie },
      form: { _csrf: csrfOf(page.text), current_password: carol.password, password: 'new-secret-1', password_repeat: 'new-secret-1' },
    });
    assert.equal(res.status, 302);
    assert.equal((await app.get('/freights/enlist/10', { headers: { cookie: mine.cookie } })).status, 200);
    assert.equal((await app.get('/freights/enlist/10', { headers: { cookie: other.cookie } })).status, 302);
    assert.equal((await login(carol.email, carol.password)).statusCode, 401);
    const fresh = await login(carol.email, 'new-secret-1');
    assert.equal(fresh.statusCode, 200);
    assert.equal(fresh.json().auth.token, carol.token);
    carol.password = 'new-secret-1';
  });

  test('as JSON: a wrong current password, a short or mismatched new one are refused, nothing changed', async () => {
    for (const json of [
      { current_password: 'not-it', password: 'whatever-1' },
      { current_password: carol.password, password: 'short' },
      { current_password: carol.password, password: 'whatever-1', password_repeat: 'whatever-2' },
    ]) {
      const res = await app.post('/users/password.json', { token: carol.token, json });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error', JSON.stringify(json));
    }
    assert.equal((await login(carol.email, carol.password)).statusCode, 200);
  });
});
