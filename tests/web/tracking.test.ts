import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';

/**
 * docs/reference.md#tracking in a browser: the driver's page (no account; the phone's position granted to
 * the browser) says what it shares and with whom and sends the position; the shipper's freight
 * page, open meanwhile, shows the truck on its map, the milestones and the ETA without a reload;
 * the two parties' freight lists show the last milestone under the route. English at the desk,
 * German on a phone.
 */

const TEXT = {
  eng: {
    locale: 'en-GB',
    shared: 'Only the shipper and the carrier of this freight see it',
    pickup: 'Arrived at pickup',
    left: 'Departed pickup',
  },
  deu: {
    locale: 'de-DE',
    shared: 'Nur Verlader und Frachtführer dieser Fracht sehen sie',
    pickup: 'An der Beladestelle angekommen',
    left: 'Von der Beladestelle abgefahren',
  },
} as const;

const FRANKFURT = { latitude: 50.1109, longitude: 8.6821 };
const ON_THE_ROAD = { latitude: 50.0501, longitude: 8.2003 };

describe('pages: tracking by permission (docs/reference.md#tracking)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp();
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  // Both languages at both widths (issue 44's browser test).
  for (const [lang, viewport] of [
    ['eng', DESKTOP],
    ['deu', PHONE],
    ['deu', DESKTOP],
    ['eng', PHONE],
  ] as const) {
    const T = TEXT[lang];
    test(`${lang} ${viewport.width}px: the driver's phone shares its position; the shipper's page shows the truck move`, async () => {
      const shipper = await app.actor(`Verlader ${lang}`, { language: lang });
      const carrier = await app.actor(`Spedition ${lang}`, { language: lang });
      const freight = await openFreight(app, shipper, {
        from: 'city:60311',
        from_country: 'DE',
        from_latitude: FRANKFURT.latitude,
        from_longitude: FRANKFURT.longitude,
        to: 'city:75001',
        to_country: 'FR',
        to_latitude: 48.8566,
        to_longitude: 2.3522,
        weight: 12000,
      });
      const bid = await app.post('/quotes/add.json', { token: carrier.token, json: { route: freight, amount: 900, currency_code: 'EUR' } });
      await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token });
      await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
      const link = await app.post(`/freights/tracking-link/${freight}.json`, { token: carrier.token });
      assert.equal(link.body.status, 'success', link.text);
      const driverPath = new URL(link.body.data.link.url).pathname;

      // The shipper's freight page, open and listening, marked so that a reload would show.
      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/view/${freight}`);
      const tracking = shipperPage.locator('[data-testid="tracking"]');
      assert.equal(await tracking.locator('[data-testid="map-truck"]').count(), 0, 'no truck before a position');
      await shipperPage.locator('body[data-live-state="open"]').waitFor({ state: 'attached' });
      await shipperPage.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });

      // The driver: no login, the phone's position granted to the browser, in the phone's language.
      const phone = await browser.newContext({
        viewport,
        locale: T.locale,
        geolocation: FRANKFURT,
        permissions: ['geolocation'],
      });
      contexts.push(phone);
      const driver = await phone.newPage();
      await driver.goto(`${base}${driverPath}`);
      assert.ok(plain(await driver.locator('[data-testid="driver-what"]').innerText()).includes(T.shared));
      await assertNoSideScroll(driver, 'the driver page');
      await driver.click('[data-driver-start]');
      await driver.locator('[data-driver-state="sharing"]').waitFor({ timeout: 10_000 });
      await screenshot(driver, `tracking-driver-${lang}-${viewport.width}`);

      // At the pickup: the milestone reaches the shipper's page through the live board.
      await tracking.locator('[data-milestone="arrived_pickup"]').waitFor({ timeout: 10_000 });
      assert.ok(plain(await tracking.locator('[data-milestone="arrived_pickup"]').innerText()).startsWith(T.pickup));
      const truck = tracking.locator('[data-testid="map-truck"]');
      assert.equal(await truck.getAttribute('data-at'), `${FRANKFURT.latitude},${FRANKFURT.longitude}`);
      const etaAtPickup = await tracking.locator('[data-testid="tracking-eta"]').innerText();
      const whereAtPickup = await truck.boundingBox();

      // On the road: the phone moves, sharing goes on (stopped and started again: sent at once).
      await phone.setGeolocation(ON_THE_ROAD);
      await driver.click('[data-driver-stop]');
      await driver.click('[data-driver-start]');
      await tracking.locator('[data-milestone="departed_pickup"]').waitFor({ timeout: 10_000 });
      assert.ok(plain(await tracking.locator('[data-milestone="departed_pickup"]').innerText()).startsWith(T.left));
      assert.equal(await truck.getAttribute('data-at'), `${ON_THE_ROAD.latitude},${ON_THE_ROAD.longitude}`);
      const whereOnTheRoad = await truck.boundingBox();
      assert.ok(whereAtPickup && whereOnTheRoad && whereOnTheRoad.x < whereAtPickup.x, 'the truck moved west on the map');
      assert.notEqual(await tracking.locator('[data-testid="tracking-eta"]').innerText(), etaAtPickup, 'the ETA followed');
      assert.ok(await shipperPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true), 'no reload');
      await assertNoSideScroll(shipperPage, 'the freight page with its map');
      await tracking.scrollIntoViewIfNeeded();
      await screenshot(shipperPage, `tracking-freight-${lang}-${viewport.width}`);

      // The lists: the shipper's awarded orders and the carrier's won ones show the last milestone
      // under the route (no late mark: the freight has no delivery window); nobody else's list does.
      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      for (const [page, list] of [
        [shipperPage, 12],
        [carrierPage, 2],
      ] as const) {
        await page.goto(`${base}/freights/enlist/${list}`);
        const row = page.locator('tr', { has: page.locator(`a[href="/freights/view/${freight}"]`) });
        const mark = row.locator('[data-testid="tracking-mark"]');
        assert.ok(plain(await mark.innerText()).startsWith(T.left), `list ${list}: ${await mark.innerText()}`);
        assert.equal(await mark.locator('[data-testid="tracking-mark-late"]').count(), 0);
        await assertNoSideScroll(page, `list ${list} with the tracking mark`);
        await screenshot(page, `tracking-list-${list}-${lang}-${viewport.width}`);
      }
    });
  }
});
