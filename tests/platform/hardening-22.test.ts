// Issue 22: the holes of the second outside review, replayed. Every test here failed before its
// fix (items 2 and 8: tests/aircargo/tracking-parties.test.ts, tests/platform/login-throttle.test.ts;
// the webhook and file items have their own files in tests/events and tests/aircargo).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rotateToken } from '../../src/accounts/commands.ts';
import { up as repairJson } from '../../src/db/migrations/0053_wellformed_json.ts';
import { pushStatus, statusCsv } from '../preview/fixtures.ts';
import { startPair } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { browserSession, cookiesOf } from '../support/session.ts';

let app: TestApp;
let shipper: Actor, carrier: Actor;

before(async () => ({ app, shipper, carrier } = await startPair()));
after(() => app.close());

const LONE = ['\udc00', '\ud800', 'a\udfffb', '\ud83d'];

/** Redirect targets a form may send back: line breaks, line and paragraph separators, lone surrogates, other sites, characters above U+00FF. */
const BACKS = [
  '/searches/index\r\nSet-Cookie: x=1',
  '/searches/index\rSet-Cookie: x=1',
  '/searches/index\nSet-Cookie: x=1',
  '/freights/enlist/8?q=Köln',
  '/searches/\u2028x',
  '/companies/\u2029x',
  '/notifications/\ud800',
  '/notifications/index\udc00',
  '/freights/view/1\u0100',
  '/companies/日本',
  '/searches/\u{1F69A}',
  '/freights/view/1\u0000',
  '//evil.example/searches/',
  '/\\evil.example/companies/',
  '/\t/evil.example',
  'https://evil.example/',
];

/**
 * Every form that takes a place to go back to (`back`, `next`), as a page posts it, with what
 * makes it answer by going back (an outcome, not a 404): `path` gets the ids of `Forms`.
 */
interface Forms {
  draft: number;
  rating: number;
  notification: number;
  shipment: number;
  search(): Promise<number>;
}
const BACK_FORMS: Array<{ path: (f: Forms) => string | Promise<string>; fields: Record<string, string>; good?: string }> = [
  // `good`: a target of the form's own kind, followed (so the values above are read, not ignored).
  { path: () => '/searches/add', fields: { name: '', filter: '8' }, good: '/notifications/index?page=2' }, // refused: no name
  { path: () => '/searches/edit/999999', fields: { name: '', filter: '8' }, good: '/notifications/index?page=2' }, // refused before the lookup
  { path: async (f) => `/searches/delete/${await f.search()}`, fields: {}, good: '/notifications/index?page=2' },
  { path: (f) => `/notifications/read/${f.notification}`, fields: {}, good: '/freights/enlist/8?page=2' },
  { path: (f) => `/companies/rate/${f.draft}`, fields: { score: '5' }, good: '/companies/blocked?page=2' }, // refused: not delivered
  { path: (f) => `/companies/reply/${f.rating}`, fields: { reply: '' }, good: '/companies/blocked?page=2' }, // refused: no text
  { path: () => `/companies/block/${carrier.company}`, fields: {}, good: '/companies/blocked?page=2' },
  { path: () => `/companies/unblock/${carrier.company}`, fields: {}, good: '/companies/blocked?page=2' },
  { path: (f) => `/milkrun/select/${f.shipment}`, fields: {} }, // `back` is a list number there
  { path: (f) => `/milkrun/deselect/${f.shipment}`, fields: {} },
];

/** The records the forms act on: a draft, a rating of the shipper, a notification, a milk-run shipment, saved searches. */
async function formRecords(): Promise<Forms> {
  const db = app.services.db;
  const now = new Date();
  const draft = (await app.post('/freights/add.json', { token: shipper.token, json: { from: 'FRA', to: 'JFK', weight: 5 } })).body.data.id;
  const rating = await db
    .insertInto('ratings')
    .values({ freight_id: draft, rater_id: carrier.company, rated_id: shipper.company, score: 4, comment: 'ok', created: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const notification = await db
    .insertInto('notifications')
    .values({ user_id: shipper.user, type: 'freight.matched', search_id: null, search_name: 'x', freight_id: draft, created: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pushed = await pushStatus(app, shipper, statusCsv('176-20000220,RCF,2026-03-02 06:10,FRA,EK9901,4,1250,,'));
  assert.equal(pushed.body.status, 'success', pushed.text);
  const shipment = await db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where('company_id', '=', shipper.company)
    .where('awb', '=', '176-20000220')
    .executeTakeFirstOrThrow();
  const search = async () => {
    const res = await app.post('/searches/add.json', { token: shipper.token, json: { name: 'Back', filter: 8 } });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.search.id as number;
  };
  return { draft, rating: rating.id, notification: notification.id, shipment: shipment.id, search };
}

/** A 302 to a path of this site, nothing but printable ASCII in its Location, the security headers on. */
function assertSafeRedirect(res: { status: number; headers: Record<string, unknown>; text: string }, what: string) {
  assert.equal(res.status, 302, `${what}: ${res.status} ${res.text.slice(0, 200)}`);
  const location = String(res.headers.location);
  assert.match(location, /^\/([^/\\]|$)/, `${what}: ${location}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there
  assert.doesNotMatch(location, /[\u0000-\u0020\u007f-\uffff]/, `${what}: ${location}`);
  assert.ok(res.headers['content-security-policy'], `${what}: the security headers are there`);
  assert.equal(String(res.headers['set-cookie'] ?? '').includes('x=1'), false, what);
}

describe('3. a redirect target a form sent back never breaks the answer', () => {
  test('CR/LF, U+2028, lone surrogates, other sites and characters above U+00FF in `back`: every form answers a 302 to a path of this site', async () => {
    const session = await browserSession(app, shipper);
    const records = await formRecords();
    for (const form of BACK_FORMS.filter((f) => f.good)) {
      const path = await form.path(records);
      const res = await app.post(path, {
        headers: { cookie: session.cookie },
        form: { _csrf: session.csrf, ...form.fields, back: form.good! },
      });
      assert.equal(res.headers.location, form.good, `${path} goes back where it was sent from`);
    }
    for (const back of BACKS) {
      for (const form of BACK_FORMS) {
        const path = await form.path(records);
        const res = await app.post(path, { headers: { cookie: session.cookie }, form: { _csrf: session.csrf, ...form.fields, back } });
        assertSafeRedirect(res, `${path} ${JSON.stringify(back)}`);
      }
    }
  });

  test('the same in `next` of the login form: its page, a login, a refused login', async () => {
    for (const [i, next] of BACKS.entries()) {
      const page = await app.get('/users/login', { query: { next } });
      assert.equal(page.status, 200, `${JSON.stringify(next)}: ${page.status}`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
      const jar = cookiesOf(page);
      const login = await app.post('/users/login', {
        headers: { cookie: jar },
        form: { _csrf: csrf, 'auth[user]': shipper.email, 'auth[password]': shipper.password, next },
      });
      assertSafeRedirect(login, `login, next ${JSON.stringify(next)}`);
      if (i < 4) {
        const refused = await app.post('/users/login', {
          headers: { cookie: jar },
          form: { _csrf: csrf, 'auth[user]': `nobody-${i}@example.test`, 'auth[password]': 'wrong', next },
        });
        assertSafeRedirect(refused, `refused login, next ${JSON.stringify(next)}`);
      }
    }
  });
});

describe('7. rotating a token ends the browser sessions', () => {
  test('the session stops working and never reads the new token', async () => {
    const user = await app.actor('Rotated');
    const session = await browserSession(app, user);
    const before = await app.get('/users/me.json', { headers: { cookie: session.cookie } });
    assert.equal(before.status, 200);
    // A session's answers never carry the token at all (issue 39: BREACH), old or new.
    assert.deepEqual(before.body.auth, { email: user.email, language: 'eng' });
    assert.ok(!before.text.includes(user.token));
    const rotated = await rotateToken(app.services.db, app.tokens, user.email);
    assert.equal(rotated.sessions_ended, 1);
    const after = await app.get('/users/me.json', { headers: { cookie: session.cookie } });
    assert.equal(after.status, 401);
    assert.ok(!after.text.includes(rotated.token));
    assert.equal((await app.get('/freights/enlist/8', { headers: { cookie: session.cookie } })).status, 302);
    assert.equal((await app.get('/users/me.json', { token: rotated.token })).status, 200);
  });
});

describe("9. ill-formed Unicode from one company never breaks another's reads", () => {
  test('lone surrogates in refs, texts and keys: the market search, counts and alerts go on', async () => {
    const searcher = await app.actor('Searcher');
    const alert = await app.post('/searches/add.json', {
      token: searcher.token,
      json: { name: 'Q', filter: 8, params: { q: 'zzz' }, alert: 1 },
    });
    assert.equal(alert.body.status, 'success', alert.text);
    for (const lone of LONE) {
      const add = await app.post('/freights/add.json', {
        token: carrier.token,
        json: {
          from: 'FRA',
          to: 'AMS',
          weight: 5,
          from_addr: `Dock ${lone}`,
          refs: { customer: lone, [`k${lone}`]: [lone], note: { deep: lone } },
        },
      });
      assert.equal(add.body.status, 'success', add.text);
      const refs = add.body.data.refs;
      assert.equal(refs.customer, lone.replace(/[\ud800-\udfff]/g, '\ufffd'));
      const publish = await app.post(`/freights/view/${add.body.data.id}.json`, { token: carrier.token, json: { action: 'publish' } });
      assert.equal(publish.status, 302);
      const view = await app.get(`/freights/view/${add.body.data.id}.json`, { token: carrier.token });
      assert.equal(view.body.data.route.status, 'open', 'published, not left a draft');
    }
    for (const url of ['/freights/enlist/8.json?q=zzz', '/freights/counts.json?q=zzz', '/freights/enlist/8.json?q=%EF%BF%BD']) {
      const res = await app.get(url, { token: shipper.token });
      assert.equal(res.status, 200, `${url}: ${res.text.slice(0, 300)}`);
      assert.equal(res.body.status, 'success');
    }
    // A search's own text with a lone surrogate (a JSON body) is read as U+FFFD too.
    const searched = await app.get('/freights/enlist/8.json', { token: shipper.token, json: { q: '\udc00' } });
    assert.equal(searched.status, 200, searched.text);
    // A saved search whose params arrive as a JSON text with an escaped lone surrogate.
    const saved = await app.post('/searches/add.json', {
      token: searcher.token,
      json: { name: 'Escaped', filter: 8, params: '{"q":"\\udc00x"}', alert: 1 },
    });
    assert.equal(saved.body.status, 'success', saved.text);
    assert.equal(saved.body.data.search.params.q, '\ufffdx');
  });

  test('values stored before the fix are repaired by the migration; other values stay byte for byte', async () => {
    const db = app.services.db;
    const add = await app.post('/freights/add.json', { token: carrier.token, json: { from: 'FRA', to: 'AMS', weight: 5, refs: { a: 1 } } });
    const id = add.body.data.id as number;
    const untouched = await app.post('/freights/add.json', {
      token: carrier.token,
      json: { from: 'FRA', to: 'AMS', weight: 5 },
    });
    // As the old code stored them: the escape of a lone surrogate; a valid pair written as escapes.
    const { sql } = await import('kysely');
    await sql`update freights set refs = ${'{"customer":"\\udc00","x":1}'}::json where id = ${id}`.execute(db);
    await sql`update freights set refs = ${'{"emoji":"\\ud83d\\ude00",  "n":1.50}'}::json where id = ${untouched.body.data.id}`.execute(db);
    await sql`update freights set status = 'open', deadline = now() + interval '1 day' where id = ${id}`.execute(db);
    const broken = await app.get('/freights/enlist/8.json?q=zzz', { token: shipper.token });
    assert.equal(broken.status, 500, 'the stored escape breaks the search (what the migration repairs)');
    await repairJson(db);
    const repaired = await sql<{ refs: string }>`select refs::text as refs from freights where id = ${id}`.execute(db);
    assert.equal(repaired.rows[0]!.refs, '{"customer":"\ufffd","x":1}');
    const kept = await sql<{ refs: string }>`select refs::text as refs from freights where id = ${untouched.body.data.id}`.execute(db);
    assert.equal(kept.rows[0]!.refs, '{"emoji":"\\ud83d\\ude00",  "n":1.50}');
    const res = await app.get('/freights/enlist/8.json?q=zzz', { token: shipper.token });
    assert.equal(res.status, 200, res.text);
  });
});

describe('10. keys named after built-in object methods are fields like any other', () => {
  const KEYS = ['toString', 'valueOf', 'hasOwnProperty', 'constructor', 'isPrototypeOf', '__defineGetter__'];

  test('piece lines on add and edit: an unknown field, named in the warnings', async () => {
    const add = await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'FRA', to: 'AMS', pieces: KEYS.map((k) => ({ [k]: 1, pieces: 2 })) },
    });
    assert.equal(add.status, 200, add.text);
    assert.equal(add.body.status, 'success');
    assert.equal(add.body.data._route_pieces.length, KEYS.length);
    const named = add.body.warnings.map((w: { field: string }) => w.field);
    for (const k of KEYS.filter((k) => k !== 'constructor')) assert.ok(named.includes(`pieces[${KEYS.indexOf(k)}][${k}]`), k);
    const edit = await app.post(`/freights/edit/${add.body.data.id}.json`, {
      token: shipper.token,
      json: { pieces: [{ toString: 1 }, { valueOf: 'x', weight: 3 }] },
    });
    assert.equal(edit.status, 200, edit.text);
    assert.equal(edit.body.status, 'success');
    // Form keys alike (qs drops prototype names on its own).
    const form = await app.post('/freights/add.json', {
      token: shipper.token,
      form: 'from=FRA&to=AMS&pieces[0][toString]=1&pieces[0][pieces]=1',
    });
    assert.equal(form.body.status, 'success', form.text);
  });

  test('a rate search, a file push and a saved search with such keys or values', async () => {
    const search = await app.post('/pricing/search/results.json', {
      token: shipper.token,
      json: { origin: 'airport:FRA', destination: 'airport:AMS', pieces_json: [{ toString: 1, pieces: 1, weight: 5 }] },
    });
    assert.equal(search.status, 200, search.text);
    const text = await app.post('/pricing/search/results.json', {
      token: shipper.token,
      json: { origin: 'airport:FRA', destination: 'airport:AMS', pieces_json: '[{"valueOf":1,"pieces":1,"weight":5}]' },
    });
    assert.equal(text.status, 200, text.text);
    for (const action of ['toString', 'valueOf', 'hasOwnProperty', 'constructor']) {
      const push = await app.post('/files/push.json', {
        token: shipper.token,
        json: { encoding: 'plain', content: 'awb,code\n', name: 'x.csv', action },
      });
      assert.equal(push.status, 200, `${action}: ${push.text}`);
      assert.equal(push.body.data.file.records, 0, 'an unknown action: stored, nothing read');
    }
    const saved = await app.post('/searches/add.json', {
      token: shipper.token,
      json: { name: 'Proto', filter: 8, params: { toString: 'x', valueOf: 1, from: 'DE' } },
    });
    assert.equal(saved.body.status, 'success', saved.text);
    assert.deepEqual(saved.body.data.search.params, { from: 'DE' });
  });
});
