import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { takenFreight } from '../trust/helpers.ts';
import { assertNoSideScroll, DESKTOP, flashText, pageFor, PHONE } from './helpers.ts';

/**
 * decisions.md §13 in a browser: after the award the carrier writes to the shipper and uploads
 * its signed CMR from the freight page; the shipper sees the unread count in the header, finds
 * the conversation through it, answers and downloads the exact file. English at the desk, German
 * on a phone (390 px, nothing scrolls sideways).
 */

const TEXT = {
  eng: { sent: 'Message sent', uploaded: 'Document added', cmr: 'CMR consignment note', order: 'Transport order', messages: 'Messages' },
  deu: {
    sent: 'Nachricht gesendet',
    uploaded: 'Dokument hinzugefügt',
    cmr: 'CMR-Frachtbrief',
    order: 'Transportauftrag',
    messages: 'Nachrichten',
  },
} as const;

/** A small PDF with bytes a text round trip would spoil. */
const SIGNED_CMR = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.from([0, 255, 13, 10, 128]),
  Buffer.from('\n%%EOF\n'),
]);

describe('pages: the deal room beside an awarded freight (decisions.md §13)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const people = {} as Record<'eng' | 'deu', { shipper: Actor; carrier: Actor; freight: number }>;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    for (const lang of ['eng', 'deu'] as const) {
      const shipper = await app.actor(`Verlader Rhein ${lang}`, { language: lang });
      const carrier = await app.actor(`Spedition Elbe ${lang}`, { language: lang });
      people[lang] = { shipper, carrier, freight: await takenFreight(app, shipper, carrier) };
    }
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
    test(`${lang} ${viewport.width}px: carrier and shipper exchange a message and a document`, async () => {
      const { shipper, carrier, freight } = people[lang];
      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      const messages = carrierPage.locator('[data-testid="deal-messages"]');
      await messages.locator('textarea[name="text"]').fill('Loaded at 06:10.\nArriving around 14:00.');
      await Promise.all([carrierPage.waitForURL(/#messages$/), messages.locator('button[type="submit"]').click()]);
      assert.ok((await flashText(carrierPage)).includes(T.sent));
      assert.match(await messages.locator('[data-testid="message"]').last().innerText(), /Loaded at 06:10\.\nArriving around 14:00\./);

      // The signed CMR, through the page's file field.
      const documents = carrierPage.locator('[data-testid="deal-documents"]');
      assert.ok((await documents.innerText()).includes(T.order), 'the transport order is there');
      await documents.locator('select[name="kind"]').selectOption('cmr');
      await documents
        .locator('input[type="file"]')
        .setInputFiles({ name: 'CMR signed.pdf', mimeType: 'application/pdf', buffer: SIGNED_CMR });
      await Promise.all([carrierPage.waitForURL(/#documents$/), documents.locator('button[type="submit"]').click()]);
      assert.ok((await flashText(carrierPage)).includes(T.uploaded));
      assert.ok((await documents.locator('[data-testid="documents"]').innerText()).includes(T.cmr));
      if (viewport === PHONE) await assertNoSideScroll(carrierPage, 'the freight page with its deal room');
      await screenshot(carrierPage, `deal-room-${lang}-${viewport.width}`);

      // The shipper: the header counts the unread message and leads to it.
      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/enlist/8`);
      const link = shipperPage.locator('[data-messages]');
      await link.locator('.count').waitFor();
      assert.equal(await link.locator('.count').innerText(), '1');
      await Promise.all([shipperPage.waitForURL(/\/messages\/unread$/), link.click()]);
      await Promise.all([
        shipperPage.waitForURL(new RegExp(`/freights/view/${freight}#messages$`)),
        shipperPage.locator('[data-testid="unread"] a').first().click(),
      ]);
      const conversation = shipperPage.locator('[data-testid="conversation"]');
      assert.match(await conversation.innerText(), /Arriving around 14:00/);
      await conversation.locator('textarea[name="text"]').fill('Thank you, the ramp is free.');
      await Promise.all([shipperPage.waitForURL(/#messages$/), conversation.locator('button[type="submit"]').click()]);
      assert.ok((await flashText(shipperPage)).includes(T.sent));
      if (viewport === PHONE) await assertNoSideScroll(shipperPage, "the shipper's freight page");

      // The download is the carrier's exact file.
      const row = shipperPage.locator('[data-testid="documents"] a', { hasText: 'CMR signed.pdf' });
      const [download] = await Promise.all([shipperPage.waitForEvent('download'), row.click()]);
      assert.equal(download.suggestedFilename(), 'CMR signed.pdf');
      assert.ok(fs.readFileSync((await download.path())!).equals(SIGNED_CMR), 'the same bytes');

      // The carrier reads the answer where it wrote.
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      assert.match(await messages.innerText(), /Thank you, the ramp is free\./);
      assert.ok((await carrierPage.locator('header').innerText()).includes(T.messages));
    });
  }
});
