import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

describe('browser: a freight from draft to order', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let shipper: Actor;
  let carrier: Actor;
  let shipperPage: Page;
  let carrierPage: Page;
  const contexts: BrowserContext[] = [];
  let freightUrl = '';

  async function as(actor: Actor): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    await loginAs(page, base, actor.email, actor.password);
    return page;
  }

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    base = await app.listen();
    browser = await launchBrowser();
    shipperPage = await as(shipper);
    carrierPage = await as(carrier);
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  test('the shipper creates a freight with the form', async () => {
    const page = shipperPage;
    await page.goto(`${base}/freights/add`);
    await page.fill('input[name="from"]', 'city:60311');
    await page.fill('input[name="from_country"]', 'DE');
    await page.fill('input[name="from_addr"]', 'Hauptstraße 1, Frankfurt');
    await page.fill('input[name="to"]', 'airport:AMS');
    await page.fill('input[name="etd_range"]', '2030-05-04 08:00 to 2030-05-04 12:00');
    await page.fill('input[name="weight"]', '1250.5');
    await page.fill('input[name="refs[customer]"]', 'PO-4711');
    await page.fill('input[name="pieces[0][pieces]"]', '3');
    await page.fill('input[name="pieces[0][depth]"]', '120');
    await page.fill('input[name="pieces[0][width]"]', '80');
    await page.fill('input[name="pieces[0][height]"]', '100');
    await screenshot(page, 'freight-form');
    await Promise.all([page.waitForURL(/\/freights\/view\/\d+$/), page.click('form[action="/freights/add"] button[type="submit"]')]);
    freightUrl = page.url();
    const html = await page.content();
    assert.match(html, /60311 \(DE\)/);
    assert.match(html, /AMS \(NL\)/);
    assert.match(html, /PO-4711/);
    assert.match(html, /badge draft/);
  });

  test('the shipper publishes it and sees it among the open tenders', async () => {
    const page = shipperPage;
    await page.fill('input[name="deadline"]', '+48 hours');
    await Promise.all([page.waitForURL(freightUrl), page.click('form input[value="publish"] >> xpath=.. >> button')]);
    assert.match(await page.locator('.flash.ok').innerText(), /published/);
    assert.match(await page.content(), /badge open/);
    await page.goto(`${base}/freights/enlist/10`);
    assert.equal(await page.locator('[data-testid="freight-list"] tbody tr').count(), 1);
    await screenshot(page, 'freight-list');
  });

  test('the carrier finds it in the open requests and bids', async () => {
    const page = carrierPage;
    await page.goto(`${base}/freights/enlist/8`);
    await Promise.all([page.waitForURL(freightUrl), page.click('[data-testid="freight-list"] tbody tr a >> nth=0')]);
    assert.doesNotMatch(await page.content(), /Hauptstraße/, 'the address is for owner and winner only');
    await page.fill('input[name="amount"]', '480.50');
    await page.fill('input[name="note"]', 'Tail-lift truck');
    await Promise.all([page.waitForURL(freightUrl), page.click('form[action="/quotes/add"] button[type="submit"]')]);
    assert.match(await page.locator('.flash.ok').innerText(), /Bid saved/);
    assert.equal(await page.locator('[data-testid="bids"] tbody tr').count(), 1);
  });

  test('both sides confirm and the freight becomes the carrier’s order', async () => {
    await shipperPage.goto(freightUrl);
    assert.match(await shipperPage.locator('[data-testid="bids"]').innerText(), new RegExp(carrier.companyName), 'bidders by name');
    await screenshot(shipperPage, 'freight-view');
    await Promise.all([shipperPage.waitForURL(freightUrl), shipperPage.click('[data-testid="bids"] form[action^="/quotes/confirm/"] button')]);
    assert.match(await shipperPage.locator('.flash.ok').innerText(), /Waiting for the other side/);
    assert.equal(await shipperPage.locator('[data-testid="bids"] form[action^="/quotes/confirm/"]').count(), 0, 'no second confirm for the same side');
    assert.match(await shipperPage.locator('[data-testid="bids"]').innerText(), /waiting for the other side/);

    await carrierPage.goto(freightUrl);
    await Promise.all([carrierPage.waitForURL(freightUrl), carrierPage.click('[data-testid="bids"] form[action^="/quotes/confirm/"] button')]);
    assert.match(await carrierPage.locator('.flash.ok').innerText(), /awarded/);
    const html = await carrierPage.content();
    assert.match(html, /badge taken/);
    assert.match(html, /480\.50/);
    assert.match(html, /Hauptstraße/, 'the winner sees the address');

    await carrierPage.goto(`${base}/freights/enlist/2`);
    assert.equal(await carrierPage.locator('[data-testid="freight-list"] tbody tr').count(), 1);
    await shipperPage.goto(`${base}/freights/enlist/12`);
    assert.equal(await shipperPage.locator('[data-testid="freight-list"] tbody tr').count(), 1);
  });

  test('the winner sets the delivery status; delivered closes the order', async () => {
    await carrierPage.goto(freightUrl);
    await carrierPage.selectOption('select[name="delivery_status"]', '3');
    await Promise.all([carrierPage.waitForURL(freightUrl), carrierPage.click('form[action^="/freights/delivery/"] button')]);
    assert.match(await carrierPage.content(), /badge closed/);
  });
});
