import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { addOffer, OFFER } from './helpers.ts';

/**
 * Vehicle offers (docs/reference.md#vehicles): validated add, view, edit by the owner while open,
 * withdraw, expiry read everywhere at once, the whitelist's 404, another company's actions 404,
 * the offers list with its search parameters and sort, and the own offers.
 */

let app: TestApp;
let carrier: Actor;
let shipper: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Carrier');
  shipper = await app.actor('Shipper');
  outsider = await app.actor('Outsider');
  app.setNow(new Date('2030-05-01T10:00:00Z'));
});
after(() => app?.close());

const post = (who: Actor, url: string, json: Record<string, unknown> = {}) => app.post(url, { token: who.token, json });
const get = (who: Actor, url: string) => app.get(url, { token: who.token });

describe('add', () => {
  test('answers data.vehicle, open, with id, company (id and name), created, modified and the fields as read', async () => {
    const v = await addOffer(app, carrier, {
      to: 'de, FR-75 ,airport:jfk',
      loading_meters: '13.6',
      price_per_km: '1.25',
      note: ' Ladebordwand ',
    });
    assert.equal(typeof v.id, 'number');
    assert.equal(v.status, 'open');
    assert.deepEqual(v.company, { id: carrier.company, name: carrier.companyName, verified: false });
    assert.equal(v.from, 'city:60311');
    assert.equal(v.from_country, 'DE');
    assert.ok(Math.abs(v.from_latitude - 50.11) < 0.05 && Math.abs(v.from_longitude - 8.68) < 0.05, 'the postal code’s centre');
    assert.equal(v.from_radius, 100);
    assert.equal(v.to, 'DE,FR-75,airport:JFK');
    assert.equal(v.available_from, '2030-05-04 06:00:00');
    assert.equal(v.available_to, '2030-05-06 18:00:00');
    assert.equal(v.body, 'tautliner');
    assert.equal(v.capacity, 24000);
    assert.equal(v.loading_meters, 13.6);
    assert.equal(v.price_per_km, 1.25);
    assert.equal(v.note, 'Ladebordwand');
    assert.deepEqual(v.whitelist, []);
    assert.equal(v.created, '2030-05-01 10:00:00');
    assert.equal(v.modified, '2030-05-01 10:00:00');
  });

  test('an airport as origin takes its position; coordinates alone are a place too; the radius defaults to 50 km', async () => {
    const a = await addOffer(app, carrier, { from: 'airport:FRA', from_country: undefined, from_radius: undefined });
    assert.equal(a.from, 'airport:FRA');
    assert.equal(a.from_country, 'DE');
    assert.equal(a.from_radius, 50);
    assert.ok(Math.abs(a.from_latitude - 50.03) < 0.05);
    const b = await addOffer(app, carrier, { from: '', from_country: undefined, from_latitude: 48.137, from_longitude: 11.575 });
    assert.equal(b.from, null);
    assert.equal(b.from_latitude, 48.137);
    assert.equal(b.from_longitude, 11.575);
  });

  test('a missing or impossible field refuses the offer, each problem named with its field, and nothing is stored', async () => {
    const before = (await get(carrier, '/vehicles/mine.json?limit=100')).body.data.vehicles.length;
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ from: undefined, from_country: undefined }, ['from']],
      [{ from: 'airport:XYQ' }, ['from']],
      [{ from: 'city:60311', from_country: undefined }, ['from_country']],
      [{ from_latitude: 95, from_longitude: 8 }, ['from_latitude']],
      [{ from_radius: 0 }, ['from_radius']],
      [{ from_radius: 501 }, ['from_radius']],
      [{ to: 'DE,XX-1' }, ['to']],
      [{ available_from: undefined }, ['available_from']],
      [{ available_to: '2030-05-03 06:00:00' }, ['available_to']],
      [{ available_to: 'soon' }, ['available_to']],
      [{ available_from: '2030-04-01 06:00:00', available_to: '2030-04-02 06:00:00' }, ['available_to']],
      [{ body: undefined }, ['body']],
      [{ body: 'rocket' }, ['body']],
      [{ capacity: undefined }, ['capacity']],
      [{ capacity: 0 }, ['capacity']],
      [{ capacity: 40001 }, ['capacity']],
      [{ capacity: 'heavy' }, ['capacity']],
      [{ loading_meters: 13.7 }, ['loading_meters']],
      [{ price_per_km: -1 }, ['price_per_km']],
      [{ note: 'x'.repeat(501) }, ['note']],
      [{ whitelist: ['abc'] }, ['whitelist']],
      [{ whitelist: Array.from({ length: 101 }, (_, i) => i + 1) }, ['whitelist']],
      [{ body: 'rocket', capacity: -5, from_radius: 'far' }, ['body', 'capacity', 'from_radius']],
    ];
    for (const [change, fields] of cases) {
      const res = await post(carrier, '/vehicles/add.json', { ...OFFER, ...change });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'error', JSON.stringify(change));
      assert.equal(res.body.code, 'vehicle.invalid');
      assert.deepEqual(res.body.data.errors.map((e: { field: string }) => e.field).sort(), [...fields].sort(), JSON.stringify(change));
      for (const f of fields) assert.match(res.body.message, new RegExp(`${f}: `));
    }
    const after = (await get(carrier, '/vehicles/mine.json?limit=100')).body.data.vehicles.length;
    assert.equal(after, before, 'nothing stored');
  });

  test('a form body with German decimals reads like JSON', async () => {
    const res = await app.post('/vehicles/add.json', {
      token: carrier.token,
      form: {
        ...Object.fromEntries(Object.entries(OFFER).map(([k, v]) => [k, String(v)])),
        capacity: '1234,5',
        whitelist: `${shipper.company}`,
      },
    });
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.vehicle.capacity, 1234.5);
    assert.deepEqual(res.body.data.vehicle.whitelist, [shipper.company]);
  });
});

describe('view, edit, withdraw', () => {
  test('view answers data.vehicle for any company the whitelist admits; 404 outside it and for an unknown id', async () => {
    const open = await addOffer(app, carrier);
    const listed = await addOffer(app, carrier, { whitelist: [shipper.company] });
    for (const who of [carrier, shipper, outsider]) {
      const res = await get(who, `/vehicles/view/${open.id}.json`);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.vehicle.id, open.id);
    }
    assert.equal((await get(shipper, `/vehicles/view/${listed.id}.json`)).status, 200);
    assert.equal((await get(carrier, `/vehicles/view/${listed.id}.json`)).status, 200);
    const hidden = await get(outsider, `/vehicles/view/${listed.id}.json`);
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body.data, []);
    assert.equal((await get(outsider, '/vehicles/view/999999.json')).status, 404);
    assert.equal((await get(outsider, '/vehicles/view/abc.json')).status, 404);
  });

  test('edit changes only the fields sent, validated as on add; another company’s offer is 404, for those who see it too', async () => {
    const v = await addOffer(app, carrier);
    app.setNow(new Date('2030-05-01T11:00:00Z'));
    const res = await post(carrier, `/vehicles/edit/${v.id}.json`, { capacity: 8000, body: 'box', to: 'PL' });
    assert.equal(res.body.status, 'success', res.text);
    const e = res.body.data.vehicle;
    assert.equal(e.capacity, 8000);
    assert.equal(e.body, 'box');
    assert.equal(e.to, 'PL');
    assert.equal(e.from, 'city:60311');
    assert.equal(e.available_to, '2030-05-06 18:00:00');
    assert.equal(e.modified, '2030-05-01 11:00:00');
    assert.equal(e.created, '2030-05-01 10:00:00');
    const bad = await post(carrier, `/vehicles/edit/${v.id}.json`, { capacity: 50000, available_to: '2030-05-04 05:00:00' });
    assert.equal(bad.body.status, 'error');
    assert.deepEqual(bad.body.data.errors.map((e: { field: string }) => e.field).sort(), ['available_to', 'capacity']);
    assert.equal((await get(carrier, `/vehicles/view/${v.id}.json`)).body.data.vehicle.capacity, 8000, 'nothing changed');
    const foreign = await post(shipper, `/vehicles/edit/${v.id}.json`, { capacity: 1 });
    assert.equal(foreign.status, 404);
    assert.equal((await post(shipper, `/vehicles/withdraw/${v.id}.json`)).status, 404);
    assert.equal((await get(carrier, `/vehicles/view/${v.id}.json`)).body.data.vehicle.capacity, 8000);
    // A new origin brings its own position.
    const moved = await post(carrier, `/vehicles/edit/${v.id}.json`, { from: 'airport:MUC' });
    assert.equal(moved.body.data.vehicle.from, 'airport:MUC');
    assert.ok(Math.abs(moved.body.data.vehicle.from_latitude - 48.35) < 0.05);
    app.setNow(new Date('2030-05-01T10:00:00Z'));
  });

  test('withdraw: status withdrawn; a withdrawn offer can be neither changed nor withdrawn again', async () => {
    const v = await addOffer(app, carrier);
    const res = await post(carrier, `/vehicles/withdraw/${v.id}.json`);
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.vehicle.status, 'withdrawn');
    const again = await post(carrier, `/vehicles/withdraw/${v.id}.json`);
    assert.equal(again.body.status, 'error');
    assert.equal(again.body.code, 'vehicle.withdraw.not_open');
    const edit = await post(carrier, `/vehicles/edit/${v.id}.json`, { capacity: 100 });
    assert.equal(edit.body.code, 'vehicle.edit.not_open');
    assert.equal((await get(shipper, `/vehicles/view/${v.id}.json`)).body.data.vehicle.status, 'withdrawn');
    const market = await get(shipper, '/vehicles/index.json?limit=100');
    assert.ok(!market.body.data.vehicles.some((x: { id: number }) => x.id === v.id));
  });

  test('once available_to has passed the offer reads expired everywhere at once: view, own list, market list, edit', async () => {
    const v = await addOffer(app, carrier, { available_from: '2030-05-01 12:00:00', available_to: '2030-05-02 12:00:00' });
    const inMarket = async () =>
      (await get(shipper, '/vehicles/index.json?limit=100')).body.data.vehicles.some((x: { id: number }) => x.id === v.id);
    assert.equal(await inMarket(), true);
    app.setNow(new Date('2030-05-02T12:00:01Z'));
    try {
      assert.equal((await get(shipper, `/vehicles/view/${v.id}.json`)).body.data.vehicle.status, 'expired');
      assert.equal((await get(carrier, `/vehicles/view/${v.id}.json`)).body.data.vehicle.status, 'expired');
      const mine = (await get(carrier, '/vehicles/mine.json?limit=100')).body.data.vehicles.find((x: { id: number }) => x.id === v.id);
      assert.equal(mine.status, 'expired');
      assert.equal(await inMarket(), false);
      assert.equal((await post(carrier, `/vehicles/edit/${v.id}.json`, { capacity: 5 })).body.code, 'vehicle.edit.not_open');
      assert.equal((await post(carrier, `/vehicles/withdraw/${v.id}.json`)).body.code, 'vehicle.withdraw.not_open');
    } finally {
      app.setNow(new Date('2030-05-01T10:00:00Z'));
    }
  });
});

describe('lists', () => {
  let lister: Actor;
  let viewer: Actor;
  const ids: Record<string, number> = {};
  before(async () => {
    lister = await app.actor('Lister');
    viewer = await app.actor('Viewer');
    app.setNow(new Date('2030-05-01T09:00:00Z'));
    ids.frankfurt = (await addOffer(app, lister, { available_from: '2030-05-10 06:00:00', available_to: '2030-05-11 18:00:00' })).id;
    app.setNow(new Date('2030-05-01T09:01:00Z'));
    ids.munich = (
      await addOffer(app, lister, {
        from: 'airport:MUC',
        from_country: undefined,
        to: 'IT',
        body: 'reefer',
        capacity: 8000,
        available_from: '2030-05-03 06:00:00',
        available_to: '2030-05-04 18:00:00',
      })
    ).id;
    app.setNow(new Date('2030-05-01T09:02:00Z'));
    ids.hamburg = (await addOffer(app, lister, { from: 'city:20095', to: 'FR-75', capacity: 3000, body: 'van' })).id;
    ids.private = (await addOffer(app, lister, { whitelist: [carrier.company] })).id;
    ids.own = (await addOffer(app, viewer)).id;
    app.setNow(new Date('2030-05-01T10:00:00Z'));
  });

  const listed = async (query: string, who: Actor = viewer) => {
    const res = await get(who, `/vehicles/index.json?limit=100&${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success');
    const mine = new Set(Object.values(ids));
    return {
      ids: res.body.data.vehicles.map((v: { id: number }) => v.id).filter((id: number) => mine.has(id)),
      warnings: res.body.warnings,
    };
  };

  test('open offers of other companies visible to the caller; newest first by default', async () => {
    assert.deepEqual((await listed('')).ids, [ids.hamburg, ids.munich, ids.frankfurt]);
    assert.ok((await listed('', carrier)).ids.includes(ids.private), 'the whitelisted company sees it');
    assert.ok((await listed('', carrier)).ids.includes(ids.own), 'another company sees the viewer’s offer');
  });

  test('sort by Vehicles.available_from and Vehicles.created, either direction; an unknown sort warns', async () => {
    assert.deepEqual((await listed('sort=Vehicles.available_from&direction=asc')).ids, [ids.munich, ids.hamburg, ids.frankfurt]);
    assert.deepEqual((await listed('sort=Vehicles.available_from desc')).ids, [ids.frankfurt, ids.hamburg, ids.munich]);
    assert.deepEqual((await listed('sort=Vehicles.created&direction=asc')).ids, [ids.frankfurt, ids.munich, ids.hamburg]);
    const unknown = await listed('sort=Vehicles.capacity');
    assert.deepEqual(unknown.ids, [ids.hamburg, ids.munich, ids.frankfurt]);
    assert.deepEqual(
      unknown.warnings.map((w: { field: string }) => w.field),
      ['sort'],
    );
  });

  test('from (patterns), from_near with from_radius, to, pickup window, weight_min, body', async () => {
    assert.deepEqual((await listed('from=DE-6')).ids, [ids.frankfurt]);
    assert.deepEqual((await listed('from=airport:MUC')).ids, [ids.munich]);
    assert.deepEqual((await listed('from=DE-2,DE-6')).ids, [ids.hamburg, ids.frankfurt]);
    assert.deepEqual((await listed('from_near=50.11,8.68&from_radius=30')).ids, [ids.frankfurt]);
    assert.deepEqual((await listed('from_near=airport:MUC&from_radius=40')).ids, [ids.munich]);
    // to: an offer going there, to a part of it, to a whole it lies in, or anywhere
    assert.deepEqual((await listed('to=IT')).ids, [ids.munich, ids.frankfurt]);
    assert.deepEqual((await listed('to=FR')).ids, [ids.hamburg, ids.frankfurt]);
    assert.deepEqual((await listed('to=FR-750')).ids, [ids.hamburg, ids.frankfurt]);
    assert.deepEqual((await listed('pickup_from=2030-05-04&pickup_to=2030-05-04')).ids, [ids.hamburg, ids.munich]);
    assert.deepEqual((await listed('pickup_from=2030-05-09')).ids, [ids.frankfurt]);
    assert.deepEqual((await listed('weight_min=5000')).ids, [ids.munich, ids.frankfurt]);
    assert.deepEqual((await listed('body=reefer,van')).ids, [ids.hamburg, ids.munich]);
    const bad = await listed('body=rocket&from_radius=9999&from_near=50.11,8.68&weight_min=-1');
    assert.deepEqual(bad.ids.length, 1, 'the readable parameters still apply (50 km around Frankfurt)');
    assert.deepEqual(bad.warnings.map((w: { field: string }) => w.field).sort(), ['body', 'from_radius', 'weight_min']);
  });

  test('paging: limit and page; limit capped at 100', async () => {
    const first = await get(viewer, '/vehicles/index.json?limit=1&page=1');
    const second = await get(viewer, '/vehicles/index.json?limit=1&page=2');
    assert.equal(first.body.data.vehicles.length, 1);
    assert.notEqual(first.body.data.vehicles[0].id, second.body.data.vehicles[0].id);
    assert.equal((await get(viewer, '/vehicles/index.json?limit=1000')).body.status, 'success');
  });

  test('the list page counts what its search lists, and pages through it with the search kept', async () => {
    const session = await browserSession(app, viewer);
    const page = (query: string) => app.get(`/vehicles/index${query}`, { headers: { cookie: session.cookie } });
    const count = (html: string) => Number(/data-testid="vehicle-count"[^>]*>\s*(\d+)/.exec(html)?.[1]);
    const rows = (html: string) => [...html.matchAll(/<a href="\/vehicles\/view\/(\d+)"/g)].map((m) => Number(m[1]));
    for (const query of ['from=DE-2,DE-6', 'body=reefer,van', 'to=IT&weight_min=5000', '']) {
      const listedThere = (await get(viewer, `/vehicles/index.json?limit=100&${query}`)).body.data.vehicles.length;
      assert.equal(count((await page(`?${query}`)).text), listedThere, query);
    }
    assert.ok(count((await page('')).text) > count((await page('?from=DE-2,DE-6')).text), 'a search counts fewer');
    // The pager: the next page of the same search.
    const first = await page('?from=DE-2,DE-6&limit=1');
    const next = /<a href="([^"]*page=2[^"]*)">/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(next, 'a link to the next page');
    assert.match(next, /from=DE-2(%2C|,)DE-6/);
    assert.match(next, /limit=1/);
    const second = await page(next.replace('/vehicles/index', ''));
    const firstTwo = (await get(viewer, '/vehicles/index.json?limit=2&from=DE-2,DE-6')).body.data.vehicles.map((v: { id: number }) => v.id);
    assert.equal(firstTwo.length, 2);
    assert.deepEqual([...rows(first.text), ...rows(second.text)], firstTwo);
    assert.equal(count(second.text), count(first.text), 'the count is the search’s, whatever the page');
  });

  test('mine lists the own company’s offers, every status, and nothing of others', async () => {
    await post(lister, `/vehicles/withdraw/${ids.hamburg}.json`);
    try {
      const res = await get(lister, '/vehicles/mine.json?limit=100');
      const byId = new Map(res.body.data.vehicles.map((v: { id: number; status: string }) => [v.id, v.status]));
      assert.equal(byId.get(ids.hamburg), 'withdrawn');
      assert.equal(byId.get(ids.frankfurt), 'open');
      assert.equal(byId.has(ids.own), false);
      assert.ok(res.body.data.vehicles.every((v: { company: { id: number } }) => v.company.id === lister.company));
    } finally {
      await app.services.db.updateTable('vehicle_offers').set({ status: 'open' }).where('id', '=', ids.hamburg!).execute();
    }
  });
});
