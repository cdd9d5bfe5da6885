import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { openFreight } from '../freights/helpers.ts';
import { addOffer, eventually, FREIGHT } from './helpers.ts';

/**
 * The rules of matching that the first tests leave open (docs/reference.md#vehicles): the freight's side
 * excludes each misfit too (destination, window, the freight's own visibility); an expired offer
 * fits nothing, both ways, at once; nearest first holds whichever way a freight is placed
 * (coordinates, airport, postal code alone), before the limit; the window's edge is the same
 * instant both ways; matches are paged lists (20 by default, at most 100 a page); withdrawing
 * tells every owner that was told of a match, however many.
 */

let app: TestApp;
let carrier: Actor;

const START = new Date('2030-05-01T10:00:00Z');
/** Published freights stay in the market past the offers' windows (the default deadline is a day). */
const DEADLINE = { deadline: '2030-05-30 00:00' };

const ids = (list: ReadonlyArray<Record<string, any>>): number[] => list.map((x) => x.id as number);
const get = (who: Actor, url: string) => app.get(url, { token: who.token });
async function matchesOf(who: Actor, offer: number, query = ''): Promise<Array<Record<string, any>>> {
  const res = await get(who, `/vehicles/matches/${offer}.json${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.freights;
}
async function fittingOf(who: Actor, freight: number, query = ''): Promise<Array<Record<string, any>>> {
  const res = await get(who, `/freights/vehicles/${freight}.json${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.vehicles;
}

before(async () => {
  app = await startTestApp();
  carrier = await app.actor('Carrier');
  app.setNow(START);
});
after(() => app?.close());

describe('the freight’s side leaves out each misfit', () => {
  test('an offer going elsewhere (to PL for a freight to DE) or available only after the loading window', async () => {
    const shipper = await app.actor('Shipper');
    const freight = await openFreight(app, shipper, FREIGHT, DEADLINE);
    // Whitelisted for the shipper: only its freights are matched, nothing else in this app.
    const fits = await addOffer(app, carrier, { whitelist: [shipper.company] });
    const toPoland = await addOffer(app, carrier, { to: 'PL', whitelist: [shipper.company] });
    const later = await addOffer(app, carrier, {
      available_from: '2030-05-10 06:00:00',
      available_to: '2030-05-12 18:00:00',
      whitelist: [shipper.company],
    });
    const listed = ids(await fittingOf(shipper, freight));
    assert.ok(listed.includes(fits.id), 'the fitting offer');
    assert.ok(!listed.includes(toPoland.id), 'destination: the offer goes to PL, the freight to DE');
    assert.ok(!listed.includes(later.id), 'window: the offer is free only after the freight has loaded');
    // Each fits a freight without that reason.
    const toWarsaw = await openFreight(
      app,
      shipper,
      { ...FREIGHT, to: 'city:00-001', to_country: 'PL', to_latitude: 52.23, to_longitude: 21.01 },
      DEADLINE,
    );
    const loadsLater = await openFreight(app, shipper, { ...FREIGHT, etd: '2030-05-11 08:00' }, DEADLINE);
    assert.ok(ids(await fittingOf(shipper, toWarsaw)).includes(toPoland.id));
    const forLater = ids(await fittingOf(shipper, loadsLater));
    assert.ok(forLater.includes(later.id));
    assert.ok(!forLater.includes(fits.id));
  });

  test('visibility: a freight whitelisted for one company lists only that company’s offers, and only it is matched', async () => {
    const shipper = await app.actor('Whitelisting shipper');
    const insider = await app.actor('Insider carrier');
    const outsider = await app.actor('Outsider carrier');
    const whitelisted = await openFreight(app, shipper, FREIGHT, { visibility: -2, whitelist: [insider.company], ...DEADLINE });
    const open = await openFreight(app, shipper, FREIGHT, DEADLINE);
    const insiders = await addOffer(app, insider, { whitelist: [shipper.company] });
    const outsiders = await addOffer(app, outsider, { whitelist: [shipper.company] });
    const listed = ids(await fittingOf(shipper, whitelisted));
    assert.ok(listed.includes(insiders.id), 'the whitelisted company’s offer');
    assert.ok(!listed.includes(outsiders.id), 'a company outside the whitelist cannot see the freight: its offer is no fit');
    // The freight open to everyone lists both: the whitelist was the only reason.
    const both = ids(await fittingOf(shipper, open));
    assert.ok(both.includes(insiders.id) && both.includes(outsiders.id));
    // The offer's side says the same.
    assert.ok(ids(await matchesOf(insider, insiders.id)).includes(whitelisted));
    assert.ok(!ids(await matchesOf(outsider, outsiders.id)).includes(whitelisted));
  });
});

describe('expiry', () => {
  test('an offer past available_to reads as expired and fits nothing, from either side, at once', async () => {
    const shipper = await app.actor('Shipper of a long loading window');
    const freight = await openFreight(app, shipper, { ...FREIGHT, etd: '2030-05-05 08:00', etd_end: '2030-05-10 18:00' }, DEADLINE);
    const expiring = await addOffer(app, carrier, { whitelist: [shipper.company] }); // until 2030-05-06 18:00
    const lasting = await addOffer(app, carrier, {
      available_from: '2030-05-06 06:00:00',
      available_to: '2030-05-09 18:00:00',
      whitelist: [shipper.company],
    });
    assert.deepEqual(ids(await matchesOf(carrier, expiring.id)), [freight]);
    assert.deepEqual(ids(await fittingOf(shipper, freight)).sort(), [expiring.id, lasting.id].sort());
    app.setNow(new Date('2030-05-07T00:00:00Z'));
    try {
      assert.equal((await get(carrier, `/vehicles/view/${expiring.id}.json`)).body.data.vehicle.status, 'expired');
      assert.deepEqual(await matchesOf(carrier, expiring.id), [], 'an expired offer has no matches');
      assert.deepEqual(ids(await matchesOf(carrier, lasting.id)), [freight], 'the freight is still in the market');
      assert.deepEqual(ids(await fittingOf(shipper, freight)), [lasting.id], 'gone from the freight’s fitting offers');
      const market = ids((await get(shipper, '/vehicles/index.json?limit=100')).body.data.vehicles);
      assert.ok(!market.includes(expiring.id) && market.includes(lasting.id));
    } finally {
      app.setNow(START);
    }
  });
});

describe('nearest first, however a freight is placed', () => {
  test('a freight placed only by its postal code is measured and sorted with the others, before the limit', async () => {
    const shipper = await app.actor('Shipper around Frankfurt');
    const noCoordinates = { from_latitude: undefined, from_longitude: undefined };
    const f = {
      postalNear: await openFreight(app, shipper, { ...FREIGHT, from: 'city:60313', ...noCoordinates }, DEADLINE),
      offenbach: await openFreight(
        app,
        shipper,
        { ...FREIGHT, from: 'city:63065', from_latitude: 50.0984, from_longitude: 8.7784 },
        DEADLINE,
      ),
      airport: await openFreight(app, shipper, { ...FREIGHT, from: 'airport:FRA', from_country: undefined, ...noCoordinates }, DEADLINE),
      hanau: await openFreight(app, shipper, { ...FREIGHT, from: 'city:63450', from_latitude: 50.1328, from_longitude: 8.9169 }, DEADLINE),
      postalFar: await openFreight(app, shipper, { ...FREIGHT, from: 'city:64283', ...noCoordinates }, DEADLINE),
    };
    // Placed by the postal code alone: the server adds no coordinates.
    for (const id of [f.postalNear, f.postalFar])
      assert.equal((await get(shipper, `/freights/view/${id}.json`)).body.data.route.from_latitude, null);
    const offer = await addOffer(app, carrier, {
      from: '',
      from_country: undefined,
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      whitelist: [shipper.company],
    });
    const all = await matchesOf(carrier, offer.id);
    assert.deepEqual(ids(all), [f.postalNear, f.offenbach, f.airport, f.hanau, f.postalFar]);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.distance_km <= all[i]!.distance_km, `${i}`);
    assert.ok(all[0]!.distance_km < 2, `60313 lies within 2 km of the offer: ${all[0]!.distance_km}`);
    assert.ok(all[4]!.distance_km > 20 && all[4]!.distance_km < 35, `Darmstadt's 64283: ${all[4]!.distance_km}`);
    // The limit takes the nearest, the postal one among them.
    assert.deepEqual(ids(await matchesOf(carrier, offer.id, '?limit=1')), [f.postalNear]);
    assert.deepEqual(ids(await matchesOf(carrier, offer.id, '?limit=2&page=2')), [f.airport, f.hanau]);
  });
});

describe('the window’s edge is the same instant from both sides', () => {
  test('a freight loading exactly at available_to fits, a minute later not; a loading window ending exactly at available_from fits', async () => {
    const shipper = await app.actor('Shipper at the edge');
    // The offer: available 2030-05-04 06:00:00 to 2030-05-06 18:00:00.
    const offer = await addOffer(app, carrier, { whitelist: [shipper.company] });
    const cases = [
      { name: 'loading at available_to', json: { etd: '2030-05-06 18:00' }, fits: true },
      { name: 'loading a minute after available_to', json: { etd: '2030-05-06 18:01' }, fits: false },
      { name: 'loading window ending at available_from', json: { etd: '2030-05-04 04:00', etd_end: '2030-05-04 06:00' }, fits: true },
      { name: 'loading window ending a minute before', json: { etd: '2030-05-04 04:00', etd_end: '2030-05-04 05:59' }, fits: false },
    ];
    const made = [];
    for (const c of cases) made.push({ ...c, id: await openFreight(app, shipper, { ...FREIGHT, ...c.json }, DEADLINE) });
    const fromOffer = ids(await matchesOf(carrier, offer.id));
    for (const c of made) {
      assert.equal(fromOffer.includes(c.id), c.fits, `offer's side: ${c.name}`);
      assert.equal(ids(await fittingOf(shipper, c.id)).includes(offer.id), c.fits, `freight's side: ${c.name}`);
    }
  });
});

describe('many matches: paged lists, and a withdrawal tells every owner told', () => {
  // Around Lyon, away from the other tests' freights near Frankfurt.
  const LYON = { latitude: 45.764, longitude: 4.8357 };
  const OWNERS = 101;
  let lyonShipper: Actor;
  let offer: Record<string, any>;
  let freights: number[];
  const owners: number[] = [];

  before(async () => {
    lyonShipper = await app.actor('Lyon shipper');
    for (let i = 0; i < OWNERS; i++) owners.push((await app.company(`Lyon owner ${i}`)).id);
    // More freights than a page holds, each of another company (inserted at once: what publishing
    // would store; their creating user is one, the events go to each owner company).
    const now = START;
    const rows = await app.services.db
      .insertInto('freights')
      .values(
        owners.map((company, i) => ({
          status: 'open' as const,
          class: 'rfs',
          type: 'AHR',
          company_id: company,
          user_id: lyonShipper.user,
          from_code: '69001',
          from_country: 'FR',
          from_latitude: String(LYON.latitude + (i + 1) * 0.001),
          from_longitude: String(LYON.longitude),
          to_code: '75001',
          to_country: 'FR',
          weight: '1000',
          etd: new Date('2030-05-05T08:00:00Z'),
          visibility: 0,
          whitelist: [],
          refs: '{}',
          deadline: new Date('2030-05-30T00:00:00Z'),
          created: now,
          modified: now,
        })),
      )
      .returning('id')
      .execute();
    freights = rows.map((r) => r.id);
    offer = await addOffer(app, carrier, {
      from: '',
      from_country: undefined,
      from_latitude: LYON.latitude,
      from_longitude: LYON.longitude,
      from_radius: 30,
    });
    // The offer's alert (after its commit) tells every owner: up to 500 at once.
    await eventually(async () => {
      const { rows: told } = await sql<{
        n: string;
      }>`select count(*) as n from notifications where vehicle_id = ${offer.id} and type = 'vehicle.matched'`.execute(app.services.db);
      return Number(told[0]!.n) === OWNERS;
    }, 'vehicle.matched to every owner');
  });

  test('an offer’s matches: 20 a page by default, at most 100, nearest first across pages', async () => {
    const first = await matchesOf(carrier, offer.id);
    assert.equal(first.length, 20);
    const capped = await matchesOf(carrier, offer.id, '?limit=500');
    assert.equal(capped.length, 100, 'limit is capped at 100');
    const rest = await matchesOf(carrier, offer.id, '?limit=100&page=2');
    assert.equal(rest.length, OWNERS - 100);
    assert.deepEqual(ids(first), ids(capped).slice(0, 20));
    // Every freight once, in the order of their distances (each 0.001° further north).
    assert.deepEqual([...ids(capped), ...ids(rest)], freights);
    const distances = [...capped, ...rest].map((f) => f.distance_km as number);
    for (let i = 1; i < distances.length; i++) assert.ok(distances[i - 1]! <= distances[i]!, `${i}`);
    const warned = await get(carrier, `/vehicles/matches/${offer.id}.json?page=0`);
    assert.equal(warned.body.data.freights.length, 20);
    assert.ok(warned.body.warnings.some((w: { field: string }) => w.field === 'page'));
  });

  test('a freight’s fitting offers: the same paging, nearest first across pages', async () => {
    const freight = await openFreight(
      app,
      lyonShipper,
      {
        ...FREIGHT,
        from: 'city:69001',
        from_country: 'FR',
        from_latitude: LYON.latitude,
        from_longitude: LYON.longitude,
        to: 'city:75001',
        to_country: 'FR',
      },
      DEADLINE,
    );
    const now = START;
    await app.services.db
      .insertInto('vehicle_offers')
      .values(
        Array.from({ length: 104 }, (_, i) => ({
          company_id: carrier.company,
          user_id: carrier.user,
          status: 'open' as const,
          from_code: null,
          from_country: null,
          from_latitude: LYON.latitude - (i + 1) * 0.001,
          from_longitude: LYON.longitude,
          from_radius: 50,
          to_patterns: [],
          available_from: new Date('2030-05-04T06:00:00Z'),
          available_to: new Date('2030-05-06T18:00:00Z'),
          body: 'box' as const,
          capacity: '24000',
          loading_meters: null,
          price_per_km: null,
          whitelist: [],
          created: now,
          modified: now,
        })),
      )
      .execute();
    const first = await fittingOf(lyonShipper, freight);
    assert.equal(first.length, 20);
    const capped = await fittingOf(lyonShipper, freight, '?limit=1000');
    assert.equal(capped.length, 100);
    const rest = await fittingOf(lyonShipper, freight, '?limit=100&page=2');
    // 104 inserted and the offer of the test before (its origin is the freight's).
    assert.equal(rest.length, 5);
    assert.equal(capped[0]!.id, offer.id);
    const all = [...capped, ...rest];
    assert.equal(new Set(ids(all)).size, 105);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.distance_km <= all[i]!.distance_km, `${i}`);

    // The pages show the first page with a link to the rest, which is a page with a pager.
    const session = await browserSession(app, lyonShipper);
    const page = await app.get(`/freights/view/${freight}`, { headers: { cookie: session.cookie } });
    assert.equal(page.status, 200);
    const section = page.text.slice(page.text.indexOf('data-testid="fitting-vehicles"'));
    assert.equal((section.match(/action="\/vehicles\/invite\//g) ?? []).length, 20);
    assert.ok(section.includes(`href="/freights/vehicles/${freight}?page=2"`), 'a link to more');
    const more = await app.get(`/freights/vehicles/${freight}?page=2`, { headers: { cookie: session.cookie } });
    assert.equal(more.status, 200);
    assert.equal((more.text.match(/action="\/vehicles\/invite\//g) ?? []).length, 20);
    assert.ok(more.text.includes(`href="/freights/vehicles/${freight}?page=3"`), 'the pager’s next page');
    assert.ok(more.text.includes(`href="/freights/vehicles/${freight}?page=1"`), 'the pager’s previous page');
    const carrierSession = await browserSession(app, carrier);
    const offerPage = await app.get(`/vehicles/view/${offer.id}`, { headers: { cookie: carrierSession.cookie } });
    const matches = offerPage.text.slice(offerPage.text.indexOf('data-testid="vehicle-matches"'));
    assert.equal((matches.match(/<a href="\/freights\/view\/\d+"/g) ?? []).length, 20);
    assert.ok(matches.includes(`href="/vehicles/matches/${offer.id}?page=2"`));
    const matchesPage = await app.get(`/vehicles/matches/${offer.id}?page=6`, { headers: { cookie: carrierSession.cookie } });
    assert.equal(matchesPage.status, 200);
    // 102 fitting freights (the 101 and the Lyon shipper's): page 6 holds the last two.
    assert.equal((matchesPage.text.match(/<a href="\/freights\/view\/\d+"/g) ?? []).length, 2);
    // Another company's offer or freight: the 404 page.
    assert.equal((await app.get(`/vehicles/matches/${offer.id}`, { headers: { cookie: session.cookie } })).status, 404);
    assert.equal((await app.get(`/freights/vehicles/${freight}`, { headers: { cookie: carrierSession.cookie } })).status, 404);
  });

  test('withdrawn: vehicle.withdrawn reaches every owner the alert told, more than a page of fits', async () => {
    const res = await app.post(`/vehicles/withdraw/${offer.id}.json`, { token: carrier.token, json: {} });
    assert.equal(res.body.data.vehicle.status, 'withdrawn', res.text);
    const { rows } = await sql<{
      company_id: number;
      body: string;
    }>`select company_id, body from events where type = 'vehicle.withdrawn'`.execute(app.services.db);
    const mine = rows.filter((r) => JSON.parse(r.body).data.vehicle.id === offer.id);
    const reached = new Set(mine.map((r) => r.company_id));
    for (const company of owners) assert.ok(reached.has(company), `owner ${company}`);
    assert.ok(reached.has(carrier.company));
    // Each owner hears of its own freight only.
    const one = JSON.parse(mine.find((r) => r.company_id === owners[OWNERS - 1])!.body).data;
    assert.deepEqual(
      one.matches.map((m: { route_id: number }) => m.route_id),
      [freights[OWNERS - 1]],
    );
  });
});
