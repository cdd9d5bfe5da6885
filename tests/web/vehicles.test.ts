import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import type { TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { FREIGHT } from '../vehicles/helpers.ts';
import { assertNoSideScroll, DESKTOP, flashText, PHONE, pageFor } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * Vehicle space in the browser (docs/reference.md#vehicles), in English and German, at the desk and on a
 * phone: a carrier offers a truck through the form, the shipper sees it beside its freight
 * (the fitting trucks) and invites it, and the carrier bids. One app and one browser for all.
 */
describe('browser: offer a truck, be invited, bid', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  // Towns are suggested once the city data is loaded (places/cities.ts answers without them before).
  before(async () => ({ app, browser, base } = await openBrowserSuite({ now: new Date('2030-05-01T08:00:00Z'), cities: true })));
  after(() => closeBrowserSuite(contexts, browser, app));

  const words = {
    eng: {
      saved: 'Offer published.',
      fitting: 'Fitting trucks',
      invite: 'Invite',
      invited: 'The company was invited',
      count: /\d+ offers?/,
    },
    deu: {
      saved: 'Angebot veröffentlicht.',
      fitting: 'Passende Fahrzeuge',
      invite: 'Einladen',
      invited: 'Die Firma wurde',
      count: /\d+ Angebote?/,
    },
  };

  for (const lang of ['eng', 'deu'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px`, async () => {
        const w = words[lang];
        // The README's pictures: the desk in English, the phone in German.
        const shot = (lang === 'eng') === (viewport === DESKTOP);
        const carrier = await app.actor(`Carrier ${lang}`, { language: lang });
        const shipper = await app.actor(`Shipper ${lang}`, { language: lang });

        // The carrier offers a truck through the form.
        const c = await pageFor(browser, base, carrier, viewport, contexts);
        await c.goto(`${base}/vehicles/add`);
        await assertNoSideScroll(c, 'the offer form');
        // The place from the suggestions: typing a town offers it; picking it fills the country and
        // the point (public/app.js), and the postal code is left to type.
        await c.locator('input[name="from"]').pressSequentially('Frankf');
        const town = 'Frankfurt am Main (DE)';
        await c.waitForFunction(
          (label) => [...document.querySelectorAll('datalist#places-from option')].some((o) => (o as HTMLOptionElement).label === label),
          town,
          { polling: 100 },
        );
        const value = await c
          .locator('datalist#places-from option')
          .evaluateAll((options, label) => (options as HTMLOptionElement[]).find((o) => o.label === label)!.value, town);
        await c.fill('input[name="from"]', value);
        assert.equal(await c.inputValue('input[name="from_country"]'), 'DE');
        assert.ok(Math.abs(Number(await c.inputValue('input[name="from_latitude"]')) - 50.11) < 0.05, 'the town’s point');
        await c.fill('input[name="from"]', '60311');
        await c.fill('input[name="from_radius"]', '80');
        await c.fill('input[name="available_from"]', '2030-05-04T06:00');
        await c.fill('input[name="available_to"]', '2030-05-06T18:00');
        await c.selectOption('select[name="body"]', 'box');
        await c.fill('input[name="capacity"]', lang === 'deu' ? '20.000' : '20000');
        await Promise.all([c.waitForURL(/\/vehicles\/view\/\d+$/), c.click('[data-testid="vehicle-form"] button[type="submit"]')]);
        assert.equal(await flashText(c), w.saved);
        const offerId = Number(/\/vehicles\/view\/(\d+)$/.exec(c.url())![1]);
        const offer = (await app.get(`/vehicles/view/${offerId}.json`, { token: carrier.token })).body.data.vehicle;
        assert.equal(offer.capacity, 20000);
        assert.equal(offer.available_from, '2030-05-04 06:00:00');
        assert.equal(offer.body, 'box');
        assert.equal(offer.from_country, 'DE');
        assert.ok(Math.abs(offer.from_latitude - 50.11) < 0.05 && Math.abs(offer.from_longitude - 8.68) < 0.05, 'picked near Frankfurt');
        await assertNoSideScroll(c, 'the offer page');
        if (shot) await screenshot(c, `vehicles-offer-${lang}-${viewport.width}`);

        // The shipper's freight near Frankfurt: the offer is on its page among the fitting trucks.
        const freight = await openFreight(app, shipper, { ...FREIGHT, refs: { customer: `WEB-${lang}-${viewport.width}` } });
        const s = await pageFor(browser, base, shipper, viewport, contexts);
        await s.goto(`${base}/vehicles/index`);
        assert.match(await s.locator('[data-testid="vehicle-count"]').innerText(), w.count);
        assert.equal(await s.locator(`[data-testid="vehicles"] a[href="/vehicles/view/${offerId}"]`).count(), 1);
        await assertNoSideScroll(s, 'the offers list');
        if (shot) await screenshot(s, `vehicles-list-${lang}-${viewport.width}`);
        await s.goto(`${base}/freights/view/${freight}`);
        const section = s.locator('[data-testid="fitting-vehicles"]');
        assert.match(await section.locator('h2').innerText(), new RegExp(w.fitting));
        const row = section.locator('tr', { has: s.locator(`a[href="/vehicles/view/${offerId}"]`) });
        assert.equal(await row.count(), 1);
        await assertNoSideScroll(s, 'the freight page with its fitting trucks');
        if (shot) await screenshot(s, `vehicles-fitting-${lang}-${viewport.width}`);
        await Promise.all([s.waitForURL(new RegExp(`/freights/view/${freight}$`)), row.getByRole('button', { name: w.invite }).click()]);
        assert.match(await flashText(s), new RegExp(w.invited));

        // The carrier was notified, and bids on the freight.
        const notes = (await app.get('/notifications/index.json', { token: carrier.token })).body.data.notifications;
        assert.ok(notes.some((n: { type: string; route_id: number }) => n.type === 'freight.invited' && n.route_id === freight));
        await c.goto(`${base}/freights/view/${freight}`);
        const form = c.locator('[data-testid="bid-form"]');
        await form.locator('input[name="amount"]').fill(lang === 'deu' ? '1.150' : '1150');
        await Promise.all([c.waitForURL(new RegExp(`/freights/view/${freight}`)), form.locator('button[type="submit"]').click()]);
        const bids = (await app.get(`/freights/view/${freight}.json`, { token: shipper.token })).body.data.route._bids;
        assert.equal(bids.length, 1);
        assert.equal(bids[0].company, carrier.company);
        assert.equal(Number(bids[0].amount), 1150);
      });
    }
  }
});
