import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { addFreight } from '../freights/helpers.ts';
import { seedAward } from '../lanes/helpers.ts';
import { citiesReady } from '../../src/places/cities.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * docs/reference.md#lane-prices in a browser: the freight form and the freight page show the lane's last median
 * beside the price ("market: €1,180 median, 5 awards", German 1.180 €); /market/prices takes the
 * lane and draws its chart on the server (SVG with title and axis labels) with the values as a
 * table; English at 1366 px, German at 390 px.
 */

const TEXT = {
  eng: {
    hint: 'market: €1,180 median, 5 awards',
    fact: 'Market price',
    title: 'Market prices',
    hidden: 'too few awards',
    median: '€1,180',
    area: 'DE-60311 read as DE-60: prices are kept per postal area.',
    months: 'Months: a whole number from 1 to 36. 12 shown.',
    typed: 'Frankf',
    suggested: { value: 'DE-60', label: 'Frankfurt am Main (DE) · DE-60' },
  },
  deu: {
    hint: 'Markt: 1.180 € Median, 5 Vergaben',
    fact: 'Marktpreis',
    title: 'Marktpreise',
    hidden: 'zu wenige Vergaben',
    median: '1.180 €',
    area: 'DE-60311 als DE-60 gelesen: Preise werden je Postleitgebiet geführt.',
    months: 'Monate: eine ganze Zahl von 1 bis 36. 12 gezeigt.',
    typed: 'Mailand',
    suggested: { value: 'IT-20', label: 'Mailand / Milano (IT) · IT-20' },
  },
} as const;
type Lang = keyof typeof TEXT;

describe('lane prices: the freight form’s and page’s hint, the chart page (docs/reference.md#lane-prices)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const people = {} as Record<Lang, { shipper: Actor; freight: number }>;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    app.setNow(new Date('2031-03-15T10:00:00Z'));
    // Three shippers and one carrier, as the contract's threshold asks (5 awards by 3 owners):
    // March is 2 + 2 + 1 awards of the three, all won by the one carrier.
    const owners = [await app.actor('Rhein Logistik'), await app.actor('Main Spedition'), await app.actor('Taunus Transporte')];
    const carrier = await app.actor('Seine Haulage');
    const from = { code: '60311', country: 'DE', latitude: '50.1109', longitude: '8.6821' };
    const to = { code: '75001', country: 'FR', latitude: '48.8566', longitude: '2.3522' };
    const seed = async (when: string, list: string[]) => {
      for (const [i, price] of list.entries())
        await seedAward(app, { owner: owners[i % 3]!, winner: carrier, price, at: new Date(when), from, to });
    };
    await seed('2031-01-12T09:00:00Z', ['1050.00', '1100.00', '1120.00', '1150.00', '1210.00', '1260.00']);
    await seed('2031-02-10T09:00:00Z', ['990.00', '1400.00']); // too few: count only
    await seed('2031-03-05T09:00:00Z', ['1100.00', '1150.00', '1180.00', '1200.00', '1300.00']);
    for (const lang of ['eng', 'deu'] as const) {
      const shipper = await app.actor(`Verlader ${lang}`, { language: lang });
      const freight = await addFreight(app, shipper, {
        from: 'city:60311',
        from_country: 'DE',
        to: 'city:75001',
        to_country: 'FR',
        weight: 12000,
        refs: { target_rate: '1150', target_currency: 'EUR' },
      });
      people[lang] = { shipper, freight };
    }
    await citiesReady();
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  for (const [lang, viewport] of [
    ['eng', DESKTOP],
    ['deu', PHONE],
  ] as const) {
    test(`${lang} at ${viewport.width} px: hint beside the price on the form and the freight page, then the lane’s chart`, async () => {
      const text = TEXT[lang];
      const { shipper, freight } = people[lang];
      const page = await pageFor(browser, base, shipper, viewport, contexts);

      await page.goto(`${base}/freights/edit/${freight}`);
      const field = page.locator('#f-refs-target-rate-');
      await field.waitFor();
      const hint = page.locator('[data-testid="market-hint"]');
      assert.equal(plain(await hint.innerText()).split(' (')[0], text.hint);
      // The hint is the price field's description: read out with it.
      const described = (await field.getAttribute('aria-describedby')) ?? '';
      assert.ok(described.includes('f-refs-target-rate--hint'), described);
      await assertNoSideScroll(page, `${lang} freight form`);

      await page.goto(`${base}/freights/view/${freight}`);
      const fact = page.locator('dt', { hasText: text.fact });
      assert.equal(await fact.count(), 1);
      assert.ok(plain(await page.locator('[data-testid="market-hint"]').innerText()).startsWith(text.hint));
      await screenshot(page, `lane-hint-${lang}-${viewport.width}`);

      // The hint links to the lane's chart, whose form holds the lane.
      await Promise.all([page.waitForURL(/\/market\/prices\?/), page.locator('[data-testid="market-hint"] a').click()]);
      assert.equal(await page.locator('h1').innerText(), text.title);
      assert.equal(await page.locator('#lp-from').inputValue(), 'DE-60');
      assert.equal(await page.locator('#lp-to').inputValue(), 'FR-75');
      const chart = page.locator('svg[data-testid="lane-chart"]');
      assert.equal(await chart.getAttribute('role'), 'img');
      assert.ok((await chart.locator('title').textContent())?.includes('DE-60'));
      // Both axes are labelled; one median point per month with figures (January and March).
      assert.equal(await chart.locator('.axis-label').count(), 2);
      assert.equal(await chart.locator('circle.median').count(), 2 + 1 /* the legend's */);
      // The values as a table: March's median, February hidden (2 awards).
      const rows = page.locator('[data-testid="lane-months"] tbody tr');
      assert.equal(await rows.count(), 12);
      const march = plain(await rows.nth(11).innerText());
      assert.ok(march.includes(text.median), march);
      assert.ok(plain(await rows.nth(10).innerText()).includes(text.hidden));
      // A month without awards (April 2030) says only that; on a phone it is one line, not a card of dashes.
      const empty = rows.nth(0);
      assert.equal(await empty.getAttribute('class'), 'brief');
      assert.equal(await rows.nth(11).getAttribute('class'), null);
      if (viewport.width < 761) {
        const [line, card] = [await empty.boundingBox(), await rows.nth(11).boundingBox()];
        assert.ok(line && card && line.height * 3 < card.height, `a month without awards is one line (${line?.height} px)`);
        assert.equal(plain(await empty.innerText()).includes('–'), false, 'no dashes on the phone');
      }
      await assertNoSideScroll(page, `${lang} lane prices`);
      const chartBox = await chart.boundingBox();
      assert.ok(chartBox && chartBox.width <= viewport.width, 'the chart fits the screen');
      assert.deepEqual(await axeProblems(page), []);
      await screenshot(page, `lane-prices-${lang}-${viewport.width}`);

      // Another window through the form: 3 months.
      await page.fill('#lp-months', '3');
      await Promise.all([page.waitForURL(/months=3/), page.locator('[data-testid="lane-form"] button[type="submit"]').click()]);
      assert.equal(await page.locator('[data-testid="lane-months"] tbody tr').count(), 3);

      // A postal code typed whole is read as its area, said in the user's language.
      await page.fill('#lp-from', 'DE-60311');
      await page.fill('#lp-months', '12');
      await Promise.all([page.waitForURL(/from=DE-60311/), page.locator('[data-testid="lane-form"] button[type="submit"]').click()]);
      assert.ok(plain(await page.locator('[data-testid="lane-warnings"]').innerText()).includes(text.area));
      // The form takes 1 to 36 months; a link or bookmark with more says so.
      await page.goto(`${page.url().replace(/months=\d+/, 'months=40')}`);
      const notes = plain(await page.locator('[data-testid="lane-warnings"]').innerText());
      assert.ok(notes.includes(text.area), notes);
      assert.ok(notes.includes(text.months), notes);
      assert.equal(await page.locator('[data-testid="lane-months"] tbody tr').count(), 12);
      assert.ok(plain(await page.locator('[data-testid="lane-months"] tbody tr').nth(11).innerText()).includes(text.median));

      // Typing a city suggests places (public/app.js, data-place="lane"): the city as its postal area, named in the user's language.
      await page.fill('#lp-to', '');
      await page.locator('#lp-to').pressSequentially(text.typed, { delay: 30 });
      await page.waitForFunction(
        (label) => [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).label === label),
        text.suggested.label,
      );
      const options = page.locator(`datalist#${await page.locator('#lp-to').getAttribute('list')} option`);
      const offered = await options.evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => ({ value: o.value, label: o.label })));
      assert.ok(
        offered.some((o) => o.value === text.suggested.value && o.label === text.suggested.label),
        JSON.stringify(offered),
      );
      // The suggestion's value is a lane the page reads as it is (no warning about it).
      await page.fill('#lp-to', text.suggested.value);
      await Promise.all([
        page.waitForURL(new RegExp(`to=${text.suggested.value}`)),
        page.locator('[data-testid="lane-form"] button[type="submit"]').click(),
      ]);
      assert.equal(await page.locator('#lp-to').inputValue(), text.suggested.value);
      assert.ok(!plain(await page.locator('body').innerText()).includes(`${text.suggested.value} read as`));
    });
  }

  test('without a lane the page asks for one; an unreadable lane says why', async () => {
    const page = await pageFor(browser, base, people.eng.shipper, DESKTOP, contexts);
    await page.goto(`${base}/market/prices`);
    assert.equal(await page.locator('.flash.error').count(), 0);
    assert.equal(await page.locator('svg[data-testid="lane-chart"]').count(), 0);
    await page.goto(`${base}/market/prices?from=XX&to=FR-75`);
    assert.match(plain(await page.locator('.flash.error').innerText()), /Name the lane/);
  });
});
