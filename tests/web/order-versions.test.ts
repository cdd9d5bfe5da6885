import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import { awardedFreight, crossBorderDeals, type Deal, KOELN_TO_LODZ } from '../support/fixtures.ts';
import type { TestApp } from '../support/harness.ts';
import { pdfText } from '../support/pdf.ts';
import { assertNoSideScroll, axeProblems, flashText, pageFor, PHONE, plain, setRealname } from './helpers.ts';
import { closeBrowserSuite, LANGUAGES_AT_TWO_WIDTHS, openBrowserSuite } from './suite.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Clicks a download link and answers the file's name and bytes. */
async function downloadFrom(page: Page, selector: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).first().click()]);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

const TEXT = {
  eng: {
    done: 'version 2 of the transport order is issued',
    vehicle: 'Vehicle WE 4242X / WE 77Y, driver Ewa Zielińska, +48 600 100 200',
    earlier: 'Earlier versions',
  },
  deu: {
    done: 'Version 2 des Transportauftrags ist ausgestellt',
    vehicle: 'Fahrzeug WE 4242X / WE 77Y, Fahrer Ewa Zielińska, +48 600 100 200',
    earlier: 'Frühere Versionen',
  },
} as const;

/**
 * Issue 47, item 8 in a browser (docs/choices.md, "The transport order in versions"): the carrier
 * gives plate and driver under the transport order on the freight page, the order is issued
 * again as version 2, and the shipper sees the vehicle and downloads the new version, whose PDF
 * names contacts, consignee, loading reference and payment term without internal ids, with dates
 * and weights in both readers' formats. English and German, at 1366 and 390 px.
 */
describe('pages: the carrier gives plate and driver, the shipper downloads the new version', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const CASES = LANGUAGES_AT_TWO_WIDTHS;
  let people: Map<string, Deal>;

  // Per case, the contacts named, awarded at 1,745.50 EUR with the refs the order prints.
  const awarded = async ({ shipper, carrier }: Pick<Deal, 'shipper' | 'carrier'>, [lang, viewport]: (typeof CASES)[number]) => {
    await setRealname(app, shipper, 'Jürgen Weiß');
    await setRealname(app, carrier, 'Łukasz Wójcik');
    await app.post('/companies/edit.json', { token: shipper.token, json: { phone: '+49 221 555 0101' } });
    await app.post('/companies/edit.json', { token: carrier.token, json: { phone: '+48 42 555 0100' } });
    const refs = {
      customer: `PO-${lang}-${viewport.width}`,
      commodity: 'Küchenmöbel',
      loading_ref: 'RAMPE-4',
      consignee: 'Meble Nowak Sp. z o.o.',
      payment_days: '30',
    };
    const fields = { ...KOELN_TO_LODZ, weight: 1250.5, etd: '2031-11-28 08:00', refs };
    return (await awardedFreight(app, shipper, carrier, fields, '1745.50')).id;
  };
  const setup = async (started: TestApp) => {
    app = started;
    people = await crossBorderDeals(app, CASES, ([lang, viewport]) => `${lang} ${viewport.width}`, awarded);
  };
  before(async () => ({ app, browser, base } = await openBrowserSuite({ setup })));
  after(() => closeBrowserSuite(contexts, browser, app));

  for (const [lang, viewport] of CASES) {
    const T = TEXT[lang];
    test(`${lang} ${viewport.width}px: the carrier gives plate and driver; the shipper downloads version 2`, async () => {
      const { shipper, carrier, freight } = people.get(`${lang}-${viewport.width}`)!;
      const phone = viewport.width === PHONE.width;

      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      const form = carrierPage.locator('[data-testid="order-transport"]');
      await form.locator('input[name="plate"]').fill('WE 4242X / WE 77Y');
      await form.locator('input[name="driver"]').fill('Ewa Zielińska');
      await form.locator('input[name="driver_phone"]').fill('+48 600 100 200');
      if (phone) await assertNoSideScroll(carrierPage, 'the carrier’s freight page with the order’s form');
      assert.deepEqual(await axeProblems(carrierPage), [], 'axe: nothing serious on the carrier’s page');
      await Promise.all([carrierPage.waitForURL(/#order-transport$/), form.locator('button[type="submit"]').click()]);
      assert.ok((await flashText(carrierPage)).includes(T.done), await flashText(carrierPage));
      assert.equal(plain(await carrierPage.locator('[data-testid="order-vehicle"]').innerText()), T.vehicle);
      if (phone) await screenshot(carrierPage, `order-versions-carrier-${lang}-${viewport.width}`);

      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/view/${freight}`);
      assert.equal(await shipperPage.locator('[data-testid="order-transport"]').count(), 0, 'the shipper has no form');
      assert.equal(plain(await shipperPage.locator('[data-testid="order-vehicle"]').innerText()), T.vehicle);
      assert.ok((await shipperPage.locator('[data-testid="order-earlier"]').innerText()).includes(T.earlier));
      const shown = await shipperPage.locator('[data-testid="order-sha256"]').innerText();
      const got = await downloadFrom(shipperPage, '[data-testid="order-pdf"]');
      assert.equal(got.name, `transport-order-PO-${lang}-${viewport.width}-v2.pdf`);
      assert.equal(sha256(got.bytes), shown, 'the SHA-256 on the page is the new version’s');
      const text = plain(await pdfText(got.bytes));
      for (const part of [
        `Transport order / Transportauftrag PO-${lang}-${viewport.width}`,
        'WE 4242X / WE 77Y',
        'Ewa Zielińska',
        '+48 600 100 200',
        'Jürgen Weiß',
        'Łukasz Wójcik',
        '+49 221 555 0101',
        '+48 42 555 0100',
        'Meble Nowak Sp. z o.o.',
        'RAMPE-4',
        '30 days after invoice / 30 Tage nach Rechnung',
        '1,250.5 kg / 1.250,5 kg',
        '28.11.2031 08:00',
        '2031-11-28 08:00',
      ])
        assert.ok(text.includes(part), `the PDF prints ${part}`);
      for (const internal of [`company ${shipper.company}`, `company ${carrier.company}`, 'Bid '])
        assert.ok(!text.includes(internal), `no internal id: ${internal}`);
      if (phone) {
        await assertNoSideScroll(shipperPage, 'the shipper’s freight page');
        await screenshot(shipperPage, `order-versions-shipper-${lang}-${viewport.width}`);
      }
    });
  }
});
