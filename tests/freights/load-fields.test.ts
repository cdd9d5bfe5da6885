import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, enlistIds, force, insertBid, openFreight, view } from './helpers.ts';
import { addOffer, FREIGHT as ROAD, OFFER } from '../vehicles/helpers.ts';

/**
 * The load described as trucks are (docs/choices.md, "Loads described as trucks are"): the field
 * table's round trip of body, loading_meters, adr_class, the reefer's temperature range and
 * pallet_exchange (lenient, as every freight field: a bad value is ignored with a warning); never
 * masked; the load search's new parameters and saved searches keeping them; and matching both
 * ways respecting body, loading metres and ADR, with the freights and offers that name none of
 * them matching exactly as before.
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;

const post = (who: Actor, url: string, json: Record<string, unknown>) => app.post(url, { token: who.token, json });
const warned = (res: { body: any }) => new Set((res.body.warnings ?? []).map((w: { field: string }) => w.field));
const LOAD_KEYS = ['body', 'loading_meters', 'adr_class', 'temperature_min', 'temperature_max', 'pallet_exchange'] as const;
const loadOf = (route: Record<string, unknown>) => Object.fromEntries(LOAD_KEYS.map((k) => [k, route[k]]));

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  app.setNow(new Date('2030-05-01T10:00:00Z'));
});
after(() => app?.close());

describe('the field table', () => {
  test('round trip: sent, stored, answered typed; JSON numbers and text read alike', async () => {
    const id = await addFreight(app, shipper, {
      body: 'Reefer',
      loading_meters: '7,5',
      adr_class: 3,
      temperature_min: -18,
      temperature_max: '-2.5',
      pallet_exchange: 1,
    });
    const route = (await view(app, shipper, id)).body.data.route;
    assert.deepEqual(loadOf(route), {
      body: 'reefer',
      loading_meters: 7.5,
      adr_class: '3',
      temperature_min: -18,
      temperature_max: -2.5,
      pallet_exchange: 1,
    });
    const other = await addFreight(app, shipper, { body: 'flatbed', adr_class: '4.1', loading_meters: 13.6 });
    assert.deepEqual(loadOf((await view(app, shipper, other)).body.data.route), {
      body: 'flatbed',
      loading_meters: 13.6,
      adr_class: '4.1',
      temperature_min: null,
      temperature_max: null,
      pallet_exchange: null,
    });
  });

  test('a freight without them answers null for each (as every optional field)', async () => {
    const id = await addFreight(app, shipper, {});
    const route = (await view(app, shipper, id)).body.data.route;
    for (const key of LOAD_KEYS) assert.equal(route[key], null, key);
  });

  test('unreadable values are ignored with a warning, the rest is stored', async () => {
    const res = await post(shipper, '/freights/add.json', {
      ...ROAD,
      body: 'truck',
      loading_meters: 14,
      adr_class: '10',
      pallet_exchange: 'maybe',
      temperature_min: -60,
    });
    assert.equal(res.body.status, 'success', res.text);
    const w = warned(res);
    for (const key of ['body', 'loading_meters', 'adr_class', 'pallet_exchange', 'temperature_min']) assert.ok(w.has(key), key);
    const route = (await view(app, shipper, res.body.data.id)).body.data.route;
    for (const key of LOAD_KEYS) assert.equal(route[key], null, key);
    assert.equal(route.weight, ROAD.weight);
  });

  test('the temperature range is a reefer’s, its minimum at most its maximum', async () => {
    const box = await post(shipper, '/freights/add.json', { ...ROAD, body: 'box', temperature_min: 2, temperature_max: 8 });
    assert.ok(warned(box).has('temperature_min') && warned(box).has('temperature_max'), box.text);
    assert.equal((await view(app, shipper, box.body.data.id)).body.data.route.temperature_min, null);

    const upside = await post(shipper, '/freights/add.json', { ...ROAD, body: 'reefer', temperature_min: 8, temperature_max: 2 });
    assert.ok(warned(upside).has('temperature_min'), upside.text);
    const id = upside.body.data.id as number;
    assert.equal((await view(app, shipper, id)).body.data.route.temperature_min, null);

    // Against the stored maximum: 5 fits under 8, 9 does not.
    assert.equal((await post(shipper, `/freights/edit/${id}.json`, { temperature_max: 8 })).body.status, 'success');
    const low = await post(shipper, `/freights/edit/${id}.json`, { temperature_min: 5 });
    assert.ok(!warned(low).has('temperature_min'), low.text);
    const high = await post(shipper, `/freights/edit/${id}.json`, { temperature_min: 9 });
    assert.ok(warned(high).has('temperature_min'), high.text);
    let route = (await view(app, shipper, id)).body.data.route;
    assert.deepEqual([route.temperature_min, route.temperature_max], [5, 8]);

    // The body changed away from reefer empties the range, with a warning; an empty value empties a field.
    const changed = await post(shipper, `/freights/edit/${id}.json`, { body: 'tautliner' });
    assert.ok(warned(changed).has('temperature_min') && warned(changed).has('temperature_max'), changed.text);
    route = (await view(app, shipper, id)).body.data.route;
    assert.deepEqual([route.body, route.temperature_min, route.temperature_max], ['tautliner', null, null]);
    assert.equal((await post(shipper, `/freights/edit/${id}.json`, { body: '' })).body.status, 'success');
    assert.equal((await view(app, shipper, id)).body.data.route.body, null);
  });

  test('never masked: a former bidder still reads the load’s description', async () => {
    const id = await openFreight(app, shipper, { ...ROAD, body: 'tank', adr_class: '3', loading_meters: 6 });
    await insertBid(app, id, carrier, 'revoked');
    await insertBid(app, id, carrier);
    await force(app, id, { status: 'expired' });
    const route = (await view(app, carrier, id)).body.data.route;
    assert.equal(route.f_from, 'xxx (XX)', 'masked');
    assert.deepEqual([route.body, route.adr_class, route.loading_meters], ['tank', '3', 6]);
  });
});

describe('the load search and saved searches', () => {
  const f: Record<string, number> = {};
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const ids = (...names: string[]) => sorted(names.map((n) => f[n]!));
  let searcher: Actor;
  let owner: Actor;
  const found = async (params: Record<string, string>) =>
    sorted(await enlistIds(app, searcher, 8, `?${new URLSearchParams({ limit: '100', ...params })}`));

  before(async () => {
    searcher = await app.actor('Searching carrier');
    owner = await app.actor('Searched shipper');
    f.plain = await openFreight(app, owner, ROAD);
    f.reefer = await openFreight(app, owner, { ...ROAD, body: 'reefer', loading_meters: 13.6, temperature_min: 2, temperature_max: 6 });
    f.adr = await openFreight(app, owner, { ...ROAD, body: 'tank', adr_class: '3', loading_meters: 7 });
    f.pallets = await openFreight(app, owner, { ...ROAD, body: 'tautliner', loading_meters: 4.8, pallet_exchange: 1 });
    f.noPallets = await openFreight(app, owner, { ...ROAD, body: 'box', pallet_exchange: 0 });
  });

  test('each parameter narrows the list', async () => {
    const all = await found({});
    for (const n of Object.keys(f)) assert.ok(all.includes(f[n]!), n);
    assert.deepEqual(await found({ body: 'reefer' }), ids('reefer'));
    assert.deepEqual(await found({ body: 'tank,TAUTLINER' }), ids('adr', 'pallets'));
    assert.deepEqual(await found({ adr: '1' }), ids('adr'));
    assert.deepEqual(
      (await found({ adr: '0' })).filter((id) => Object.values(f).includes(id)),
      ids('plain', 'reefer', 'pallets', 'noPallets'),
    );
    assert.deepEqual(await found({ loading_meters_max: '7' }), ids('adr', 'pallets'));
    assert.deepEqual(await found({ loading_meters_max: '7', body: 'tautliner' }), ids('pallets'));
    assert.deepEqual(await found({ pallet_exchange: '1' }), ids('pallets'));
    assert.ok(!(await found({ pallet_exchange: '0' })).includes(f.pallets!));
  });

  test('an unreadable parameter is ignored with a warning, the list unfiltered by it', async () => {
    const res = await app.get('/freights/enlist/8.json?limit=100&body=truck&adr=2&loading_meters_max=20&pallet_exchange=x', {
      token: searcher.token,
    });
    assert.equal(res.body.status, 'success', res.text);
    const w = warned(res);
    for (const key of ['body', 'adr', 'loading_meters_max', 'pallet_exchange']) assert.ok(w.has(key), key);
    const listed = res.body.data.routes.map((r: { id: number }) => r.id);
    for (const n of Object.keys(f)) assert.ok(listed.includes(f[n]!), n);
    const counts = await app.get('/freights/counts.json?body=reefer', { token: searcher.token });
    assert.ok(counts.body.data.counts['8'] >= 1, counts.text);
  });

  test('a saved search keeps them normalised and alerts only for a matching load', async () => {
    const res = await post(searcher, '/searches/add.json', {
      name: 'Reefers',
      filter: 8,
      params: { body: 'REEFER, box', loading_meters_max: '13.60', adr: 0, pallet_exchange: 'no' },
      alert: 1,
    });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.search.params, { body: 'box,reefer', adr: '0', loading_meters_max: '13.6', pallet_exchange: '0' });
    const before = (await app.get('/notifications/index.json', { token: searcher.token })).body.data.notifications.length;
    await openFreight(app, owner, { ...ROAD, body: 'tank' });
    await openFreight(app, owner, { ...ROAD, body: 'reefer', adr_class: '2' });
    const hit = await openFreight(app, owner, { ...ROAD, body: 'reefer', loading_meters: 10 });
    const list = (await app.get('/notifications/index.json', { token: searcher.token })).body.data.notifications;
    assert.equal(list.length, before + 1, JSON.stringify(list));
    assert.equal(list[0].route.id, hit);
  });
});

describe('matching both ways respects body, loading metres and ADR', () => {
  const f: Record<string, number> = {};
  const o: Record<string, number> = {};
  let trucker: Actor;
  let loader: Actor;
  const fitsOf = async (offer: number) =>
    (
      (await app.get(`/vehicles/matches/${offer}.json?limit=100`, { token: trucker.token })).body.data.freights as Array<{ id: number }>
    ).map((r) => r.id);
  const offersOf = async (freight: number) =>
    (
      (await app.get(`/freights/vehicles/${freight}.json?limit=100`, { token: loader.token })).body.data.vehicles as Array<{ id: number }>
    ).map((v) => v.id);

  before(async () => {
    trucker = await app.actor('Trucker');
    loader = await app.actor('Loader');
    o.tautliner = (await addOffer(app, trucker, { body: 'tautliner' })).id;
    o.short = (await addOffer(app, trucker, { body: 'tautliner', loading_meters: 6 })).id;
    o.reefer = (await addOffer(app, trucker, { body: 'reefer', loading_meters: 13.6 })).id;
    o.adrTank = (await addOffer(app, trucker, { body: 'tank', adr: 1 })).id;
    f.plain = await openFreight(app, loader, ROAD);
    f.reefer = await openFreight(app, loader, { ...ROAD, body: 'reefer', temperature_min: -20, temperature_max: -18 });
    f.long = await openFreight(app, loader, { ...ROAD, body: 'tautliner', loading_meters: 13.6 });
    f.fitting = await openFreight(app, loader, { ...ROAD, loading_meters: 5.5 });
    f.adr = await openFreight(app, loader, { ...ROAD, adr_class: '3' });
    f.adrTank = await openFreight(app, loader, { ...ROAD, body: 'tank', adr_class: '3' });
  });

  test('from the offer: the freights its truck can carry', async () => {
    const mine = (ids: number[]) =>
      Object.keys(f)
        .filter((n) => ids.includes(f[n]!))
        .sort();
    assert.deepEqual(mine(await fitsOf(o.tautliner!)), ['fitting', 'long', 'plain']);
    assert.deepEqual(mine(await fitsOf(o.short!)), ['fitting', 'plain']);
    assert.deepEqual(mine(await fitsOf(o.reefer!)), ['fitting', 'plain', 'reefer']);
    assert.deepEqual(mine(await fitsOf(o.adrTank!)), ['adr', 'adrTank', 'fitting', 'plain']);
  });

  test('from the freight: the offers that can carry it', async () => {
    const mine = (ids: number[]) =>
      Object.keys(o)
        .filter((n) => ids.includes(o[n]!))
        .sort();
    assert.deepEqual(mine(await offersOf(f.plain!)), ['adrTank', 'reefer', 'short', 'tautliner']);
    assert.deepEqual(mine(await offersOf(f.reefer!)), ['reefer']);
    assert.deepEqual(mine(await offersOf(f.long!)), ['tautliner']);
    assert.deepEqual(mine(await offersOf(f.fitting!)), ['adrTank', 'reefer', 'short', 'tautliner']);
    assert.deepEqual(mine(await offersOf(f.adr!)), ['adrTank']);
    assert.deepEqual(mine(await offersOf(f.adrTank!)), ['adrTank']);
  });

  test('an offer’s adr: 0 unless sent, validated as every offer field', async () => {
    const view = await app.get(`/vehicles/view/${o.tautliner}.json`, { token: trucker.token });
    assert.equal(view.body.data.vehicle.adr, 0);
    assert.equal((await app.get(`/vehicles/view/${o.adrTank}.json`, { token: trucker.token })).body.data.vehicle.adr, 1);
    const bad = await app.post('/vehicles/add.json', {
      token: trucker.token,
      json: { ...OFFER, adr: 2 },
    });
    assert.equal(bad.body.status, 'error', bad.text);
    assert.ok(JSON.stringify(bad.body).includes('adr'), bad.text);
    // The offers list reads its own body; the load's parameters are not its own.
    const list = await app.get('/vehicles/index.json?body=tank&adr=1', { token: loader.token });
    assert.deepEqual(
      list.body.data.vehicles.map((v: { id: number }) => v.id),
      [o.adrTank],
    );
    assert.ok(warned(list).has('adr'), list.text);
  });
});
