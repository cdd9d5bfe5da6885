import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EVENT_TYPES } from '../../src/events/types.ts';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, DESKTOP, flashText, pageFor, PHONE } from './helpers.ts';

/**
 * The company's webhook settings as a dispatcher uses them (issue 24, item 9), in German and
 * English at 1366 and 390 px: every event checkbox has its own name beside it on its line; a
 * webhook is deleted only after a second, confirming click; registering an address twice is
 * refused with the reason.
 */

const TEXT = {
  deu: { all: 'Alle Ereignisse (*)', deleted: /Webhook gelöscht/, twice: /schon einen Webhook/, question: /löschen\?/ },
  eng: {
    all: 'All events (*)',
    deleted: /Webhook deleted/,
    twice: /has a webhook for this address already/,
    question: /Delete the webhook/,
  },
} as const;

describe('browser: the webhook settings page', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
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

  /** Each checkbox of the events, its value, the text of its label, and where both sit. */
  const checkboxes = (page: Page) =>
    page.locator('form[action="/webhooks/add"] input[type="checkbox"]').evaluateAll((boxes) =>
      boxes.map((box) => {
        const label = box.closest('label')!;
        const name = [...label.childNodes]
          .filter((n) => n !== box)
          .map((n) => n.textContent ?? '')
          .join('')
          .trim();
        const b = box.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(label.lastElementChild && label.lastElementChild !== box ? label.lastElementChild : label);
        const n = range.getBoundingClientRect();
        return {
          value: (box as HTMLInputElement).value,
          name,
          box: { x: b.x, y: b.y, h: b.height },
          text: { x: n.x, y: n.y, h: n.height },
        };
      }),
    );

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`each event checkbox has its own name beside it (${lang}, ${viewport.width} px)`, async () => {
        const page = await pageFor(browser, base, actors[lang], viewport, contexts);
        await page.goto(`${base}/webhooks/index`);
        const boxes = await checkboxes(page);
        assert.deepEqual(
          boxes.map((b) => b.value),
          ['*', ...EVENT_TYPES],
        );
        for (const b of boxes) {
          assert.equal(b.name, b.value === '*' ? TEXT[lang].all : b.value, `the label of ${b.value} names it`);
          const boxMiddle = b.box.y + b.box.h / 2;
          assert.ok(
            boxMiddle >= b.text.y && boxMiddle <= b.text.y + b.text.h,
            `${b.value}: its name is on the checkbox's line (box at ${b.box.y}, name at ${b.text.y})`,
          );
          assert.ok(b.text.x > b.box.x, `${b.value}: its name is right of the box`);
        }
        // The name is what a screen reader announces for the box.
        for (const type of ['freight.published', 'bid.created']) await page.getByRole('checkbox', { name: type, exact: true }).check();
        assert.equal(await page.locator('input[value="bid.created"]').isChecked(), true);
      });
    }
  }

  for (const [lang, viewport] of [
    ['deu', DESKTOP],
    ['deu', PHONE],
    ['eng', DESKTOP],
    ['eng', PHONE],
  ] as const) {
    test(`adding an address twice is refused with the reason; deleting asks first (${lang}, ${viewport.width} px)`, async () => {
      const T = TEXT[lang];
      const page = await pageFor(browser, base, actors[lang], viewport, contexts);
      const url = `https://hooks.example.com/${lang}/${viewport.width}`;
      const add = async () => {
        await page.goto(`${base}/webhooks/index`);
        await page.fill('input[name="url"]', url);
        await page.getByRole('checkbox', { name: 'freight.awarded', exact: true }).check();
        await Promise.all([page.waitForLoadState('load'), page.click('form[action="/webhooks/add"] button[type="submit"]')]);
      };
      await add();
      assert.match(await page.locator('[data-testid="webhook-secret"]').innerText(), /^whsec_/);
      await add();
      assert.equal(new URL(page.url()).pathname, '/webhooks/index', 'back to the list');
      assert.match(await flashText(page), T.twice);
      assert.equal(await page.locator('[data-testid="webhooks"] tbody tr').count(), 1, 'still one webhook');
      await assertNoSideScroll(page, `webhooks ${lang}`);

      // Delete: the first click only asks.
      const box = page.locator('[data-testid="delete-webhook"]').first();
      await box.locator('summary').click();
      assert.match(await box.locator('.confirm-box').innerText(), T.question);
      assert.ok((await box.locator('.confirm-box').innerText()).includes(url), 'the question names the address');
      const listed = await app.get('/webhooks/index.json', { token: actors[lang].token });
      assert.equal(listed.body.data.webhooks.length, 1, 'nothing deleted yet');
      await Promise.all([page.waitForURL(`${base}/webhooks/index`), box.locator('.confirm-box button[type="submit"]').click()]);
      assert.match(await flashText(page), T.deleted);
      assert.equal((await app.get('/webhooks/index.json', { token: actors[lang].token })).body.data.webhooks.length, 0);
    });
  }
});
