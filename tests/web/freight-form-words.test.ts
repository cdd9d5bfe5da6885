import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { importRateSheet } from '../../src/pricing/import.ts';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';

/**
 * Issue 24, item 8 (the freight form): a date picker never tells a person to type the API's
 * `YYYY-MM-DD HH:MM` (the form's times, the publish form's deadline), and the target price is
 * called "Price (from the rate)" only where it came from a rate; a price the shipper typed is its
 * own non-binding target price.
 */
describe('browser: the freight form speaks of picking dates and names the price by where it came from', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const shippers: Record<'deu' | 'eng', Actor> = {} as never;
  let carrier: Actor;
  const contexts: BrowserContext[] = [];
  const own: Record<'deu' | 'eng', number> = {} as never;
  const booked: Record<'deu' | 'eng', number> = {} as never;
  const API_FORMAT = /YYYY|JJJJ|\d{4}-\d{2}-\d{2}|\+48 hours/;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shippers.deu = await app.actor('Versender', { language: 'deu' });
    shippers.eng = await app.actor('Shipper', { language: 'eng' });
    carrier = await app.actor('Carrier');
    await importRateSheet(app.services.db, {
      companyId: carrier.company,
      name: 'Road feeders',
      visibility: 'exchange',
      csvText: [
        'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price',
        'city:DE-60,airport:FRA,1,45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,',
      ].join('\n'),
    });
    for (const lang of ['deu', 'eng'] as const) {
      const who = shippers[lang];
      own[lang] = await addFreight(app, who, {
        weight: 800,
        etd: '2030-05-04 08:00',
        refs: { target_rate: '950.00', target_currency: 'EUR' },
      });
      const search = await app.post('/pricing/search/results.json', {
        token: who.token,
        json: { origin: 'city:DE-60311', destination: 'airport:FRA', weight: 250 },
      });
      const rate = search.body.data.rates[0];
      const request = await app.post(`/freights/request/rate/${rate.id}.json`, {
        token: who.token,
        json: { weight: 250, refs: { target_rate: rate.amount, target_currency: rate.currency } },
      });
      assert.equal(request.body.status, 'success', request.text);
      booked[lang] = request.body.data.route.id;
    }
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: the date pickers ask to pick, never for the API's format`, async () => {
        const page = await pageFor(browser, base, shippers[lang], viewport, contexts);
        await page.goto(`${base}/freights/add`);
        const form = page.locator('form[data-validate="freight"]');
        assert.doesNotMatch((await form.getAttribute('data-msg-datetime')) ?? '', API_FORMAT, 'the check while typing');
        assert.match(
          (await form.getAttribute('data-msg-datetime')) ?? '',
          lang === 'deu' ? /Datum und Uhrzeit wählen/ : /pick a date and a time/,
        );
        // A browser without a date picker: the time is typed, and what the page says about it shows no API format.
        await page.evaluate(() => {
          (document.querySelector('input[name="etd"]') as HTMLInputElement).type = 'text';
          document.querySelector('form[data-validate]')?.removeAttribute('data-validate');
        });
        await page.fill('input[name="etd"]', 'morgen früh');
        await page.fill('input[name="weight"]', '800');
        await Promise.all([
          page.waitForResponse((r) => r.url() === `${base}/freights/add` && r.request().method() === 'POST'),
          page.click('form[action="/freights/add"] button[type="submit"]'),
        ]);
        await page.waitForLoadState('load');
        const problem = await page.locator('#f-etd-error').innerText();
        assert.match(problem, lang === 'deu' ? /Datum und Uhrzeit wählen/ : /pick a date and a time/);
        assert.doesNotMatch(problem, API_FORMAT);
        // The publish form's deadline is a date picker too: its hint asks for no format.
        await page.goto(`${base}/freights/view/${own[lang]}`);
        const deadline = page.locator('input[name="deadline"]');
        assert.equal(await deadline.getAttribute('type'), 'datetime-local');
        const hint = plain(
          await page.locator('label:has(input[name="deadline"]) .hint, input[name="deadline"] ~ .hint').first().innerText(),
        );
        assert.doesNotMatch(hint, API_FORMAT);
        assert.match(hint, lang === 'deu' ? /24 Stunden ab jetzt/ : /24 hours from now/);
      });
    }

    for (const viewport of [DESKTOP, PHONE])
      test(`${lang} at ${viewport.width} px: the target price is the rate's price only where it came from a rate, in the form and on the page`, async () => {
        const own_ = lang === 'deu' ? 'Zielpreis (unverbindlich)' : 'Target price (non-binding)';
        const fromRate = lang === 'deu' ? 'Preis (aus der Rate)' : 'Price (from the rate)';
        const page = await pageFor(browser, base, shippers[lang], viewport, contexts);
        await page.goto(`${base}/freights/edit/${own[lang]}`);
        assert.equal(plain(await page.locator('label[for="f-refs-target-rate-"]').innerText()).trim(), own_);
        await assertNoSideScroll(page, `freight form ${lang}`);
        await page.goto(`${base}/freights/view/${own[lang]}`);
        let facts = plain(await page.locator('dl.facts').first().innerText());
        assert.ok(facts.includes(own_) && !facts.includes(fromRate), facts);
        await page.goto(`${base}/freights/edit/${booked[lang]}`);
        assert.equal(plain(await page.locator('label[for="f-refs-target-rate-"]').innerText()).trim(), fromRate);
        await page.goto(`${base}/freights/view/${booked[lang]}`);
        facts = plain(await page.locator('dl.facts').first().innerText());
        assert.ok(facts.includes(fromRate), facts);
        await assertNoSideScroll(page, `freight page ${lang}`);
      });
  }
});
