import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { takenFreight } from '../trust/helpers.ts';
import { addFreight } from '../freights/helpers.ts';
import { browserSession } from '../support/session.ts';
import {
  actorPool,
  countOnly,
  FRANKFURT,
  greatCircleKm,
  monthOf,
  PARIS,
  place,
  prices,
  seedAward,
  seedAwards,
  type Place,
  type Pool,
} from './helpers.ts';

/**
 * docs/reference.md#lane-prices, GET /market/prices.json: the months of the window with their count and, from
 * 5 awards by 3 owner companies on, median, quartiles and per-km median of the accepted prices of
 * awarded road freights on the lane; months in APP_TIMEZONE; the lane as §7 patterns. Under the
 * default release (LANE_PRICES_RELEASE=threshold, the contract's), awards join the figures in
 * whole batches of 5 awards by 3 owners (docs/choices.md, "Lane prices"); the stricter opt-in is
 * strict.test.ts's.
 */

const NOW = new Date('2031-03-15T10:00:00Z');
const THIS_MONTH = new Date('2031-03-10T10:00:00Z');

let app: TestApp;
let owners: Actor[];
let carrier: Actor;
let pool: Pool;

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  app.setNow(NOW);
  owners = [];
  for (const name of ['Shipper A', 'Shipper B', 'Shipper C', 'Shipper D']) owners.push(await app.actor(name));
  carrier = await app.actor('Carrier');
  pool = await actorPool(app);
});
after(() => app.close());

const at = (iso: string) => new Date(iso);

/** The prices of `list` awarded on the lane at `when` (helpers.ts seedAwards: fresh companies, one of each per award by default). */
const awards = (from: Place, to: Place, list: string[], parties: { owners?: number; winners?: number } = {}, when = THIS_MONTH) =>
  seedAwards(app, pool, { from, to, when }, list, parties);

describe('the answer', () => {
  test('no token: 401', async () => {
    const res = await app.get('/market/prices.json', { query: { from: 'DE-60', to: 'FR-75' } });
    assert.equal(res.status, 401, res.text);
  });

  test('lane, and every month of the window oldest first, empty months with count 0', async () => {
    const res = await prices(app, carrier, { from: 'DE-99', to: 'FR-99' });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.lane, { from: 'DE-99', to: 'FR-99', currency: 'EUR' });
    const months = res.body.data.months as any[];
    assert.equal(months.length, 12);
    assert.equal(months[0].month, '2030-04');
    assert.equal(months[11].month, '2031-03');
    for (const m of months) assert.deepEqual(m, countOnly(m.month, 0));
    assert.equal(res.body.warnings, undefined);
  });

  test('months 1 to 36; another value is ignored with a warning (12 used)', async () => {
    const one = await prices(app, carrier, { from: 'DE-99', to: 'FR-99', months: '1' });
    assert.deepEqual(
      one.body.data.months.map((m: any) => m.month),
      ['2031-03'],
    );
    const most = await prices(app, carrier, { from: 'DE-99', to: 'FR-99', months: '36' });
    assert.equal(most.body.data.months.length, 36);
    assert.equal(most.body.data.months[0].month, '2028-04');
    for (const bad of ['0', '37', '-1', 'abc', '2.5']) {
      const res = await prices(app, carrier, { from: 'DE-99', to: 'FR-99', months: bad });
      assert.equal(res.body.status, 'success', bad);
      assert.equal(res.body.data.months.length, 12, bad);
      assert.equal(res.body.warnings?.[0]?.field, 'months', bad);
    }
  });

  test('from and to are required: missing or unreadable, status error prices.lane_required', async () => {
    const asked: Record<string, string>[] = [
      { to: 'FR-75' },
      { from: 'DE-60' },
      {},
      { from: 'D-6x!', to: 'FR-75' },
      { from: 'DE-60', to: 'XX' },
    ];
    for (const query of asked) {
      const res = await prices(app, carrier, query);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'error', JSON.stringify(query));
      assert.equal(res.body.code, 'prices.lane_required');
    }
    // An unreadable pattern beside a readable one is ignored with a warning.
    const some = await prices(app, carrier, { from: 'DE-60,QQ', to: 'FR-75' });
    assert.equal(some.body.status, 'success', some.text);
    assert.equal(some.body.data.lane.from, 'DE-60');
    assert.equal(some.body.warnings[0].field, 'from');
  });
});

describe('figures', () => {
  test('median, p25, p75 exact on known data (odd and even counts), rounded to whole euros', async () => {
    await awards(place('DE', '10115'), place('FR', '13001'), ['1000.00', '1100.00', '1200.50', '1300.00', '1450.00']);
    const odd = monthOf((await prices(app, carrier, { from: 'DE-10', to: 'FR-13' })).body, '2031-03');
    // Sorted 1000, 1100, 1200.50, 1300, 1450: median the third, quartiles the second and fourth.
    assert.deepEqual(odd, { ...countOnly('2031-03', 5), median: 1201, p25: 1100, p75: 1300, released: 5 });

    await awards(place('DE', '12043'), place('FR', '13002'), ['1000.00', '1100.00', '1200.50', '1300.00', '1450.00', '1500.00']);
    const even = monthOf((await prices(app, carrier, { from: 'DE-12', to: 'FR-13' })).body, '2031-03');
    // Six prices: median (1200.50 + 1300) / 2 = 1250.25; p25 at 1.25: 1100 + 0.25 × 100.50 = 1125.125;
    // p75 at 3.75: 1300 + 0.75 × 150 = 1412.50 (linear interpolation, then whole euros).
    assert.deepEqual(even, { ...countOnly('2031-03', 6), median: 1250, p25: 1125, p75: 1413, released: 6 });
  });

  test('median per km: price ÷ great-circle km, over the awards with both ends’ coordinates', async () => {
    const list = ['900.00', '950.00', '1000.00', '1050.00', '1100.00'];
    await awards(FRANKFURT, PARIS, list);
    // Two without coordinates count for the price figures, not per km.
    await awards({ ...FRANKFURT, latitude: null, longitude: null }, PARIS, ['5000.00', '5000.00']);
    const res = await prices(app, carrier, { from: 'DE-60', to: 'FR-75' });
    const m = monthOf(res.body, '2031-03');
    const km = greatCircleKm(FRANKFURT as any, PARIS as any);
    assert.ok(km > 470 && km < 490, String(km));
    assert.equal(m.count, 7);
    assert.equal(m.median, 1050);
    assert.equal(m.median_per_km, Math.round((1000 / km) * 100) / 100);
    assert.equal(m.released, 7);
    assert.equal(m.released_per_km, 5);
  });

  test('per km needs 5 awards by 3 owners with coordinates of its own', async () => {
    const from = place('DE', '20095');
    const to = place('FR', '69001');
    const withPoints = (p: Place, lat: string, lon: string): Place => ({ ...p, latitude: lat, longitude: lon });
    // Four with coordinates, three without: the month shows prices, but no per-km median.
    await awards(withPoints(from, '53.55', '9.99'), withPoints(to, '45.76', '4.83'), ['800.00', '820.00', '840.00', '860.00']);
    await awards(from, to, ['900.00', '910.00', '920.00']);
    const m = monthOf((await prices(app, carrier, { from: 'DE-20', to: 'FR-69' })).body, '2031-03');
    assert.equal(m.count, 7);
    assert.equal(m.median, 860);
    assert.equal(m.median_per_km, null);
    assert.equal(m.released, 7);
    assert.equal(m.released_per_km, 0);
  });
});

describe('privacy, the contract’s threshold (the default): figures from 5 awards by 3 owner companies on', () => {
  test('the default release is the contract’s', () => {
    assert.equal(app.config.lanePricesRelease, 'threshold');
  });

  test('4 awards of 4 owners: count only', async () => {
    await awards(place('DE', '30159'), place('FR', '31000'), ['700.00', '710.00', '720.00', '730.00']);
    const m = monthOf((await prices(app, carrier, { from: 'DE-30', to: 'FR-31' })).body, '2031-03');
    assert.deepEqual(m, countOnly('2031-03', 4));
  });

  test('5 awards of 2 owners: count only (to 5 carriers, or all to one)', async () => {
    await awards(place('DE', '40210'), place('FR', '33000'), ['700.00', '710.00', '720.00', '730.00', '740.00'], { owners: 2 });
    await awards(place('DE', '41061'), place('FR', '33000'), ['700.00', '710.00', '720.00', '730.00', '740.00'], { owners: 2, winners: 1 });
    for (const from of ['DE-40', 'DE-41'])
      assert.deepEqual(monthOf((await prices(app, carrier, { from, to: 'FR-33' })).body, '2031-03'), countOnly('2031-03', 5), from);
  });

  test('5 awards of one owner to 5 carriers: count only (the carriers do not make its prices anonymous)', async () => {
    await awards(place('DE', '70173'), place('FR', '59000'), ['600.00', '601.00', '602.00', '603.00', '604.00'], { owners: 1 });
    assert.deepEqual(monthOf((await prices(app, carrier, { from: 'DE-70', to: 'FR-59' })).body, '2031-03'), countOnly('2031-03', 5));
  });

  test('5 awards of 3 owners, 2 + 2 + 1, one carrier winning all five: shown, exact', async () => {
    // Owners in turn: the first and second shipper two awards each, the third one; a single carrier.
    await awards(place('DE', '51063'), place('FR', '44000'), ['1240.00', '1150.00', '1275.00', '1195.50', '1180.00'], {
      owners: 3,
      winners: 1,
    });
    const m = monthOf((await prices(app, carrier, { from: 'DE-51', to: 'FR-44' })).body, '2031-03');
    // Sorted 1150, 1180, 1195.50, 1240, 1275: the quartiles are the 2nd, 3rd and 4th prices, the
    // median rounded half away from zero.
    assert.deepEqual(m, { ...countOnly('2031-03', 5), median: 1196, p25: 1180, p75: 1240, released: 5 });
  });

  test('5 awards of 5 owners to 5 carriers, and of 5 owners to 3 carriers: shown', async () => {
    await awards(place('DE', '50667'), place('FR', '44000'), ['700.00', '710.00', '720.00', '730.00', '740.00']);
    await awards(place('DE', '71032'), place('FR', '44000'), ['700.00', '710.00', '720.00', '730.00', '740.00'], { winners: 3 });
    for (const from of ['DE-50', 'DE-71'])
      assert.deepEqual(
        monthOf((await prices(app, carrier, { from, to: 'FR-44' })).body, '2031-03'),
        { ...countOnly('2031-03', 5), median: 720, p25: 710, p75: 730, released: 5 },
        from,
      );
  });

  test('5 awards of 3 owners, 3 + 1 + 1: shown, though the shipper with three knows where its own lie (the residual risk of the contract’s threshold; strict.test.ts closes it)', async () => {
    // A shipper's three awards at extreme prices, won by one carrier, and one award each of two
    // other shippers: the contract's threshold holds, so the figures are shown, and sorted 1, 2,
    // 1180, 1240, 99999 their quartiles are 2, 1180 and 1240. The shipper reads the two others'
    // prices, without knowing which is whose (docs/choices.md, "Lane prices", what remains).
    const [from, to] = [place('DE', '04109'), PARIS];
    const [shipper, friend] = [pool.shippers[0]!, pool.carriers[0]!];
    for (const price of ['1.00', '2.00', '99999.00'])
      await seedAward(app, { owner: shipper, winner: friend, price, at: THIS_MONTH, from, to });
    for (const [i, price] of ['1180.00', '1240.00'].entries())
      await seedAward(app, { owner: pool.shippers[1 + i]!, winner: pool.carriers[1 + i]!, price, at: THIS_MONTH, from, to });
    const m = monthOf((await prices(app, shipper, { from: 'DE-04', to: 'FR-75' })).body, '2031-03');
    assert.deepEqual(m, { ...countOnly('2031-03', 5), median: 1180, p25: 2, p75: 1240, released: 5, released_per_km: 0 });
  });
});

describe('differencing: no two answers differ by one deal (docs/choices.md, "Lane prices")', () => {
  test('before and after one award: the figures stay until a new batch waits, then move at once', async () => {
    const lane = { from: 'DE-14', to: 'FR-14' };
    const [from, to] = [place('DE', '14467'), place('FR', '14000')];
    await awards(from, to, ['800.00', '810.00', '820.00', '830.00', '840.00']);
    const first = monthOf((await prices(app, carrier, lane)).body, '2031-03');
    assert.deepEqual(first, { ...countOnly('2031-03', 5), median: 820, p25: 810, p75: 830, released: 5 });

    // One more deal: the count says so, the figures do not move (they would give away its price).
    await awards(from, to, ['1000.00']);
    const one = monthOf((await prices(app, carrier, lane)).body, '2031-03');
    assert.deepEqual(one, { ...first, count: 6 });

    // Four more of other companies: a batch of five waits and is released.
    await awards(from, to, ['1010.00', '1020.00', '1030.00', '1040.00']);
    const ten = monthOf((await prices(app, carrier, lane)).body, '2031-03');
    // All ten: 800 … 840, 1000 … 1040; median (840 + 1000) / 2 = 920.
    assert.deepEqual(ten, { ...countOnly('2031-03', 10), median: 920, p25: 823, p75: 1018, released: 10 });
  });

  test('a batch of one owner does not release: five more awards of one shipper wait for others', async () => {
    const lane = { from: 'DE-15', to: 'FR-15' };
    const [from, to] = [place('DE', '15230'), place('FR', '15000')];
    await awards(from, to, ['500.00', '510.00', '520.00', '530.00', '540.00']);
    const first = monthOf((await prices(app, carrier, lane)).body, '2031-03');
    assert.equal(first.median, 520);
    await awards(from, to, ['900.00', '900.00', '900.00', '900.00', '900.00'], { owners: 1 });
    const later = monthOf((await prices(app, carrier, lane)).body, '2031-03');
    assert.deepEqual(later, { ...first, count: 10 });
  });

  test('narrower and wider lanes: a postal area with one deal adds nothing to the wider figures', async () => {
    // Five awards of 5 owners in DE-16 -> FR-16, one in DE-17 -> FR-16.
    await awards(place('DE', '16225'), place('FR', '16000'), ['600.00', '610.00', '620.00', '630.00', '640.00']);
    await awards(place('DE', '17033'), place('FR', '16000'), ['2000.00']);
    const narrow = monthOf((await prices(app, carrier, { from: 'DE-16', to: 'FR-16' })).body, '2031-03');
    const wide = monthOf((await prices(app, carrier, { from: 'DE-1', to: 'FR-16' })).body, '2031-03');
    const both = monthOf((await prices(app, carrier, { from: 'DE-16,DE-17', to: 'FR-16' })).body, '2031-03');
    assert.equal(narrow.median, 620);
    // The wider answers count the sixth deal, and their figures are the narrow ones: DE-17's cell has
    // one award, which never reaches a batch of its own.
    assert.deepEqual(wide, { ...narrow, count: 6 });
    assert.deepEqual(both, { ...narrow, count: 6 });
  });

  test('a postal prefix longer than an area is read as its area, with a warning', async () => {
    const res = await prices(app, carrier, { from: 'DE-164', to: 'FR-16000' });
    assert.equal(res.body.status, 'success');
    assert.deepEqual(res.body.data.lane, { from: 'DE-16', to: 'FR-16', currency: 'EUR' });
    assert.deepEqual(
      res.body.warnings.map((w: any) => w.field),
      ['from', 'to'],
    );
    const m = monthOf(res.body, '2031-03');
    assert.equal(m.median, 620);
  });
});

describe('months in APP_TIMEZONE', () => {
  test('an award at 00:30 in Berlin on the 1st is that month’s, though still the last day of the month before in UTC', async () => {
    const from = place('DE', '80331');
    const to = place('FR', '67000');
    // 2031-02-28 23:30 UTC is 2031-03-01 00:30 in Berlin; 2031-02-28 22:30 UTC is 23:30 there.
    await awards(from, to, ['100.00', '100.00', '100.00'], {}, at('2031-02-28T23:30:00Z'));
    await awards(from, to, ['200.00', '200.00'], {}, at('2031-02-28T22:30:00Z'));
    const res = await prices(app, carrier, { from: 'DE-80', to: 'FR-67', months: '2' });
    assert.deepEqual(
      res.body.data.months.map((m: any) => [m.month, m.count]),
      [
        ['2031-02', 2],
        ['2031-03', 3],
      ],
    );
  });

  test('the window starts at the first of the month in Berlin: earlier awards are left out', async () => {
    const from = place('DE', '90402');
    const to = place('FR', '21000');
    // 2030-03-31 22:30 UTC is 2030-04-01 00:30 in Berlin (CEST): the window's first month.
    await awards(from, to, ['100.00'], {}, at('2030-03-31T22:30:00Z'));
    await awards(from, to, ['100.00'], {}, at('2030-03-31T21:30:00Z'));
    const res = await prices(app, carrier, { from: 'DE-90', to: 'FR-21' });
    assert.equal(res.body.data.months[0].month, '2030-04');
    assert.equal(res.body.data.months[0].count, 1);
    assert.equal(
      res.body.data.months.reduce((n: number, m: any) => n + m.count, 0),
      1,
    );
  });
});

describe('which freights count', () => {
  const from = place('DE', '01067');
  const to = place('PL', '00001');
  const lane = { from: 'DE-01', to: 'PL-00' };
  const count = async (query: Record<string, string> = {}) =>
    monthOf((await prices(app, carrier, { ...lane, ...query })).body, '2031-03').count as number;

  test('taken, closed and archived road freights with their accepted bid; not air, not own bids, not other currencies', async () => {
    const base = { owner: owners[0]!, winner: carrier, price: '500.00', at: THIS_MONTH, from, to };
    await seedAward(app, base);
    await seedAward(app, { ...base, status: 'closed' });
    await seedAward(app, { ...base, status: 'archived' });
    await seedAward(app, { ...base, class: 'rfs_order' });
    assert.equal(await count(), 4);
    await seedAward(app, { ...base, class: 'air' });
    await seedAward(app, { ...base, status: 'open', bidStatus: 'open' });
    await seedAward(app, { ...base, status: 'expired', bidStatus: 'revoked' });
    // The owner's own bid on its own freight is no market deal.
    await seedAward(app, { ...base, winner: owners[0]! });
    await seedAward(app, { ...base, currency: 'CHF' });
    assert.equal(await count(), 4);
    // Prices in another currency are another market, never mixed into one median.
    assert.equal(await count({ currency: 'chf' }), 1);
    const bad = await prices(app, carrier, { ...lane, currency: 'euro' });
    assert.equal(bad.body.data.lane.currency, 'EUR');
    assert.equal(bad.body.warnings[0].field, 'currency');
  });

  test('an award through the API counts in the month of its award', async () => {
    const shipper = await app.actor('API Shipper');
    const before = await count();
    await takenFreight(app, shipper, carrier, { from: 'city:DE-01067', to: 'city:PL-00001', weight: 500 });
    assert.equal(await count(), before + 1);
  });
});

describe('patterns (docs/reference.md#load-search)', () => {
  before(async () => {
    const by = (from: Place, to: Place, price: string) =>
      seedAward(app, { owner: owners[0]!, winner: carrier, price, at: THIS_MONTH, from, to });
    await by(place('AT', '1010'), place('CZ', '11000'), '300.00');
    await by(place('AT', '1200'), place('CZ', '11000'), '300.00');
    await by(place('AT', '4020'), place('CZ', '11000'), '300.00');
    await by({ code: 'VIE', country: 'AT' }, place('CZ', '11000'), '300.00');
    await by(place('AT', '1010'), { code: 'PRG', country: 'CZ' }, '300.00');
  });
  const count = async (from: string, to: string) => {
    const res = await prices(app, carrier, { from, to, months: '1' });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.months[0].count as number;
  };

  test('country, postal prefix, airport, several patterns', async () => {
    assert.equal(await count('AT', 'CZ'), 5);
    assert.equal(await count('AT-1', 'CZ'), 3);
    assert.equal(await count('AT-10', 'CZ-11'), 1);
    // A postal prefix never matches an airport code.
    assert.equal(await count('AT', 'CZ-1'), 4);
    assert.equal(await count('airport:VIE', 'CZ'), 1);
    assert.equal(await count('AT-10', 'airport:PRG'), 1);
    assert.equal(await count('AT-4,airport:VIE', 'CZ-11'), 2);
    const res = await prices(app, carrier, { from: 'at-4, VIE', to: 'cz 11' });
    assert.deepEqual(res.body.data.lane, { from: 'AT-4,airport:VIE', to: 'CZ-11', currency: 'EUR' });
  });
});

describe('the freight form’s and page’s hint (the lane’s last median)', () => {
  let cookie: string;
  let shipper: Actor;
  before(async () => {
    shipper = await app.actor('Hint Shipper');
    cookie = (await browserSession(app, shipper)).cookie;
    // Hamburg (DE-22) -> Lille (FR-59): January shown (5 awards), March hidden (4): the hint is January's.
    await awards(
      place('DE', '22041'),
      place('FR', '59800'),
      ['900.00', '950.00', '1000.00', '1050.00', '1100.00'],
      {},
      at('2031-01-20T10:00:00Z'),
    );
    await awards(place('DE', '22041'), place('FR', '59800'), ['2000.00', '2000.00', '2000.00', '2000.00']);
  });
  const html = async (url: string) => (await app.get(url, { headers: { cookie } })).text.replace(/[\u00a0\u202f]/g, ' ');
  const hintOf = (page: string) => /data-testid="market-hint">([^<(]*)/.exec(page)?.[1]?.trim();

  test('a road freight on the lane: the newest month with figures, on the form and the page', async () => {
    const id = await addFreight(app, shipper, { from: 'city:22041', from_country: 'DE', to: 'city:59800', to_country: 'FR' });
    assert.equal(hintOf(await html(`/freights/view/${id}`)), 'market: €1,000 median, 5 awards');
    assert.equal(hintOf(await html(`/freights/edit/${id}`)), 'market: €1,000 median, 5 awards');
    assert.match(await html(`/freights/view/${id}`), /href="\/market\/prices\?from=DE-22&amp;to=FR-59&amp;currency=EUR"/);
  });

  test('the hint counts the awards its median rests on, not the month’s: the answer says both', async () => {
    // Bremen (DE-28) -> Lille: five awards released by a first answer, then a sixth that waits for a batch.
    const [from, to] = [place('DE', '28195'), place('FR', '59800')];
    await awards(from, to, ['700.00', '720.00', '740.00', '760.00', '780.00']);
    await prices(app, carrier, { from: 'DE-28', to: 'FR-59' });
    await awards(from, to, ['5000.00']);
    const m = monthOf((await prices(app, carrier, { from: 'DE-28', to: 'FR-59' })).body, '2031-03');
    assert.deepEqual(m, { ...countOnly('2031-03', 6), median: 740, p25: 720, p75: 760, released: 5 });
    const id = await addFreight(app, shipper, { from: 'city:28195', from_country: 'DE', to: 'city:59800', to_country: 'FR' });
    assert.equal(hintOf(await html(`/freights/view/${id}`)), 'market: €740 median, 5 awards');
    // The page's table says both: six awards, five in the figures.
    const page = await html('/market/prices?from=DE-28&to=FR-59&months=1');
    const row = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
    const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim());
    assert.deepEqual(cells.slice(0, 4), ['Mar 2031', '6', '5', '€740'], row);
  });

  test('no hint for an air freight, a lane without figures, or another currency without figures', async () => {
    const air = await addFreight(app, shipper, {
      class: 'air',
      from: 'city:22041',
      from_country: 'DE',
      to: 'city:59800',
      to_country: 'FR',
    });
    assert.equal(hintOf(await html(`/freights/view/${air}`)), undefined);
    const quiet = await addFreight(app, shipper, { from: 'city:22041', from_country: 'DE', to: 'city:62000', to_country: 'FR' });
    assert.equal(hintOf(await html(`/freights/view/${quiet}`)), undefined);
    const chf = await addFreight(app, shipper, {
      from: 'city:22041',
      from_country: 'DE',
      to: 'city:59800',
      to_country: 'FR',
      refs: { target_rate: '900', target_currency: 'CHF' },
    });
    assert.equal(hintOf(await html(`/freights/edit/${chf}`)), undefined);
  });
});
