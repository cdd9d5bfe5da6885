import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser); browser tests skip where it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

const SCREENSHOTS = path.resolve(new URL('../../docs/screenshots/', import.meta.url).pathname);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The machine has no network: keep Chromium from trying to reach anything.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Saves a screenshot for the README (only on the embedded-database run, so it is taken once). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.TEST_DB === 'postgres') return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Logs in through the login form and waits for the page after it. */
export async function loginAs(page: Page, baseUrl: string, user: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/users/login`);
  await page.fill('input[name="auth[user]"]', user);
  await page.fill('input[name="auth[password]"]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/users/login')), page.click('button[type="submit"]')]);
}
