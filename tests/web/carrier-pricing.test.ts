import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { distanceKm, roadEstimateKm } from '../../src/places/geo.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 24, item 5: a carrier prices a load from what the freight page and the lists show while
 * the freight is open: category, distance, the loading and delivery windows, pieces, weight,
 * volume and handling (docs/reference.md#freights shows all but addresses and refs). Goods and target price
 * are refs: owner and winner only, on the page as in the JSON, unless the shipper shares them
 * (tests/web/shared-terms.test.ts; the API shares nothing by default). The lists show the distance and sort by
 * it (`sort=Routes.distance`, an addition to the API). Item 8 (part): the publish form's audience
 * field says it takes company names. In German and English, at 1366 and 390 px.
 */

const FRANKFURT = { latitude: 50.11, longitude: 8.68 };
const MILANO = { latitude: 45.47, longitude: 9.19 };
const KM = Math.round(distanceKm(FRANKFURT, MILANO));
/** Issue 47, item 1: the estimated road distance (great circle × 1.27, docs/choices.md "Road distances"). */
const ROAD = Math.round(roadEstimateKm(distanceKm(FRANKFURT, MILANO)));

const TEXT = {
  deu: {
    category: 'Komplettladung (FTL)',
    distance: `≈ ${ROAD.toLocaleString('de-DE')} km (geschätzt: Luftlinie ${KM.toLocaleString('de-DE')} km × 1,27)`,
    road: `${ROAD.toLocaleString('de-DE')} km`,
    pickup: '04.05.2030 08:00–12:00',
    delivery: '05.05.2030 08:00 – 06.05.2030 16:00',
    weight: '12.000 kg',
    volume: '28,8 m³',
    handling: 'nicht stapelbar',
    target: /1\.450|Preis \(aus der Rate\)/,
    distanceHeader: 'Straßen-km',
    estimated: 'geschätzt',
    audience: 'Firmen (Namen, durch Komma getrennt)',
    audienceOld: /Firmen-IDs/,
  },
  eng: {
    category: 'Full truck load (FTL)',
    distance: `≈ ${ROAD.toLocaleString('en-GB')} km (estimate: great circle ${KM.toLocaleString('en-GB')} km × 1.27)`,
    road: `${ROAD.toLocaleString('en-GB')} km`,
    pickup: '2030-05-04 08:00–12:00',
    delivery: '2030-05-05 08:00 – 2030-05-06 16:00',
    weight: '12,000 kg',
    volume: '28.8 m³',
    handling: 'not stackable',
    target: /1,450|Price \(from the rate\)/,
    distanceHeader: 'Road km',
    estimated: 'estimated',
    audience: 'Companies (names, comma separated)',
    audienceOld: /Company ids/,
  },
} as const;
type Lang = keyof typeof TEXT;

describe('pages: a carrier sees what it prices a load by (issue 24, items 5 and 8)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const shippers = {} as Record<Lang, Actor>;
  const carriers = {} as Record<Lang, Actor>;
  const drafts = {} as Record<Lang, number>;
  const contexts: BrowserContext[] = [];
  /** Frankfurt → Milano with everything a carrier needs; FRA → MUC by air; a place without coordinates. */
  const ids = { long: 0, short: 0, unknown: 0 };

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    for (const lang of ['deu', 'eng'] as const) {
      shippers[lang] = await app.actor(`Spedition ${lang}`, { language: lang });
      carriers[lang] = await app.actor(`Carrier ${lang}`, { language: lang });
    }
    const post = async (who: Actor, url: string, json: Record<string, unknown>) => (await app.post(url, { token: who.token, json })).body;
    const publish = async (body: Record<string, unknown>) => {
      const id = (await post(shippers.deu, '/freights/add.json', body)).data.id as number;
      await post(shippers.deu, `/freights/view/${id}.json`, { action: 'publish', deadline: '+48 hours' });
      return id;
    };
    ids.long = await publish({
      from: 'city:DE-60311',
      from_latitude: FRANKFURT.latitude,
      from_longitude: FRANKFURT.longitude,
      from_addr: 'Hanauer Landstraße 180, Frankfurt',
      to: 'city:IT-20121',
      to_latitude: MILANO.latitude,
      to_longitude: MILANO.longitude,
      to_addr: 'Via Mecenate 76, Milano',
      category: 'ftl',
      etd_range: '2030-05-04 08:00 to 2030-05-04 12:00',
      eta_range: '2030-05-05 08:00 to 2030-05-06 16:00',
      weight: 12000,
      stackable: 0,
      pieces: [{ pieces: 20, depth: 120, width: 80, height: 150, weight: 600 }],
      refs: { customer: 'PO-4711', commodity: 'Maschinenteile', target_rate: '1450.00', target_currency: 'EUR' },
    });
    ids.short = await publish({ from: 'FRA', to: 'MUC', class: 'air', category: 'ltl', etd: '2030-05-03 10:00', weight: 800 });
    ids.unknown = await publish({ from: 'city:PL-00-001', to: 'city:PL-61-001', etd: '2030-05-02 10:00', weight: 500 });
    for (const lang of ['deu', 'eng'] as const)
      drafts[lang] = (await post(shippers[lang], '/freights/add.json', { from: 'FRA', to: 'MUC', etd: '2030-05-03 10:00', weight: 800 }))
        .data.id as number;
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  const facts = async (page: Page) => plain(await page.locator('dl.facts').first().innerText());

  for (const lang of ['deu', 'eng'] as const) {
    const T = TEXT[lang];
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} ${viewport.width}px: the open freight shows category, distance, windows, pieces, weight, volume and handling; not the target price`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/view/${ids.long}`);
        const shown = await facts(page);
        for (const expected of [T.category, T.distance, T.pickup, T.delivery, T.weight, '20', T.volume, T.handling])
          assert.ok(shown.includes(expected), `${expected} in:\n${shown}`);
        assert.doesNotMatch(shown, T.target, 'the target price is a ref: owner and winner only');
        assert.doesNotMatch(await page.locator('main').innerText(), /Maschinenteile|PO-4711/, 'goods description and reference are refs');
        assert.equal(
          await page.locator('[data-testid="bid-form"] input[name="amount"]').inputValue(),
          '',
          'no target price in the bid form either',
        );
        await assertNoSideScroll(page, `freight page ${lang}`);
        await screenshot(page, `issue24-carrier-freight-${lang}-${viewport.width}`);
        // Issue 47, item 1: the distance by road, labelled as an estimate.
        await screenshot(page, `issue47-item1-freight-${lang}-${viewport.width}`);
      });

      test(`${lang} ${viewport.width}px: the open requests show the distance and sort by it`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/enlist/8`);
        const list = page.locator('[data-testid="freight-list"]');
        const row = list.locator('tbody tr', { has: page.locator(`a[href="/freights/view/${ids.long}"]`) });
        // The estimate, marked "≈" on screen and read out as "estimated" (issue 47, item 1).
        const cell = row.locator('[data-distance="estimate"]');
        assert.equal(
          plain(await cell.innerText())
            .replace(T.estimated, '')
            .replace(/\s+/g, ' ')
            .trim(),
          `≈ ${T.road}`,
        );
        assert.equal(plain((await cell.locator('.visually-hidden').textContent()) ?? '').trim(), T.estimated);
        // The header sorts: nearest first, a freight without a known distance last. On a phone the
        // table is cards and its header is for screen readers only: its link is followed.
        const sortBy = async () => {
          const header = list.locator('th', { hasText: T.distanceHeader }).locator('a');
          if (viewport === PHONE) await page.goto(`${base}${await header.getAttribute('href')}`);
          else await Promise.all([page.waitForURL(/sort=Routes\.distance/), header.click()]);
        };
        await sortBy();
        assert.match(page.url(), /sort=Routes\.distance/);
        if (!/direction=asc/.test(page.url())) await sortBy();
        const order = await list
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((r) => Number(/\/freights\/view\/(\d+)/.exec(r.querySelector('a')?.getAttribute('href') ?? '')?.[1])),
          );
        assert.deepEqual(order, [ids.short, ids.long, ids.unknown]);
        assert.equal(await list.locator('th[aria-sort="ascending"]', { hasText: T.distanceHeader }).count(), 1);
        await assertNoSideScroll(page, `open requests ${lang}`);
        if (viewport === DESKTOP) await screenshot(page, `issue24-carrier-list-distance-${lang}-1366`);
        await screenshot(page, `issue47-item1-list-${lang}-${viewport.width}`);
      });
    }

    for (const viewport of [DESKTOP, PHONE])
      test(`${lang} ${viewport.width}px: the publish form's audience field asks for company names`, async () => {
        const page = await pageFor(browser, base, shippers[lang], viewport, contexts);
        await page.goto(`${base}/freights/view/${drafts[lang]}`);
        const form = plain(await page.locator('[data-testid="publish"]').innerText());
        assert.ok(form.includes(T.audience), form);
        assert.doesNotMatch(form, T.audienceOld);
        await assertNoSideScroll(page, `publish form ${lang}`);
      });
  }

  test('JSON: sort=Routes.distance orders by the great circle, unknown last; answers keep their fields and hide the refs', async () => {
    const token = carriers.eng.token;
    const list = async (query: string) => (await app.get(`/freights/enlist/8.json?${query}`, { token })).body;
    const asc = await list('sort=Routes.distance&direction=asc');
    assert.equal(asc.status, 'success');
    assert.equal(asc.warnings, undefined, 'an accepted sort key: no warning');
    assert.deepEqual(
      asc.data.routes.map((r: { id: number }) => r.id),
      [ids.short, ids.long, ids.unknown],
    );
    const desc = await list('sort=Routes.distance&direction=desc');
    assert.deepEqual(
      desc.data.routes.map((r: { id: number }) => r.id),
      [ids.long, ids.short, ids.unknown],
    );
    assert.ok(!('distance' in asc.data.routes[0]), 'the API answers no distance field: only the order is new');
    // Other lists take it too (own open tenders, the Shipments preview).
    const own = await app.get('/freights/enlist/10.json?sort=Routes.distance&direction=asc', { token: shippers.deu.token });
    assert.deepEqual(
      own.body.data.routes.map((r: { id: number }) => r.id),
      [ids.short, ids.long, ids.unknown],
    );
    const shipments = await app.get('/routes/enlist/10.json?sort=Routes.distance', { token: shippers.deu.token });
    assert.equal(shipments.body.status, 'success');
    const view = (await app.get(`/freights/view/${ids.long}.json`, { token })).body.data.route;
    assert.equal(view.refs, null, 'refs (the target price among them) stay the owner’s and the winner’s');
    assert.equal(view.category, 'ftl');
  });
});
