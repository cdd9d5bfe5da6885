import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addFreight, enlistIds, insertBid, openFreight, publish, view } from '../freights/helpers.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * The radius search's fallback (docs/reference.md#load-search, amended by issue 24): a freight without
 * coordinates lies at the centre of its postal code (the packaged postal data), so "50 km around
 * Frankfurt" finds a freight sent through the JSON API as only `city:DE-60311`. Nothing is
 * stored: the API keeps docs/reference.md#the-api's rule that `city:` values are not resolved. The same holds for
 * the lists' every path (the market's ways apart, the bid lists' one condition, both radii), the
 * counts and the saved searches' alerts; the list page names such a freight's town.
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
const f: Record<string, number> = {};
const FRANKFURT = { from_near: '50.11,8.68', from_radius: '50' };

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const ids = (...names: string[]) => sorted(names.map((n) => f[n]!));
async function found(who: Actor, filter: number, params: Record<string, string>): Promise<number[]> {
  return sorted(await enlistIds(app, who, filter, `?${new URLSearchParams({ limit: '100', ...params })}`));
}

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  // Postal codes only, as an API client sends them: no coordinates, no address.
  f.ffm = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:DE-80331', weight: 11000 });
  f.muc = await openFreight(app, shipper, { from: 'city:DE-80331', to: 'city:IT-20121', weight: 9000 });
  // With coordinates near Frankfurt (found by its point) and an airport without any (by the airport).
  f.point = await openFreight(app, shipper, { from: 'city:DE-63450', from_latitude: 50.1328, from_longitude: 8.9169, to: 'airport:MXP' });
  f.fraBare = await openFreight(app, shipper, { class: 'air', from: 'airport:FRA', from_addr: 'Cargo City Süd', to: 'airport:ORD' });
  // A postal code without a country names no place: it matches no radius.
  f.nowhere = await openFreight(app, shipper, { from: '60311', to: 'city:DE-80331' });
  // Spaces, lower case and the country's letters are read as the data reads them.
  f.lux = await openFreight(app, shipper, { from: 'L-1120', from_country: 'lu', to: 'city:DE-60311' });
});
after(() => app?.close());

describe('a freight without coordinates lies at its postal code’s centre', () => {
  test('the API stores what was sent: city: values are not resolved', async () => {
    const route = (await view(app, shipper, f.ffm!)).body.data.route;
    assert.equal(route.from, '60311');
    assert.equal(route.from_country, 'DE');
    assert.equal(route.from_latitude, null);
    assert.equal(route.from_longitude, null);
    assert.ok(!route.from_addr, 'no address filled');
  });

  test('50 km around Frankfurt finds DE-60311, not DE-80331; by point and airport as before', async () => {
    assert.deepEqual(await found(carrier, 8, FRANKFURT), ids('ffm', 'point', 'fraBare'));
    assert.deepEqual(await found(carrier, 8, { from_near: 'airport:MUC', from_radius: '50' }), ids('muc'));
    assert.deepEqual(await found(carrier, 8, { to_near: '48.14,11.58', to_radius: '30' }), ids('ffm', 'nowhere'));
    assert.deepEqual(await found(carrier, 8, { to_near: '45.46,9.19', to_radius: '20' }), ids('muc'), 'IT-20121 is Milan');
    assert.deepEqual(await found(carrier, 8, { from_near: '49.61,6.13', from_radius: '10' }), ids('lux'), 'L-1120 is Luxembourg');
    assert.deepEqual(await found(carrier, 8, { from_near: '50.11,8.68', from_radius: '5' }), ids('ffm'), 'the centre of 60311 only');
  });

  test('both radii at once (one condition, no ways apart), and the lists read via bids', async () => {
    assert.deepEqual(await found(carrier, 8, { ...FRANKFURT, to_near: '48.14,11.58', to_radius: '30' }), ids('ffm'));
    await insertBid(app, f.ffm!, carrier);
    await insertBid(app, f.muc!, carrier);
    assert.deepEqual(await found(carrier, 7, FRANKFURT), ids('ffm'));
    assert.deepEqual(await found(carrier, 7, { ...FRANKFURT, sort: 'Routes.weight' }), ids('ffm'));
    assert.deepEqual(await found(shipper, 10, FRANKFURT), ids('ffm', 'point', 'fraBare'));
  });

  test('the counts count what the lists list', async () => {
    const res = await app.get(`/freights/counts.json?${new URLSearchParams(FRANKFURT)}`, { token: carrier.token });
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.counts['7'], 1, 'the bid on DE-60311');
    assert.equal(res.body.data.counts['8'], 2, 'the point and the airport (no bid yet)');
    const own = await app.get(`/freights/counts.json?${new URLSearchParams(FRANKFURT)}`, { token: shipper.token });
    assert.equal(own.body.data.counts['10'], 3);
  });

  test('a saved search alerts on a freight that enters the market with a postal code alone', async () => {
    const saved = await app.post('/searches/add.json', {
      token: carrier.token,
      json: { name: 'Around Frankfurt', filter: 8, params: FRANKFURT, alert: 1 },
    });
    assert.equal(saved.body.status, 'success', saved.text);
    const near = await addFreight(app, shipper, { from: 'city:DE-60313', to: 'city:FR-75019', weight: 1000 });
    const far = await addFreight(app, shipper, { from: 'city:DE-80331', to: 'city:FR-75019', weight: 1000 });
    await publish(app, shipper, near);
    await publish(app, shipper, far);
    const list = (await app.get('/notifications/index.json', { token: carrier.token })).body.data.notifications as Array<{
      route_id: number;
    }>;
    assert.deepEqual(
      list.map((n) => n.route_id),
      [near],
    );
  });

  test('the list page names the town of a freight without coordinates', async () => {
    const { cookie } = await browserSession(app, carrier);
    // 5 km: DE-60311 alone (the airport's freight would read Frankfurt am Main anyway). It has a bid: list 7.
    const res = await app.get('/freights/enlist/7?from_near=50.11,8.68&from_radius=5', { headers: { cookie } });
    assert.equal(res.status, 200);
    assert.match(res.text, new RegExp(`href="/freights/view/${f.ffm}"`));
    assert.match(res.text, /Frankfurt am Main/);
  });
});
