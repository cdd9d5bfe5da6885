import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import type { TestApp } from '../support/harness.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { FREIGHT } from '../vehicles/helpers.ts';
import { assertNoSideScroll, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * The load described as trucks are in the browser (docs/choices.md, "Loads described as trucks
 * are"), in English and German, at the desk and on a phone: the shipper describes its load on the
 * freight form (numbers in its language), the freight page says it in one line, and a carrier's
 * load search by body and loading metres finds it and leaves another load out.
 */
describe('browser: describe a load, search by it', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async () => ({ app, browser, base } = await openBrowserSuite({ now: new Date('2030-05-01T08:00:00Z') })));
  after(() => closeBrowserSuite(contexts, browser, app));

  const words = {
    eng: { section: 'Truck and load', fact: /Reefer · 7\.5 ldm · ADR 3 · -18 to -2\.5 °C · pallet exchange/, ldm: '7.5' },
    deu: { section: 'Fahrzeug und Ladung', fact: /Kühlkoffer · 7,5 LDM · ADR 3 · -18 bis -2,5 °C · Palettentausch/, ldm: '7,5' },
  };

  for (const lang of ['eng', 'deu'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px`, async () => {
        const w = words[lang];
        const shipper = await app.actor(`Shipper ${lang} ${viewport.width}`, { language: lang });
        const carrier = await app.actor(`Carrier ${lang} ${viewport.width}`, { language: lang });
        const id = await addFreight(app, shipper, { ...FREIGHT, refs: { customer: `LOAD-${lang}-${viewport.width}` } });

        const s = await pageFor(browser, base, shipper, viewport, contexts);
        await s.goto(`${base}/freights/edit/${id}`);
        const section = s.locator('[data-testid="load-description"]');
        assert.equal(plain(await section.locator('legend').first().innerText()).trim(), w.section);
        await screenshot(s, `issue47-item3-form-${lang}-${viewport.width}`);
        await assertNoSideScroll(s, 'the freight form');
        await s.selectOption('select[name="body"]', 'reefer');
        await s.fill('input[name="loading_meters"]', w.ldm);
        await s.selectOption('select[name="adr_class"]', '3');
        await s.fill('input[name="temperature_min"]', '-18');
        await s.fill('input[name="temperature_max"]', lang === 'deu' ? '-2,5' : '-2.5');
        await s.selectOption('select[name="pallet_exchange"]', '1');
        await Promise.all([
          s.waitForResponse((r) => r.url() === `${base}/freights/edit/${id}` && r.request().method() === 'POST'),
          s.click(`form[action="/freights/edit/${id}"] button[type="submit"]`),
        ]);
        await s.waitForLoadState('load');
        const route = (await app.get(`/freights/view/${id}.json`, { token: shipper.token })).body.data.route;
        assert.deepEqual(
          [route.body, route.loading_meters, route.adr_class, route.temperature_min, route.temperature_max, route.pallet_exchange],
          ['reefer', 7.5, '3', -18, -2.5, 1],
        );
        await s.goto(`${base}/freights/view/${id}`);
        assert.match(plain(await s.locator('[data-testid="fact-load"]').innerText()).replace(/−/g, '-'), w.fact);
        await screenshot(s, `issue47-item3-freight-${lang}-${viewport.width}`);
        await assertNoSideScroll(s, 'the freight page');

        // The carrier searches the market by body and loading metres (typed in its language).
        await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish' } });
        const other = await openFreight(app, shipper, {
          ...FREIGHT,
          body: 'tautliner',
          refs: { customer: `OTHER-${lang}-${viewport.width}` },
        });
        const c = await pageFor(browser, base, carrier, viewport, contexts);
        // The bar's fields as a person sends them (the numbers typed in its language: `typed=1`); on a phone the bar is folded.
        await c.goto(`${base}/freights/enlist/8?typed=1&body=reefer&loading_meters_max=${lang === 'deu' ? '13%2C6' : '13.6'}`);
        assert.equal(await c.locator('select[name="body"]').inputValue(), 'reefer');
        assert.match(c.url(), /loading_meters_max=13\.6/);
        const links = await c.locator('main a[href^="/freights/view/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        assert.ok(links.includes(`/freights/view/${id}`), 'the reefer load is found');
        assert.ok(!links.includes(`/freights/view/${other}`), 'the tautliner load is not');
        assert.match(plain(await c.locator('[data-testid="load-line"]').first().innerText()).replace(/−/g, '-'), w.fact);
        await screenshot(c, `issue47-item3-list-${lang}-${viewport.width}`);
        await assertNoSideScroll(c, 'the searched list');
      });
    }
  }
});
