import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

describe('browser: session', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let alice: Actor;

  before(async () => {
    app = await startTestApp();
    alice = await app.actor('Alice');
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('a page without a session leads to the login form, and back after login', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/users/me`);
    assert.equal(new URL(page.url()).pathname, '/users/login');
    await screenshot(page, 'login');
    await page.fill('input[name="auth[user]"]', alice.email);
    await page.fill('input[name="auth[password]"]', alice.password);
    await Promise.all([page.waitForURL(`${base}/users/me`), page.click('button[type="submit"]')]);
    assert.match(await page.content(), new RegExp(alice.companyName));
    await page.close();
  });

  // Issue 24, item 11: after a failed login the e-mail stays in its field, the password does not.
  for (const [locale, width] of [
    ['de-DE', 1366],
    ['de-DE', 390],
    ['en-GB', 1366],
    ['en-GB', 390],
  ] as const)
    test(`a wrong password shows the message on the login page, the e-mail kept (${locale}, ${width} px)`, async () => {
      const context = await browser.newContext({ locale, viewport: { width, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${base}/users/login`);
      await page.fill('input[name="auth[user]"]', alice.email);
      await page.fill('input[name="auth[password]"]', 'wrong-password');
      await Promise.all([page.waitForURL(/\/users\/login/), page.click('button[type="submit"]')]);
      assert.equal(await page.locator('.flash.error').count(), 1);
      assert.equal(await page.inputValue('input[name="auth[user]"]'), alice.email);
      assert.equal(await page.inputValue('input[name="auth[password]"]'), '');
      assert.equal(await page.locator('html').getAttribute('lang'), locale === 'de-DE' ? 'de' : 'en');
      await screenshot(page, `issue24-login-failed-${locale === 'de-DE' ? 'deu' : 'eng'}-${width}`);
      await context.close();
    });

  test('logout ends the session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await loginAs(page, base, alice.username, alice.password);
    await Promise.all([page.waitForURL(/\/users\/login/), page.click('.whoami button')]);
    await page.goto(`${base}/`);
    assert.equal(new URL(page.url()).pathname, '/users/login');
    await context.close();
  });
});
