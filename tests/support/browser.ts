import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser); browser tests skip where it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
// On a developer machine without Chromium the browser suites skip; in CI they must run.
if (!HAVE_CHROMIUM && process.env.CI) throw new Error(`CI needs Debian's chromium at ${CHROMIUM} (.ci/run installs it)`);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The machine has no network: keep Chromium from trying to reach anything.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

const SCREENSHOTS = path.resolve(new URL('../../docs/screenshots/', import.meta.url).pathname);
const SCRATCH = path.resolve(new URL('../../.test-cache/screenshots/', import.meta.url).pathname);

/**
 * Takes a screenshot of a main page (on the embedded-database run only, so once per test run).
 * The README's copy in docs/screenshots/ is written when missing or with UPDATE_SCREENSHOTS=1;
 * otherwise it goes to .test-cache/, so a test run leaves the work tree clean.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.TEST_DB === 'postgres') return;
  const readme = path.join(SCREENSHOTS, `${name}.png`);
  const dir = process.env.UPDATE_SCREENSHOTS === '1' || !fs.existsSync(readme) ? SCREENSHOTS : SCRATCH;
  fs.mkdirSync(dir, { recursive: true });
  // The whole page by default; `fullPage: false` for the first screen of a long page (/docs).
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** Logs in through the login form and waits for the page after it. */
export async function loginAs(page: Page, baseUrl: string, user: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/users/login`);
  await page.fill('input[name="auth[user]"]', user);
  await page.fill('input[name="auth[password]"]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/users/login')), page.click('button[type="submit"]')]);
}
