import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';

/**
 * Saved searches per user and their alerts (docs/reference.md#load-search, #events): a freight entering the market
 * that matches gives the searcher a notification and its company a freight.matched event, after
 * the publish committed (tests/alerts/queue.test.ts); a non-matching or invisible freight gives nothing.
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let carrierColleague: Actor;
let outsider: Actor;

const FRANKFURT = {
  from: 'city:DE-60311',
  from_latitude: 50.1109,
  from_longitude: 8.6821,
  to: 'airport:MXP',
  weight: 11000,
  etd: '2030-05-04 08:00',
};

async function saveSearch(who: Actor, json: Record<string, unknown>) {
  const res = await app.post('/searches/add.json', { token: who.token, json });
  assert.equal(res.status, 200, res.text);
  return res;
}

async function notifications(who: Actor) {
  const res = await app.get('/notifications/index.json', { token: who.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success');
  return res.body.data as { notifications: Array<Record<string, any>>; unread: number };
}

async function matchedEvents(companyId: number): Promise<Array<{ freight_id: number; body: string }>> {
  const rows = await sql<{
    freight_id: number;
    body: string;
  }>`select freight_id, body from events where type = 'freight.matched' and company_id = ${companyId} order by seq`.execute(
    app.services.db,
  );
  return rows.rows;
}

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  carrierColleague = await app.colleague(carrier, 'Dispatcher');
  outsider = await app.actor('Outsider');
});
after(() => app?.close());

describe('saved searches', () => {
  test("add answers data.search with id, normalised params, filter and alert; index lists the user's", async () => {
    const res = await saveSearch(carrier, {
      name: 'Frankfurt area to Italy',
      filter: 8,
      params: { from_near: '50.11,8.68', from_radius: 100, to: 'it', zzz: 1 },
      alert: 1,
    });
    assert.equal(res.body.status, 'success');
    const search = res.body.data.search;
    assert.equal(typeof search.id, 'number');
    assert.equal(search.name, 'Frankfurt area to Italy');
    assert.equal(search.filter, 8);
    assert.equal(search.alert, 1);
    assert.deepEqual(search.params, { to: 'IT', from_near: '50.11,8.68', from_radius: '100' });
    assert.equal(search.url, '/freights/enlist/8?to=IT&from_near=50.11%2C8.68&from_radius=100');
    assert.deepEqual(
      res.body.warnings.map((w: { field: string }) => w.field),
      ['params[zzz]'],
    );
    const index = await app.get('/searches/index.json', { token: carrier.token });
    assert.deepEqual(
      index.body.data.searches.map((s: { id: number }) => s.id),
      [search.id],
    );
    // Saved searches belong to a user, not to the company.
    const colleague = await app.get('/searches/index.json', { token: carrierColleague.token });
    assert.deepEqual(colleague.body.data.searches, []);
  });

  test('form fields and a query string in params work as well; filter defaults to 8', async () => {
    const res = await app.post('/searches/add.json', {
      token: carrier.token,
      form: 'name=Road+from+DE&params[from]=DE&params[media]=road&alert=0',
    });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.search.params, { from: 'DE', media: 'road' });
    assert.equal(res.body.data.search.filter, 8);
    assert.equal(res.body.data.search.alert, 0);
    const text = await saveSearch(carrier, { name: 'Text params', params: 'from=NL&weight_max=3000' });
    assert.deepEqual(text.body.data.search.params, { from: 'NL', weight_max: '3000' });
  });

  test('a missing name, an unknown filter or params that are no object: status error, nothing stored', async () => {
    const before = (await app.get('/searches/index.json', { token: carrier.token })).body.data.searches.length;
    for (const json of [
      { filter: 8 },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 'x', filter: 999 },
      { name: 'x', filter: 'abc' },
      { name: 'x', params: [1, 2] },
      { name: 'x', params: 42 },
    ]) {
      const res = await app.post('/searches/add.json', { token: carrier.token, json });
      assert.equal(res.status, 200, JSON.stringify(json));
      assert.equal(res.body.status, 'error', JSON.stringify(json));
      assert.equal(typeof res.body.message, 'string');
    }
    assert.equal((await app.get('/searches/index.json', { token: carrier.token })).body.data.searches.length, before);
  });

  test("another user's search is 404: delete and edit", async () => {
    const res = await saveSearch(carrier, { name: 'Mine', params: { from: 'FR' } });
    const id = res.body.data.search.id;
    for (const who of [outsider, carrierColleague]) {
      const del = await app.post(`/searches/delete/${id}.json`, { token: who.token });
      assert.equal(del.status, 404);
      assert.deepEqual(del.body.data, []);
      const edit = await app.post(`/searches/edit/${id}.json`, { token: who.token, json: { alert: 1 } });
      assert.equal(edit.status, 404);
    }
    for (const bad of ['0', 'abc', '99999999'])
      assert.equal((await app.post(`/searches/delete/${bad}.json`, { token: carrier.token })).status, 404);
    const edit = await app.post(`/searches/edit/${id}.json`, { token: carrier.token, json: { alert: 1, name: 'Mine, alerting' } });
    assert.equal(edit.body.data.search.alert, 1);
    assert.equal(edit.body.data.search.name, 'Mine, alerting');
    const del = await app.post(`/searches/delete/${id}.json`, { token: carrier.token });
    assert.equal(del.status, 200);
    assert.equal(del.body.data.search.id, id);
    const index = await app.get('/searches/index.json', { token: carrier.token });
    assert.ok(!index.body.data.searches.some((s: { id: number }) => s.id === id));
    assert.equal((await app.post(`/searches/delete/${id}.json`, { token: carrier.token })).status, 404);
  });
});

describe('alerts', () => {
  let alerting: number;
  before(async () => {
    // Webhook subscriptions make the events module write freight.matched events (docs/reference.md#events).
    for (const who of [carrier, outsider, shipper]) {
      const hook = await app.post('/webhooks/add.json', {
        token: who.token,
        json: { url: 'http://127.0.0.1:9/hook', events: ['freight.matched'] },
      });
      assert.equal(hook.body.status, 'success', hook.text);
    }
    // The searches of the first part stay quiet, so each alert below has one cause.
    for (const s of (await app.get('/searches/index.json', { token: carrier.token })).body.data.searches) {
      await app.post(`/searches/edit/${s.id}.json`, { token: carrier.token, json: { alert: 0 } });
    }
    alerting = (await saveSearch(carrier, { name: 'Around Frankfurt', filter: 8, params: { from: 'DE-60', weight_min: 10000 }, alert: 1 }))
      .body.data.search.id;
    // Matches too, but without alert: no notification of its own.
    await saveSearch(carrierColleague, { name: 'Quietly', params: { from: 'DE' }, alert: 0 });
    // The shipper's own company: never alerted about its own freights.
    await saveSearch(shipper, { name: 'My own', params: { from: 'DE-60' }, alert: 1 });
  });

  test('publishing a matching freight notifies the searcher and emits freight.matched', async () => {
    const id = await openFreight(app, shipper, FRANKFURT);
    const { notifications: list, unread } = await notifications(carrier);
    assert.equal(list.length, 1);
    assert.equal(unread, 1);
    const n = list[0]!;
    assert.equal(n.type, 'freight.matched');
    assert.match(n.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(n.search.id, alerting);
    assert.equal(n.search.name, 'Around Frankfurt');
    assert.equal(n.route.id, id);
    assert.equal(n.route_id, id);
    assert.equal(n.route.from_addr, null, 'the freight as the market sees it');
    const events = await matchedEvents(carrier.company);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.freight_id, id);
    const body = JSON.parse(events[0]!.body);
    assert.equal(body.type, 'freight.matched');
    assert.equal(body.data.route.id, id);
    assert.equal(body.data.search.id, alerting);
    // Nobody else: not the colleague without alert, not the owner's company, not the outsider.
    assert.equal((await notifications(carrierColleague)).notifications.length, 0);
    assert.equal((await notifications(shipper)).notifications.length, 0);
    assert.equal((await matchedEvents(shipper.company)).length, 0);
  });

  test('a draft, a non-matching freight and a freight invisible to the searcher alert nobody', async () => {
    await addFreight(app, shipper, FRANKFURT); // stays a draft
    await openFreight(app, shipper, { ...FRANKFURT, weight: 500 }); // too light
    await openFreight(app, shipper, { ...FRANKFURT, from: 'city:DE-80331' }); // elsewhere
    await openFreight(app, shipper, FRANKFURT, { visibility: -2, whitelist: [outsider.company] }); // only for the outsider
    await openFreight(app, shipper, FRANKFURT, { visibility: -1 }); // own company only
    assert.equal((await notifications(carrier)).notifications.length, 1);
    assert.equal((await matchedEvents(carrier.company)).length, 1);
  });

  test('whitelisted searchers are alerted; a freight created open by winner_direct alerts its addressee', async () => {
    const outsiderSearch = (await saveSearch(outsider, { name: 'Any from DE', params: { from: 'DE' }, alert: 1 })).body.data.search.id;
    const whitelisted = await openFreight(app, shipper, FRANKFURT, { visibility: -2, whitelist: [outsider.company] });
    let list = (await notifications(outsider)).notifications;
    assert.deepEqual(
      list.map((n) => n.route_id),
      [whitelisted],
    );
    assert.equal(list[0]!.search.id, outsiderSearch);
    const direct = await app.post('/freights/add.json', { token: shipper.token, json: { ...FRANKFURT, winner_direct: outsider.company } });
    assert.equal(direct.body.data.status, 'open');
    list = (await notifications(outsider)).notifications;
    assert.deepEqual(
      list.map((n) => n.route_id),
      [direct.body.data.id, whitelisted],
      'newest first',
    );
    assert.equal((await matchedEvents(outsider.company)).length, 2);
    assert.equal((await notifications(carrier)).notifications.length, 1, "the direct order is not the carrier's to see");
  });

  test('one notification per user and freight, even when several searches match', async () => {
    await saveSearch(carrier, { name: 'Also Frankfurt', params: { from_near: '50.11,8.68', from_radius: 30 }, alert: 1 });
    const id = await openFreight(app, shipper, FRANKFURT);
    const list = (await notifications(carrier)).notifications;
    assert.equal(list.filter((n) => n.route_id === id).length, 1);
    assert.equal(list[0]!.route_id, id);
  });

  test('mark one or all read; the unread count follows; others cannot touch them', async () => {
    const { notifications: list, unread } = await notifications(carrier);
    assert.equal(unread, list.length);
    const first = list[0]!.id;
    assert.equal((await app.post(`/notifications/read/${first}.json`, { token: outsider.token })).status, 404);
    const one = await app.post(`/notifications/read/${first}.json`, { token: carrier.token });
    assert.equal(one.body.data.notification.read, 1);
    assert.equal((await app.get('/notifications/unread.json', { token: carrier.token })).body.data.unread, unread - 1);
    const all = await app.post('/notifications/read.json', { token: carrier.token });
    assert.equal(all.body.data.read, unread - 1);
    assert.equal((await notifications(carrier)).unread, 0);
    assert.equal((await app.get('/notifications/index.json?unread=1', { token: carrier.token })).body.data.notifications.length, 0);
  });

  test('a deleted search leaves its notifications, named; the search stops alerting', async () => {
    await app.post(`/searches/delete/${alerting}.json`, { token: carrier.token });
    const list = (await notifications(carrier)).notifications;
    const old = list.find((n) => n.search.name === 'Around Frankfurt');
    assert.ok(old);
    assert.equal(old.search.id, null);
    const before = list.length;
    await openFreight(app, shipper, { ...FRANKFURT, from_latitude: 52.52, from_longitude: 13.4 }); // DE-60 but not near Frankfurt
    assert.equal((await notifications(carrier)).notifications.length, before);
  });
});

describe('answers conform to the API description (GET /openapi.json)', () => {
  test('counts, saved searches, notifications and place suggestions', async () => {
    const { Contract } = await import('../support/contract.ts');
    const contract = new Contract((await app.get('/openapi.json')).body);
    const check = async (method: 'get' | 'post', url: string, json?: unknown) => {
      const res = method === 'get' ? await app.get(url, { token: carrier.token }) : await app.post(url, { token: carrier.token, json });
      assert.equal(res.body.status, 'success', `${url}: ${res.text}`);
      assert.deepEqual(contract.check(method, url.split('?')[0]!, res.status, res.body), [], url);
      return res;
    };
    await check('get', '/freights/counts.json?from=DE');
    await check('get', '/freights/enlist/8.json?from=DE-60&weight_min=1000');
    const added = await check('post', '/searches/add.json', { name: 'Conformance', params: { from: 'DE' } });
    await check('get', '/searches/index.json');
    await check('post', `/searches/edit/${added.body.data.search.id}.json`, { alert: 1 });
    await check('get', '/notifications/index.json');
    await check('get', '/notifications/unread.json');
    await check('get', '/places/suggest.json?q=Frankf&for=near');
    await check('post', `/searches/delete/${added.body.data.search.id}.json`);
  });
});

describe('alerts find their searches by the freight’s places (migration 0130: the patterns as keys)', () => {
  test('country, postal prefix, airport, several patterns, radius only and no place at all: each alerted exactly when it matches', async () => {
    const searcher = await app.actor('Key searcher');
    const owner = await app.actor('Key shipper');
    const cases: Array<[string, Record<string, string>, boolean]> = [
      ['country', { from: 'AT' }, true],
      ['postal prefix', { from: 'AT-40' }, true],
      ['longer prefix', { from: 'AT-4020' }, true],
      ['other prefix', { from: 'AT-45' }, false],
      ['other country', { from: 'CZ' }, false],
      ['airport', { from: 'airport:LNZ' }, false],
      ['one of several', { from: 'CZ,AT-4' }, true],
      ['destination', { to: 'SK-8' }, true],
      ['wrong destination', { to: 'SK-9' }, false],
      ['both sides', { from: 'AT', to: 'SK' }, true],
      ['radius only', { from_near: '48.3069,14.2858', from_radius: '30' }, true],
      ['radius nearby, default 50 km', { from_near: '48.5,14.5' }, true],
      ['radius elsewhere', { from_near: '48.8566,2.3522', from_radius: '300' }, false],
      ['radius around an airport', { from_near: 'airport:LNZ', from_radius: '20' }, true],
      ['no place', { weight_min: '100' }, true],
    ];
    const ids = new Map<number, string>();
    for (const [name, params, _] of cases) {
      const res = await saveSearch(searcher, { name, filter: 8, params, alert: 1 });
      assert.equal(res.body.status, 'success', res.text);
      ids.set(res.body.data.search.id, name);
    }
    // A freight from Linz (AT-4020) to Bratislava (SK-811 01).
    await openFreight(app, owner, {
      from: 'city:AT-4020',
      from_latitude: 48.3069,
      from_longitude: 14.2858,
      to: 'city:SK-81101',
      weight: 1000,
    });
    // One notification per user: the first matching search names it; every matching one is a candidate.
    const { notifications: list } = await notifications(searcher);
    assert.equal(list.length, 1);
    assert.equal(ids.get(list[0]!.search.id), 'country');
    // Each search alone: the others switched off, a new freight each time.
    for (const [id, name] of ids) {
      for (const other of ids.keys())
        await app.post(`/searches/edit/${other}.json`, { token: searcher.token, json: { alert: other === id ? 1 : 0 } });
      const before = (await notifications(searcher)).notifications.length;
      await openFreight(app, owner, {
        from: 'city:AT-4020',
        from_latitude: 48.3069,
        from_longitude: 14.2858,
        to: 'city:SK-81101',
        weight: 1000,
      });
      const after = (await notifications(searcher)).notifications.length;
      const expected = cases.find(([n]) => n === name)![2];
      assert.equal(after - before, expected ? 1 : 0, `${name}: ${expected ? 'alerted' : 'quiet'}`);
    }
  });
});
