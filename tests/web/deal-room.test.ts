import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import { crossBorderDeals, type Deal, KOELN_TO_LODZ, publishedFreight } from '../support/fixtures.ts';
import type { TestApp } from '../support/harness.ts';
import { pdfText } from '../support/pdf.ts';
import { assertNoSideScroll, DESKTOP, flashText, pageFor, PHONE, plain, setRealname } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * docs/reference.md#deal-room in a browser, the whole deal: the carrier asks the shipper beside the open
 * freight, the shipper finds the question through the header's unread count and answers, each
 * message sent without a reload and appearing on the other side's open page (the live board);
 * the award issues the transport order, which both download from the freight page (its text read
 * from the PDF, its SHA-256 the one the page shows); the carrier uploads its signed CMR, then the
 * proof of delivery, which marks the freight delivered; the shipper downloads the exact POD.
 * English and German, each at the desk (1366 px) and on a phone (390 px, nothing scrolls sideways).
 */

const TEXT = {
  eng: {
    sent: 'Message sent.',
    textInvalid: 'text: a message of 1 to 4000 characters is required.',
    uploaded: 'Document added',
    delivered: 'Proof of delivery added',
    cmr: 'CMR consignment note',
    pod: 'Proof of delivery',
    order: 'Transport order',
    messages: 'Messages',
    closed: 'delivered',
  },
  deu: {
    sent: 'Nachricht gesendet.',
    textInvalid: 'text: eine Nachricht mit 1 bis 4000 Zeichen ist erforderlich.',
    uploaded: 'Dokument hinzugefügt',
    delivered: 'Ablieferbeleg hinzugefügt',
    cmr: 'CMR-Frachtbrief',
    pod: 'Ablieferbeleg',
    order: 'Transportauftrag',
    messages: 'Nachrichten',
    closed: 'zugestellt',
  },
} as const;

/** Small PDFs with bytes a text round trip would spoil. */
const pdf = (tag: string) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.4\n%\xe2\xe3\xcf\xd3\n% ${tag}\n`, 'latin1'),
    Buffer.from([0, 255, 13, 10, 128]),
    Buffer.from('\n%%EOF\n'),
  ]);
const SIGNED_CMR = pdf('cmr');
const SIGNED_POD = pdf('pod');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Marks the page's window: a reload or a navigation would lose the mark (stayed). */
const stay = (page: Page) => page.evaluate(() => Object.assign(window, { __stayed: true }));
async function stayed(page: Page, what: string) {
  assert.equal(
    await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed),
    true,
    `${what}: the page was not reloaded`,
  );
}
/** What the page's status line says (the live note, public/app.js). */
const liveNote = async (page: Page) => plain(await page.locator('[data-live-note]').innerText());

/** Clicks a download link and answers the file's name and bytes. */
async function downloadFrom(page: Page, selector: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).first().click()]);
  // Read through the download's stream: the lane's shared Chromium is connected to remotely,
  // where Playwright has no local path of the file.
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

describe('pages: the deal room from the first question to the proof of delivery (docs/reference.md#deal-room)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const CASES = [
    ['eng', DESKTOP],
    ['deu', PHONE],
    ['eng', PHONE],
    ['deu', DESKTOP],
  ] as const;
  let people: Map<string, Deal>;

  // Per case, the contacts named, the companies' addresses and VAT ids given, the freight in the market.
  const published = async ({ shipper, carrier }: Pick<Deal, 'shipper' | 'carrier'>, [lang, viewport]: (typeof CASES)[number]) => {
    await setRealname(app, shipper, 'Jürgen Weiß');
    await setRealname(app, carrier, 'Łukasz Wójcik');
    await app.post('/companies/edit.json', {
      token: shipper.token,
      json: { country: 'DE', city: 'Köln', postcode: '50667', vat_id: 'DE136695976' },
    });
    await app.post('/companies/edit.json', {
      token: carrier.token,
      json: { country: 'PL', city: 'Łódź', postcode: '90-001', vat_id: 'PL5260001246' },
    });
    const refs = { customer: `PO-${lang}-${viewport.width}`, commodity: 'Küchenmöbel' };
    return publishedFreight(app, shipper, { ...KOELN_TO_LODZ, weight: 4200, etd: '2031-05-05 08:00', refs });
  };
  const setup = async (started: TestApp) => {
    app = started;
    people = await crossBorderDeals(app, CASES, ([lang]) => lang, published);
  };
  before(async () => ({ app, browser, base } = await openBrowserSuite({ setup })));
  after(() => closeBrowserSuite(contexts, browser, app));

  for (const [lang, viewport] of CASES) {
    const T = TEXT[lang];
    test(`${lang} ${viewport.width}px: they talk, the award issues the transport order, the carrier delivers with its POD`, async () => {
      const { shipper, carrier, freight } = people.get(`${lang}-${viewport.width}`)!;
      const phone = viewport === PHONE;

      // The carrier asks beside the open freight: sent by the page's script, no reload.
      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      await carrierPage.locator('body[data-live-state="open"]').waitFor({ state: 'attached' });
      await stay(carrierPage);
      const messages = carrierPage.locator('[data-testid="deal-messages"]');
      await messages.locator('textarea[name="text"]').fill('Can we load at 06:00?\nThe truck is in Köln tonight.');
      await messages.locator('button[type="submit"]').click();
      await messages.locator('[data-testid="message"]', { hasText: 'The truck is in Köln tonight.' }).waitFor();
      assert.equal(await liveNote(carrierPage), T.sent);
      assert.equal(await messages.locator('textarea[name="text"]').inputValue(), '', 'the field is emptied for the next message');
      await stayed(carrierPage, 'sending');

      // The shipper: the header counts the unread message and leads to it.
      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/enlist/10`);
      const link = shipperPage.locator('[data-messages]');
      await link.locator('.count').waitFor();
      assert.equal(await link.locator('.count').innerText(), '1');
      await Promise.all([shipperPage.waitForURL(/\/messages\/unread$/), link.click()]);
      await Promise.all([
        shipperPage.waitForURL(new RegExp(`/freights/view/${freight}#messages$`)),
        shipperPage.locator('[data-testid="unread"] a').first().click(),
      ]);
      await shipperPage.locator('body[data-live-state="open"]').waitFor({ state: 'attached' });
      await stay(shipperPage);
      const conversation = shipperPage.locator('[data-testid="conversation"]');
      assert.match(await conversation.innerText(), /The truck is in Köln tonight\./);

      // The carrier writes again: the message appears on the shipper's open page, no reload.
      await messages.locator('textarea[name="text"]').fill('We have a tail lift.');
      await messages.locator('button[type="submit"]').click();
      await conversation.locator('[data-testid="message"]', { hasText: 'We have a tail lift.' }).waitFor();
      await stayed(shipperPage, 'a message arriving');

      // The shipper answers, no reload; the answer appears on the carrier's open page.
      await conversation.locator('textarea[name="text"]').fill('Yes, ramp 4 opens at 06:00.');
      await conversation.locator('button[type="submit"]').click();
      await conversation.locator('[data-testid="message"]', { hasText: 'Yes, ramp 4 opens at 06:00.' }).waitFor();
      assert.equal(await liveNote(shipperPage), T.sent);
      await stayed(shipperPage, 'sending');
      await messages.locator('[data-testid="message"]', { hasText: 'Yes, ramp 4 opens at 06:00.' }).waitFor();
      await stayed(carrierPage, 'the answer arriving');
      // A refusal (an empty message) is said under the field, nothing sent, still no reload.
      await messages.locator('textarea[name="text"]').fill('   ');
      await messages.locator('button[type="submit"]').click();
      await carrierPage.locator('.message-form .field-error', { hasText: T.textInvalid }).waitFor();
      await stayed(carrierPage, 'a refusal');
      assert.equal(await messages.locator('[data-testid="message"]').count(), 3);
      if (phone) await assertNoSideScroll(carrierPage, "the carrier's conversation");

      // The award (its pages are the journey's test): the carrier's bid, confirmed by both sides.
      const bid = await app.post('/quotes/add.json', {
        token: carrier.token,
        json: { route: freight, amount: '1745.50', currency_code: 'EUR' },
      });
      await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token });
      assert.equal((await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token })).body.status, 'success');

      // The carrier reads the answer and finds the transport order with its SHA-256.
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      assert.match(await messages.innerText(), /Yes, ramp 4 opens at 06:00\./);
      const order = carrierPage.locator('[data-testid="transport-order"]');
      assert.ok((await order.innerText()).includes(T.order));
      const shown = await order.locator('[data-testid="order-sha256"]').innerText();
      const got = await downloadFrom(carrierPage, '[data-testid="order-pdf"]');
      // Named by the freight's display id (its customer reference), not its internal number (issue 47, item 8).
      assert.equal(got.name, `transport-order-PO-${lang}-${viewport.width}.pdf`);
      assert.equal(sha256(got.bytes), shown, 'the SHA-256 on the page is the bytes’');
      const text = plain(await pdfText(got.bytes));
      for (const part of [
        'Transport order / Transportauftrag',
        shipper.companyName,
        carrier.companyName,
        'Köln',
        'Łódź',
        'DE136695976',
        'PL5260001246',
        'Jürgen Weiß',
        'Łukasz Wójcik',
        'Domstraße 3, Köln',
        'ul. Piotrkowska 5, Łódź',
        'Küchenmöbel',
        '4,200 kg / 4.200 kg',
        '1745.50 EUR',
        '1.745,50 €',
        `PO-${lang}-${viewport.width}`,
      ])
        assert.ok(text.includes(part), `the PDF prints ${part}`);

      // The signed CMR, through the documents' file field.
      const documents = carrierPage.locator('[data-testid="deal-documents"]');
      await documents.locator('.upload-form select[name="kind"]').selectOption('cmr');
      await documents
        .locator('.upload-form input[type="file"]')
        .setInputFiles({ name: 'CMR signed.pdf', mimeType: 'application/pdf', buffer: SIGNED_CMR });
      await Promise.all([carrierPage.waitForURL(/#documents$/), documents.locator('.upload-form button[type="submit"]').click()]);
      assert.ok((await flashText(carrierPage)).includes(T.uploaded));
      assert.ok((await documents.locator('[data-testid="documents"]').innerText()).includes(T.cmr));

      // Delivered: the proof of delivery is the carrier's next step.
      const pod = documents.locator('[data-testid="pod-step"]');
      if (phone) await screenshot(carrierPage, `deal-room-pod-${lang}-${viewport.width}`);
      await pod.locator('input[type="file"]').setInputFiles({ name: 'POD Łódź.pdf', mimeType: 'application/pdf', buffer: SIGNED_POD });
      await Promise.all([carrierPage.waitForURL(/#documents$/), pod.locator('button[type="submit"]').click()]);
      assert.ok((await flashText(carrierPage)).includes(T.delivered), await flashText(carrierPage));
      assert.equal(await documents.locator('[data-testid="pod-step"]').count(), 0, 'no longer offered once delivered');
      assert.ok((await documents.locator('[data-testid="documents"]').innerText()).includes(T.pod));
      if (phone) await assertNoSideScroll(carrierPage, "the carrier's freight page with its deal room");

      // The shipper: the same transport order, and the carrier's exact POD.
      await shipperPage.goto(`${base}/freights/view/${freight}`);
      assert.ok((await shipperPage.locator('main').innerText()).toLowerCase().includes(T.closed));
      const mine = await downloadFrom(shipperPage, '[data-testid="order-pdf"]');
      assert.ok(mine.bytes.equals(got.bytes), 'both parties download the same transport order');
      assert.equal(await shipperPage.locator('[data-testid="order-sha256"]').innerText(), shown);
      const podFile = await downloadFrom(shipperPage, '[data-testid="documents"] a:has-text("POD")');
      assert.equal(podFile.name, 'POD Łódź.pdf');
      assert.ok(podFile.bytes.equals(SIGNED_POD), 'the same bytes');
      if (phone) {
        await assertNoSideScroll(shipperPage, "the shipper's freight page");
        await screenshot(shipperPage, `deal-room-shipper-${lang}-${viewport.width}`);
      }
      assert.ok((await shipperPage.locator('header').innerText()).includes(T.messages));
    });
  }
});
