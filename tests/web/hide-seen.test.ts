import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, flashText, pageFor, PHONE, plain } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * Issue 47, item 11's last part (hide a load or mark it seen): on the market list a carrier sees
 * which loads it opened before (the row muted, "Gesehen" / "Seen"), hides a load with the row's
 * button (it leaves this user's market, the list comes back with a message), finds it on "Hidden
 * loads" and shows it again there. German and English, 1366 and 390 px, axe 0 problems.
 * Screenshots: issue47-item11-hide-<lang>-<width> (the market with a seen row and the hide buttons).
 */

const WORDS = {
  deu: {
    seen: 'Gesehen',
    hide: 'Ausblenden',
    hiddenLink: 'Ausgeblendete Ladungen',
    unhide: 'Wieder einblenden',
    hidden: 'ist in Ihrer Börse ausgeblendet',
    back: 'ist wieder in Ihrer Börse',
  },
  eng: {
    seen: 'Seen',
    hide: 'Hide',
    hiddenLink: 'Hidden loads',
    unhide: 'Show again',
    hidden: 'is hidden from your market',
    back: 'is back in your market',
  },
} as const;

describe('browser: hide a load of the market, loads seen marked (issue 47, item 11)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const carriers = new Map<string, Actor>();
  const contexts: BrowserContext[] = [];
  let opened = 0;
  let other = 0;

  before(async () => {
    ({ app, browser, base } = await openBrowserSuite({
      setup: async (app) => {
        const shipper = await app.actor('Verlader');
        opened = await openFreight(app, shipper, { from: 'city:DE-80331', to: 'city:IT-20121', weight: 7000, etd: '2030-05-04 08:00' });
        other = await openFreight(app, shipper, { from: 'city:DE-60311', to: 'city:PL-00-001', weight: 12000, etd: '2030-05-05 08:00' });
        // A user of its own per language and width: hides and seen marks are per user.
        for (const lang of ['deu', 'eng'] as const)
          for (const viewport of [DESKTOP, PHONE])
            carriers.set(`${lang}-${viewport.width}`, await app.actor(`Spedition ${lang} ${viewport.width}`, { language: lang }));
      },
    }));
  });
  after(() => closeBrowserSuite(contexts, browser, app));

  const row = (page: Page, id: number) =>
    page.locator('[data-testid="freight-list"] tbody tr', { has: page.locator(`a[href="/freights/view/${id}"]`) });

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      const w = WORDS[lang];
      test(`${lang} at ${viewport.width} px: a load opened reads as seen; hide it from the row, show it again from "hidden loads"`, async () => {
        const page = await pageFor(browser, base, carriers.get(`${lang}-${viewport.width}`)!, viewport, contexts);
        await page.goto(`${base}/freights/enlist/8`);
        assert.equal(await row(page, opened).count(), 1);
        assert.equal(await page.locator('[data-testid="seen-mark"]').count(), 0, 'nothing opened yet');
        // Opening the load's page marks it seen for this user.
        await page.goto(`${base}/freights/view/${opened}`);
        await page.goto(`${base}/freights/enlist/8`);
        assert.equal(await row(page, opened).getAttribute('class'), 'seen');
        assert.equal(plain(await row(page, opened).locator('[data-testid="seen-mark"]').innerText()).trim(), w.seen);
        assert.equal(await row(page, other).locator('[data-testid="seen-mark"]').count(), 0);
        const hideButton = row(page, other).locator('[data-testid="hide"] button');
        assert.equal(plain(await hideButton.innerText()).trim(), w.hide);
        await screenshot(page, `issue47-item11-hide-${lang}-${viewport.width}`);
        assert.deepEqual(await axeProblems(page), [], 'axe: the market with a seen row and hide buttons');
        await assertNoSideScroll(page, `market ${lang}`);

        // Hide: back on the market, the load gone from it, a message saying where it went.
        await Promise.all([page.waitForURL(/\/freights\/enlist\/8/), hideButton.click()]);
        assert.ok((await flashText(page)).includes(w.hidden), await flashText(page));
        assert.equal(await row(page, other).count(), 0);
        assert.equal(await row(page, opened).count(), 1);

        // The hidden loads: the load with its button to show it again.
        await Promise.all([page.waitForURL(/\/freights\/hidden$/), page.locator('[data-testid="hidden-link"]').click()]);
        assert.equal(plain(await page.locator('h1').innerText()).trim(), w.hiddenLink);
        assert.equal(await row(page, other).count(), 1);
        assert.equal(await row(page, opened).count(), 0);
        assert.deepEqual(await axeProblems(page), [], 'axe: the hidden loads');
        await assertNoSideScroll(page, `hidden loads ${lang}`);
        const unhide = row(page, other).locator('[data-testid="unhide"] button');
        assert.equal(plain(await unhide.innerText()).trim(), w.unhide);
        await Promise.all([page.waitForURL(/\/freights\/hidden$/), unhide.click()]);
        assert.ok((await flashText(page)).includes(w.back), await flashText(page));
        assert.equal(await row(page, other).count(), 0);
        await page.goto(`${base}/freights/enlist/8`);
        assert.equal(await row(page, other).count(), 1, 'back in the market');
      });
    }
  }
});
