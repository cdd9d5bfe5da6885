import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import recordedEvents from '../../src/openapi/event-examples.json' with { type: 'json' };
import recorded from '../../src/openapi/examples.json' with { type: 'json' };
import { FREIGHT_LIST_IDS } from '../../src/freights/index.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { openStream } from '../live/support.ts';

/**
 * docs/reference.md#one-step: `auto_award`, the owner's walk-away price, is seen by the owner only — never
 * in another company's answer, page, list, search, count, event (webhook) or stream, nor in the
 * API description's examples. A distinctive price (4321.09) is looked for as text everywhere a
 * bidder, a whitelisted carrier and an outsider can look, in every form it could be written
 * (4321.09, 4.321,09, 4,321.09, 4321,09).
 */

const SECRET = '4321.09';
const FORMS = ['4321.09', '4321,09', '4.321,09', '4,321.09', '4 321,09', '4321.9'];

let app: TestApp;
let base: string;
let shipper: Actor;
let bidder: Actor;
let listed: Actor;
let outsider: Actor;
let open: number;
let addressed: number;

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const clean = (text: string, where: string) => {
  for (const form of FORMS) assert.ok(!text.includes(form), `${where} shows the walk-away price (${form})`);
};

before(async () => {
  app = await startTestApp();
  base = await app.listen();
  shipper = await app.actor('Shipper');
  bidder = await app.actor('Bidder');
  listed = await app.actor('Listed');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

describe(`auto_award is the owner's alone (${TEST_DB})`, () => {
  test('the owner sees it; its own answers carry it', async () => {
    const terms = { from: 'city:DE-60311', to: 'city:FR-75001', weight: 9000, book_now: '5000', auto_award: SECRET };
    open = ok(await app.post('/freights/add.json', { token: shipper.token, json: terms })).id;
    assert.equal(
      (await app.post(`/freights/view/${open}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+2 days' } })).status,
      302,
    );
    addressed = ok(await app.post('/freights/add.json', { token: shipper.token, json: terms })).id;
    const pub = await app.post(`/freights/view/${addressed}.json`, {
      token: shipper.token,
      json: { action: 'publish', deadline: '+2 days', visibility: -2, whitelist: [listed.company] },
    });
    assert.equal(pub.status, 302);
    ok(await app.post(`/freights/edit/${open}.json`, { token: shipper.token, json: { auto_award: SECRET, weight: 9100 } }));
    ok(await app.post('/quotes/add.json', { token: bidder.token, json: { route: open, amount: '4500', currency_code: 'EUR' } }));
    ok(await app.post('/quotes/add.json', { token: listed.token, json: { route: addressed, amount: '4400', currency_code: 'EUR' } }));
    assert.equal(ok(await app.get(`/freights/view/${open}.json`, { token: shipper.token })).route.auto_award, Number(SECRET));
    assert.equal(
      (await app.services.db.selectFrom('freights').select('status').where('id', '=', open).executeTakeFirstOrThrow()).status,
      'open',
    );
  });

  test('views, lists, searches, counts and pages of every other company never show it', async () => {
    const live = [bidder, listed, outsider];
    for (const who of live) {
      for (const id of [open, addressed]) {
        const res = await app.get(`/freights/view/${id}.json`, { token: who.token });
        if (res.status === 200) {
          assert.equal(res.body.data.route.auto_award, null);
          assert.equal(res.body.data.route.book_now, 5000, 'the Book Now price is everyone’s');
        }
        clean(res.text, `view ${id} for ${who.username}`);
        const { cookie } = await browserSession(app, who);
        const page = await app.get(`/freights/view/${id}`, { headers: { cookie } });
        clean(page.text, `page ${id} for ${who.username}`);
      }
      for (const list of FREIGHT_LIST_IDS) {
        const res = await app.get(`/freights/enlist/${list}.json`, { token: who.token });
        clean(res.text, `list ${list} for ${who.username}`);
        for (const route of res.body?.data?.routes ?? []) assert.equal(route.auto_award, null);
      }
      clean((await app.get('/freights/enlist/8.json?from=DE-60&to=FR', { token: who.token })).text, `search for ${who.username}`);
      clean((await app.get('/freights/enlist/8.json?price_max=5000', { token: who.token })).text, `search for ${who.username}`);
      clean((await app.get('/freights/counts.json?from=DE-60', { token: who.token })).text, `counts for ${who.username}`);
      const { cookie } = await browserSession(app, who);
      clean((await app.get('/freights/enlist/8?from=DE-60', { headers: { cookie } })).text, `list page for ${who.username}`);
      clean((await app.get('/', { headers: { cookie } })).text, `desk for ${who.username}`);
    }
    // Seen where it is the owner's: its views.
    assert.ok((await app.get(`/freights/view/${open}.json`, { token: shipper.token })).text.includes(SECRET));
  });

  test('events (what webhooks deliver) and the live stream carry it to the owner only', async () => {
    const rows = await app.services.db.selectFrom('events').select(['type', 'company_id', 'body']).execute();
    let toOthers = 0;
    for (const row of rows) {
      if (row.company_id === shipper.company) continue;
      toOthers++;
      clean(row.body, `event ${row.type} to ${row.company_id ?? 'the market'}`);
      const route = JSON.parse(row.body).data?.route;
      if (route) assert.equal(route.auto_award, null, `${row.type} to ${row.company_id}`);
    }
    assert.ok(toOthers >= 4, `events to other companies were written (${toOthers})`);
    assert.ok(
      rows.some((r) => r.company_id === shipper.company && r.body.includes(SECRET)),
      'the owner’s events carry it',
    );

    // The stream replays the last 24 hours to a reconnecting client: every company's, and then a change.
    for (const who of [bidder, listed, outsider]) {
      const stream = await openStream(base, { token: who.token, lastEventId: 'evt_0' });
      try {
        await new Promise((r) => setTimeout(r, 300));
        ok(
          await app.post(`/freights/edit/${open}.json`, { token: shipper.token, json: { weight: 9000 + Math.floor(Math.random() * 100) } }),
        );
        if (who === bidder) await stream.waitFor((e) => e.json?.type === 'freight.updated', 5000);
        assert.ok(stream.events.length > 0 || who === outsider, `the ${who.username} stream replayed its events`);
        for (const e of stream.events) clean(e.data, `stream event to ${who.username}`);
      } finally {
        stream.close();
      }
    }
  });

  test('the API description’s examples show it only in the owner’s answers (those that show the owner’s whitelist)', () => {
    const found: string[] = [];
    let freights = 0;
    const walk = (value: unknown, where: string) => {
      if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${where}[${i}]`);
      else if (value && typeof value === 'object') {
        const o = value as Record<string, unknown>;
        if ('auto_award' in o && 'whitelist' in o) freights++;
        if ('auto_award' in o && 'whitelist' in o && o.auto_award !== null) {
          found.push(where);
          assert.notEqual(o.whitelist, null, `${where}: a walk-away price in an answer that is not the owner's`);
        }
        for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
      }
    };
    walk(recorded, 'examples');
    walk(recordedEvents, 'event-examples');
    assert.ok(freights > 10, `the examples show freights with the field (${freights}, ${found.length} of them the owner's with a price)`);
  });
});
