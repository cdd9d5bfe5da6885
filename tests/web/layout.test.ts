import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { DESKTOP, LONG_WORDS_FREIGHT, pageFor, PHONE } from './helpers.ts';

/**
 * The layout at a phone's 390 px and the office desk's 1366 px: the phone menu in two lines and its
 * skip link, the load search folded on a phone, the milk-run's moves on screen. That no page
 * scrolls sideways, and axe-core's verdict on every main page, in both languages at both widths,
 * are checked on the visits of tests/web/accessibility.test.ts (with this file's long words).
 */

const STATUS_CSV = [
  'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location',
  '176-10000001,RCF,2030-03-02 06:10,FRA,EK9901,4,1250.25,PER COL,A-12',
  '176-10000001,NFD,2030-03-02 09:00,FRA,,,,,',
].join('\n');

describe('pages at 390 and 1366 px in both languages', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const actors: Record<'deu' | 'eng', { shipper: Actor; carrier: Actor }> = {} as never;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    for (const lang of ['deu', 'eng'] as const) {
      actors[lang] = {
        shipper: await app.actor(`Spedition mit einem recht langen Firmennamen ${lang}`, { language: lang }),
        carrier: await app.actor(`Carrier ${lang}`, { language: lang }),
      };
    }
    const { shipper } = actors.deu;
    const post = async (who: Actor, url: string, json: Record<string, unknown>) => (await app.post(url, { token: who.token, json })).body;
    // The freight the load search finds on a phone (to ES, over 10 t), with long words.
    const open = (await post(shipper, '/freights/add.json', LONG_WORDS_FREIGHT)).data.id as number;
    await post(shipper, `/freights/view/${open}.json`, { action: 'publish', deadline: '+48 hours' });
    await post(shipper, '/files/push.json', {
      encoding: 'base64',
      content: Buffer.from(STATUS_CSV).toString('base64'),
      name: 'status.csv',
      action: 'status',
    });
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  test('the phone menu takes at most two lines; the skip link leads past it to the content', async () => {
    const page = await pageFor(browser, base, actors.deu.shipper, PHONE, contexts);
    await page.goto(`${base}/freights/enlist/10`);
    const bar = await page.locator('header.topbar').boundingBox();
    const line = await page.locator('header.topbar .brand').boundingBox();
    assert.ok(bar && line && bar.height <= line.height * 2 + 40, `the header is ${bar?.height}px high`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '#main');
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /Zum Inhalt/);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => location.hash), '#main');
  });

  test('the load search folds into one line on a phone (the list first) and stays open at the desk', async () => {
    const phone = await pageFor(browser, base, actors.deu.carrier, PHONE, contexts);
    await phone.goto(`${base}/freights/enlist/8?to=ES&weight_min=10000`);
    assert.equal(await phone.locator('[data-testid="search-bar"]').isVisible(), false, 'folded');
    assert.match(await phone.locator('[data-testid="search-fold"] > summary').innerText(), /Nach: ES · 10\.000–… kg/);
    const row = await phone.locator('[data-testid="freight-list"] tbody tr').first().boundingBox();
    assert.ok(row && row.y + 40 < PHONE.height, `the first freight is on the first screen (${row?.y}px)`);
    await phone.click('[data-testid="search-fold"] > summary');
    assert.equal(await phone.locator('[data-testid="search-bar"]').isVisible(), true, 'unfolds without script');
    // A search with an unreadable part opens by itself, so its warning is seen.
    await phone.goto(`${base}/freights/enlist/8?weight_min=viel`);
    assert.equal(await phone.locator('[data-testid="search-bar"]').isVisible(), true);
    const desk = await pageFor(browser, base, actors.eng.carrier, DESKTOP, contexts);
    await desk.goto(`${base}/freights/enlist/8?to=ES`);
    assert.equal(await desk.locator('[data-testid="search-bar"]').isVisible(), true, 'open at the desk');
    assert.equal(await desk.locator('[data-testid="search-fold"] > summary').isVisible(), false, 'no fold line at the desk');
  });

  test('the milk-run moves are all visible beside the list at 1366 px', async () => {
    const page = await pageFor(browser, base, actors.deu.shipper, DESKTOP, contexts);
    await page.goto(`${base}/milkrun/import/short/70`);
    for (const move of ['select', 'deselect', 'follow-up']) {
      const button = page.locator(`form[action^="/milkrun/${move}/"] button`).first();
      const box = await button.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= DESKTOP.width, `${move} is on screen (${JSON.stringify(box)})`);
    }
  });
});
