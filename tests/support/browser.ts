import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium (never a downloaded browser); browser tests skip where it is missing. Its
 * headless shell (package chromium-headless-shell, the "old" headless Chromium that Playwright
 * itself uses for headless runs) first: the same Blink and V8 without the full browser's window
 * machinery, and a third of its CPU (tests/web/layout: Chromium's processes 71 s → 22 s of CPU,
 * the file 62 → 36 s; docs/choices.md "Tests"). The full `chromium` where only it is installed.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
// On a developer machine without Chromium the browser suites skip; in CI they must run.
if (!HAVE_CHROMIUM && process.env.CI)
  throw new Error(`CI needs Debian's chromium-headless-shell (or chromium) at ${CHROMIUM} (.ci/run installs it)`);

/** How every test's Chromium is started (the machine has no network: Chromium reaches nothing). */
export const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM,
  headless: true,
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
};

/**
 * A Chromium for a test file. scripts/test.mjs starts one Chromium per lane
 * (tests/support/browser-server.ts) and names it in TEST_BROWSER_WS: the file connects to it
 * (its contexts and pages are its own, and close with it) instead of starting a browser of its
 * own. Without it (a file run alone), or when it cannot be reached, the file starts its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env.TEST_BROWSER_WS;
  if (shared) {
    try {
      return await chromium.connect(shared, { timeout: 15_000 });
    } catch (err) {
      process.stderr.write(`the lane's Chromium at ${shared} cannot be reached (${(err as Error).message}): starting one\n`);
    }
  }
  return chromium.launch(LAUNCH_OPTIONS);
}

const SCREENSHOTS = path.resolve(new URL('../../docs/screenshots/', import.meta.url).pathname);

/**
 * Takes a screenshot of a main page for the README (docs/screenshots/) when asked with
 * UPDATE_SCREENSHOTS=1, or when the README's copy is missing; otherwise none is taken (a test run
 * leaves the work tree clean and spends no time on pictures nobody keeps).
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const readme = path.join(SCREENSHOTS, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS !== '1' && fs.existsSync(readme)) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // The whole page by default; `fullPage: false` for the first screen of a long page (/docs).
  await page.screenshot({ path: readme, fullPage: options.fullPage ?? true });
}

/** Logs in through the login form and waits for the page after it. */
export async function loginAs(page: Page, baseUrl: string, user: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/users/login`);
  await page.fill('input[name="auth[user]"]', user);
  await page.fill('input[name="auth[password]"]', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/users/login')), page.click('button[type="submit"]')]);
}
