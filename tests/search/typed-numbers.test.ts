import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { importRateSheet } from '../../src/pricing/import.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { DESKTOP, PHONE, pageFor, plain } from '../web/helpers.ts';

/**
 * Issue 24, item 2: every number a person types in the pages is read in their language with the
 * freight form's reader. `5.000` in the German search bar and `5,000` in the English one are
 * 5,000 kg (not 5 kg), at the desk and on a phone; a search saved from the page keeps 5,000 kg and
 * its alert fires by it; the rate search reads `1.250,5` and says next to the field what it
 * cannot read, with the combinations box as it was ticked. The JSON API reads as before.
 */
describe('browser: numbers typed in the pages are read in the reader’s language', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let shipper: Actor;
  const carriers: Record<'deu' | 'eng', Actor> = {} as never;
  const contexts: BrowserContext[] = [];
  const f: Record<string, number> = {};

  const rowIds = async (page: Page) =>
    (await page.$$eval('[data-testid="freight-list"] tbody tr td:first-child a', (links) => links.map((a) => a.getAttribute('href') ?? '')))
      .map((h) => Number(h.split('/').pop()))
      .sort((a, b) => a - b);

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Shipper');
    carriers.deu = await app.actor('Spedition', { language: 'deu' });
    carriers.eng = await app.actor('Haulier', { language: 'eng' });
    f.heavy = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:IT-20121', weight: 5500, etd: '2030-05-04 08:00' });
    f.light = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:IT-20121', weight: 800, etd: '2030-05-04 08:00' });
    await importRateSheet(app.services.db, {
      companyId: carriers.eng.company,
      name: 'Road feeders',
      visibility: 'exchange',
      csvText: [
        'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price',
        'city:DE-60,airport:FRA,1,45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,',
        'airport:FRA,airport:AMS,1,80.00,0.30,0.28,0.26,0.24,0.22,10,0.04,950',
      ].join('\n'),
    });
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  /** The list page a search leads to (after the page's redirect to the API's plain form). */
  const searched = (page: Page) =>
    page.waitForResponse((r) => r.url().startsWith(`${base}/freights/enlist/`) && r.request().method() === 'GET' && r.status() === 200);

  /** Types the lower weight into the search bar as a person does (unfolding it on a phone) and searches. */
  async function searchWeight(page: Page, text: string) {
    await page.goto(`${base}/freights/enlist/8`);
    const fold = page.locator('[data-testid="search-fold"] > summary');
    if (await fold.isVisible()) await fold.click();
    const more = page.locator('[data-testid="search-bar"] .search-more > summary');
    if (!(await page.locator('input[name="weight_min"]').isVisible())) await more.click();
    await page.fill('input[name="weight_min"]', text);
    await Promise.all([searched(page), page.click('[data-testid="search-bar"] button[type="submit"]')]);
    await page.waitForLoadState('load');
  }

  for (const [lang, typed, shown] of [
    ['deu', '5.000', /5\.000–… kg/],
    ['eng', '5,000', /5,000–… kg/],
  ] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: ${typed} in the search bar is 5,000 kg`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await searchWeight(page, typed);
        assert.deepEqual(await rowIds(page), [f.heavy], 'only the freight of 5,500 kg weighs at least 5,000 kg');
        const url = new URL(page.url());
        assert.equal(url.searchParams.get('weight_min'), '5000', 'the URL carries the API’s plain number');
        assert.equal(await page.inputValue('input[name="weight_min"]'), typed, 'the field shows it in the reader’s language');
        assert.match(plain(await page.locator('[data-testid="search-fold"] .search-summary').innerText()), shown);
        assert.equal(await page.locator('[data-testid="search-problems"]').count(), 0, 'nothing was unreadable');
        // Searched again from the page as it stands, the number stays what it is.
        if (!(await page.locator('[data-testid="search-bar"]').isVisible()))
          await page.locator('[data-testid="search-fold"] > summary').click();
        await Promise.all([searched(page), page.click('[data-testid="search-bar"] button[type="submit"]')]);
        assert.deepEqual(await rowIds(page), [f.heavy]);
        assert.equal(new URL(page.url()).searchParams.get('weight_min'), '5000');
        if (viewport === DESKTOP) await screenshot(page, `search-typed-weight-${lang}`);
      });
    }
  }

  test('12,5 t in the German bar is 12,500 kg; an unreadable weight is said in German next to what was typed', async () => {
    const page = await pageFor(browser, base, carriers.deu, DESKTOP, contexts);
    await searchWeight(page, '5,5 t');
    assert.equal(new URL(page.url()).searchParams.get('weight_min'), '5500');
    assert.deepEqual(await rowIds(page), [f.heavy]);
    await searchWeight(page, 'viel');
    assert.equal(await page.inputValue('input[name="weight_min"]'), 'viel', 'the typed text stays');
    const problems = plain(await page.locator('[data-testid="search-problems"]').innerText());
    assert.match(problems, /Gewicht \(kg\) von: Kein Gewicht in kg/);
    assert.doesNotMatch(problems, /weight_min|not a weight/);
  });

  test('a search saved from the German page keeps 5,000 kg, and its alert fires by it', async () => {
    const page = await pageFor(browser, base, carriers.deu, DESKTOP, contexts);
    await searchWeight(page, '5.000');
    await page.click('.save-search summary');
    await page.fill('.save-search input[name="name"]', 'Schwere Ladungen');
    await Promise.all([page.waitForURL(/\/freights\/enlist\/8\?/), page.click('.save-search button[type="submit"]')]);
    const saved = (await app.get('/searches/index.json', { token: carriers.deu.token })).body.data.searches;
    const search = saved.find((s: { name: string }) => s.name === 'Schwere Ladungen');
    assert.equal(search.params.weight_min, '5000');
    assert.equal(search.alert, 1);
    const before = (await app.get('/notifications/index.json', { token: carriers.deu.token })).body.data.notifications.length;
    const small = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:IT-20121', weight: 3000 });
    const big = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:IT-20121', weight: 6000 });
    const after = (await app.get('/notifications/index.json', { token: carriers.deu.token })).body.data.notifications;
    assert.deepEqual(
      after.slice(0, after.length - before).map((n: { route_id: number }) => n.route_id),
      [big],
      `3,000 kg (${small}) is below the saved 5,000 kg`,
    );
  });

  test('the JSON API reads its parameters as before: 5.000 is 5 kg there', async () => {
    const res = await app.get('/freights/enlist/8.json?weight_min=5.000', { token: carriers.deu.token });
    assert.equal(res.body.status, 'success');
    assert.ok(
      res.body.data.routes.some((r: { id: number }) => r.id === f.light),
      'the API’s lenient reader is unchanged',
    );
  });

  /** The rate search form, filled as a person types it. */
  async function rateSearch(page: Page, weight: string, combinations: boolean) {
    await page.goto(`${base}/pricing/search/results`);
    await page.fill('input[name="origin"]', 'city:DE-60311');
    await page.fill('input[name="destination"]', 'airport:AMS');
    await page.fill('input[name="weight"]', weight);
    await page.setChecked('input[name="allow_combinations"]', combinations);
    await Promise.all([
      page.waitForResponse((r) => r.url() === `${base}/pricing/search/results` && r.request().method() === 'POST'),
      page.click('form[action="/pricing/search/results"] button[type="submit"]'),
    ]);
    await page.waitForLoadState('load');
  }

  for (const [lang, viewport, typed, cw] of [
    ['deu', DESKTOP, '1.250,5', '1.250,5'],
    ['eng', PHONE, '1,250.5', '1,250.5'],
  ] as const) {
    test(`rate search, ${lang} at ${viewport.width} px: ${typed} kg is read; an unreadable weight is said next to the field`, async () => {
      const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
      await rateSearch(page, typed, true);
      const combination = plain(await page.locator('[data-testid="combinations"] tbody tr').first().innerText());
      assert.match(combination, /FRA/);
      const searched = (await app.get('/pricing/search/history.json', { token: carriers[lang].token })).body.data.searches[0];
      assert.equal(Number(searched.weight), 1250.5, 'the search ran with 1,250.5 kg');
      assert.match(
        plain(await page.locator('details.search-again > summary').innerText()),
        new RegExp(`${cw.replace(/[.,]/g, '\\$&')} kg`),
      );
      for (const ticked of [false, true]) {
        await rateSearch(page, '12,5,5', ticked);
        const error = page.locator('#pv-weight-error');
        assert.match(await error.innerText(), lang === 'deu' ? /Bitte ein Gewicht eingeben/ : /Please enter a weight/);
        assert.equal(await page.getAttribute('input[name="weight"]', 'aria-invalid'), 'true');
        assert.equal(await page.inputValue('input[name="weight"]'), '12,5,5', 'the typed text stays');
        assert.equal(await page.isChecked('input[name="allow_combinations"]'), ticked, 'the combinations box as it was ticked');
        assert.equal(await page.inputValue('input[name="origin"]'), 'city:DE-60311');
        if (lang === 'deu' && !ticked) await screenshot(page, 'rate-search-unreadable-weight-deu');
      }
    });
  }
});
