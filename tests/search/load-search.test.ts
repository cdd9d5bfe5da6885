import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, enlistIds, openFreight } from '../freights/helpers.ts';
import { browserSession } from '../support/session.ts';

/**
 * Load search (docs/reference.md#load-search) on the lists: each parameter, their combination, unreadable
 * ones ignored with a warning, masked fields that never match, and the counts per list.
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let other: Actor;
const f: Record<string, number> = {};

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
/** The ids of list `filter` for `who` with these search parameters, as a sorted list. */
async function found(who: Actor, filter: number, params: Record<string, string>): Promise<number[]> {
  return sorted(await enlistIds(app, who, filter, `?${new URLSearchParams({ limit: '100', ...params })}`));
}
const ids = (...names: string[]) => sorted(names.map((n) => f[n]!));

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  other = await app.actor('Other');
  // Frankfurt (postal code and coordinates) to Milan Malpensa (airport: country and coordinates resolved).
  f.ffm = await openFreight(app, shipper, {
    from: 'city:DE-60311',
    from_latitude: 50.1109,
    from_longitude: 8.6821,
    from_addr: 'Hanauer Landstraße 1',
    to: 'airport:MXP',
    weight: 11000,
    etd_range: '2030-05-04 08:00 to 2030-05-05 12:00',
    eta: '2030-05-06 10:00',
    refs: { customer: 'PO-4711', commodity: 'machine parts' },
  });
  // Munich to Milan by postal codes.
  f.muc = await openFreight(app, shipper, {
    from: 'city:DE-80331',
    from_latitude: 48.1372,
    from_longitude: 11.5756,
    to: 'city:IT-20121',
    weight: 24000,
    etd: '2030-05-10 08:00',
  });
  // Air freight from FRA (the airport fills country and coordinates).
  f.fra = await openFreight(app, shipper, { class: 'air', from: 'airport:FRA', to: 'airport:JFK', weight: 500, etd: '2030-05-04 09:00' });
  // Airport-only freight: an address was sent, so nothing is resolved (docs/reference.md#the-api): no country, no coordinates.
  f.fraBare = await openFreight(app, shipper, {
    class: 'air',
    from: 'airport:FRA',
    from_addr: 'Cargo City Süd, Gate 5',
    to: 'airport:ORD',
    weight: 800,
  });
  // Amsterdam (postal code with a space) to Berlin, no dates.
  f.ams = await openFreight(app, shipper, { from: '1000 AP', from_country: 'NL', to: 'city:DE-10115', weight: 3000 });
  // A draft: in no market list.
  f.draft = await addFreight(app, shipper, { from: 'city:DE-60311', from_country: 'DE' });
});
after(() => app?.close());

describe('each search parameter narrows the market list (filter 8)', () => {
  test('without parameters every open freight is listed', async () => {
    assert.deepEqual(await found(carrier, 8, {}), ids('ffm', 'muc', 'fra', 'fraBare', 'ams'));
  });

  test('from/to: a country, a country and postal prefix, an airport, several of them', async () => {
    assert.deepEqual(await found(carrier, 8, { from: 'DE' }), ids('ffm', 'muc', 'fra'));
    assert.deepEqual(await found(carrier, 8, { from: 'DE-60' }), ids('ffm'));
    assert.deepEqual(await found(carrier, 8, { from: 'de 603' }), ids('ffm'), 'lower case and a space read alike');
    assert.deepEqual(await found(carrier, 8, { from: 'airport:FRA' }), ids('fra', 'fraBare'));
    assert.deepEqual(await found(carrier, 8, { from: 'NL-1000AP' }), ids('ams'), 'spaces in stored postal codes do not matter');
    assert.deepEqual(await found(carrier, 8, { from: 'DE-60,NL' }), ids('ffm', 'ams'));
    assert.deepEqual(await found(carrier, 8, { to: 'IT' }), ids('ffm', 'muc'));
    assert.deepEqual(await found(carrier, 8, { to: 'airport:MXP' }), ids('ffm'));
    assert.deepEqual(await found(carrier, 8, { to: 'DE-10' }), ids('ams'));
  });

  test('from_near/to_near with a radius: coordinates, else the airport, else the postal code; lat,lon or airport:XXX', async () => {
    assert.deepEqual(await found(carrier, 8, { from_near: '50.11,8.68', from_radius: '50' }), ids('ffm', 'fra', 'fraBare'));
    assert.deepEqual(await found(carrier, 8, { from_near: '50.11,8.68', from_radius: '5' }), ids('ffm'));
    assert.deepEqual(await found(carrier, 8, { from_near: 'airport:MUC', from_radius: '100' }), ids('muc'));
    assert.deepEqual(await found(carrier, 8, { to_near: 'airport:MXP', to_radius: '20' }), ids('ffm'));
    assert.deepEqual(
      await found(carrier, 8, { from_near: '52.37,4.89', from_radius: '100' }),
      ids('ams'),
      'a freight with neither coordinates nor airport lies at its postal code’s centre (tests/search/postal-fallback.test.ts)',
    );
    assert.deepEqual(await found(carrier, 8, { from_near: '48.86,2.35', from_radius: '100' }), [], 'nothing near Paris');
  });

  test('pickup and delivery windows overlap the days (APP_TIMEZONE), inclusive', async () => {
    assert.deepEqual(await found(carrier, 8, { pickup_from: '2030-05-05', pickup_to: '2030-05-05' }), ids('ffm'));
    assert.deepEqual(await found(carrier, 8, { pickup_to: '2030-05-04' }), ids('ffm', 'fra'));
    assert.deepEqual(await found(carrier, 8, { pickup_from: '2030-05-06' }), ids('muc'));
    assert.deepEqual(await found(carrier, 8, { delivery_from: '2030-05-06', delivery_to: '2030-05-06' }), ids('ffm'));
    assert.deepEqual(await found(carrier, 8, { delivery_to: '2030-05-05' }), [], 'no freight is delivered before');
  });

  test('weight bounds in kg, media, and text', async () => {
    assert.deepEqual(await found(carrier, 8, { weight_min: '10000' }), ids('ffm', 'muc'));
    assert.deepEqual(await found(carrier, 8, { weight_max: '800' }), ids('fra', 'fraBare'));
    assert.deepEqual(await found(carrier, 8, { weight_min: '800', weight_max: '3000' }), ids('fraBare', 'ams'));
    assert.deepEqual(await found(carrier, 8, { media: 'air' }), ids('fra', 'fraBare'));
    assert.deepEqual(await found(carrier, 8, { media: 'road' }), ids('ffm', 'muc', 'ams'));
    assert.deepEqual(await found(carrier, 8, { q: String(f.muc) }), ids('muc'), 'display_id');
    assert.deepEqual(await found(carrier, 8, { q: '80331' }), ids('muc'), 'the caption (postal code)');
    assert.deepEqual(await found(carrier, 8, { q: 'po-4711' }), [], 'refs are not shown to the market, so they do not match');
    assert.deepEqual(await found(shipper, 10, { q: 'po-4711' }), ids('ffm'), 'the owner finds its refs, any case');
    assert.deepEqual(await found(shipper, 10, { q: 'MACHINE parts' }), ids('ffm'), 'every word must appear');
    assert.deepEqual(await found(shipper, 10, { q: '%' }), [], 'LIKE wildcards are plain text');
  });

  test('parameters combine (all must hold), on every list', async () => {
    const carrierSearch = { from: 'DE', to: 'IT', weight_min: '10000', pickup_to: '2030-05-31', media: 'road' };
    assert.deepEqual(await found(carrier, 8, carrierSearch), ids('ffm', 'muc'));
    assert.deepEqual(await found(carrier, 8, { ...carrierSearch, from_near: '50.11,8.68', from_radius: '100' }), ids('ffm'));
    assert.deepEqual(await found(shipper, 10, { ...carrierSearch, from_near: '50.11,8.68', from_radius: '100' }), ids('ffm'));
    assert.deepEqual(await found(shipper, 20, { from: 'DE-60' }), ids('draft'));
    assert.deepEqual(await found(shipper, 20, { from: 'IT' }), []);
  });

  test('the page lists what the JSON lists, keeps the search in its links and counts it on the tabs', async () => {
    const { cookie } = await browserSession(app, carrier);
    const res = await app.get('/freights/enlist/8?from=DE-60&sort=Routes.weight&direction=asc', { headers: { cookie } });
    assert.equal(res.status, 200);
    assert.match(res.text, /name="from" value="DE-60"/);
    assert.match(res.text, new RegExp(`href="/freights/view/${f.ffm}"`));
    assert.doesNotMatch(res.text, new RegExp(`href="/freights/view/${f.muc}"`));
    assert.match(res.text, /href="\/freights\/enlist\/7\?from=DE-60"/, 'tabs keep the search');
    assert.match(res.text, /\(1\)<\/a>/, 'the tab counts the search');
    assert.match(res.text, /aria-sort="ascending"/);
    assert.match(res.text, /aria-sort="none"/);
  });
});

describe('unreadable parameters are ignored with a warning', () => {
  test('each bad value is named; the rest of the search applies', async () => {
    const query = new URLSearchParams({
      from: 'XX,DE-ABC,DE-60',
      from_radius: '900',
      to_near: '95,10',
      pickup_from: '2030-13-01',
      weight_min: '-1',
      media: 'boat',
      delivery_from: '2030-05-07',
      delivery_to: '2030-05-01',
    });
    const res = await app.get(`/freights/enlist/8.json?${query}`, { token: carrier.token });
    assert.equal(res.body.status, 'success');
    const fields = (res.body.warnings as Array<{ field: string }>).map((w) => w.field);
    for (const name of ['from', 'from_radius', 'to_near', 'pickup_from', 'weight_min', 'media', 'delivery_from'])
      assert.ok(fields.includes(name), `${name} in ${fields}`);
    assert.deepEqual(sorted(res.body.data.routes.map((r: { id: number }) => r.id)), ids('ffm'), 'DE-60 still applies');
  });

  test('wrong types and oversized values never fail the list', async () => {
    for (const q of [
      'from[]=DE&from[]=IT',
      `q=${'x'.repeat(500)}`,
      `from=${Array.from({ length: 30 }, () => 'DE').join(',')}`,
      'from_near[a]=1',
      'weight_max=1e9',
      'to=%00',
    ]) {
      const res = await app.get(`/freights/enlist/8.json?${q}`, { token: carrier.token });
      assert.equal(res.status, 200, q);
      assert.equal(res.body.status, 'success', q);
      assert.ok(Array.isArray(res.body.data.routes), q);
    }
  });
});

describe('masked fields never match', () => {
  let lost: number;
  before(async () => {
    // The carrier bids and loses: the freight is taken by another company; the carrier sees it masked (list 6).
    lost = await openFreight(app, shipper, {
      from: 'city:DE-60311',
      from_country: 'DE',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'airport:MXP',
      weight: 2000,
      refs: { customer: 'LOST-1' },
    });
    const mine = await app.post('/quotes/add.json', { token: carrier.token, json: { route: lost, amount: 900, currency_code: 'EUR' } });
    assert.equal(mine.body.status, 'success', mine.text);
    const theirs = await app.post('/quotes/add.json', { token: other.token, json: { route: lost, amount: 800, currency_code: 'EUR' } });
    const bid = theirs.body.data.bid.id as number;
    await app.post(`/quotes/confirm/${bid}.json`, { token: shipper.token });
    const award = await app.post(`/quotes/confirm/${bid}.json`, { token: other.token });
    assert.equal(award.status, 200, award.text);
  });

  test('the former bidder sees the freight masked and finds it without a search', async () => {
    const res = await app.get('/freights/enlist/6.json', { token: carrier.token });
    const route = res.body.data.routes.find((r: { id: number }) => r.id === lost);
    assert.ok(route, 'listed');
    assert.equal(route.from, null);
    assert.equal(route.f_from, 'xxx (XX)');
  });

  test('place, radius and text on hidden fields do not find it', async () => {
    for (const params of <Array<Record<string, string>>>[
      { from: 'DE' },
      { from: 'DE-60' },
      { to: 'airport:MXP' },
      { from_near: '50.11,8.68', from_radius: '20' },
      { to_near: 'airport:MXP', to_radius: '10' },
      { q: '60311' },
      { q: 'LOST-1' },
    ]) {
      assert.deepEqual(await found(carrier, 6, params), [], JSON.stringify(params));
    }
  });

  test('what the mask shows still matches: id, weight, media', async () => {
    assert.deepEqual(await found(carrier, 6, { q: String(lost) }), [lost]);
    assert.deepEqual(await found(carrier, 6, { weight_min: '1500', media: 'road' }), [lost]);
  });

  test('owner and winner see it unmasked, and find it', async () => {
    assert.deepEqual(await found(shipper, 12, { from: 'DE-60', q: 'LOST-1' }), [lost]);
    assert.deepEqual(await found(other, 2, { from_near: '50.11,8.68', from_radius: '20', q: 'lost-1' }), [lost]);
  });

  test('counts agree with the lists', async () => {
    const plain = await app.get('/freights/counts.json', { token: carrier.token });
    assert.equal(plain.body.data.counts['6'], 1);
    const searched = await app.get('/freights/counts.json?from=DE-60', { token: carrier.token });
    assert.equal(searched.body.data.counts['6'], 0);
  });
});

describe('GET /freights/counts', () => {
  test('every list filter, as the lists would answer for the caller', async () => {
    const res = await app.get('/freights/counts.json', { token: shipper.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const counts = res.body.data.counts as Record<string, number>;
    for (const id of [8, 7, 6, 2, 9, 20, 10, 17, 18, 12, 19, 200, 201, 209, 210, 211, 219, 51, 52, 53]) {
      assert.equal(typeof counts[String(id)], 'number', `filter ${id}`);
    }
    for (const id of [8, 7, 6, 2, 9, 20, 10, 17, 18, 12, 19]) {
      const listed = await enlistIds(app, shipper, id, '?limit=100');
      assert.equal(counts[String(id)], listed.length, `filter ${id}`);
    }
    assert.equal(counts['20'], 1);
    assert.equal(counts['12'], 1);
  });

  test('takes the search parameters too (the tabs show the counts of the current search)', async () => {
    const res = await app.get('/freights/counts.json?from=DE&weight_min=10000', { token: carrier.token });
    assert.equal(res.body.data.counts['8'], 2);
    const bad = await app.get('/freights/counts.json?from=XX', { token: carrier.token });
    assert.equal(bad.body.status, 'success');
    assert.equal(bad.body.warnings[0].field, 'from');
    assert.equal(bad.body.data.counts['8'], 5);
  });

  test('needs a token', async () => {
    const res = await app.get('/freights/counts.json');
    assert.equal(res.status, 401);
  });
});

describe('a radius over several airports (its airport way read airport by airport, migration 0600)', () => {
  test('the market list pages newest first across the airports, the coordinates and the postal codes in the circle', async () => {
    // Air freights without coordinates (an address was sent) at two airports within 100 km of Frankfurt.
    const made: number[] = [];
    for (const [code, gate] of [
      ['FRA', 1],
      ['MHG', 2],
      ['FRA', 3],
      ['MHG', 4],
      ['FRA', 5],
    ] as const)
      made.push(
        await openFreight(app, shipper, {
          class: 'air',
          from: `airport:${code}`,
          from_addr: `Gate ${gate}`,
          to: 'airport:JFK',
          weight: 100 + gate,
        }),
      );
    const near = '?from_near=50.11,8.68&from_radius=100';
    const all = await enlistIds(app, carrier, 8, `${near}&limit=100`);
    for (const id of [...made, f.ffm!, f.fra!, f.fraBare!]) assert.ok(all.includes(id), `freight ${id} in the circle`);
    assert.ok(!all.includes(f.muc!) && !all.includes(f.ams!), 'Munich and Amsterdam are not');
    // Newest first: the freights were created one after the other, so by descending id.
    assert.deepEqual(
      all,
      [...all].sort((a, b) => b - a),
    );
    const paged: number[] = [];
    for (let page = 1; paged.length < all.length && page <= all.length; page++)
      paged.push(...(await enlistIds(app, carrier, 8, `${near}&limit=2&page=${page}`)));
    assert.deepEqual(paged, all, 'two a page, the same order');
    const oldest = await enlistIds(app, carrier, 8, `${near}&limit=3&sort=Routes.created&direction=asc`);
    assert.deepEqual(oldest, [...all].reverse().slice(0, 3), 'oldest first reads the airport index backwards');
  });
});
