// Issue 10: each attack that got through a review, replayed. Every test here failed before its fix.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { readIdList, readList } from '../../src/kernel/params.ts';
import { readRouteIds } from '../../src/tms/fields.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { cookiesOf, csrfOf } from '../support/session.ts';

let app: TestApp;
let alice: Actor;

before(async () => {
  app = await startTestApp();
  alice = await app.actor('Alice');
});
after(() => app.close());

/** An array that counts how many of its items were read. */
function countingArray(length: number) {
  const reads = { count: 0 };
  const target = Array.from({ length }, (_, i) => i + 1);
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
      return Reflect.get(t, key, receiver);
    },
  });
  return { list: proxy, reads };
}

describe('1. lists in bodies are bounded before any work', () => {
  test('150,000 route ids are refused without reading one of them', () => {
    const { list, reads } = countingArray(150_000);
    const read = readRouteIds(list);
    assert.equal(read.ok, false);
    assert.equal(!read.ok && read.reason, 'tms.too_many_routes');
    assert.equal(reads.count, 0);
  });

  test('the kernel readers count form keys and comma lists before splitting them', () => {
    const keyed = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [String(i), i + 1]));
    assert.deepEqual(readList(keyed, 1000), { ok: false, reason: 'too_many' });
    assert.deepEqual(readList(Array.from({ length: 5000 }, () => '1').join(','), 1000), { ok: false, reason: 'too_many' });
    assert.deepEqual(readIdList('3, 1,3 ,2', 10), { ok: true, ids: [3, 1, 2] });
    assert.deepEqual(readIdList([1, 'x'], 10), { ok: false, reason: 'not_an_id', item: 'x' });
  });

  test('over HTTP: a tour with 150,000 ids, a whitelist and pieces of 150,000 entries answer at once with a refusal', async () => {
    const ids = Array.from({ length: 150_000 }, (_, i) => i + 1);
    const tour = await app.post('/tours/add.json', { token: alice.token, json: { name: 'Huge', route_ids: ids } });
    assert.equal(tour.status, 200);
    assert.equal(tour.body.status, 'error');
    for (const [field, value] of [
      ['whitelist', ids],
      ['pieces', ids.map(() => 0)],
    ] as const) {
      const freight = await app.post('/freights/add.json', { token: alice.token, json: { [field]: value } });
      assert.equal(freight.body.status, 'success', field);
      assert.deepEqual(
        freight.body.warnings.map((w: { field: string }) => w.field),
        [field],
      );
    }
  });
});

describe('5. the login redirect accepts only a path of this site', () => {
  async function loginWithNext(next: string) {
    const form = await app.get('/users/login');
    return app.post('/users/login', {
      headers: { cookie: cookiesOf(form) },
      form: { _csrf: csrfOf(form.text), 'auth[user]': alice.email, 'auth[password]': alice.password, next },
    });
  }

  test('tab, backslash and control characters cannot lead to another host; a 500 never', async () => {
    for (const next of [
      '/\t/evil.example',
      '/\\evil.example',
      '/\t\\evil.example',
      '/\r\nSet-Cookie: x=1',
      '/a\nb',
      'https://evil.example/',
      '/%0d%0aX: y',
    ]) {
      const res = await loginWithNext(next);
      assert.equal(res.status, 302, next);
      const location = String(res.headers.location);
      assert.ok(
        location.startsWith('/') && !location.startsWith('//') && !/[\s\\]/.test(location),
        `${JSON.stringify(next)} -> ${location}`,
      );
      assert.ok(!new URL(location, 'http://site.test').host.includes('evil'), location);
    }
  });

  test('a path of the site is kept, normalised', async () => {
    assert.equal((await loginWithNext('/freights/enlist/8?page=2')).headers.location, '/freights/enlist/8?page=2');
    assert.equal((await loginWithNext('/freights/../pricing/search/results')).headers.location, '/pricing/search/results');
  });
});

describe('6. behind a TLS proxy (TRUST_PROXY)', () => {
  async function sessionCookieWith(env: Record<string, string>) {
    const proxied = await startTestApp({ env });
    try {
      const who = await proxied.actor('Proxied');
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
      const form = await proxied.get('/users/login', { headers });
      const res = await proxied.post('/users/login', {
        headers: { ...headers, cookie: cookiesOf(form) },
        form: { _csrf: csrfOf(form.text), 'auth[user]': who.email, 'auth[password]': who.password },
      });
      const set = [res.headers['set-cookie']].flat().map(String);
      return set.find((c) => c.startsWith('fx_session='))!;
    } finally {
      await proxied.close();
    }
  }

  test('the session cookie is Secure when the trusted proxy says https', async () => {
    assert.match(await sessionCookieWith({ TRUST_PROXY: 'true' }), /;\s*Secure/i);
  });

  test('without TRUST_PROXY the header is not believed', async () => {
    assert.doesNotMatch(await sessionCookieWith({}), /;\s*Secure/i);
  });
});

describe('7. answers with tokens are never cached', () => {
  test('JSON answers and pages say Cache-Control: no-store', async () => {
    const login = await app.post('/users/login.json', { json: { auth: { user: alice.email, password: alice.password } } });
    assert.equal(login.headers['cache-control'], 'no-store');
    assert.equal((await app.get('/users/me.json', { token: alice.token })).headers['cache-control'], 'no-store');
    assert.equal((await app.get('/users/login')).headers['cache-control'], 'no-store');
  });
});

describe('8. inputs that answered 500', () => {
  test('a token claiming a user id beyond 2^31-1 is a 401, as header, query or body, also on tracking and login', async () => {
    const forged = `2147483648.${'A'.repeat(43)}`;
    assert.equal((await app.get('/users/me.json', { headers: { authorization: `TokenPass ${forged}` } })).status, 401);
    assert.equal((await app.get(`/users/me.json?auth_token=${forged}`)).status, 401);
    assert.equal((await app.post('/freights/add.json', { json: { auth_token: `9999999999.${'A'.repeat(43)}` } })).status, 401);
    assert.equal((await app.get(`/freights/track/020-12345675.json?auth_token=${forged}`)).status, 200);
    const login = await app.post(`/users/login.json?auth_token=${forged}`, {
      json: { auth: { user: alice.email, password: alice.password } },
    });
    assert.equal(login.status, 200);
  });

  test('refs and whitelist of blanks are "none", on add and edit', async () => {
    const add = await app.post('/freights/add.json', { token: alice.token, json: { refs: ' ', whitelist: ' ' } });
    assert.equal(add.status, 200);
    assert.equal(add.body.status, 'success');
    assert.deepEqual(add.body.data.refs, {});
    assert.deepEqual(add.body.data.whitelist, []);
    const edit = await app.post(`/freights/edit/${add.body.data.id}.json`, { token: alice.token, json: { refs: '\t', whitelist: '  ' } });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.status, 'success');
  });

  test('an object where the rate search expects a number is a refusal naming the field', async () => {
    for (const url of ['/pricing/search/results.json', `/pricing/public-search/${alice.company}/results.json`]) {
      const res = await app.post(url, {
        token: alice.token,
        json: { origin: 'airport:FRA', destination: 'city:DE-60311', weight: { toString: 1 } },
      });
      assert.equal(res.status, 200, url);
      assert.equal(res.body.status, 'error');
      assert.match(res.body.message, /weight: "an object" is not a number/);
    }
  });

  test('an URL over 16 KiB and a malformed request answer in the envelope', async () => {
    const base = new URL(await app.listen());
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(base.port), base.hostname, () => socket.write(request));
        let answer = '';
        socket.on('data', (d) => (answer += d));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const long = await raw(`GET /freights/view/1.json?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(long, /^HTTP\/1\.1 431 /);
    const body = JSON.parse(long.slice(long.indexOf('\r\n\r\n') + 4));
    assert.equal(body.status, 'error');
    assert.deepEqual(body.data, []);
    const bad = await raw('GET /a b c\r\n\r\n');
    assert.match(bad, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4)).status, 'error');
  });
});

describe('harness finding F1: the login redirect of a page carries a bounded target', () => {
  test('a long URL comes back as its path, a very long one not at all; the header stays small', async () => {
    const long = await app.get(`/flights/index?x=${'a%5B'.repeat(3000)}`);
    assert.equal(long.status, 302);
    assert.equal(long.headers.location, `/users/login?next=${encodeURIComponent('/flights/index')}`);
    const huge = await app.get(`/flights/${'b'.repeat(1200)}`);
    assert.ok(String(huge.headers.location).length < 100, String(huge.headers.location).slice(0, 100));
    const short = await app.get('/freights/enlist/8?page=2');
    assert.equal(short.headers.location, `/users/login?next=${encodeURIComponent('/freights/enlist/8?page=2')}`);
  });
});

describe('harness finding F2: a refused HEAD request gets no body', () => {
  test('431 to HEAD: the head only, so an HTTP client reads the status', async () => {
    const base = new URL(await app.listen().catch(() => `http://127.0.0.1:${(app.http.server.address() as net.AddressInfo).port}`));
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(base.port), base.hostname, () =>
        socket.write(`HEAD /users/me.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.equal(answer.slice(answer.indexOf('\r\n\r\n') + 4), '');
  });
});
