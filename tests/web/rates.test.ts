import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { importRateSheet } from '../../src/pricing/import.ts';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

const CSV = [
  'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price',
  'city:DE-60,airport:FRA,1,45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,',
  'airport:FRA,airport:AMS,1,80.00,0.30,0.28,0.26,0.24,0.22,10,0.04,950',
].join('\n');

describe('browser: rate search and booking', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let forwarder: Actor;
  let carrier: Actor;
  let page: Page;

  before(async () => {
    app = await startTestApp();
    carrier = await app.actor('Carrier');
    forwarder = await app.actor('Forwarder');
    await importRateSheet(app.services.db, { companyId: carrier.company, name: 'Road feeders', csvText: CSV, visibility: 'exchange' });
    base = await app.listen();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await loginAs(page, base, forwarder.email, forwarder.password);
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('the location field suggests airports as one types', async () => {
    await page.goto(`${base}/pricing/search/results`);
    await page.fill('input[name="destination"]', 'Frankf');
    await page.waitForFunction(() => document.querySelectorAll('#locations option').length > 0);
    const values = await page.$$eval('#locations option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.ok(values.includes('airport:FRA'), values.join(','));
  });

  test('a search shows priced rates and combinations; Book keeps place, pieces, weight, price and carrier', async () => {
    await page.goto(`${base}/pricing/search/results`);
    await page.fill('input[name="origin"]', 'city:DE-60311');
    await page.fill('input[name="destination"]', 'airport:AMS');
    await page.fill('input[name="weight"]', '250');
    // 2 pieces of 60 × 40 × 50 cm: 40 kg by volume, so 250 kg stays the chargeable weight.
    await page.fill('input[name="pieces_json[0][pieces]"]', '2');
    await page.fill('input[name="pieces_json[0][depth]"]', '60');
    await page.fill('input[name="pieces_json[0][width]"]', '40');
    await page.fill('input[name="pieces_json[0][height]"]', '50');
    await Promise.all([
      page.waitForURL(`${base}/pricing/search/results`),
      page.click('form[action="/pricing/search/results"] button[type="submit"]'),
    ]);
    // 250 kg: FRA->AMS 250*0.28 = 70.00 < 80 minimum -> 80.00 + 8.00 fuel + 10.00 security = 98.00
    const combinations = page.locator('[data-testid="combinations"] tbody tr');
    assert.equal(await combinations.count(), 1);
    assert.match(await combinations.first().innerText(), /FRA/);
    // 60311->FRA: 250*0.35 = 87.50 + 10.94 + 12.50 = 110.94; with the 98.00 leg: 208.94
    assert.match(await combinations.first().innerText(), /€208\.94/);
    // The results come first; the form is folded above them.
    assert.equal(await page.locator('details.search-again[open]').count(), 0);
    await screenshot(page, 'rate-search');
    await Promise.all([
      page.waitForURL(/\/freights\/view\/\d+$/),
      page.click('[data-testid="combinations"] form[action^="/freights/request/rate/"] button >> nth=0'),
    ]);
    const main = (await page.locator('main').innerText()).replace(/[\u00a0\u202f]/g, ' ');
    assert.match(main, /Booking request/);
    assert.match(main, /60311 .*\(DE\)/, "the searched postal code, not the rate's zone 60");
    assert.match(main, /250 kg/);
    assert.match(main, /€110\.94/, 'the price of the rate');
    assert.match(main, new RegExp(carrier.companyName), 'the carrier by name');
    assert.equal(await page.locator('[data-testid="pieces"] tbody tr').count(), 1);
    assert.match(await page.locator('[data-testid="pieces"] tbody tr').innerText(), /2[\s\S]*60 × 40 × 50/);
    assert.equal(await page.locator('.badge.draft').count(), 1);
    // No auction deadline is asked for a booking request; the pick-up date is what is missing.
    assert.equal(await page.locator('input[name="deadline"]').count(), 0);
    assert.match(await page.locator('[data-testid="publish-gaps"]').innerText(), /pick-up date/);
    const route = (await app.get(`/freights/view/${page.url().split('/').pop()}.json`, { token: forwarder.token })).body.data.route;
    assert.equal(route.from, '60311');
    assert.equal(route.from_country, 'DE');
    assert.equal(route._route_pieces[0].pieces, 2);
    assert.equal(route.refs.target_rate, '110.94');
  });

  test('the history lists the search and reruns it', async () => {
    await page.goto(`${base}/pricing/search/history`);
    await Promise.all([page.waitForURL(/search_id=/), page.click('text=Run again')]);
    assert.equal(await page.locator('[data-testid="combinations"] tbody tr').count(), 1);
  });
});
