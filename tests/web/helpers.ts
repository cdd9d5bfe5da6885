import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Actor, TestApp } from '../support/harness.ts';
import { cookiesOf, csrfOf } from '../support/session.ts';

/** The two screens a dispatcher uses: the office desktop and a phone. */
export const DESKTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/**
 * A logged-in page of its own browser context. `bypassCSP` only lets the test inject axe-core; the
 * pages run under their policy otherwise. The login goes through the server's login form as a
 * browser's would (GET the form, POST it with its CSRF token; the password verified, the session
 * made), but from this process: the context gets the cookies it answered, and the page starts
 * blank, without Chromium loading the login page and the page after it for every actor (two page
 * loads of ~0.1 s of Chromium's CPU each, some 1,000 a run). The login form itself is tested in a
 * browser by tests/web/session.test.ts and the files that call loginAs.
 */
export async function pageFor(
  browser: Browser,
  base: string,
  actor: Actor,
  viewport: { width: number; height: number },
  contexts: BrowserContext[],
  locale?: string,
): Promise<Page> {
  // `locale`: the browser's own language (native date inputs follow it, not the page's).
  const context = await browser.newContext({ viewport, bypassCSP: true, ...(locale ? { locale } : {}) });
  contexts.push(context);
  await context.addCookies(await loginCookies(base, actor));
  return context.newPage();
}

/** The cookies a browser holds after logging in as `actor` through the login form at `base` (as browserSession, over HTTP). */
async function loginCookies(base: string, actor: Actor): Promise<Parameters<BrowserContext['addCookies']>[0]> {
  const setCookies = (res: Response) => cookiesOf({ headers: { 'set-cookie': res.headers.getSetCookie() } });
  const form = await fetch(`${base}/users/login`, { redirect: 'manual' });
  const jar = setCookies(form);
  const csrf = csrfOf(await form.text());
  const login = await fetch(`${base}/users/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, 'auth[user]': actor.email, 'auth[password]': actor.password }).toString(),
  });
  await login.arrayBuffer();
  assert.equal(login.status, 302, `${actor.email} logs in`);
  // Later pairs win: a cookie the login sets again replaces the form's.
  const pairs = new Map(
    `${jar}; ${setCookies(login)}`
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  return [...pairs].map(([name, value]) => ({ name, value, url: base, httpOnly: true, sameSite: 'Lax' as const }));
}

/**
 * A freight with the longest words a dispatcher meets (addresses, references, goods, a fractional
 * weight, a time window each way): what no page may let push it wider than a phone.
 */
export const LONG_WORDS_FREIGHT = {
  from: 'city:DE-04159',
  from_country: 'DE',
  from_addr: 'Hauptstraße 112, 04159 Leipzig-Möckern',
  from_latitude: 51.37,
  from_longitude: 12.36,
  to: 'city:ES-28021',
  to_country: 'ES',
  to_addr: 'Calle de la Princesa 1, Madrid',
  etd_range: '2030-05-04 08:00 to 2030-05-05 12:00',
  eta_range: '2030-05-07 08:00 to 2030-05-08 16:00',
  weight: 12500.5,
  refs: {
    customer: 'PO-4711-LONG-REFERENCE-2030',
    commodity: 'Maschinenteile auf Europaletten, nicht stapelbar, mit Hebebühne entladen',
  },
  pieces: [{ pieces: 12, depth: 120, width: 80, height: 160, weight: 1041.7 }],
};

/** A bid with a long note on such a freight. */
export const LONG_WORDS_BID = {
  amount: '1745.50',
  currency_code: 'EUR',
  note: 'Planensattelzug mit Hebebühne, Fahrer spricht Deutsch und Spanisch',
};

/**
 * Waits until `selector` matches in the page, by a plain evaluation (a MutationObserver in the
 * page): unlike a locator or `waitForFunction`, it makes Playwright send nothing into the page
 * but the function. A locator or `waitForFunction` evaluates Playwright's injected script
 * (~360 kB) in every new document it is used in, which cost tests/web/accessibility 159 of them,
 * 57 MB through the browser's pipe, per language and width. Rejects after `timeout` ms.
 */
export async function untilInPage(page: Page, selector: string, timeout: number): Promise<void> {
  const found = await page.evaluate(
    ([sel, ms]) =>
      new Promise<boolean>((resolve) => {
        if (document.querySelector(sel)) return resolve(true);
        const observer = new MutationObserver(() => {
          if (!document.querySelector(sel)) return;
          observer.disconnect();
          resolve(true);
        });
        observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
        setTimeout(() => {
          observer.disconnect();
          resolve(Boolean(document.querySelector(sel)));
        }, ms);
      }),
    [selector, timeout] as const,
  );
  if (!found) throw new Error(`${selector} did not appear within ${timeout} ms on ${page.url()}`);
}

/** How far the page scrolls sideways (0 when nothing is wider than the screen). */
export function sideScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
}

export async function assertNoSideScroll(page: Page, what: string): Promise<void> {
  const overflow = await sideScroll(page);
  assert.ok(overflow <= 0, `${what}: scrolls sideways by ${overflow}px at ${page.viewportSize()?.width}px`);
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations of the page (WCAG 2.x A/AA rules), as readable lines. */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            options: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** A binding action: open its confirmation box, then press the box's button (and wait for the page it leads to). */
export async function confirmAction(page: Page, box: Locator, url: string | RegExp): Promise<void> {
  await box.locator('summary').click();
  await Promise.all([page.waitForURL(url), box.locator('.confirm-box button[type="submit"]').click()]);
}

/** Text with the no-break spaces of number formats (`1.745,50 €`) as plain spaces. */
/** Opens the folded search bar where it is folded (on a phone). */
export async function openBar(page: Page): Promise<void> {
  const fold = page.locator('[data-testid="search-fold"]');
  if ((await fold.getAttribute('open')) === null && (await fold.locator('> summary').isVisible())) await fold.locator('> summary').click();
}

export const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
export const flashText = async (page: Page) => plain(await page.locator('[data-testid="flash"]').innerText());
export const nextStep = async (page: Page) => plain(await page.locator('[data-testid="next-step"]').innerText());

/** Gives an actor a real name (the contact person shown after an award). */
export async function setRealname(app: TestApp, actor: Actor, realname: string): Promise<void> {
  await app.services.db.updateTable('users').set({ realname }).where('id', '=', actor.user).execute();
}
