import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { seedAward } from '../lanes/helpers.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 47, item 10 (docs/choices.md, "Lane prices on a thin lane"): a postal lane with too few
 * awards this month says how many more it needs and shows the country pair around it (DE → PL)
 * with its label, chart and figures; the per-km median is per road km, marked as an estimate
 * (item 1). German and English, at 1366 and 390 px.
 */

const TEXT = {
  eng: {
    needed:
      'Awards on this lane this month: 2. It needs at least 3 more (by at least 3 different shippers in all) before its figures show.',
    wider: 'The wider lane DE → PL',
    median: '€1,200',
    perKm: 'Median per road km (est.)',
    estimated: 'estimated',
  },
  deu: {
    needed:
      'Vergaben auf dieser Strecke diesen Monat: 2. Sie braucht noch mindestens 3 weitere (von insgesamt mindestens 3 verschiedenen Verladern), bevor ihre Zahlen erscheinen.',
    wider: 'Die weitere Strecke DE → PL',
    median: '1.200 €',
    perKm: 'Median je Straßen-km (ca.)',
    estimated: 'geschätzt',
  },
} as const;
type Lang = keyof typeof TEXT;

describe('lane prices on a thin lane (issue 47, item 10)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const readers = {} as Record<Lang, Actor>;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    app.setNow(new Date('2031-03-15T10:00:00Z'));
    const owners = [await app.actor('Rhein Logistik'), await app.actor('Main Spedition'), await app.actor('Isar Transporte')];
    const carrier = await app.actor('Wisła Trans');
    const frankfurt = { code: '60311', country: 'DE', latitude: '50.1109', longitude: '8.6821' };
    const poznan = { code: '61001', country: 'PL', latitude: '52.4064', longitude: '16.9252' };
    const munich = { code: '80331', country: 'DE', latitude: '48.1374', longitude: '11.5755' };
    const warsaw = { code: '00001', country: 'PL', latitude: '52.2297', longitude: '21.0122' };
    const at = new Date('2031-03-05T09:00:00Z');
    // DE-60 → PL-61: five awards of three shippers (released); DE-80 → PL-00: two (too few).
    for (const [i, price] of ['1000.00', '1100.00', '1200.00', '1300.00', '1400.00'].entries())
      await seedAward(app, { owner: owners[i % 3]!, winner: carrier, price, at, from: frankfurt, to: poznan });
    for (const [i, price] of ['1500.00', '1550.00'].entries())
      await seedAward(app, { owner: owners[i]!, winner: carrier, price, at, from: munich, to: warsaw });
    for (const lang of ['eng', 'deu'] as const) readers[lang] = await app.actor(`Disponent ${lang}`, { language: lang });
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  for (const lang of ['eng', 'deu'] as const)
    for (const viewport of [DESKTOP, PHONE])
      test(`${lang} at ${viewport.width} px: DE-80 → PL-00 needs 3 more awards and shows DE → PL`, async () => {
        const text = TEXT[lang];
        const page = await pageFor(browser, base, readers[lang], viewport, contexts);
        await page.goto(`${base}/market/prices?from=DE-80&to=PL-00`);
        assert.equal(plain(await page.locator('[data-testid="lane-needed"]').innerText()), text.needed);
        const wider = page.locator('[data-testid="lane-wider"]');
        assert.equal(plain(await wider.locator('h2').innerText()), text.wider);
        assert.equal(await wider.locator('svg[data-testid="lane-wider-chart"]').isVisible(), true);
        const march = wider.locator('[data-testid="lane-wider-months"] tbody tr').last();
        assert.match(plain(await march.innerText()), new RegExp(text.median.replace('.', '\\.')));
        // The per-km median is per road km, an estimate: "≈" on screen, "estimated" read out.
        const perKm = march.locator('[data-distance="estimate"]');
        assert.equal(plain((await perKm.locator('.visually-hidden').textContent()) ?? '').trim(), text.estimated);
        assert.match(plain(await perKm.innerText()), /^≈/);
        assert.ok(
          (await page.locator('[data-testid="lane-wider-months"] th, [data-testid="lane-wider-months"] td').allInnerTexts()).length > 0,
        );
        assert.ok(plain(await page.content()).includes(text.perKm));
        await assertNoSideScroll(page, `${lang} thin lane`);
        assert.deepEqual(await axeProblems(page), []);
        await screenshot(page, `issue47-thin-lane-${lang}-${viewport.width}`);
      });
});
