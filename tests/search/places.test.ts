import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cityNear, citiesReady } from '../../src/places/cities.ts';
import { isPostalCode, isPostalPrefix } from '../../src/places/postal.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { parsePlacePattern, readLoadSearch, searchToParams } from '../../src/market/index.ts';

/** Places a person can type: GET /places/suggest.json, and the packaged data behind it. */

let app: TestApp;
let user: Actor;
let german: Actor;

type Place = { kind: string; value: string; label: string; country: string; latitude?: number };

async function suggest(who: Actor, q: string, input: string, extra = ''): Promise<Place[]> {
  const res = await app.get(`/places/suggest.json?q=${encodeURIComponent(q)}&for=${input}${extra}`, { token: who.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.places;
}

before(async () => {
  app = await startTestApp();
  user = await app.actor('Carrier');
  german = await app.actor('Spedition', { language: 'deu' });
  assert.equal(await citiesReady(), true, 'the city data loads');
});
after(() => app?.close());

describe('GET /places/suggest', () => {
  test('a city name: GeoNames cities by population, value lat,lon for the list search', async () => {
    const places = await suggest(user, 'Frankf', 'filter');
    const first = places[0]!;
    assert.equal(first.kind, 'city');
    assert.match(first.label, /^Frankfurt am Main \(DE\)/);
    assert.match(first.value, /^50\.11\d*,8\.68\d*$/);
    assert.ok(places.some((p) => p.label.startsWith('Frankfurt (Oder)')));
  });

  test('diacritics and German spellings: koeln and koln find Köln', async () => {
    for (const q of ['koeln', 'Koln', 'Köln']) {
      assert.equal((await suggest(german, q, 'near'))[0]!.label, 'Köln (DE)', q);
      assert.equal((await suggest(user, q, 'near'))[0]!.label, 'Cologne / Köln (DE)', q);
    }
  });

  test('German and English names find the city, and read as the language names it beside its own name', async () => {
    const cases: Array<[string[], string, string, string]> = [
      [['München', 'Muenchen', 'Munich'], 'DE', 'München (DE)', 'Munich / München (DE)'],
      [['Mailand', 'Milan', 'Milano'], 'IT', 'Mailand / Milano (IT)', 'Milan / Milano (IT)'],
      [['Warschau', 'Warsaw', 'Warszawa'], 'PL', 'Warschau / Warszawa (PL)', 'Warsaw / Warszawa (PL)'],
      [['Kopenhagen', 'Copenhagen', 'København', 'Kobenhavn'], 'DK', 'Kopenhagen / København (DK)', 'Copenhagen / København (DK)'],
      [['Wien', 'Vienna'], 'AT', 'Wien (AT)', 'Vienna / Wien (AT)'],
      [['Köln', 'Cologne'], 'DE', 'Köln (DE)', 'Cologne / Köln (DE)'],
      [['Prag', 'Prague', 'Praha'], 'CZ', 'Prag / Praha (CZ)', 'Prague / Praha (CZ)'],
      [['Rom', 'Rome', 'Roma'], 'IT', 'Rom / Roma (IT)', 'Rome / Roma (IT)'],
      [['Lissabon', 'Lisbon'], 'PT', 'Lissabon / Lisboa (PT)', 'Lisbon / Lisboa (PT)'],
      [['Brüssel', 'Brussels', 'Bruxelles'], 'BE', 'Brüssel / Bruxelles (BE)', 'Brussels / Bruxelles (BE)'],
      [['Genf', 'Geneva'], 'CH', 'Genf / Genève (CH)', 'Geneva / Genève (CH)'],
    ];
    for (const [typed, country, deu, eng] of cases) {
      for (const q of typed) {
        const [inGerman] = await suggest(german, q, 'filter');
        const [inEnglish] = await suggest(user, q, 'filter');
        assert.equal(inGerman?.kind, 'city', q);
        assert.equal(inGerman?.country, country, q);
        assert.equal(inGerman?.label, deu, `${q} for a German reader`);
        assert.equal(inEnglish?.label, eng, `${q} for an English reader`);
        assert.equal(inGerman?.value, inEnglish?.value, 'the same place');
      }
    }
    // The freight form's address takes the name written there.
    const [munich] = await suggest(user, 'Munich', 'freight');
    assert.equal((munich as Place & { name?: string }).name, 'München');
    // Rate search: the airports around it, "from" the city in the reader's language.
    const rate = await suggest(german, 'Mailand', 'rate');
    assert.ok(
      rate.some((p) => p.value === 'airport:MXP' && p.label.includes('von Mailand')),
      JSON.stringify(rate.map((p) => p.label)),
    );
  });

  test('a point is named by the town it lies in, and by the big city it lies in', async () => {
    assert.equal(
      (await cityNear(48.88, 2.37, 3))?.name,
      'Paris',
      '75019, 3.4 km from the centre of Paris, is in Paris (not Le Pré-Saint-Gervais)',
    );
    assert.match((await cityNear(50.13, 8.92, 3))?.name ?? '', /^Hanau/, 'Hanau, 17 km from Frankfurt, is Hanau');
    assert.equal((await cityNear(48.936, 2.357, 3))?.name, 'Saint-Denis', 'Saint-Denis, 9 km from the centre of Paris, is Saint-Denis');
  });

  test('a postal code: the postal areas of the countries whose format fits, the hinted country first', async () => {
    const freight = await suggest(user, '60311', 'freight');
    assert.equal(freight[0]!.value, 'city:DE-60311');
    assert.ok(freight.every((p) => p.kind === 'postal'));
    const hinted = await suggest(user, '60311', 'freight', '&country=IT');
    assert.equal(hinted[0]!.value, 'city:IT-60311');
    assert.deepEqual(
      (await suggest(user, 'DE-60', 'filter')).map((p) => p.value),
      ['DE-60'],
    );
    assert.deepEqual(
      (await suggest(user, 'de 603', 'rate')).map((p) => p.value),
      ['city:DE-603'],
    );
    assert.deepEqual(await suggest(user, 'DE-6031A', 'filter'), [], 'no German postal code looks like that');
    const partial = await suggest(user, '6031', 'freight', '&country=DE');
    assert.ok(!partial.some((p) => p.country === 'DE'), 'the freight form wants a whole code: 6031 is none in Germany');
    assert.equal(partial[0]?.value, 'city:BE-6031', 'but one in Belgium, Austria, …');
  });

  test('countries in English and German, airports by code, name or city', async () => {
    assert.ok(
      (await suggest(german, 'Deutsch', 'filter')).some((p) => p.kind === 'country' && p.value === 'DE' && p.label === 'Deutschland (DE)'),
    );
    assert.ok((await suggest(user, 'german', 'filter')).some((p) => p.value === 'DE' && p.label === 'Germany (DE)'));
    const fra = await suggest(user, 'FRA', 'filter');
    assert.equal(fra[0]!.value, 'airport:FRA');
    assert.equal((await suggest(user, 'NL', 'filter'))[0]!.value, 'NL');
  });

  test('rate search: a city leads to the airports around it (rate zones are postal areas)', async () => {
    const places = await suggest(user, 'Frankfurt am', 'rate');
    assert.equal(places[0]!.value, 'airport:FRA');
    assert.match(places[0]!.label, /km from Frankfurt am Main/);
    assert.ok(places.every((p) => p.kind === 'airport'));
  });

  test('lane prices: postal areas (a longer code as its area), a city as the area of its centre, countries and airports as they are', async () => {
    const city = await suggest(user, 'Frankf', 'lane');
    assert.deepEqual(
      city
        .filter((p) => p.kind === 'city')
        .map((p) => [p.value, p.label])
        .slice(0, 2),
      [
        ['DE-60', 'Frankfurt am Main (DE) · DE-60'],
        ['DE-15', 'Frankfurt (Oder) (DE) · DE-15'],
      ],
    );
    assert.ok(city.some((p) => p.value === 'airport:FRA'));
    const postal = await suggest(german, '60311', 'lane');
    assert.equal(postal[0]!.value, 'DE-60');
    assert.match(postal[0]!.label, /^DE-60 Frankfurt am Main · PLZ-Gebiet, Deutschland/);
    assert.ok(
      postal.every((p) => /^[A-Z]{2}-[0-9A-Z]{2}$/.test(p.value)),
      JSON.stringify(postal),
    );
    assert.ok((await suggest(user, 'Germany', 'lane')).some((p) => p.kind === 'country' && p.value === 'DE'));
    // A city far from every code of the data: its country.
    const far = (await suggest(user, 'Paris', 'lane')).find((p) => p.kind === 'city' && p.country === 'US');
    assert.equal(far?.value, 'US');
    // Every value reads as a lane pattern (market's parsePlacePattern), none as coordinates.
    for (const p of [...city, ...postal]) assert.notEqual(typeof parsePlacePattern(p.value), 'string', p.value);
  });

  test('the freight form: a city has no postal code, so its value is empty and it carries what the form needs', async () => {
    const city = (await suggest(user, 'Frankfurt am Main', 'freight'))[0]!;
    assert.equal(city.kind, 'city');
    assert.equal(city.value, '');
    assert.equal(city.country, 'DE');
    assert.ok(Math.abs(city.latitude! - 50.11) < 0.05);
  });

  test('bad questions are status error; the list is bounded; a token is needed', async () => {
    for (const q of ['q=F&for=filter', 'for=filter', `q=${'x'.repeat(101)}`, 'q=Frank&for=space']) {
      const res = await app.get(`/places/suggest.json?${q}`, { token: user.token });
      assert.equal(res.status, 200, q);
      assert.equal(res.body.status, 'error', q);
    }
    const many = await app.get('/places/suggest.json?q=San&limit=500', { token: user.token });
    assert.ok(many.body.data.places.length <= 20);
    assert.equal((await app.get('/places/suggest.json?q=Frankf')).status, 401);
  });
});

describe('postal formats and place patterns', () => {
  test('postal prefixes are checked against the country format (postal-codes-js)', () => {
    assert.equal(isPostalPrefix('DE', '60'), true);
    assert.equal(isPostalPrefix('DE', '603111'), false);
    assert.equal(isPostalPrefix('GB', 'SW1A'), true);
    assert.equal(isPostalPrefix('PL', '44-1'), true, 'a separator in the format');
    assert.equal(isPostalCode('NL', '1000 AP'), true);
    assert.equal(isPostalCode('DE', '6031'), false);
  });

  test('patterns read the three forms and say why one is not', () => {
    assert.deepEqual(parsePlacePattern('DE'), { kind: 'country', country: 'DE' });
    assert.deepEqual(parsePlacePattern('city:de-60'), { kind: 'postal', country: 'DE', prefix: '60' });
    assert.deepEqual(parsePlacePattern('airport:fra'), { kind: 'airport', code: 'FRA' });
    assert.equal(typeof parsePlacePattern('QQ'), 'string');
    assert.equal(typeof parsePlacePattern('DE-ABC'), 'string');
  });

  test('a search written back as parameters reads the same (bookmarks, saved searches)', () => {
    const params = {
      from: 'de-60, airport:fra',
      to_near: 'airport:mxp',
      to_radius: '75',
      pickup_from: '2030-05-04',
      weight_max: '12000',
      media: 'ROAD',
      q: ' PO  4711 ',
    };
    const once = searchToParams(readLoadSearch(params, 'Europe/Berlin'));
    assert.deepEqual(once, {
      from: 'DE-60,airport:FRA',
      to_near: 'airport:MXP',
      to_radius: '75',
      pickup_from: '2030-05-04',
      weight_max: '12000',
      media: 'road',
      q: 'PO 4711',
    });
    assert.deepEqual(searchToParams(readLoadSearch(once, 'Europe/Berlin')), once);
  });
});
