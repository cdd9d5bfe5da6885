import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM } from '../support/browser.ts';
import { awardedFreight, crossBorderDeals, type Deal, KOELN_TO_LODZ } from '../support/fixtures.ts';
import type { TestApp } from '../support/harness.ts';
import { pdfText } from '../support/pdf.ts';
import { assertNoSideScroll, flashText, pageFor, PHONE, plain } from './helpers.ts';
import { closeBrowserSuite, LANGUAGES_AT_TWO_WIDTHS, openBrowserSuite } from './suite.ts';

/**
 * docs/reference.md#ecmr in a browser: the carrier and the sender sign the e-CMR at loading on its page,
 * the carrier makes the consignee's link, the consignee signs on that page at phone width in its
 * language (the phone offline first: kept and sent when it is online again), and the inspector's
 * page confirms the hash printed on the last PDF. English and German, at 1366 and 390 px.
 */

const TEXT = {
  eng: {
    signed: 'Signed.',
    loaded: 'loaded',
    delivered: 'delivered',
    saved: 'No connection',
    valid: 'Valid:',
    title: 'Sign the consignment note',
  },
  deu: {
    signed: 'Unterschrieben.',
    loaded: 'beladen',
    delivered: 'zugestellt',
    saved: 'Keine Verbindung',
    valid: 'Gültig:',
    title: 'Frachtbrief',
  },
} as const;

describe('pages: the e-CMR signed at loading and at delivery (docs/reference.md#ecmr)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  const CASES = LANGUAGES_AT_TWO_WIDTHS;
  let people: Map<string, Deal>;

  // Per case, awarded at 1,745.50 EUR: 33 pallets of kitchen furniture, loading on 5 May 2031.
  const awarded = async ({ shipper, carrier }: Pick<Deal, 'shipper' | 'carrier'>, [lang, viewport]: (typeof CASES)[number]) => {
    const fields = {
      ...KOELN_TO_LODZ,
      weight: 4200,
      etd: '2031-05-05 08:00',
      pieces: [{ pieces: 33, depth: 120, width: 80, height: 150, weight: 4200 }],
      refs: { customer: `PO-${lang}-${viewport.width}`, commodity: 'Küchenmöbel' },
    };
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
    test(`${lang} ${viewport.width}px: carrier and sender sign, the consignee signs on its link offline first, the inspector confirms the printed hash`, async () => {
      const { shipper, carrier, freight } = people.get(`${lang}-${viewport.width}`)!;

      // The carrier finds the note on the freight page and signs with a reservation.
      const carrierPage = await pageFor(browser, base, carrier, viewport, contexts);
      await carrierPage.goto(`${base}/freights/view/${freight}`);
      await Promise.all([
        carrierPage.waitForURL(new RegExp(`/freights/cmr/${freight}$`)),
        carrierPage.locator('[data-testid="cmr-open"]').click(),
      ]);
      const carrierForm = carrierPage.locator('[data-testid="cmr-sign-carrier"]');
      await carrierForm.locator('input[name="name"]').fill('Łukasz Wójcik');
      await carrierForm.locator('textarea[name="reservations"]').fill('Zwei Paletten: Folie eingerissen');
      await Promise.all([
        carrierPage.waitForURL(new RegExp(`/freights/cmr/${freight}$`)),
        carrierForm.locator('button[type="submit"]').click(),
      ]);
      assert.equal(await flashText(carrierPage), T.signed);
      assert.equal(await carrierPage.locator('[data-testid="cmr-sign-carrier"]').count(), 0, 'signed: no second form');
      await assertNoSideScroll(carrierPage, 'the note');

      // The sender signs: loaded.
      const shipperPage = await pageFor(browser, base, shipper, viewport, contexts);
      await shipperPage.goto(`${base}/freights/cmr/${freight}`);
      const senderForm = shipperPage.locator('[data-testid="cmr-sign-sender"]');
      await senderForm.locator('input[name="name"]').fill('Jürgen Weiß');
      await Promise.all([
        shipperPage.waitForURL(new RegExp(`/freights/cmr/${freight}$`)),
        senderForm.locator('button[type="submit"]').click(),
      ]);
      assert.equal(plain(await shipperPage.locator('[data-testid="cmr-status"]').innerText()), T.loaded);

      // The carrier makes the consignee's link (shown once, in the flash).
      await carrierPage.goto(`${base}/freights/cmr/${freight}`);
      await Promise.all([
        carrierPage.waitForURL(new RegExp(`/freights/cmr/${freight}$`)),
        carrierPage.locator('[data-testid="cmr-link"] button').click(),
      ]);
      const url = /\/cmr\/consignee\/[A-Za-z0-9_-]{43}/.exec(await flashText(carrierPage))?.[0];
      assert.ok(url, 'the flash shows the link');

      // The consignee, on the driver's phone, no account: the page in its language, offline first.
      const context = await browser.newContext({ viewport: PHONE, locale: lang === 'deu' ? 'en-GB' : 'de-DE' });
      contexts.push(context);
      const phone = await context.newPage();
      await phone.goto(`${base}${url}`);
      await Promise.all([
        phone.waitForURL(new RegExp(`\\?lang=${lang}$`)),
        phone.locator(`.cmr-languages a[href$="lang=${lang}"]`).click(),
      ]);
      assert.match(await phone.locator('h1').innerText(), new RegExp(T.title));
      await assertNoSideScroll(phone, 'the consignee’s page');
      const form = phone.locator('[data-testid="cmr-sign-consignee"]');
      const nameBox = await form.locator('input[name="name"]').boundingBox();
      assert.ok(nameBox && nameBox.height >= 44 && nameBox.width >= 300, `a large name field (${JSON.stringify(nameBox)})`);
      await context.setOffline(true);
      await form.locator('input[name="name"]').fill('Marie Dubois');
      await form.locator('textarea[name="reservations"]').fill('Karton 3 nass / carton 3 wet');
      await form.locator('button[type="submit"]').click();
      await phone.locator('.offline-state', { hasText: T.saved }).waitFor();
      assert.equal(
        await app.get(`/freights/cmr/${freight}.json`, { token: shipper.token }).then((r) => r.body.data.cmr.status),
        'loaded',
        'nothing sent while offline',
      );
      await context.setOffline(false);
      await phone.locator('[data-testid="cmr-consignee-done"]').waitFor();
      assert.equal(plain(await phone.locator('[data-testid="cmr-status"]').innerText()), T.delivered);
      const head = await phone.locator('[data-testid="cmr-head"]').innerText();

      // The delivery is recorded; the last PDF prints the head; the inspector's page confirms it.
      const view = (await app.get(`/freights/view/${freight}.json`, { token: shipper.token })).body.data.route;
      assert.equal(view.delivery_status, 3);
      const docs = (await app.get(`/freights/documents/${freight}.json`, { token: shipper.token })).body.data.documents.filter(
        (d: any) => d.kind === 'cmr',
      );
      assert.equal(docs.length, 3);
      const pdf = await app.http.inject({
        method: 'GET',
        url: `/freights/document/${docs[2].id}`,
        headers: { authorization: `TokenPass ${shipper.token}` },
      });
      const text = await pdfText(pdf.rawPayload);
      const printed = /Chain head \/ Kettenkopf: ([0-9a-f]{64})/.exec(text)?.[1];
      assert.equal(printed, head.trim());
      const number = /CMR-\d{4}-\d{6,}/.exec(text)![0];
      const inspector = await browser.newContext({ viewport, locale: lang === 'deu' ? 'de-DE' : 'en-GB' });
      contexts.push(inspector);
      const check = await inspector.newPage();
      await check.goto(`${base}/cmr/verify/${number}`);
      await check.locator('input[name="hash"]').fill(printed!);
      await Promise.all([check.waitForURL(/hash=/), check.locator('.cmr-verify button[type="submit"]').click()]);
      assert.match(plain(await check.locator('[data-testid="cmr-verify-result"]').innerText()), new RegExp(T.valid));
      await assertNoSideScroll(check, 'the verify page');
    });
  }
});
