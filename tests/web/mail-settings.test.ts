import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { UnsubscribeTokens } from '../../src/mail/unsubscribe.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, flashText, pageFor, PHONE, plain } from './helpers.ts';

/**
 * The e-mail settings page and the unsubscribe page (docs/reference.md#mail) as a dispatcher uses them,
 * in German and English at 1366 and 390 px: one choice per kind, saved with a message; the
 * unsubscribe link asks first, and its button switches the kind off without a login.
 */
const TEXT = {
  deu: { title: 'E-Mail-Einstellungen', alerts: 'Suchaufträge', daily: 'Täglich um 07:00', saved: /gespeichert/, done: /Erledigt/ },
  eng: { title: 'E-mail settings', alerts: 'Search alerts', daily: 'Daily at 07:00', saved: /saved/, done: /Done/ },
} as const;

describe('browser: the e-mail settings', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const actors = {} as Record<'deu' | 'eng', Actor>;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp();
    actors.deu = await app.actor('Spedition Nord', { language: 'deu' });
    actors.eng = await app.actor('Rhine Forwarding', { language: 'eng' });
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  for (const language of ['deu', 'eng'] as const) {
    for (const [width, viewport] of [
      ['desk', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      test(`${language}, ${width}: choose per kind, save, see it kept`, async () => {
        const who = actors[language];
        const page = await pageFor(browser, base, who, viewport, contexts);
        await page.goto(`${base}/users/settings`);
        const t = TEXT[language];
        assert.equal(plain(await page.locator('h1').innerText()), t.title);
        await assertNoSideScroll(page, 'settings');
        assert.deepEqual(await axeProblems(page), []);
        // The exchange sends no mail here (no SMTP_URL): the page says so, choices are kept anyway.
        assert.ok(await page.locator('[data-testid="mail-not-sending"]').isVisible());
        const alerts = page.locator('[data-testid="mail-kind-alerts"]');
        assert.match(plain(await alerts.locator('legend').innerText()), new RegExp(t.alerts));
        assert.ok(await alerts.getByLabel(t.daily).isChecked(), 'the default');
        await alerts.locator('input[value="instant"]').check();
        await page.locator('[data-testid="mail-kind-documents"] input[value="daily"]').check();
        await Promise.all([
          page.waitForURL(`${base}/users/settings`),
          page.locator('form[data-testid="mail-settings"] button[type="submit"]').click(),
        ]);
        assert.match(await flashText(page), t.saved);
        assert.ok(await page.locator('[data-testid="mail-kind-alerts"] input[value="instant"]').isChecked());
        const api = await app.get('/users/settings.json', { token: who.token });
        assert.equal(api.body.data.email.alerts, 'instant');
        assert.equal(api.body.data.email.documents, 'daily');
        await screenshot(page, `mail-settings-${language}-${width}`);
        // Back to the defaults for the next width.
        await app.post('/users/settings.json', { token: who.token, json: { email: { alerts: 'daily', documents: 'off' } } });
      });
    }

    test(`${language}: the unsubscribe link asks, its button switches the kind off without a login`, async () => {
      const who = actors[language];
      const token = new UnsubscribeTokens(app.tokens.derivedKey('mail-unsubscribe')).token(who.user, 'bids');
      const context = await browser.newContext({ viewport: PHONE, bypassCSP: true });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${base}/mail/unsubscribe/${token}`);
      await assertNoSideScroll(page, 'unsubscribe');
      assert.deepEqual(await axeProblems(page), []);
      assert.equal((await app.get('/users/settings.json', { token: who.token })).body.data.email.bids, 'instant');
      await Promise.all([page.waitForLoadState('load'), page.locator('[data-testid="unsubscribe"]').click()]);
      await page.waitForSelector('[data-testid="unsubscribed"]');
      assert.match(plain(await page.locator('[data-testid="unsubscribed"]').innerText()), TEXT[language].done);
      assert.equal((await app.get('/users/settings.json', { token: who.token })).body.data.email.bids, 'off');
      await screenshot(page, `mail-unsubscribed-${language}-phone`);
    });
  }
});
