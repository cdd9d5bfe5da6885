import type { Browser, BrowserContext } from 'playwright-core';
import { citiesReady } from '../../src/places/cities.ts';
import { launchBrowser } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { DESKTOP, PHONE } from './helpers.ts';

/**
 * What every page suite starts and stops, written once: an app on Berlin time (the pages' dates
 * and times as a German or English reader sees them), listening, and one browser for all its
 * tests; at the end the pages' contexts, the browser and the app closed, in that order.
 *
 *   let app: TestApp;
 *   let browser: Browser;
 *   let base: string;
 *   const contexts: BrowserContext[] = [];
 *   before(async () => ({ app, browser, base } = await openBrowserSuite({ now: new Date('2030-05-01T08:00:00Z') })));
 *   after(() => closeBrowserSuite(contexts, browser, app));
 */

export interface BrowserSuite {
  app: TestApp;
  browser: Browser;
  /** the listening app's address */
  base: string;
}

export interface BrowserSuiteOptions {
  /** the app's clock, set before anything is written */
  now?: Date;
  /** what the suite writes before the app listens (its actors and freights) */
  setup?: (app: TestApp) => Promise<void>;
  /** wait for the city data, so towns are named and suggested (places/cities.ts answers without them before) */
  cities?: boolean;
}

export async function openBrowserSuite(options: BrowserSuiteOptions = {}): Promise<BrowserSuite> {
  const app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  if (options.now) app.setNow(options.now);
  await options.setup?.(app);
  const base = await app.listen();
  const browser = await launchBrowser();
  if (options.cities) await citiesReady();
  return { app, browser, base };
}

/** Closes what openBrowserSuite opened (and the pages' contexts); a part that never opened is passed over. */
export async function closeBrowserSuite(contexts: readonly BrowserContext[], browser?: Browser, app?: TestApp): Promise<void> {
  for (const c of contexts) await c.close();
  await browser?.close();
  await app?.close();
}

/** English and German at the desk's and a phone's width, in the order the deal suites walk them. */
export const LANGUAGES_AT_TWO_WIDTHS = [
  ['eng', DESKTOP],
  ['deu', PHONE],
  ['deu', DESKTOP],
  ['eng', PHONE],
] as const;
