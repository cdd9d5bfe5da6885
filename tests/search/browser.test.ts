import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { citiesReady } from '../../src/places/cities.ts';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';

/**
 * The load search as a carrier uses it: type a place, pick a suggestion, search, bookmark the
 * URL, open it again and see the same rows; save the search with an alert and hear of the next
 * matching freight in the page header.
 */
describe('browser: load search', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let shipper: Actor;
  let carrier: Actor;
  let dispatcher: Actor;
  const contexts: BrowserContext[] = [];
  const f: Record<string, number> = {};
  const byId = (a: number, b: number) => a - b;
  let bookmark = '';

  async function as(actor: Actor, width = 1366): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await loginAs(page, base, actor.email, actor.password);
    return page;
  }

  const rowIds = async (page: Page) =>
    (await page.$$eval('[data-testid="freight-list"] tbody tr td:first-child a', (links) => links.map((a) => a.getAttribute('href') ?? '')))
      .map((h) => Number(h.split('/').pop()))
      .sort((a, b) => a - b);

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    dispatcher = await app.actor('Spedition', { language: 'deu' });
    f.ffm = await openFreight(app, shipper, {
      from: 'city:DE-60311',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'airport:MXP',
      weight: 11000,
      etd: '2030-05-04 08:00',
      refs: { customer: 'PO-4711' },
    });
    f.hanau = await openFreight(app, shipper, {
      from: 'city:DE-63450',
      from_latitude: 50.1328,
      from_longitude: 8.9169,
      to: 'city:IT-20121',
      weight: 8000,
      etd: '2030-05-06 08:00',
    });
    f.muc = await openFreight(app, shipper, {
      from: 'city:DE-80331',
      from_latitude: 48.1372,
      from_longitude: 11.5756,
      to: 'city:IT-20121',
      weight: 24000,
      etd: '2030-05-10 08:00',
    });
    f.ams = await openFreight(app, shipper, { from: '1000 AP', from_country: 'NL', to: 'city:DE-10115', weight: 3000 });
    await citiesReady();
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  test('a carrier types a city, picks it, searches around it; the URL is the search', async () => {
    const page = await as(carrier);
    await page.goto(`${base}/freights/enlist/8`);
    assert.deepEqual(await rowIds(page), [f.ffm!, f.hanau!, f.muc!, f.ams!].sort(byId));
    assert.match(await page.locator('.tabs .tab-row a.active').innerText(), /\(4\)/, 'the tab counts the list');
    // Typing asks for suggestions; the city's option is what the datalist would put into the field.
    await page.locator('input[name="from"]').pressSequentially('Frankf', { delay: 30 });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).label.startsWith('Frankfurt am Main')),
    );
    const option = await page.$$eval(
      'datalist option',
      (os) => (os as HTMLOptionElement[]).find((o) => o.label.startsWith('Frankfurt am Main'))!.value,
    );
    await page.fill('input[name="from"]', option);
    // Picked: the city went to "Around", by its name (issue 47, item 12), its point along with it
    // in from_near_at; the place field is free again.
    assert.equal(await page.inputValue('input[name="from_near"]'), 'Frankfurt am Main (DE)');
    assert.match(await page.inputValue('input[name="from_near_at"]'), /^50\.1\d*,8\.6\d* /);
    assert.equal(await page.inputValue('input[name="from"]'), '');
    assert.match(await page.locator('[data-near-note="from_near"]').innerText(), /Frankfurt am Main/);
    await page.selectOption('select[name="from_radius"]', '50');
    await page.fill('input[name="to"]', 'IT');
    await Promise.all([page.waitForURL(/from_near=/), page.click('[data-testid="search-bar"] button[type="submit"]')]);
    assert.deepEqual(await rowIds(page), [f.ffm!, f.hanau!].sort(byId));
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('from_radius'), '50');
    assert.equal(url.searchParams.get('to'), 'IT');
    // Sorting keeps the search; the header says how the list is sorted.
    await Promise.all([page.waitForURL(/sort=Routes.weight/), page.click('th a:has-text("Weight")')]);
    assert.equal(await page.getAttribute('th[aria-sort="descending"] a', 'href').then(Boolean), true);
    assert.deepEqual(
      await page.$$eval('[data-testid="freight-list"] tbody tr td:first-child a', (a) =>
        a.map((x) => Number(x.getAttribute('href')!.split('/').pop())),
      ),
      [f.ffm, f.hanau],
    );
    bookmark = page.url();
    assert.match(bookmark, /from_near=.*sort=Routes\.weight/);
    await screenshot(page, 'load-search');
  });

  test('the bookmarked URL, opened again in another session, shows the same rows', async () => {
    const page = await as(carrier);
    await page.goto(bookmark);
    assert.deepEqual(
      await page.$$eval('[data-testid="freight-list"] tbody tr td:first-child a', (a) =>
        a.map((x) => Number(x.getAttribute('href')!.split('/').pop())),
      ),
      [f.ffm, f.hanau],
    );
    assert.equal(await page.inputValue('input[name="to"]'), 'IT');
    assert.equal(await page.inputValue('select[name="from_radius"]'), '50');
  });

  test('saved with an alert, the search tells of the next matching freight in the header', async () => {
    const page = await as(carrier);
    await page.goto(bookmark);
    await page.click('.save-search summary');
    await page.fill('.save-search input[name="name"]', 'Frankfurt → Italy');
    await Promise.all([page.waitForURL(/\/freights\/enlist\/8\?/), page.click('.save-search button[type="submit"]')]);
    assert.match(await page.locator('.flash.ok').innerText(), /saved/);
    const later = await openFreight(app, shipper, {
      from: 'city:DE-61118',
      from_latitude: 50.1816,
      from_longitude: 8.7389,
      to: 'city:IT-10121',
      weight: 5000,
    });
    await page.goto(`${base}/freights/enlist/8`);
    await page.waitForSelector('.topbar .notifications .count');
    assert.equal(await page.locator('.topbar .notifications .count').innerText(), '1');
    await page.click('.topbar .notifications');
    await page.waitForURL(`${base}/notifications/index`);
    assert.match(await page.locator('[data-testid="notifications"]').innerText(), /Frankfurt → Italy/);
    await screenshot(page, 'notifications');
    await Promise.all([
      page.waitForURL(`${base}/freights/view/${later}`),
      page.click(
        `a[href="/notifications/open/${(await app.get('/notifications/index.json', { token: carrier.token })).body.data.notifications[0].id}"]`,
      ),
    ]);
    const unread = await app.get('/notifications/unread.json', { token: carrier.token });
    assert.equal(unread.body.data.unread, 0, 'opening it marked it read');
  });

  test('on a phone, in German: the search bar and the freight form place input', async () => {
    const page = await as(dispatcher, 390);
    await page.goto(`${base}/freights/enlist/8?from=DE-6&to=IT`);
    // Folded on a phone: one line says what is searched, the list is on the first screen.
    assert.match(await page.locator('[data-testid="search-fold"] > summary').innerText(), /Von: DE-6 · Nach: IT/);
    const firstRow = await page.locator('[data-testid="freight-list"] tbody tr').first().boundingBox();
    assert.ok(firstRow && firstRow.y < 844, `the first freight starts on the first screen (${firstRow?.y}px)`);
    await page.click('[data-testid="search-fold"] > summary');
    assert.match(await page.locator('[data-testid="search-bar"]').innerText(), /Umkreis von/);
    assert.equal((await rowIds(page)).length, 3);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px)`);
    await screenshot(page, 'load-search-phone-deu');
    // The freight form: a city picked fills country, address and coordinates.
    await page.goto(`${base}/freights/add`);
    await page.locator('input[name="from"]').pressSequentially('Hanau', { delay: 30 });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).value.startsWith('Hanau')),
    );
    const option = await page.$$eval(
      'datalist option',
      (os) => (os as HTMLOptionElement[]).find((o) => o.value.startsWith('Hanau'))!.value,
    );
    await page.fill('input[name="from"]', option);
    assert.match(await page.inputValue('input[name="from_addr"]'), /^Hanau/);
    assert.match(await page.inputValue('input[name="from_latitude"]'), /^50\.1/);
    // Issue 47, item 2: the field keeps the town's name (a town without a postal code can be published).
    assert.equal(await page.inputValue('input[name="from"]'), 'Hanau am Main (DE)', 'the picked town stays in the field');
  });
});
