import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { citiesReady } from '../../src/places/cities.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, DESKTOP, flashText, PHONE, pageFor, plain } from '../web/helpers.ts';

/**
 * Issue 24, item 8: saved searches and notifications in a dispatcher's words (places by name,
 * weights, days and times in the reader's language, no parameter names such as `from_near`), a
 * saved search changed from its page (numbers typed in the reader's language), and deleting one
 * asks first.
 */
describe('browser: saved searches and notifications in a dispatcher’s words', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let shipper: Actor;
  const carriers: Record<'deu' | 'eng', Actor> = {} as never;
  const contexts: BrowserContext[] = [];
  const searchIds: Record<'deu' | 'eng', number> = {} as never;
  /** For each language and width, a dispatcher with a saved search of its own to change and delete. */
  const editors: Record<string, { actor: Actor; search: number }> = {};
  const editor = (lang: string, viewport: { width: number }) => editors[`${lang}-${viewport.width}`]!;
  let matched = 0;

  const FRANKFURT = { from_near: '50.1109,8.6821', from_radius: '50', to: 'IT', weight_min: '5000', pickup_from: '2030-05-01' };
  const PARAM_NAMES = /from_near|from_radius|weight_min|pickup_from|\bto IT\b|50\.1109/;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    shipper = await app.actor('Shipper');
    carriers.deu = await app.actor('Spedition', { language: 'deu' });
    carriers.eng = await app.actor('Haulier', { language: 'eng' });
    for (const lang of ['deu', 'eng'] as const) {
      const res = await app.post('/searches/add.json', {
        token: carriers[lang].token,
        json: { name: 'Rhein-Main → Italien', filter: 8, params: FRANKFURT, alert: 1 },
      });
      assert.equal(res.body.status, 'success', res.text);
      searchIds[lang] = res.body.data.search.id;
      for (const viewport of [DESKTOP, PHONE]) {
        const actor = await app.actor(`Disponent ${lang} ${viewport.width}`, { language: lang });
        const own = await app.post('/searches/add.json', {
          token: actor.token,
          json: { name: 'Rhein-Main → Italien', filter: 8, params: FRANKFURT, alert: 1 },
        });
        assert.equal(own.body.status, 'success', own.text);
        editors[`${lang}-${viewport.width}`] = { actor, search: own.body.data.search.id };
      }
    }
    matched = await openFreight(app, shipper, {
      from: 'city:DE-60311',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'city:IT-20121',
      to_latitude: 45.4642,
      to_longitude: 9.19,
      weight: 11000,
      etd: '2030-05-04 08:00',
      etd_end: '2030-05-04 12:00',
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

  const rowOf = (page: Page, name: string) => page.locator('[data-testid="saved-searches"] tbody tr', { hasText: name });

  for (const [lang, words] of [
    ['deu', [/Von: 50 km um Frankfurt am Main \(DE\)/, /Nach: Italien/, /Abholung: 01\.05\.2030–…/, /5\.000–… kg/]],
    ['eng', [/From: 50 km around Frankfurt am Main \(DE\)/, /To: Italy/, /Pick-up: 2030-05-01–…/, /5,000–… kg/]],
  ] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: the saved search reads as a dispatcher says it`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/searches/index`);
        const row = plain(await rowOf(page, 'Rhein-Main').innerText());
        for (const w of words) assert.match(row, w);
        assert.doesNotMatch(row, PARAM_NAMES);
        await assertNoSideScroll(page, 'saved searches');
      });
    }
  }

  for (const [lang, words] of [
    ['deu', [/60311 Frankfurt am Main \(DE\) → 20121 Mailand \(IT\)/, /11\.000 kg/, /04\.05\.2030 08:00–12:00/]],
    ['eng', [/60311 Frankfurt am Main \(DE\) → 20121 Milan \(IT\)/, /11,000 kg/, /2030-05-04 08:00–12:00/]],
  ] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: a notification names the places, the weight and the times in the reader’s language`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/notifications/index`);
        const row = plain(await page.locator('[data-testid="notifications"] tbody tr').first().innerText());
        for (const w of words) assert.match(row, w);
        assert.doesNotMatch(row, /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/, 'no API timestamps with seconds');
        assert.doesNotMatch(row, /11000\.000|xxx/);
        assert.equal(await page.locator(`a[href^="/notifications/open/"]`).count(), 1);
        await assertNoSideScroll(page, 'notifications');
        if (viewport === DESKTOP && lang === 'deu') await screenshot(page, 'notifications-deu');
      });
    }
  }

  for (const [lang, viewport, typed] of [
    ['deu', DESKTOP, '7.500'],
    ['deu', PHONE, '7.500'],
    ['eng', DESKTOP, '7,500'],
    ['eng', PHONE, '7,500'],
  ] as const) {
    test(`${lang} at ${viewport.width} px: a saved search is changed from its page, its weight read in the reader’s language`, async () => {
      const { actor, search: searchId } = editor(lang, viewport);
      const page = await pageFor(browser, base, actor, viewport, contexts);
      await page.goto(`${base}/searches/index`);
      await Promise.all([page.waitForURL(/edit=/), rowOf(page, 'Rhein-Main').locator('a[href*="edit="]').click()]);
      const form = page.locator('[data-testid="search-form"]');
      assert.equal(await form.locator('input[name="params[weight_min]"]').inputValue(), lang === 'deu' ? '5.000' : '5,000');
      assert.match(
        plain(await form.innerText()),
        lang === 'deu' ? /bei Frankfurt am Main \(DE\)/ : /near Frankfurt am Main \(DE\)/,
        'the centre by name',
      );
      await form.locator('input[name="params[weight_min]"]').fill(typed);
      await form.locator('input[name="name"]').fill('Rhein-Main → Italien, schwer');
      await form.locator('input[name="alert"]').uncheck();
      await Promise.all([page.waitForURL(`${base}/searches/index`), form.locator('button[type="submit"]').click()]);
      assert.match(await flashText(page), lang === 'deu' ? /Suche geändert/ : /Search changed/);
      const search = (await app.get('/searches/index.json', { token: actor.token })).body.data.searches.find(
        (s: { id: number }) => s.id === searchId,
      );
      assert.equal(search.params.weight_min, '7500');
      assert.equal(search.params.from_near, FRANKFURT.from_near, 'the rest stays');
      assert.equal(search.params.from_radius, '50');
      assert.equal(search.alert, 0);
      assert.equal(search.name, 'Rhein-Main → Italien, schwer');
      assert.match(plain(await rowOf(page, 'schwer').innerText()), lang === 'deu' ? /7\.500–… kg/ : /7,500–… kg/);
      await assertNoSideScroll(page, `saved searches ${lang}`);
    });
  }

  test('deu: an unreadable weight keeps the saved one and is said next to its field, with the text as typed', async () => {
    const { actor, search: searchId } = editor('deu', DESKTOP);
    const page = await pageFor(browser, base, actor, DESKTOP, contexts);
    await page.goto(`${base}/searches/index?edit=${searchId}`);
    const form = page.locator('[data-testid="search-form"]');
    await form.locator('input[name="params[weight_min]"]').fill('schwer');
    await form.locator('input[name="params[q]"]').fill('Maschinen');
    await Promise.all([page.waitForLoadState('load'), form.locator('button[type="submit"]').click()]);
    await page.waitForSelector('[data-testid="search-form"] .field-error:not(:empty)');
    assert.match(await page.locator('#s-params-weight-min-error').innerText(), /Kein Gewicht in kg/);
    assert.equal(await page.locator('input[name="params[weight_min]"]').inputValue(), 'schwer');
    const search = (await app.get('/searches/index.json', { token: actor.token })).body.data.searches[0];
    assert.equal(search.params.weight_min, '7500', 'the saved weight stays');
    assert.equal(search.params.q, 'Maschinen', 'the rest was saved');
  });

  for (const [lang, viewport] of [
    ['deu', DESKTOP],
    ['deu', PHONE],
    ['eng', DESKTOP],
    ['eng', PHONE],
  ] as const) {
    test(`${lang} at ${viewport.width} px: deleting a saved search asks first`, async () => {
      const { actor, search: searchId } = editor(lang, viewport);
      const page = await pageFor(browser, base, actor, viewport, contexts);
      await page.goto(`${base}/searches/index`);
      const box = page.locator(`[data-testid="delete-search-${searchId}"]`);
      await box.locator('summary').click();
      assert.match(
        plain(await box.locator('.confirm-box').innerText()),
        lang === 'deu'
          ? /gespeicherte Suche „Rhein-Main → Italien, schwer“ löschen\?/
          : /Delete the saved search “Rhein-Main → Italien, schwer”\?/,
      );
      assert.equal((await app.get('/searches/index.json', { token: actor.token })).body.data.searches.length, 1, 'not yet');
      await assertNoSideScroll(page, `delete confirmation ${lang}`);
      if (viewport === PHONE && lang === 'deu') await screenshot(page, 'saved-search-delete-phone-deu');
      await Promise.all([page.waitForURL(`${base}/searches/index`), box.locator('.confirm-box button[type="submit"]').click()]);
      assert.equal((await app.get('/searches/index.json', { token: actor.token })).body.data.searches.length, 0);
      assert.ok(matched > 0);
    });
  }
});
