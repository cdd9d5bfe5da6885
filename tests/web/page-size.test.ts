import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, DESKTOP, PHONE, plain } from './helpers.ts';

/**
 * Issue 24, item 11 (page size): a list page shows 20, 50 or 100 freights, chosen beside the
 * pager (docs/reference.md#the-api caps `limit` at 100). The choice is the URL's `limit`, so it needs no script and
 * stays through the next page, the sort headers, the search bar and the tabs; choosing another
 * size keeps the first row shown on the page. The browser runs with JavaScript off. In German and
 * English, at 1366 and 390 px.
 */

const FREIGHTS = 60;
const LABEL = { deu: 'Pro Seite:', eng: 'Per page:' } as const;

describe('browser: the list pages offer 20, 50 or 100 rows a page (issue 24, item 11)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const carriers = {} as Record<'deu' | 'eng', Actor>;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    const shipper = await app.actor('Versender');
    carriers.deu = await app.actor('Spedition', { language: 'deu' });
    carriers.eng = await app.actor('Carrier', { language: 'eng' });
    for (let i = 0; i < FREIGHTS; i++) {
      const add = await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:IT-20121', weight: 1000 + i, etd: '2030-05-04 08:00' },
      });
      await app.post(`/freights/view/${add.body.data.id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+3 days' } });
    }
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  async function noScriptPage(actor: Actor, viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await loginAs(page, base, actor.email, actor.password);
    return page;
  }
  const rows = (page: Page) => page.locator('[data-testid="freight-list"] tbody tr').count();
  const limit = (page: Page) => new URL(page.url()).searchParams.get('limit');
  const go = (page: Page, click: () => Promise<void>) => Promise.all([page.waitForNavigation(), click()]);
  const size = (page: Page, n: number) => page.locator(`[data-testid="page-size"] a`, { hasText: new RegExp(`^${n}$`) });

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: 20 by default, 50 and 100 chosen, kept by the pager, the sort, the search and the tabs`, async () => {
        const page = await noScriptPage(carriers[lang], viewport);
        await page.goto(`${base}/freights/enlist/8`);
        assert.equal(await rows(page), 20);
        const choice = plain(await page.locator('[data-testid="page-size"]').innerText());
        assert.ok(choice.startsWith(LABEL[lang]), choice);
        assert.equal(await page.locator('[data-testid="page-size"] [aria-current="true"]').innerText(), '20');

        // Page 2 of 20 shows rows 21-40: choosing 50 keeps row 21 in view (page 1 of 50).
        await go(page, () => page.locator('.pager a', { hasText: lang === 'deu' ? 'Weiter' : 'Next' }).click());
        assert.equal(new URL(page.url()).searchParams.get('page'), '2');
        await go(page, () => size(page, 50).click());
        assert.equal(limit(page), '50');
        assert.equal(new URL(page.url()).searchParams.get('page'), '1');
        assert.equal(await rows(page), 50);
        assert.equal(await page.locator('[data-testid="page-size"] [aria-current="true"]').innerText(), '50');
        await assertNoSideScroll(page, `list with 50 rows ${lang}`);

        // The next page keeps the size.
        await go(page, () => page.locator('.pager a', { hasText: lang === 'deu' ? 'Weiter' : 'Next' }).click());
        assert.equal(limit(page), '50');
        assert.equal(await rows(page), FREIGHTS - 50);
        await screenshot(page, `issue24-page-size-${lang}-${viewport.width}`);
        // A sort header keeps it (on a phone its link is followed: the header row is for screen readers).
        const header = page.locator('[data-testid="freight-list"] th a', { hasText: lang === 'deu' ? 'Gewicht' : 'Weight' });
        await page.goto(`${base}${await header.getAttribute('href')}`);
        assert.equal(limit(page), '50');
        assert.equal(await rows(page), 50);
        // The search bar keeps it.
        const fold = page.locator('[data-testid="search-fold"]');
        if ((await fold.getAttribute('open')) === null && (await fold.locator('> summary').isVisible()))
          await fold.locator('> summary').click();
        await page.fill('[data-testid="search-bar"] input[name="to"]', 'IT');
        await go(page, () => page.click('[data-testid="search-bar"] button[type="submit"]'));
        assert.equal(limit(page), '50');
        assert.equal(await rows(page), 50);
        // A tab keeps it.
        const tab = page.locator('.tabs a', { hasText: lang === 'deu' ? 'Meine Gebote' : 'My bids' });
        assert.match((await tab.getAttribute('href')) ?? '', /limit=50/);
        // 100: every freight on one page.
        await go(page, () => size(page, 100).click());
        assert.equal(limit(page), '100');
        assert.equal(await rows(page), FREIGHTS);
        await assertNoSideScroll(page, `list with 100 rows ${lang}`);
      });
    }
  }

  test('the other paged pages offer the sizes too, and an API limit over 100 is read as 100', async () => {
    const page = await noScriptPage(carriers.eng, DESKTOP);
    await page.goto(`${base}/flights/index`);
    assert.equal(await page.locator('[data-testid="page-size"] a').count(), 2);
    await go(page, () => size(page, 100).click());
    assert.equal(limit(page), '100');
    const api = await app.get('/freights/enlist/8.json?limit=500', { token: carriers.eng.token });
    assert.equal(api.body.data.routes.length, FREIGHTS);
  });
});
