import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * Answers leave compressed as Accept-Encoding asks (@fastify/compress): pages, CSS, script and
 * JSON, with their Cache-Control and security headers; an Accept-Encoding that cannot be read
 * gets the plain answer, never an error.
 */

let app: TestApp;
let shipper: Actor;
let session: { cookie: string; csrf: string };

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  session = await browserSession(app, shipper);
});
after(() => app?.close());

/** The raw bytes of an answer (inject's rawPayload) and its headers. */
async function fetchRaw(url: string, headers: Record<string, string>) {
  const res = await app.http.inject({ method: 'GET', url, headers: { 'user-agent': 'freight-exchange-tests / 1.0', ...headers } });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

function decoded(res: { headers: Record<string, unknown>; bytes: Buffer }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.bytes).toString('utf8');
  assert.equal(encoding, undefined, 'only brotli and gzip');
  return res.bytes.toString('utf8');
}

const ANSWERS = [
  { what: 'a page', url: '/docs', type: /^text\/html/, cache: 'no-store', auth: false },
  { what: 'a list page', url: '/freights/enlist/10', type: /^text\/html/, cache: 'no-store', auth: true },
  { what: 'the stylesheet', url: '/assets/app.css', type: /^text\/css/, cache: 'public, max-age=3600', auth: false },
  { what: 'the script', url: '/assets/app.js', type: /^text\/javascript/, cache: 'public, max-age=3600', auth: false },
  { what: 'a JSON answer', url: '/openapi.json', type: /^application\/json/, cache: 'no-cache', auth: false },
];

describe('compressed answers', () => {
  for (const answer of ANSWERS) {
    test(`${answer.what}: brotli or gzip as asked, the same text, the same headers`, async () => {
      const auth: Record<string, string> = answer.auth ? { cookie: session.cookie } : {};
      const plain = await fetchRaw(answer.url, auth);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding, no compression');
      const text = decoded(plain);
      for (const [asked, expected] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip;q=1', 'gzip'],
        ['*', 'gzip'],
      ] as const) {
        const res = await fetchRaw(answer.url, { ...auth, 'accept-encoding': asked });
        assert.equal(res.status, 200, asked);
        assert.equal(res.headers['content-encoding'], expected, asked);
        assert.match(String(res.headers.vary), /accept-encoding/i, 'caches keep the encodings apart');
        assert.match(String(res.headers['content-type']), answer.type);
        assert.equal(res.headers['cache-control'], answer.cache, 'Cache-Control stays');
        assert.ok(res.headers['content-security-policy'], 'security headers stay');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.ok(res.bytes.length < plain.bytes.length / 2, `${answer.url}: ${res.bytes.length} of ${plain.bytes.length} bytes`);
        const body = decoded(res);
        // Pages carry a fresh CSRF token each time: compare them without it.
        const withoutCsrf = (html: string) => html.replace(/name="_csrf" value="[^"]*"/g, '');
        assert.equal(withoutCsrf(body), withoutCsrf(text), `${asked}: the same answer`);
      }
    });
  }

  test('an Accept-Encoding that names neither, or cannot be read, gets the plain answer', async () => {
    const weird = [
      'identity',
      'deflate',
      'compress',
      'zstd',
      'br;q=0, gzip;q=0',
      '*;q=0',
      'gzip;q=abc',
      'br;q=-1',
      'gzip;q=1e9',
      ';;;,,,',
      'gzip;;q=',
      '\u00e4\u00f6\u00fc',
      'x'.repeat(4000),
      'gzip,'.repeat(500),
      'br; q=0.5; foo="bar"',
    ];
    for (const value of weird) {
      for (const url of ['/docs', '/openapi.json', '/freights/enlist/10.json?auth_token=nonsense']) {
        const res = await fetchRaw(url, { 'accept-encoding': value });
        assert.ok(res.status < 500, `${JSON.stringify(value.slice(0, 40))} ${url}: ${res.status}`);
        const encoding = res.headers['content-encoding'];
        assert.ok(encoding === undefined || encoding === 'br' || encoding === 'gzip', `${value.slice(0, 40)}: ${encoding}`);
        decoded(res);
      }
    }
  });

  test('a request body with a Content-Encoding is read as sent, not refused', async () => {
    const res = await app.post('/users/login.json', {
      headers: { 'content-encoding': 'gzip' },
      json: { auth: { user: shipper.email, password: shipper.password } },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success');
  });

  test('HEAD and small answers: headers only, and nothing compressed under 1 KiB', async () => {
    const head = await app.http.inject({ method: 'HEAD', url: '/assets/app.css', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.rawPayload.length, 0);
    const small = await fetchRaw('/healthz', { 'accept-encoding': 'br' });
    assert.equal(small.status, 200);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(small.bytes.toString()).status, 'ok');
  });

  test('over a socket: a large answer arrives whole and decodes (the browser path)', async () => {
    const base = await app.listen();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${base}/openapi.json`, { headers: { 'accept-encoding': encoding } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-encoding'), encoding);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      assert.ok(doc.openapi && Object.keys(doc.paths).length > 20);
    }
  });
});
