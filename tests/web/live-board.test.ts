import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LIST, listPath } from '../../src/freights/index.ts';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, openFreight } from '../freights/helpers.ts';
import { confirmAction, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';

/**
 * docs/reference.md#live-board in a browser: a carrier's open market list shows a freight that a shipper
 * publishes in another browser, within 2 seconds and without a reload, at the top and marked new,
 * while the row the carrier was reading stays where it was; the shipper's freight page shows the
 * carrier's bid the same way, and the carrier's header counts the shipper's message. English at
 * the desk, German on a phone.
 */

const TEXT = {
  eng: { note: 'New at the top of the list: 1', updated: 'This freight has changed', messages: 'Messages' },
  deu: { note: 'Neu oben in der Liste: 1', updated: 'Diese Fracht hat sich geändert', messages: 'Nachrichten' },
} as const;

/** The contract's bound: a published freight is on the open list within 2 s. */
const WITHIN_MS = 2_000;

describe('pages: the live board (docs/reference.md#live-board)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp();
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  for (const [lang, viewport] of [
    ['eng', DESKTOP],
    ['deu', PHONE],
  ] as const) {
    const T = TEXT[lang];
    test(`${lang} ${viewport.width}px: a freight published in another browser appears on the carrier's open list`, async () => {
      const shipper = await app.actor(`Verlader ${lang}`, { language: lang });
      const carrier = await app.actor(`Spedition ${lang}`, { language: lang });
      // A long list, so that the carrier reads somewhere in the middle of it.
      const earlier: number[] = [];
      for (let i = 0; i < 14; i++)
        earlier.push(await openFreight(app, shipper, { from: 'airport:FRA', to: 'airport:AMS', weight: 100 + i }));
      const draft = await addFreight(app, shipper, { from: 'airport:MUC', to: 'airport:CDG', weight: 4321, etd: '2031-06-02 08:00' });

      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      await carrierPage.goto(`${base}${listPath(LIST.market)}`);
      const list = carrierPage.locator('[data-testid="freight-list"] tbody');
      assert.equal(await list.locator(`tr[data-key="${draft}"]`).count(), 0);
      // The page listens (public/app.js marks the body once its stream is open), and is marked: a reload would drop the mark.
      await carrierPage.locator('body[data-live-state="open"]').waitFor({ state: 'attached' });
      await carrierPage.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      // The carrier reads a row in the middle of the list.
      const reading = list.locator(`tr[data-key="${earlier[6]}"]`);
      await reading.scrollIntoViewIfNeeded();
      await carrierPage.evaluate(() => window.scrollBy(0, -40));
      const before = (await reading.boundingBox())!.y;

      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/view/${draft}`);
      // The clock starts at the shipper's click: the publish request and its page are inside the 2 s.
      const clicked = Date.now();
      await Promise.all([
        shipperPage.waitForURL(`${base}/freights/view/${draft}`),
        shipperPage.click('[data-testid="publish"] button[type="submit"]'),
      ]);

      const row = list.locator(`tr[data-key="${draft}"]`);
      await row.waitFor({ state: 'attached', timeout: Math.max(1, WITHIN_MS - (Date.now() - clicked)) });
      assert.ok(Date.now() - clicked <= WITHIN_MS, `on the list ${Date.now() - clicked} ms after the click on publish`);
      assert.equal(await list.locator('tr').first().getAttribute('data-key'), String(draft), 'the new row is at the top');
      assert.match(String(await row.getAttribute('class')), /live-new/, 'marked new');
      assert.ok(plain(await row.innerText()).includes(lang === 'eng' ? '4,321' : '4.321'), await row.innerText());
      assert.equal(plain(await carrierPage.locator('[data-live-note]').innerText()), T.note);
      const after = (await reading.boundingBox())!.y;
      assert.ok(Math.abs(after - before) <= 2, `the row being read stayed in place (${before} -> ${after})`);
      assert.ok(await carrierPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true), 'no reload');
      await screenshot(carrierPage, `live-board-${lang}`);

      // The shipper's freight page shows the carrier's bid without a reload.
      await shipperPage.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      const bid = await app.post('/quotes/add.json', {
        token: carrier.token,
        json: { route: draft, amount: '987.00', currency_code: 'EUR' },
      });
      assert.equal(bid.body.status, 'success', bid.text);
      const bids = shipperPage.locator('[data-live-part="bids"] [data-testid="bids"] tbody tr');
      await shipperPage.waitForFunction(
        () => document.querySelectorAll('[data-live-part="bids"] [data-testid="bids"] tbody tr:not(:has(td.empty))').length === 1,
        undefined,
        { timeout: WITHIN_MS * 2 },
      );
      assert.ok(plain(await bids.first().innerText()).includes('987'));
      assert.ok(plain(await shipperPage.locator('[data-live-note]').innerText()).startsWith(T.updated));
      assert.ok(await shipperPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true), 'no reload');

      // The shipper answers in the deal room: the carrier's header counts it.
      const sent = await app.post(`/freights/messages/${draft}.json`, {
        token: shipper.token,
        json: { text: 'Can you load at 6?', company: carrier.company },
      });
      assert.equal(sent.body.status, 'success', sent.text);
      const letters = carrierPage.locator('[data-messages] .count');
      await letters.waitFor({ timeout: WITHIN_MS * 2 });
      assert.equal(await letters.innerText(), '1');
      assert.ok((await carrierPage.locator('[data-messages]').innerText()).startsWith(T.messages));
    });
  }

  /** A browser without JavaScript, logged in as `who`. */
  const withoutScript = async (who: Actor) => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await loginAs(page, base, who.email, who.password);
    return page;
  };

  test('without the script the list is the same list, current when loaded', async () => {
    const shipper = await app.actor('Shipper plain');
    const carrier = await app.actor('Carrier plain');
    const page = await withoutScript(carrier);
    const id = await openFreight(app, shipper);
    await page.goto(`${base}${listPath(LIST.market)}`);
    assert.equal(await page.locator(`[data-testid="freight-list"] tr[data-key="${id}"]`).count(), 1);
    assert.equal(await page.locator('[data-live-note]').count(), 0);
  });

  test('without the script the freight page shows its status and bids, current when loaded, and its actions work', async () => {
    const shipper = await app.actor('Shipper plain');
    const carrier = await app.actor('Carrier plain');
    const draft = await addFreight(app, shipper, { from: 'airport:FRA', to: 'airport:AMS', weight: 2468, etd: '2031-06-02 08:00' });
    const owner = await withoutScript(shipper);
    const bidder = await withoutScript(carrier);
    const view = `${base}/freights/view/${draft}`;
    const status = (page: Page) => page.locator('[data-live-part="status"] .badge');
    const bidRows = (page: Page) => page.locator('[data-live-part="bids"] [data-testid="bids"] tbody tr:not(:has(td.empty))');

    // The owner publishes with the page's own form.
    await owner.goto(view);
    assert.match(String(await status(owner).getAttribute('class')), /\bdraft\b/);
    await Promise.all([owner.waitForURL(view), owner.click('[data-testid="publish"] button[type="submit"]')]);
    assert.match(String(await status(owner).getAttribute('class')), /\bopen\b/, 'the status after publishing');
    assert.equal(await bidRows(owner).count(), 0);

    // The carrier bids with the page's form; its page shows its bid.
    await bidder.goto(view);
    assert.match(String(await status(bidder).getAttribute('class')), /\bopen\b/);
    await bidder.fill('[data-testid="bid-form"] input[name="amount"]', '1234');
    await Promise.all([bidder.waitForURL(view), bidder.click('[data-testid="bid-form"] button[type="submit"]')]);
    assert.equal(await bidRows(bidder).count(), 1);
    assert.ok(plain(await bidRows(bidder).first().innerText()).includes('1,234'), await bidRows(bidder).first().innerText());

    // The owner's page shows the bid at its next load (no stream, no script), and its confirmation works.
    assert.equal(await bidRows(owner).count(), 0, 'not before a reload');
    await owner.reload();
    assert.equal(await bidRows(owner).count(), 1);
    await confirmAction(owner, owner.locator('[data-testid="confirm-bid"]').first(), view);
    await owner.goto(view);
    // The carrier confirms in turn: the freight is theirs.
    await bidder.goto(view);
    await confirmAction(bidder, bidder.locator('[data-testid="confirm-bid"]').first(), view);
    await bidder.goto(view);
    assert.match(String(await status(bidder).getAttribute('class')), /\btaken\b/, 'awarded through the pages alone');
    await owner.reload();
    assert.match(String(await status(owner).getAttribute('class')), /\btaken\b/);
    assert.equal(await owner.locator('[data-live-note]').count(), 0);
    const api = await app.get(`/freights/view/${draft}.json`, { token: shipper.token });
    assert.equal(api.body.data.route.status, 'taken', api.text);
  });
});
