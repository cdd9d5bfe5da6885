import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { searchAirports } from '../../src/airports/index.ts';
import { importRateSheet } from '../../src/pricing/import.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

// Hand-computed cases of docs/reference.md#rate-search. "Today" is 2030-06-15 (UTC).
let app: TestApp;
let carrierA: Actor; // exchange sheets
let carrierB: Actor; // a private sheet
let carrierC: Actor; // a public_search sheet
let forwarder: Actor; // searches, owns nothing
let outsider: Actor;

const HEADER = 'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,fsc_pct,ssc_per_kg,uld_price';
const SHEET_A = [
  HEADER,
  'city:DE-6,airport:FRA,2,50.00,0.50,0.45,0.40,0.35,10,0.05,',
  'city:DE-60,airport:FRA,1,45.00,0.40,0.35,,0.25,12.5,0.05,900',
  'city:DE-603,airport:FRA,1,40.00,0.38,0.33,0.28,,12.5,0.05,',
  'airport:FRA,city:DE-60,1,45.00,0.42,0.37,0.32,0.27,12.5,0.05,',
].join('\n');

async function sheet(
  owner: Actor,
  csv: string,
  options: { visibility?: string; currency?: string; validFrom?: string; validTo?: string; name?: string } = {},
) {
  return importRateSheet(app.services.db, {
    companyId: owner.company,
    csvText: csv,
    visibility: options.visibility ?? 'exchange',
    currency: options.currency,
    validFrom: options.validFrom,
    validTo: options.validTo,
    name: options.name,
  });
}

async function search(who: Actor, json: Record<string, unknown>) {
  const res = await app.post('/pricing/search/results.json', { token: who.token, json });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** The rates of a search as [origin, amount] for compact assertions. */
const brief = (rates: any[]) => rates.map((r) => [r.origin, r.destination, r.amount]);

before(async () => {
  app = await startTestApp();
  app.setNow(new Date('2030-06-15T12:00:00Z'));
  carrierA = await app.actor('Carrier A');
  carrierB = await app.actor('Carrier B');
  carrierC = await app.actor('Carrier C');
  forwarder = await app.actor('Forwarder');
  outsider = await app.actor('Outsider');
  await sheet(carrierA, SHEET_A, { name: 'Rhein-Main' });
});
after(() => app.close());

describe('formula (§5), hand-computed', () => {
  test('longest prefix within the sheet and airport; band price; fsc and ssc; shape of a rate', async () => {
    const body = await search(forwarder, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250 });
    assert.equal(body.status, 'success');
    assert.equal(body.data.rates.length, 1);
    const r = body.data.rates[0];
    // DE-603 wins over DE-60 and DE-6; 250 kg is in the kg_300 band: 250 · 0.33 = 82.50
    assert.deepEqual(r, {
      id: r.id,
      sheet_id: r.sheet_id,
      company: { id: carrierA.company, name: carrierA.companyName },
      origin: 'city:DE-603',
      destination: 'airport:FRA',
      transit_days: 1,
      chargeable_weight: 250,
      currency: 'EUR',
      rate_base: 82.5,
      rate_fsc: 10.31, // 82.50 · 12.5 % = 10.3125
      rate_ssc: 12.5, // 250 · 0.05
      amount: 105.31,
    });
    assert.deepEqual(body.data.combinations, []);
    assert.equal(typeof body.data.searchEntity.id, 'number');
  });

  test('minimum charge, and rounding half-up to the cent (5.625 -> 5.63)', async () => {
    const body = await search(forwarder, { origin: 'city:DE-60111', destination: 'airport:FRA', weight: 50 });
    // DE-60: 50 · 0.40 = 20 < 45 -> 45.00; fsc 45 · 12.5 % = 5.625 -> 5.63; ssc 2.50
    assert.deepEqual(brief(body.data.rates), [['city:DE-60', 'airport:FRA', 53.13]]);
    assert.equal(body.data.rates[0].rate_fsc, 5.63);
  });

  test('band boundaries: up to N inclusive; the shortest prefix when it is the only match', async () => {
    let body = await search(forwarder, { origin: 'city:DE-69000', destination: 'airport:FRA', weight: 100 });
    // DE-6: 100 kg is in kg_100: 100 · 0.50 = 50 = min 50; fsc 5.00; ssc 5.00
    assert.deepEqual(brief(body.data.rates), [['city:DE-6', 'airport:FRA', 60]]);
    body = await search(forwarder, { origin: 'city:DE-69000', destination: 'airport:FRA', weight: '200' });
    // kg_300: 200 · 0.45 = 90; fsc 9; ssc 10
    assert.deepEqual(brief(body.data.rates), [['city:DE-6', 'airport:FRA', 109]]);
  });

  test('an empty cell is no price for that band, and the longest prefix still wins (no fallback)', async () => {
    const body = await search(forwarder, { origin: 'city:DE-60111', destination: 'airport:FRA', weight: 400 });
    assert.deepEqual(body.data.rates, []);
  });

  test('above the largest filled break the line does not apply', async () => {
    assert.deepEqual((await search(forwarder, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 800 })).data.rates, []);
    assert.deepEqual((await search(forwarder, { origin: 'city:DE-69000', destination: 'airport:FRA', weight: 1000.001 })).data.rates, []);
  });

  test('volume weight 1:6000 beats the actual weight', async () => {
    const body = await search(forwarder, {
      origin: 'city:DE-60311',
      destination: 'airport:FRA',
      weight: 100,
      pieces_json: [{ pieces: 2, depth: 120, width: 80, height: 100 }],
    });
    // 2 · 120 · 80 · 100 / 6000 = 320 kg, kg_500: 320 · 0.28 = 89.60; fsc 11.20; ssc 16.00
    assert.equal(body.data.rates[0].chargeable_weight, 320);
    assert.deepEqual(brief(body.data.rates), [['city:DE-603', 'airport:FRA', 116.8]]);
  });

  test('unitOfLength in: inches converted exactly', async () => {
    const body = await search(forwarder, {
      origin: 'city:DE-60311',
      destination: 'airport:FRA',
      unitOfLength: 'in',
      pieces_json: [{ pieces: 1, depth: 40, width: 40, height: 40 }],
    });
    // 64000 in³ · 16.387064 = 1048772.096 cm³ / 6000 = 174.795349… kg; 0.33 · cw = 57.682… -> 57.68;
    // fsc 7.21; ssc 8.7397… -> 8.74; amount 73.63
    const r = body.data.rates[0];
    assert.equal(r.chargeable_weight, 174.795);
    assert.deepEqual([r.rate_base, r.rate_fsc, r.rate_ssc, r.amount], [57.68, 7.21, 8.74, 73.63]);
  });

  test('without weight the piece lines’ weights add up; a form body with pieces_json as JSON text', async () => {
    const res = await app.post('/pricing/search/results.json', {
      token: forwarder.token,
      form: {
        origin: 'city:DE-60311',
        destination: 'airport:FRA',
        pieces_json: JSON.stringify([
          { pieces: 1, weight: '150' },
          { pieces: 2, weight: 60 },
        ]),
      },
    });
    // 210 kg, kg_300: 69.30; fsc 8.6625 -> 8.66; ssc 10.50
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.rates[0].chargeable_weight, 210);
    assert.equal(res.body.data.rates[0].amount, 88.46);
  });

  test('ULD: uld_count · uld_price; lines without uld_price do not apply', async () => {
    let body = await search(forwarder, {
      origin: 'city:DE-60111',
      destination: 'airport:FRA',
      weight: 1000,
      search_type: 'uld',
      uld_count: 2,
    });
    // 2 · 900 = 1800; fsc 225; ssc 1000 · 0.05 = 50
    assert.deepEqual(brief(body.data.rates), [['city:DE-60', 'airport:FRA', 2075]]);
    body = await search(forwarder, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 1000, search_type: 'uld', uld_count: 2 });
    assert.deepEqual(body.data.rates, []); // DE-603 has no uld_price and wins
  });

  test('direction: auto and import find airport->city lines, export does not; import excludes city->airport', async () => {
    const q = { origin: 'airport:FRA', destination: 'city:DE-60311', weight: 250 };
    // 250 · 0.37 = 92.50; fsc 11.5625 -> 11.56; ssc 12.50
    assert.deepEqual(brief((await search(forwarder, q)).data.rates), [['airport:FRA', 'city:DE-60', 116.56]]);
    assert.deepEqual(brief((await search(forwarder, { ...q, direction: 'import' })).data.rates), [['airport:FRA', 'city:DE-60', 116.56]]);
    assert.deepEqual((await search(forwarder, { ...q, direction: 'export' })).data.rates, []);
    assert.deepEqual(
      (await search(forwarder, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250, direction: 'import' })).data.rates,
      [],
    );
    assert.equal(
      (await search(forwarder, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250, direction: 'export' })).data.rates
        .length,
      1,
    );
  });
});

describe('validity and visibility', () => {
  before(async () => {
    const lane = (min: string) => `${HEADER}\ncity:AT-1,airport:VIE,1,${min},1,1,1,1,0,0,`;
    await sheet(carrierA, lane('10'), { validFrom: '2030-06-15', validTo: '2030-06-15', name: 'today only' });
    await sheet(carrierA, lane('20'), { validTo: '2030-06-14', name: 'expired' });
    await sheet(carrierA, lane('30'), { validFrom: '2030-06-16', name: 'not yet' });
    await sheet(carrierB, lane('40'), { visibility: 'private', name: 'B private' });
    await sheet(carrierC, lane('50'), { visibility: 'public_search', name: 'C public' });
    await sheet(carrierC, lane('60'), { visibility: 'exchange', name: 'C exchange' });
  });
  const q = { origin: 'city:AT-1010', destination: 'airport:VIE', weight: 1 };
  const amounts = (body: any) => body.data.rates.map((r: any) => r.amount);

  test('validity dates are inclusive; expired and future sheets are not searched', async () => {
    assert.deepEqual(amounts(await search(forwarder, q)), [10, 50, 60]);
    app.setNow(new Date('2030-06-16T00:30:00Z'));
    try {
      assert.deepEqual(amounts(await search(forwarder, q)), [30, 50, 60]);
    } finally {
      app.setNow(new Date('2030-06-15T12:00:00Z'));
    }
  });

  test('private sheets are searched by their owner only', async () => {
    assert.deepEqual(amounts(await search(carrierB, q)), [10, 40, 50, 60]);
    assert.ok(!amounts(await search(outsider, q)).includes(40));
  });

  test('public search: only that company’s public_search sheets, without a token', async () => {
    let res = await app.post(`/pricing/public-search/${carrierC.company}/results.json`, { json: q });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.deepEqual(amounts(res.body), [50]);
    assert.equal(typeof res.body.data.searchEntity.id, 'number');
    res = await app.post(`/pricing/public-search/${carrierA.company}/results.json`, { json: q });
    assert.deepEqual(amounts(res.body), []);
    res = await app.post(`/pricing/public-search/${carrierB.company}/results.json`, {
      form: { origin: q.origin, destination: q.destination, weight: '1' },
    });
    assert.deepEqual(amounts(res.body), []);
    res = await app.post('/pricing/public-search/999999/results.json', { json: q });
    assert.equal(res.status, 404);
    res = await app.post(`/pricing/public-search/${carrierC.company}/results.json`, { json: { ...q, origin: '' } });
    assert.equal(res.body.status, 'error');
  });

  test('a public search is stored without a company: in nobody’s history', async () => {
    const res = await app.post(`/pricing/public-search/${carrierC.company}/results.json`, { json: q });
    const id = res.body.data.searchEntity.id;
    for (const who of [carrierC, forwarder]) {
      const history = await app.get('/pricing/search/history.json', { token: who.token });
      assert.ok(!history.body.data.searches.some((s: any) => s.id === id));
      assert.equal((await app.get(`/pricing/search/results.json?search_id=${id}`, { token: who.token })).status, 404);
    }
  });
});

describe('combinations', () => {
  let hubs: string[];
  before(async () => {
    hubs = searchAirports('international', 400)
      .map((a) => a.iata)
      .filter((c) => !['FRA', 'AMS', 'VIE', 'WAW', 'MUC', 'BRU'].includes(c))
      .slice(0, 60);
    assert.equal(hubs.length, 60);
    const H = 'origin,destination,transit_days,min_charge,kg_1000,fsc_pct,ssc_per_kg';
    // Carrier A: pre-carriage PL-0 -> FRA / MUC, and to 60 hubs with rising prices.
    await sheet(
      carrierA,
      [
        H,
        'city:PL-0,airport:FRA,1,100,0.01,0,0',
        'city:PL-0,airport:MUC,2,80,0.01,0,0',
        ...hubs.map((h, i) => `city:PL-0,airport:${h},1,${500 + i},0.01,0,0`),
      ].join('\n'),
    );
    // Carrier C: FRA -> AMS 200, MUC -> AMS 150, BRU -> AMS; a direct PL-0 -> AMS; the hubs -> AMS.
    await sheet(
      carrierC,
      [
        H,
        'airport:FRA,airport:AMS,1,200,0.01,0,0',
        'airport:MUC,airport:AMS,3,150,0.01,0,0',
        'city:PL-0,airport:AMS,4,400,0.01,0,0',
        ...hubs.map((h, i) => `airport:${h},airport:AMS,1,${500 + i},0.01,0,0`),
      ].join('\n'),
    );
    // Another currency: FRA -> AMS 1 USD must not pair with EUR legs.
    await sheet(carrierB, [H, 'airport:FRA,airport:AMS,1,1,0.01,0,0'].join('\n'), { currency: 'USD' });
    // A private sheet of an outsider is invisible to the forwarder's combinations.
    await sheet(outsider, [H, 'airport:MUC,airport:AMS,1,2,0.01,0,0'].join('\n'), { visibility: 'private' });
  });

  test('two legs through a hub, same currency, via neither end, cheapest first, at most 50', async () => {
    const body = await search(forwarder, { origin: 'city:PL-00950', destination: 'airport:AMS', weight: 10, allow_combinations: 1 });
    assert.deepEqual(brief(body.data.rates), [['city:PL-0', 'airport:AMS', 400]]);
    const combos = body.data.combinations;
    assert.equal(combos.length, 50);
    // MUC: 80 + 150 = 230 (transit 5), FRA: 100 + 200 = 300 (transit 2); USD leg ignored.
    assert.deepEqual(
      combos.slice(0, 2).map((c: any) => [c.via, c.amount, c.transit_days, c.currency]),
      [
        ['airport:MUC', 230, 5, 'EUR'],
        ['airport:FRA', 300, 2, 'EUR'],
      ],
    );
    const c = combos[0];
    assert.equal(c.legs.length, 2);
    assert.equal(c.legs[0].origin, 'city:PL-0');
    assert.equal(c.legs[0].destination, 'airport:MUC');
    assert.equal(c.legs[1].origin, 'airport:MUC');
    assert.equal(c.legs[1].destination, 'airport:AMS');
    assert.equal(c.legs[1].company.id, carrierC.company);
    assert.equal(c.legs[0].amount + c.legs[1].amount, c.amount);
    for (const x of combos) {
      assert.ok(x.via !== 'airport:AMS' && x.legs[0].currency === x.legs[1].currency);
      assert.equal(x.legs[0].destination, x.via);
      assert.equal(x.legs[1].origin, x.via);
    }
    const sums = combos.map((x: any) => x.amount);
    assert.deepEqual(
      sums,
      [...sums].sort((a: number, b: number) => a - b),
    );
    // Hub i costs (500 + i) twice: the 48 cheapest hubs follow MUC and FRA.
    assert.equal(combos[2].amount, 1000);
    assert.equal(combos[49].amount, 1000 + 2 * 47);
  });

  test('without allow_combinations: an empty array; airport to airport combinations exclude the ends', async () => {
    assert.deepEqual((await search(forwarder, { origin: 'city:PL-00950', destination: 'airport:AMS', weight: 10 })).data.combinations, []);
    const body = await search(forwarder, { origin: 'airport:FRA', destination: 'airport:AMS', weight: 10, allow_combinations: '1' });
    assert.deepEqual(
      body.data.rates.map((r: any) => [r.amount, r.currency]),
      [
        [1, 'USD'],
        [200, 'EUR'],
      ],
    ); // sorted by amount, whatever the currency
    for (const x of body.data.combinations) assert.ok(x.via !== 'airport:FRA' && x.via !== 'airport:AMS');
  });

  test('the owner’s private legs count for the owner only', async () => {
    const own = await search(outsider, { origin: 'city:PL-00950', destination: 'airport:AMS', weight: 10, allow_combinations: 1 });
    assert.equal(own.data.combinations[0].amount, 82); // 80 + 2 via MUC
    const other = await search(forwarder, { origin: 'city:PL-00950', destination: 'airport:AMS', weight: 10, allow_combinations: 1 });
    assert.equal(other.data.combinations[0].amount, 230);
  });
});

describe('limits and order', () => {
  test('at most 200 rates, by amount then transit_days', async () => {
    const H = 'origin,destination,transit_days,min_charge,kg_100';
    for (let i = 0; i < 205; i++) {
      // amounts 100..(repeating every 50), transit days descending so ties sort by transit
      await importRateSheet(app.services.db, {
        companyId: carrierA.company,
        csvText: `${H}\ncity:CZ-1,airport:PRG,${5 - (i % 5)},${100 + Math.floor(i / 5)},1`,
        visibility: 'exchange',
      });
    }
    const body = await search(forwarder, { origin: 'city:CZ-11000', destination: 'airport:PRG', weight: 1 });
    const rates = body.data.rates;
    assert.equal(rates.length, 200);
    for (let i = 1; i < rates.length; i++) {
      const [a, b] = [rates[i - 1], rates[i]];
      assert.ok(a.amount < b.amount || (a.amount === b.amount && a.transit_days <= b.transit_days), `order at ${i}`);
    }
    assert.deepEqual(
      rates.slice(0, 5).map((r: any) => r.transit_days),
      [1, 2, 3, 4, 5],
    );
    assert.equal(rates[199].amount, 139);
    assert.equal(body.data.searchEntity.result_count, 200);
  });
});

describe('bad input is status error, never a 500, nothing stored', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['missing origin', { destination: 'airport:FRA', weight: 1 }],
    ['unknown format', { origin: 'zip:60311', destination: 'airport:FRA' }],
    ['city without country', { origin: 'city:60311', destination: 'airport:FRA' }],
    ['unknown airport', { origin: 'city:DE-60311', destination: 'airport:QQQ' }],
    ['negative weight', { origin: 'city:DE-60311', destination: 'airport:FRA', weight: -5 }],
    ['weight not a number', { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 'heavy' }],
    ['direction', { origin: 'city:DE-60311', destination: 'airport:FRA', direction: 'sideways' }],
    ['unit', { origin: 'city:DE-60311', destination: 'airport:FRA', unitOfLength: 'mm' }],
    ['pieces not JSON', { origin: 'city:DE-60311', destination: 'airport:FRA', pieces_json: '[{' }],
    ['negative dimension', { origin: 'city:DE-60311', destination: 'airport:FRA', pieces_json: [{ depth: -1, width: 1, height: 1 }] }],
    ['uld_count', { origin: 'city:DE-60311', destination: 'airport:FRA', search_type: 'uld', uld_count: 0 }],
    ['origin an object', { origin: { a: 1 }, destination: 'airport:FRA' }],
    ['same ends', { origin: 'airport:FRA', destination: 'fra' }],
  ];
  test('each refused with a message naming the field', async () => {
    const before = (await app.get('/pricing/search/history.json', { token: outsider.token, query: { limit: '100' } })).body.data.searches
      .length;
    for (const [label, json] of cases) {
      const res = await app.post('/pricing/search/results.json', { token: outsider.token, json });
      assert.equal(res.status, 200, label);
      assert.equal(res.body.status, 'error', label);
      assert.match(res.body.message, /origin|destination|weight|direction|unitOfLength|pieces_json|uld_count/, label);
    }
    const after = (await app.get('/pricing/search/history.json', { token: outsider.token, query: { limit: '100' } })).body.data.searches
      .length;
    assert.equal(after, before);
  });

  test('no token: 401', async () => {
    assert.equal(
      (await app.post('/pricing/search/results.json', { json: { origin: 'airport:FRA', destination: 'city:DE-6' } })).status,
      401,
    );
    assert.equal((await app.get('/pricing/search/history.json')).status, 401);
  });
});

describe('search records', () => {
  let mine: number;
  let theirs: number;
  before(async () => {
    const alone = await app.actor('Historian');
    const first = await search(alone, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250 });
    const second = await search(alone, {
      origin: 'airport:FRA',
      destination: 'city:DE-60311',
      weight: '12.5',
      direction: 'import',
      allow_combinations: 1,
      pieces_json: [{ pieces: 1, depth: 10, width: 10, height: 10 }],
    });
    mine = second.data.searchEntity.id;
    theirs = (await search(outsider, { origin: 'city:DE-60311', destination: 'airport:FRA' })).data.searchEntity.id;
    forwarderHistorian = alone;
    firstId = first.data.searchEntity.id;
  });
  let forwarderHistorian: Actor;
  let firstId: number;

  test('searchEntity: id, the request parameters, created, result_count', async () => {
    const res = await app.get('/pricing/search/history.json', { token: forwarderHistorian.token });
    assert.deepEqual(
      res.body.data.searches.map((s: any) => s.id),
      [mine, firstId],
    ); // newest first, own company only
    assert.deepEqual(res.body.data.searches[0], {
      id: mine,
      origin: 'airport:FRA',
      destination: 'city:DE-60311',
      weight: '12.5',
      direction: 'import',
      allow_combinations: 1,
      pieces_json: [{ pieces: 1, depth: '10', width: '10', height: '10' }],
      unitOfLength: 'cm',
      search_type: 'standard',
      uld_count: null,
      created: '2030-06-15 12:00:00',
      result_count: 1,
    });
  });

  test('rerun against current rates; another company’s search is a 404', async () => {
    const res = await app.get(`/pricing/search/results.json?search_id=${firstId}`, { token: forwarderHistorian.token });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.searchEntity.id, firstId);
    assert.deepEqual(brief(res.body.data.rates), [['city:DE-603', 'airport:FRA', 105.31]]);
    assert.deepEqual(res.body.data.combinations, []);
    const foreign = await app.get(`/pricing/search/results.json?search_id=${theirs}`, { token: forwarderHistorian.token });
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body.data, []);
    assert.equal((await app.get('/pricing/search/results.json?search_id=99999999', { token: forwarderHistorian.token })).status, 404);
    assert.equal((await app.get('/pricing/search/results.json?search_id=abc', { token: forwarderHistorian.token })).status, 404);
    assert.equal((await app.get('/pricing/search/results.json', { token: forwarderHistorian.token })).body.status, 'error');
  });

  test('feedback: rating 0/1, optional rate_id; other ratings error; foreign or missing search 404', async () => {
    const rateId = (await search(forwarderHistorian, { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250 })).data.rates[0]
      .id;
    let res = await app.post('/pricing/search/rate-search.json', {
      token: forwarderHistorian.token,
      json: { search_id: firstId, rating: 1, rate_id: rateId },
    });
    assert.equal(res.body.status, 'success');
    assert.deepEqual(res.body.data.feedback, {
      id: res.body.data.feedback.id,
      search_id: firstId,
      rating: 1,
      rate_id: rateId,
      created: '2030-06-15 12:00:00',
    });
    res = await app.post('/pricing/search/rate-search.json', {
      token: forwarderHistorian.token,
      form: { search_id: String(firstId), rating: '0' },
    });
    assert.equal(res.body.data.feedback.rate_id, null);
    for (const rating of [2, -1, 'yes', '', undefined]) {
      res = await app.post('/pricing/search/rate-search.json', { token: forwarderHistorian.token, json: { search_id: firstId, rating } });
      assert.equal(res.body.status, 'error', String(rating));
    }
    res = await app.post('/pricing/search/rate-search.json', {
      token: forwarderHistorian.token,
      json: { search_id: firstId, rating: 1, rate_id: 'x' },
    });
    assert.equal(res.body.status, 'error');
    assert.equal(
      (await app.post('/pricing/search/rate-search.json', { token: forwarderHistorian.token, json: { search_id: theirs, rating: 1 } }))
        .status,
      404,
    );
    assert.equal(
      (await app.post('/pricing/search/rate-search.json', { token: forwarderHistorian.token, json: { search_id: 99999999, rating: 1 } }))
        .status,
      404,
    );
    assert.equal(
      (await app.post('/pricing/search/rate-search.json', { token: forwarderHistorian.token, json: { rating: 1 } })).status,
      404,
    );
  });
});

describe('autocomplete', () => {
  const locations = async (query: string, type: string, who: Actor = forwarder) => {
    const res = await app.get(`/pricing/search/location/${encodeURIComponent(query)}/${type}.json`, { token: who.token });
    assert.equal(res.status, 200);
    return res.body;
  };

  test('airports by IATA code, name or city; values usable as origin/destination', async () => {
    const byCode = await locations('FRA', 'airport');
    assert.deepEqual(byCode.data.locations[0], { value: 'airport:FRA', label: byCode.data.locations[0].label, country: 'DE' });
    assert.match(byCode.data.locations[0].label, /Frankfurt/);
    assert.ok((await locations('Frankfurt', 'airport')).data.locations.some((l: any) => l.value === 'airport:FRA'));
    assert.ok((await locations('schiphol', 'airport')).data.locations.some((l: any) => l.value === 'airport:AMS'));
  });

  test('cities: postal areas of the sheets the caller may see', async () => {
    await sheet(carrierB, `${HEADER}\ncity:DE-99,airport:FRA,1,1,1,1,1,1,0,0,`, { visibility: 'private' });
    const values = (body: any) => body.data.locations.map((l: any) => l.value);
    assert.deepEqual(values(await locations('DE-60', 'city')), ['city:DE-6', 'city:DE-60', 'city:DE-603']);
    assert.deepEqual(values(await locations('DE-60311', 'city')), ['city:DE-6', 'city:DE-60', 'city:DE-603']);
    assert.deepEqual((await locations('de 603', 'city')).data.locations, [
      { value: 'city:DE-6', label: 'DE-6 (postal area)', country: 'DE' },
      { value: 'city:DE-60', label: 'DE-60 (postal area)', country: 'DE' },
      { value: 'city:DE-603', label: 'DE-603 (postal area)', country: 'DE' },
    ]);
    assert.deepEqual(values(await locations('DE-99', 'city')), []);
    assert.deepEqual(values(await locations('DE-99', 'city', carrierB)), ['city:DE-99']);
  });

  test('fewer than 2 characters or an unknown type: status error', async () => {
    assert.equal((await locations('F', 'airport')).status, 'error');
    assert.equal((await locations(' F ', 'city')).status, 'error');
    assert.equal((await locations('FRA', 'planet')).status, 'error');
  });
});
