import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from './helpers.ts';

/**
 * Matching both ways (docs/reference.md#vehicles): which freights fit an offer and which offers fit a
 * freight (each misfit reason excluded), nearest first with distance_km, 404 for anyone else;
 * the alerts of a match both ways (notification and events, after the publishing commit); and
 * the invitation into a whitelisted freight, after which the carrier sees it and bids.
 */

let app: TestApp;
let carrier: Actor;
let shipper: Actor;
let other: Actor;
let outsider: Actor;

const post = (who: Actor, url: string, json: Record<string, unknown> = {}) => app.post(url, { token: who.token, json });
const get = (who: Actor, url: string) => app.get(url, { token: who.token });

async function subscribe(who: Actor) {
  const res = await post(who, '/webhooks/add.json', { url: 'https://hooks.example.test/in', events: ['*'] });
  assert.equal(res.body.status, 'success', res.text);
}

async function eventsOf(companyId: number, type: string): Promise<Array<Record<string, any>>> {
  const { rows } = await sql<{
    body: string;
  }>`select body from events where type = ${type} and company_id = ${companyId} order by seq`.execute(app.services.db);
  return rows.map((r) => JSON.parse(r.body).data);
}

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Carrier');
  shipper = await app.actor('Shipper');
  other = await app.actor('Other shipper');
  outsider = await app.actor('Outsider');
  app.setNow(new Date('2030-05-01T10:00:00Z'));
  await subscribe(carrier);
  await subscribe(shipper);
});
after(() => app?.close());

describe('matching', () => {
  let offer: Record<string, any>;
  const f: Record<string, number> = {};
  before(async () => {
    // Publishing the freights first, the offer after: the offer's alert finds them.
    f.near = await openFreight(app, shipper, { ...FREIGHT, refs: { customer: 'near' } });
    f.farther = await openFreight(app, other, {
      ...FREIGHT,
      from: 'city:63065',
      from_latitude: 50.0984,
      from_longitude: 8.7784,
      refs: { customer: 'farther' },
    });
    f.airport = await openFreight(app, shipper, {
      ...FREIGHT,
      from: 'airport:FRA',
      from_latitude: undefined,
      from_longitude: undefined,
      from_country: undefined,
    });
    f.heavy = await openFreight(app, shipper, { ...FREIGHT, weight: 30000 });
    f.elsewhere = await openFreight(app, shipper, {
      ...FREIGHT,
      to: 'city:75001',
      to_country: 'FR',
      to_latitude: 48.86,
      to_longitude: 2.34,
    });
    f.far = await openFreight(app, shipper, { ...FREIGHT, from: 'city:80331', from_latitude: 48.137, from_longitude: 11.575 });
    f.late = await openFreight(app, shipper, { ...FREIGHT, etd: '2030-05-20 08:00' });
    f.hidden = await openFreight(app, shipper, FREIGHT, { visibility: -2, whitelist: [outsider.company] });
    f.ownOnly = await openFreight(app, shipper, FREIGHT, { visibility: -1 });
    f.own = await openFreight(app, carrier, FREIGHT);
    f.air = await openFreight(app, shipper, { ...FREIGHT, class: 'air' });
    f.draft = await addFreight(app, shipper, FREIGHT);
    offer = await addOffer(app, carrier, { to: 'DE' });
  });

  test('the offer’s matches: fitting road freights in the market, nearest origin first, each with distance_km', async () => {
    const res = await get(carrier, `/vehicles/matches/${offer.id}.json`);
    assert.equal(res.status, 200, res.text);
    const freights = res.body.data.freights as Array<Record<string, any>>;
    assert.deepEqual(
      freights.map((x) => x.id),
      [f.near, f.farther, f.airport],
    );
    for (const x of freights) assert.equal(typeof x.distance_km, 'number');
    assert.ok(freights[0]!.distance_km < freights[1]!.distance_km && freights[1]!.distance_km < freights[2]!.distance_km);
    assert.ok(freights[2]!.distance_km > 5 && freights[2]!.distance_km < 20, 'Frankfurt airport lies about 12 km from 60311');
    // As the offer's company sees them: the market's view (no addresses).
    assert.equal(freights[0]!.from_addr, null);
    assert.equal(freights[0]!.company, shipper.company);
  });

  test('each misfit is left out: weight, destination pattern, radius, window, visibility, own company, air, draft', async () => {
    const ids = new Set((await get(carrier, `/vehicles/matches/${offer.id}.json`)).body.data.freights.map((x: { id: number }) => x.id));
    for (const name of ['heavy', 'elsewhere', 'far', 'late', 'hidden', 'ownOnly', 'own', 'air', 'draft'])
      assert.ok(!ids.has(f[name]), name);
    // Each would fit an offer without that reason.
    const wide = await addOffer(app, carrier, { to: '', capacity: 40000, from_radius: 500, available_to: '2030-05-25 18:00:00' });
    const more = new Set((await get(carrier, `/vehicles/matches/${wide.id}.json`)).body.data.freights.map((x: { id: number }) => x.id));
    for (const name of ['heavy', 'elsewhere', 'far', 'late']) assert.ok(more.has(f[name]), name);
    for (const name of ['hidden', 'ownOnly', 'own', 'air', 'draft']) assert.ok(!more.has(f[name]), name);
    await post(carrier, `/vehicles/withdraw/${wide.id}.json`);
  });

  test('the freight’s fitting offers, for its owner: nearest first with distance_km; misfits and other owners left out', async () => {
    const nearer = await addOffer(app, carrier, { from: '', from_country: undefined, from_latitude: 50.111, from_longitude: 8.683 });
    const small = await addOffer(app, carrier, { capacity: 5000 });
    const notForShipper = await addOffer(app, carrier, { whitelist: [other.company] });
    const ownOffer = await addOffer(app, shipper);
    const res = await get(shipper, `/freights/vehicles/${f.near}.json`);
    assert.equal(res.status, 200, res.text);
    const vehicles = res.body.data.vehicles as Array<Record<string, any>>;
    const ids = vehicles.map((v) => v.id);
    assert.equal(ids[0], nearer.id);
    assert.ok(ids.includes(offer.id));
    assert.ok(vehicles[0]!.distance_km < 1);
    for (let i = 1; i < vehicles.length; i++) assert.ok(vehicles[i - 1]!.distance_km <= vehicles[i]!.distance_km);
    for (const v of [small, notForShipper, ownOffer]) assert.ok(!ids.includes(v.id));
    // The other owner's freight sees the offer whitelisted for it.
    const forOther = (await get(other, `/freights/vehicles/${f.farther}.json`)).body.data.vehicles.map((v: { id: number }) => v.id);
    assert.ok(forOther.includes(notForShipper.id));
    for (const v of [nearer, small, notForShipper]) await post(carrier, `/vehicles/withdraw/${v.id}.json`);
    await post(shipper, `/vehicles/withdraw/${ownOffer.id}.json`);
  });

  test('a match shows the freight as its view does (bids aside), piece lines included', async () => {
    const withPieces = await openFreight(app, shipper, { ...FREIGHT, pieces: [{ pieces: 3, weight: '1500.25', depth: '1.2' }] });
    const matches = (await get(carrier, `/vehicles/matches/${offer.id}.json`)).body.data.freights as Array<Record<string, any>>;
    const found = matches.find((m) => m.id === withPieces)!;
    assert.ok(found, 'fits');
    // As the view shows it, but for the bids (a list row, like the lists' rows, carries none).
    const { _bids: __, ...view } = (await get(carrier, `/freights/view/${withPieces}.json`)).body.data.route;
    const { distance_km: _, ...asMatched } = found;
    assert.deepEqual(asMatched, view);
    assert.equal(found._route_pieces.length, 1);
    await post(shipper, `/freights/view/${withPieces}.json`, { action: 'revoke' });
  });

  test('an offer fits by its own radius, whatever it is: just inside fits, just outside not (the reach box, then the circle)', async () => {
    // The freight near Frankfurt (50.1109, 8.6821); offers due north at known distances.
    const northOf = (km: number) => 50.1109 + km / 111.195;
    const inside = await addOffer(app, carrier, {
      from: '',
      from_country: undefined,
      from_latitude: northOf(24.5),
      from_longitude: 8.6821,
      from_radius: 25,
    });
    const outside = await addOffer(app, carrier, {
      from: '',
      from_country: undefined,
      from_latitude: northOf(25.5),
      from_longitude: 8.6821,
      from_radius: 25,
    });
    const wide = await addOffer(app, carrier, {
      from: '',
      from_country: undefined,
      from_latitude: northOf(495),
      from_longitude: 8.6821,
      from_radius: 500,
    });
    const ids = (await get(shipper, `/freights/vehicles/${f.near}.json`)).body.data.vehicles.map((v: { id: number }) => v.id);
    assert.ok(ids.includes(inside.id), '24.5 km away, radius 25');
    assert.ok(!ids.includes(outside.id), '25.5 km away, radius 25');
    assert.ok(ids.includes(wide.id), '495 km away, radius 500');
    for (const v of [inside, outside, wide]) await post(carrier, `/vehicles/withdraw/${v.id}.json`);
  });

  test('the reach box kept by the database is the one places/geo.ts computes, near the poles and the date line too', async () => {
    const { boundingBox } = await import('../../src/places/geo.ts');
    for (const [lat, lon, km] of [
      [50.11, 8.68, 100],
      [-33.9, 151.2, 500],
      [89.5, 10, 100],
      [-89.9, -20, 25],
      [10, 179.8, 100],
      [10, -179.8, 100],
      [0, 0, 1],
    ] as const) {
      const { rows } = await sql<{ b: string }>`select fx_reach_box(${lat}::float8, ${lon}::float8, ${km}::float8)::text as b`.execute(
        app.services.db,
      );
      const [x1, y1, x2, y2] = rows[0]!.b.match(/-?[\d.e-]+/g)!.map(Number) as [number, number, number, number];
      const box = boundingBox({ latitude: lat, longitude: lon }, km);
      const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
      assert.ok(close(Math.min(y1, y2), box.minLat) && close(Math.max(y1, y2), box.maxLat), `latitudes at ${lat},${lon}`);
      assert.ok(close(Math.min(x1, x2), box.minLon ?? -180) && close(Math.max(x1, x2), box.maxLon ?? 180), `longitudes at ${lat},${lon}`);
    }
  });

  test('anyone else asking for an offer’s matches or a freight’s fitting offers gets 404', async () => {
    assert.equal((await get(shipper, `/vehicles/matches/${offer.id}.json`)).status, 404);
    assert.equal((await get(outsider, `/vehicles/matches/${offer.id}.json`)).status, 404);
    assert.equal((await get(carrier, `/freights/vehicles/${f.near}.json`)).status, 404);
    assert.equal((await get(outsider, `/freights/vehicles/${f.hidden}.json`)).status, 404);
    assert.equal((await get(carrier, '/vehicles/matches/999999.json')).status, 404);
  });

  test('alert on an offer: the fitting freights’ owners get vehicle.matched (notification and event), the offer’s company the event', async () => {
    const notes = await eventually(async () => {
      const n = (await notificationsOf(app, shipper)).filter((x) => x.type === 'vehicle.matched' && x.vehicle_id === offer.id);
      return n.length >= 2 && n;
    }, 'vehicle.matched notifications');
    assert.deepEqual(notes.map((n) => n.route_id).sort(), [f.near, f.airport].sort());
    assert.equal(notes[0]!.vehicle.id, offer.id);
    assert.equal('search' in notes[0]!, false);
    assert.equal(notes[0]!.route.company, shipper.company);
    const otherNotes = (await notificationsOf(app, other)).filter((x) => x.type === 'vehicle.matched' && x.vehicle_id === offer.id);
    assert.deepEqual(
      otherNotes.map((n) => n.route_id),
      [f.farther],
    );
    assert.equal((await notificationsOf(app, outsider)).length, 0);
    const toShipper = (await eventsOf(shipper.company, 'vehicle.matched')).find((e) => e.vehicle.id === offer.id)!;
    assert.deepEqual(toShipper.matches.map((m: { route_id: number }) => m.route_id).sort(), [f.near, f.airport].sort());
    const toCarrier = (await eventsOf(carrier.company, 'vehicle.matched')).find((e) => e.vehicle.id === offer.id)!;
    assert.deepEqual(
      toCarrier.matches.map((m: { route_id: number }) => m.route_id),
      [f.near, f.farther, f.airport],
    );
    assert.ok((await eventsOf(carrier.company, 'vehicle.published')).some((e) => e.vehicle.id === offer.id));
    assert.ok((await eventsOf(shipper.company, 'vehicle.published')).some((e) => e.vehicle.id === offer.id));
  });

  test('alert on a freight: the company of a fitting open offer gets freight.matched with vehicle (notification and event)', async () => {
    const id = await openFreight(app, shipper, { ...FREIGHT, refs: { customer: 'fresh' } });
    const note = await eventually(
      async () => (await notificationsOf(app, carrier)).find((x) => x.type === 'freight.matched' && x.route_id === id),
      'freight.matched notification',
    );
    assert.equal(note.vehicle.id, offer.id);
    assert.equal(note.vehicle_id, offer.id);
    assert.equal('search' in note, false);
    assert.equal(note.route.id, id);
    const event = await eventually(
      async () => (await eventsOf(carrier.company, 'freight.matched')).find((e) => e.route.id === id),
      'freight.matched event',
    );
    assert.equal(event.vehicle.id, offer.id);
    assert.equal(event.search, undefined);
    assert.ok(
      (await eventsOf(shipper.company, 'vehicle.matched')).some((e) => e.matches.some((m: { route_id: number }) => m.route_id === id)),
    );
  });

  test('withdrawn: vehicle.withdrawn to the offer’s company and the owners of the freights it fitted; no more matches', async () => {
    const v = await addOffer(app, carrier, { to: 'DE' });
    const res = await post(carrier, `/vehicles/withdraw/${v.id}.json`);
    assert.equal(res.body.data.vehicle.status, 'withdrawn');
    assert.ok((await eventsOf(carrier.company, 'vehicle.withdrawn')).some((e) => e.vehicle.id === v.id));
    assert.ok((await eventsOf(shipper.company, 'vehicle.withdrawn')).some((e) => e.vehicle.id === v.id));
    assert.deepEqual((await get(carrier, `/vehicles/matches/${v.id}.json`)).body.data.freights, []);
    assert.ok(!(await get(shipper, `/freights/vehicles/${f.near}.json`)).body.data.vehicles.some((x: { id: number }) => x.id === v.id));
  });
});

describe('invitation', () => {
  test('into a whitelisted freight: the offer’s company is added, notified (freight.invited), sees it and bids', async () => {
    const offer = await addOffer(app, carrier);
    const id = await openFreight(app, shipper, FREIGHT, { visibility: -2, whitelist: [other.company] });
    assert.equal((await get(carrier, `/freights/view/${id}.json`)).status, 404);
    const res = await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: id });
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.whitelisted, true);
    assert.equal(res.body.data.freight, id);
    const seen = await get(carrier, `/freights/view/${id}.json`);
    assert.equal(seen.status, 200);
    assert.deepEqual(
      (await get(shipper, `/freights/view/${id}.json`)).body.data.route.whitelist.sort(),
      [other.company, carrier.company].sort(),
    );
    const note = (await notificationsOf(app, carrier)).find((n) => n.type === 'freight.invited' && n.route_id === id);
    assert.ok(note, 'notified');
    assert.equal(note.vehicle.id, offer.id);
    const event = (await eventsOf(carrier.company, 'freight.invited')).find((e) => e.route.id === id);
    assert.equal(event?.vehicle.id, offer.id);
    const bid = await post(carrier, '/quotes/add.json', { route: id, amount: 950, currency_code: 'EUR' });
    assert.equal(bid.body.status, 'success', bid.text);
    assert.equal(bid.body.data.bid.route, id);
    // Inviting again changes nothing.
    assert.equal((await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: id })).body.status, 'success');
    assert.equal((await get(shipper, `/freights/view/${id}.json`)).body.data.route.whitelist.length, 2);
  });

  test('refusals: no freight named, own offer, a freight not in the market or of the own company only; 404 for others’ freights and hidden offers', async () => {
    const offer = await addOffer(app, carrier);
    const hiddenOffer = await addOffer(app, carrier, { whitelist: [other.company] });
    const open = await openFreight(app, shipper, FREIGHT);
    const draft = await addFreight(app, shipper, FREIGHT);
    const ownOnly = await openFreight(app, shipper, FREIGHT, { visibility: -1 });
    const othersFreight = await openFreight(app, other, FREIGHT);
    assert.equal((await post(shipper, `/vehicles/invite/${offer.id}.json`)).body.code, 'vehicle.invite.freight_required');
    assert.equal((await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: draft })).body.code, 'vehicle.invite.not_in_market');
    assert.equal(
      (await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: ownOnly })).body.code,
      'vehicle.invite.own_company_only',
    );
    const ownFreight = await openFreight(app, carrier, FREIGHT);
    assert.equal((await post(carrier, `/vehicles/invite/${offer.id}.json`, { freight: ownFreight })).body.code, 'vehicle.invite.own_offer');
    assert.equal((await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: othersFreight })).status, 404);
    assert.equal((await post(shipper, `/vehicles/invite/${hiddenOffer.id}.json`, { freight: open })).status, 404);
    assert.equal((await post(shipper, `/vehicles/invite/999999.json`, { freight: open })).status, 404);
    await post(carrier, `/vehicles/withdraw/${offer.id}.json`);
    assert.equal((await post(shipper, `/vehicles/invite/${offer.id}.json`, { freight: open })).body.code, 'vehicle.invite.offer_closed');
  });
});
