import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { MAX_HIDDEN } from '../../src/freights/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { enlistIds, force, openFreight } from './helpers.ts';

/**
 * Issue 47, item 11's last part: a carrier hides a load of the market (it leaves that user's
 * market list 8 and its load search, JSON and page; GET /freights/hidden lists it, unhide brings
 * it back), and the market page marks the loads the user opened (their freight page) as seen.
 * Per user: a colleague, another company and the load's owner see nothing of either. A freight the
 * caller may not see answers as a missing one. Both engines (TEST_DATABASE_URL).
 */
describe('hidden and seen loads of the market', () => {
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let colleague: Actor;
  let other: Actor;
  const f = { a: 0, b: 0, c: 0, secret: 0, own: 0 };
  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    colleague = await app.colleague(carrier, 'Colleague');
    other = await app.actor('Other Carrier');
    f.a = await openFreight(app, shipper, { from: 'city:DE-80331', to: 'city:PL-00-001', weight: 5000 });
    f.b = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:IT-20121', weight: 8000 });
    f.c = await openFreight(app, shipper);
    // Offered to `other` alone: the carrier may not see it.
    f.secret = await openFreight(app, shipper, {}, { visibility: -2, whitelist: [other.company] });
    f.own = await openFreight(app, carrier);
  });
  after(async () => app?.close());

  const hide = (who: Actor, id: number | string) => app.post(`/freights/hide/${id}.json`, { token: who.token });
  const unhide = (who: Actor, id: number | string) => app.post(`/freights/unhide/${id}.json`, { token: who.token });
  const hidden = async (who: Actor, query = '') => {
    const res = await app.get(`/freights/hidden.json${query}`, { token: who.token });
    assert.equal(res.body.status, 'success', res.text);
    return (res.body.data.routes as Array<{ id: number }>).map((r) => r.id);
  };

  test('a user who hides nothing reads the market as before; a hidden load leaves that user’s market and its search only', async () => {
    const before8 = (await app.get('/freights/enlist/8.json', { token: carrier.token })).text;
    assert.deepEqual((await enlistIds(app, carrier, 8)).sort(), [f.a, f.b, f.c].sort());
    assert.deepEqual(await hidden(carrier), []);

    const res = await hide(carrier, f.a);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data, { freight: { id: f.a, hidden: true } });
    // Again: nothing changes.
    assert.deepEqual((await hide(carrier, f.a)).body.data, { freight: { id: f.a, hidden: true } });

    assert.deepEqual((await enlistIds(app, carrier, 8)).sort(), [f.b, f.c].sort());
    assert.deepEqual(await enlistIds(app, carrier, 8, '?from=DE-80'), [], 'the load search leaves it out too');
    assert.deepEqual(await enlistIds(app, carrier, 8, '?to=PL'), []);
    assert.deepEqual(await hidden(carrier), [f.a]);
    // The colleague, another company and the owner: as before.
    assert.deepEqual((await enlistIds(app, colleague, 8)).sort(), [f.a, f.b, f.c].sort());
    assert.deepEqual(await enlistIds(app, colleague, 8, '?from=DE-80'), [f.a]);
    assert.equal(
      (await app.get('/freights/enlist/8.json', { token: other.token })).body.data.routes.length,
      5,
      'a, b, c, secret and the carrier’s own',
    );
    assert.deepEqual(await hidden(colleague), []);
    assert.deepEqual(await hidden(other), []);
    assert.ok((await enlistIds(app, shipper, 10)).includes(f.a));
    // The freight itself reads as before for everyone (nothing of a hide in any answer).
    const view = await app.get(`/freights/view/${f.a}.json`, { token: carrier.token });
    assert.equal(view.body.data.route.id, f.a);
    assert.ok(!('hidden' in view.body.data.route) && !('seen' in view.body.data.route));
    // The market of the user's company counts every load (the tab's count is the company's).
    const counts = await app.get('/freights/counts.json', { token: carrier.token });
    assert.equal(counts.body.status, 'success', counts.text);

    // Shown again: back in the market, the answer as before the hide.
    const back = await unhide(carrier, f.a);
    assert.deepEqual(back.body.data, { freight: { id: f.a, hidden: false } });
    assert.deepEqual(await hidden(carrier), []);
    assert.equal((await app.get('/freights/enlist/8.json', { token: carrier.token })).text, before8);
    assert.deepEqual((await unhide(carrier, f.a)).body.data, { freight: { id: f.a, hidden: false } }, 'not hidden: unchanged');
  });

  test('no existence leak: a freight the caller may not see, a missing one and a bad id answer alike (404, not_found)', async () => {
    const missing = await hide(carrier, 987654);
    const secret = await hide(carrier, f.secret);
    assert.equal(missing.status, 404);
    assert.equal(secret.status, 404);
    assert.deepEqual(secret.body, missing.body);
    assert.equal(secret.body.code, 'not_found');
    for (const bad of ['abc', '0', '-1', '99999999999999999999', '1e3', `${'9'.repeat(300)}`]) {
      const res = await hide(carrier, bad);
      assert.ok([404, 414].includes(res.status), `${bad}: ${res.status}`);
      assert.equal(res.body.status, 'error');
    }
    assert.equal((await unhide(carrier, f.secret)).status, 404);
    assert.equal((await unhide(carrier, 987654)).status, 404);
    // `other` may see it and hides it; the carrier learns nothing of that.
    assert.equal((await hide(other, f.secret)).body.status, 'success');
    assert.deepEqual(await hidden(other), [f.secret]);
    assert.equal((await hide(carrier, f.secret)).status, 404);
    assert.equal((await unhide(other, f.secret)).body.status, 'success');
    // Nothing was written for the carrier.
    const rows = await app.services.db.selectFrom('freight_marks').selectAll().where('user_id', '=', carrier.user).execute();
    assert.deepEqual(rows, []);
  });

  test('the company’s own freight: refused with freight.hide.own; no token: 401', async () => {
    const res = await hide(carrier, f.own);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.code, 'freight.hide.own');
    assert.equal((await app.post(`/freights/hide/${f.a}.json`)).status, 401);
    assert.equal((await app.get('/freights/hidden.json')).status, 401);
  });

  test('a hidden load that leaves the market, or that the user bids on, is no longer listed as hidden', async () => {
    const id = await openFreight(app, shipper);
    assert.equal((await hide(carrier, id)).body.status, 'success');
    assert.deepEqual(await hidden(carrier), [id]);
    const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '100', currency_code: 'EUR' } });
    assert.equal(bid.body.status, 'success', bid.text);
    assert.deepEqual(await hidden(carrier), [], 'bid on: list 7, hidden no more');
    assert.ok((await enlistIds(app, carrier, 7)).includes(id), 'hiding never touches the other lists');
  });

  test('seen: opening the freight page marks the load for that user alone; the JSON lists do not change', async () => {
    const json8 = (await app.get('/freights/enlist/8.json', { token: carrier.token })).text;
    const session = await browserSession(app, carrier);
    const page = await app.get(`/freights/view/${f.b}`, { headers: { cookie: session.cookie } });
    assert.equal(page.status, 200);
    // The owner opening its own freight marks nothing.
    const owner = await browserSession(app, shipper);
    assert.equal((await app.get(`/freights/view/${f.b}`, { headers: { cookie: owner.cookie } })).status, 200);
    const marks = await app.services.db
      .selectFrom('freight_marks')
      .select(['user_id', 'freight_id', 'hidden'])
      .where('seen', 'is not', null)
      .execute();
    assert.deepEqual(
      marks.map((m) => [m.user_id, m.freight_id, m.hidden]),
      [[carrier.user, f.b, null]],
    );
    assert.equal((await app.get('/freights/enlist/8.json', { token: carrier.token })).text, json8, 'the JSON list is unchanged');

    const list = (await app.get('/freights/enlist/8', { headers: { cookie: session.cookie } })).text;
    const row = (html: string, id: number) => {
      const m = new RegExp(`<tr data-key="${id}"[^>]*>([\\s\\S]*?)</tr>`).exec(html);
      assert.ok(m, `row ${id}`);
      return m[0];
    };
    assert.match(row(list, f.b), /class="seen"/);
    assert.match(row(list, f.b), /data-testid="seen-mark"/);
    assert.doesNotMatch(row(list, f.c), /seen-mark/);
    assert.match(row(list, f.c), /action="\/freights\/hide\/\d+"/);
    // The colleague's board: nothing seen.
    const theirs = (await app.get('/freights/enlist/8', { headers: { cookie: (await browserSession(app, colleague)).cookie } })).text;
    assert.doesNotMatch(theirs, /seen-mark|class="seen"/);
  });

  test('the page: hide from the list comes back to it, the hidden loads page shows it again', async () => {
    const session = await browserSession(app, carrier);
    const list = await app.get('/freights/enlist/8?from=DE-60', { headers: { cookie: session.cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(list.text)![1]!;
    const post = (path: string, form: Record<string, string>) =>
      app.post(path, { headers: { cookie: session.cookie }, form: { _csrf: csrf, ...form } });
    const res = await post(`/freights/hide/${f.b}`, { back: '/freights/enlist/8?from=DE-60' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/freights/enlist/8?from=DE-60');
    // Another site is never a place to come back to.
    const off = await post(`/freights/hide/${f.c}`, { back: 'https://evil.example/' });
    assert.equal(off.headers.location, '/freights/enlist/8');
    const page = (await app.get('/freights/hidden', { headers: { cookie: session.cookie } })).text;
    assert.match(page, new RegExp(`action="/freights/unhide/${f.b}"`));
    assert.match(page, new RegExp(`action="/freights/unhide/${f.c}"`));
    const shown = await post(`/freights/unhide/${f.b}`, { back: '/freights/hidden' });
    assert.equal(shown.headers.location, '/freights/hidden');
    assert.deepEqual(await hidden(carrier), [f.c]);
    assert.equal((await unhide(carrier, f.c)).body.status, 'success');
  });

  test(`at most ${MAX_HIDDEN} hidden at once; hides of loads that left the market make room`, async () => {
    const db = app.services.db;
    // MAX_HIDDEN copies of one market load of the shipper, hidden by the carrier, written directly.
    const columns = (
      await sql<{ c: string }>`select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as c
        from information_schema.columns where table_schema = current_schema() and table_name = 'freights' and column_name <> 'id'
          and is_generated = 'NEVER'`.execute(db)
    ).rows[0]!.c;
    const copies = (
      await sql<{
        id: number;
      }>`insert into freights (${sql.raw(columns)}) select ${sql.raw(columns)} from freights, generate_series(1, ${MAX_HIDDEN})
        where freights.id = ${f.c} returning id`.execute(db)
    ).rows.map((r) => r.id);
    await sql`insert into freight_marks (user_id, freight_id, hidden) select ${carrier.user}, id, now() from unnest(${copies}::int[]) as id`.execute(
      db,
    );
    const full = await hide(carrier, f.a);
    assert.equal(full.body.status, 'error');
    assert.equal(full.body.code, 'freight.hide.too_many');
    assert.match(full.body.message, new RegExp(String(MAX_HIDDEN)));
    assert.equal((await hidden(carrier, '?limit=100')).length, 100);
    // The copies leave the market: their hides hide nothing and make room.
    for (const id of copies.slice(0, 10)) await force(app, id, { status: 'revoked' });
    assert.equal((await hide(carrier, f.a)).body.status, 'success');
    const left = await db
      .selectFrom('freight_marks')
      .select(['freight_id', 'hidden'])
      .where('user_id', '=', carrier.user)
      .where('freight_id', 'in', [...copies, f.a])
      .execute();
    assert.equal(left.length, MAX_HIDDEN - 10 + 1, 'the revoked copies’ hides are gone');
    assert.ok(left.every((m) => m.hidden !== null));
    assert.ok(left.some((m) => m.freight_id === f.a));
  });
});
