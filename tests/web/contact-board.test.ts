import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, pageFor, PHONE, plain, setRealname } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * Issue 47, item 11 (contact before the award): a carrier who sees a load in the market reads who
 * published it and how to reach them (the dispatcher's name and e-mail, the company's phone from
 * its profile) on the freight page, and each load's age in the lists ("vor 2 Std.", "2 h ago").
 * Screenshots: issue47-item11-<part>-<lang>-<width> (ISSUE47_STAGE=before names the run on the old code).
 */

const STAGE = process.env.ISSUE47_STAGE === 'before' ? '-before' : '';

const WORDS = {
  deu: { heading: 'Ansprechpartner für diese Ladung', age: 'vor 2 Std.' },
  eng: { heading: 'Contact for this load', age: '2 h ago' },
} as const;

describe('browser: contact before the award and the load’s age (issue 47, item 11)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const carriers = {} as Record<'deu' | 'eng', Actor>;
  const contexts: BrowserContext[] = [];
  let freight = 0;

  before(async () => {
    ({ app, browser, base } = await openBrowserSuite({
      setup: async (app) => {
        const shipper = await app.actor('Verlader');
        await setRealname(app, shipper, 'Erika Musterfrau');
        await app.services.db.updateTable('companies').set({ phone: '+49 89 123456' }).where('id', '=', shipper.company).execute();
        carriers.deu = await app.actor('Spedition', { language: 'deu' });
        carriers.eng = await app.actor('Carrier', { language: 'eng' });
        freight = await openFreight(app, shipper, { from: 'city:DE-80331', to: 'city:IT-20121', weight: 7000, etd: '2030-05-04 08:00' });
        // Published two hours and a bit ago.
        await app.services.db
          .updateTable('freights')
          .set({ created: new Date(Date.now() - 125 * 60_000) })
          .where('id', '=', freight)
          .execute();
      },
    }));
  });
  after(() => closeBrowserSuite(contexts, browser, app));

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      const w = WORDS[lang];
      test(`${lang} at ${viewport.width} px: the publisher's name and phone, and the load's age`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/enlist/8`);
        await screenshot(page, `issue47-item11-list-${lang}-${viewport.width}${STAGE}`);
        const row = page.locator('[data-testid="freight-list"] [data-testid="load-age"]').first();
        assert.equal(plain(await row.innerText()).trim(), w.age);
        await assertNoSideScroll(page, `list ${lang}`);

        await page.goto(`${base}/freights/view/${freight}`);
        await screenshot(page, `issue47-item11-contact-${lang}-${viewport.width}${STAGE}`);
        const contact = page.locator('[data-testid="contact"]');
        const text = plain(await contact.innerText());
        assert.ok(text.includes(w.heading), text);
        assert.ok(text.includes('Erika Musterfrau'), text);
        assert.equal(await contact.locator('[data-testid="contact-phone"]').getAttribute('href'), 'tel:+4989123456');
        assert.deepEqual(await axeProblems(page), [], 'axe: the freight page with the contact');
        await assertNoSideScroll(page, `freight page ${lang}`);
      });
    }
  }
});
