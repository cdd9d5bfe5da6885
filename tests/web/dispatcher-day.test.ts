import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { citiesReady } from '../../src/places/cities.ts';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from '../vehicles/helpers.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';

/**
 * Issue 47 (the dispatcher's day, third pass), the items of this pass, each in English and German,
 * at the desk and on a phone, each failing before its fix. One app and one browser for all.
 */
describe('browser: the dispatcher’s day (issue 47)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    app.setNow(new Date('2030-05-01T08:00:00Z'));
    base = await app.listen();
    browser = await launchBrowser();
    await citiesReady();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  const cases = (['eng', 'deu'] as const).flatMap((lang) => [DESKTOP, PHONE].map((viewport) => ({ lang, viewport })));

  // Item 7: one load gave a carrier one notification per matching offer and saved search.
  for (const { lang, viewport } of cases) {
    test(`item 7, ${lang} at ${viewport.width} px: one notification per load naming every reason`, async () => {
      const shipper = await app.actor(`Shipper 7 ${lang} ${viewport.width}`, { language: lang });
      const carrier = await app.actor(`Carrier 7 ${lang} ${viewport.width}`, { language: lang });
      const search = await app.post('/searches/add.json', {
        token: carrier.token,
        json: { name: `Hessen ${lang}`, params: { from: 'DE-60' }, alert: 1 },
      });
      assert.equal(search.body.status, 'success', search.text);
      const one = await addOffer(app, carrier);
      const two = await addOffer(app, carrier, { from_radius: 150 });
      const id = await openFreight(app, shipper, FREIGHT);
      await eventually(async () => (await notificationsOf(app, carrier)).some((n) => n.route_id === id), 'the alert');

      const page = await pageFor(browser, base, carrier, viewport, contexts);
      await page.goto(`${base}/notifications/index`);
      const rows = page.locator('[data-testid="notifications"] tbody tr');
      assert.equal(await rows.count(), 1, 'one row for the load');
      const reasons = plain(await page.locator('ul.reasons').innerText());
      const offer = lang === 'deu' ? 'Fahrzeugangebot' : 'Vehicle offer';
      assert.match(reasons, new RegExp(`Hessen ${lang}`));
      assert.match(reasons, new RegExp(`${offer} ${one.id}`));
      assert.match(reasons, new RegExp(`${offer} ${two.id}`));
      await assertNoSideScroll(page, 'the notifications');
      assert.deepEqual(await axeProblems(page), []);
    });
  }

  // Item 6: truck offers read "100 km um 48.137, 11.575 → PL" or bare codes.
  for (const { lang, viewport } of cases) {
    test(`item 6, ${lang} at ${viewport.width} px: offers read "München (DE) +100 km → PL", towns in the reader’s language`, async () => {
      const carrier = await app.actor(`Carrier 6 ${lang} ${viewport.width}`);
      const reader = await app.actor(`Reader 6 ${lang} ${viewport.width}`, { language: lang });
      const munich = await addOffer(app, carrier, { from: 'city:80331', from_country: 'DE', from_radius: 100, to: 'PL' });
      // Only a point (decisions.md §11 allows it): Warsaw's.
      const warsaw = await addOffer(app, carrier, {
        from: undefined,
        from_country: undefined,
        from_latitude: 52.2297,
        from_longitude: 21.0122,
        from_radius: 50,
        to: 'DE-80,DE-60',
      });
      const page = await pageFor(browser, base, reader, viewport, contexts);
      await page.goto(`${base}/vehicles/index`);
      const text = plain(await page.locator('[data-testid="vehicles"]').innerText());
      const [mun, war] = lang === 'deu' ? ['München', 'Warschau'] : ['Munich', 'Warsaw'];
      assert.ok(text.includes(`${mun} (DE) +100 km → PL`), text);
      assert.ok(text.includes(`${war} (PL) +50 km → DE-80, DE-60`), text);
      assert.doesNotMatch(text, /\d+\.\d{3}, \d+\.\d{3}/, 'no coordinates');
      await assertNoSideScroll(page, 'the offers');
      assert.deepEqual(await axeProblems(page), []);
      // The offer's own page says the same.
      await page.goto(`${base}/vehicles/view/${munich.id}`);
      assert.ok(plain(await page.locator('main').innerText()).includes(`${mun} (DE) +100 km`));
      await page.goto(`${base}/vehicles/view/${warsaw.id}`);
      assert.ok(plain(await page.locator('main').innerText()).includes(`${war} (PL) +50 km`));
    });
  }
  // Item 9: the truck form asked for company numbers for its whitelist.
  for (const { lang, viewport } of cases) {
    test(`item 9, ${lang} at ${viewport.width} px: the offer's whitelist by company names with suggestions`, async () => {
      const carrier = await app.actor(`Carrier 9 ${lang} ${viewport.width}`, { language: lang });
      const first = await app.actor(`Spedition Nord 9 ${lang} ${viewport.width}`);
      const second = await app.actor(`Transporte Süd 9 ${lang} ${viewport.width}`);
      const offer = await addOffer(app, carrier, { whitelist: [first.company] });
      const page = await pageFor(browser, base, carrier, viewport, contexts);
      await page.goto(`${base}/vehicles/edit/${offer.id}`);
      const input = page.locator('input[name="whitelist_names"]');
      assert.equal(await input.inputValue(), first.companyName, 'the chosen company by name, not its number');
      // The suggestions are the freight form's: the companies by name.
      const list = await input.getAttribute('list');
      const options = await page.locator(`datalist#${list} option`).evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      assert.ok(options.includes(second.companyName), 'the other company is suggested');
      await assertNoSideScroll(page, 'the offer form');
      assert.deepEqual(await axeProblems(page), []);
      await input.fill(`${first.companyName}, ${second.companyName}`);
      await Promise.all([
        page.waitForURL(new RegExp(`/vehicles/view/${offer.id}`)),
        page.locator('[data-testid="vehicle-form"] button[type="submit"]').click(),
      ]);
      const saved = await app.get(`/vehicles/view/${offer.id}.json`, { token: carrier.token });
      assert.deepEqual(saved.body.data.vehicle.whitelist, [first.company, second.company]);
      // A name no company has is refused, said beside the field, and nothing changes.
      await page.goto(`${base}/vehicles/edit/${offer.id}`);
      await page.locator('input[name="whitelist_names"]').fill('No Such Company GmbH');
      await page.locator('[data-testid="vehicle-form"] button[type="submit"]').click();
      await page.waitForLoadState();
      assert.match(plain(await page.locator('main').innerText()), /No Such Company GmbH/);
      const still = await app.get(`/vehicles/view/${offer.id}.json`, { token: carrier.token });
      assert.deepEqual(still.body.data.vehicle.whitelist, [first.company, second.company]);
    });
  }
});
