import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, confirmAction, DESKTOP, flashText, nextStep, pageFor, PHONE, plain, setRealname } from './helpers.ts';

/**
 * A freight from draft to order, as two dispatchers do it: the shipper types the freight in its
 * own language (German numbers and country names), sees what was not taken, fixes it and
 * publishes; the carrier bids; the shipper confirms; the carrier reads that its confirmation is
 * awaited and confirms. Run twice: German shipper at the desk and English carrier on a phone,
 * then the other way round.
 */

const TEXT = {
  deu: {
    country: 'Deutschland',
    spain: 'Spanien',
    badWeight: 'zwölf',
    weight: '12,5 t',
    pieceWeight: '4.166,5',
    weightShown: '12.500 kg',
    weightError: /Bitte ein Gewicht eingeben/,
    iataWarning: /QQQ ist kein bekannter Flughafen/,
    saved: /Änderungen gespeichert/,
    problems: /nicht übernommen/,
    published: /veröffentlicht/,
    amount: '1.745,50',
    amountShown: '1.745,50 €',
    bidSaved: /Gebot gespeichert/,
    bidRefused: /nicht gesendet/,
    amountProblem: /größer als 0/,
    withShipper: /liegt beim Auftraggeber/,
    waitingOther: /Bestätigung der Gegenseite steht aus/,
    mustConfirm: /muss .* es bestätigen/,
    awaited: /Ihre Bestätigung wird erwartet/,
    awarded: /vergeben/,
    yourMove: /Sie sind dran/,
  },
  eng: {
    country: 'Germany',
    spain: 'Spain',
    badWeight: 'twelve',
    weight: '12.5 t',
    pieceWeight: '4,166.5',
    weightShown: '12,500 kg',
    weightError: /Please enter a weight/,
    iataWarning: /QQQ is not a known airport/,
    saved: /Changes saved/,
    problems: /not taken/,
    published: /published/,
    amount: '1,745.50',
    amountShown: '€1,745.50',
    bidSaved: /Bid saved/,
    bidRefused: /not sent/,
    amountProblem: /more than 0/,
    withShipper: /is with the shipper/,
    waitingOther: /Waiting for the other side/,
    mustConfirm: /must confirm it/,
    awaited: /your confirmation is awaited/,
    awarded: /awarded/,
    yourMove: /Your move/,
  },
} as const;

type Lang = keyof typeof TEXT;

const RUNS: Array<{ shipper: { lang: Lang; viewport: typeof DESKTOP }; carrier: { lang: Lang; viewport: typeof DESKTOP } }> = [
  { shipper: { lang: 'deu', viewport: DESKTOP }, carrier: { lang: 'eng', viewport: PHONE } },
  { shipper: { lang: 'eng', viewport: PHONE }, carrier: { lang: 'deu', viewport: DESKTOP } },
];

for (const [index, run] of RUNS.entries()) {
  const S = TEXT[run.shipper.lang];
  const C = TEXT[run.carrier.lang];
  const label = `shipper ${run.shipper.lang} ${run.shipper.viewport.width}px, carrier ${run.carrier.lang} ${run.carrier.viewport.width}px`;

  describe(`browser: a freight from draft to order (${label})`, { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
    let app: TestApp;
    let browser: Browser;
    let base: string;
    let shipper: Actor;
    let carrier: Actor;
    let shipperPage: Page;
    let carrierPage: Page;
    const contexts: BrowserContext[] = [];
    let freightUrl = '';
    // Screenshots for the README from the first run (German desk, English phone).
    const shoot = (page: Page, name: string) => (index === 0 ? screenshot(page, name) : Promise.resolve());

    before(async () => {
      app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
      shipper = await app.actor('Spedition Nord', { language: run.shipper.lang });
      carrier = await app.actor('Trans Europa', { language: run.carrier.lang });
      await setRealname(app, shipper, 'Erika Mustermann');
      await setRealname(app, carrier, 'Jan de Vries');
      base = await app.listen();
      browser = await launchBrowser();
      shipperPage = await pageFor(browser, base, shipper, run.shipper.viewport, contexts);
      carrierPage = await pageFor(browser, base, carrier, run.carrier.viewport, contexts);
    });
    after(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
      await app?.close();
    });

    test('the shipper types the freight in its language; a wrong weight is said while typing', async () => {
      const page = shipperPage;
      await page.goto(`${base}/freights/add`);
      await page.fill('[name="from"]', '04159');
      await page.fill('[name="from_country"]', S.country);
      await page.fill('[name="from_addr"]', 'Hauptstraße 1, Leipzig');
      // Three letters are an airport code: QQQ is none, which only the server can tell.
      await page.fill('[name="to"]', 'QQQ');
      await page.fill('[name="etd"]', '2030-11-26T08:00');
      await page.fill('[name="etd_end"]', '2030-11-26T12:00');
      await page.fill('[name="eta"]', '2030-11-28T08:00');
      await page.fill('[name="weight"]', S.badWeight);
      assert.match(
        await page.locator('[data-error-for="f-weight"]').innerText(),
        S.weightError,
        'the problem next to the field while typing',
      );
      assert.equal(await page.locator('[name="weight"]').getAttribute('aria-invalid'), 'true');
      await page.fill('[name="weight"]', S.weight);
      assert.equal(await page.locator('[data-error-for="f-weight"]').innerText(), '', 'fixed: the message goes');
      await page.fill('[name="pieces[0][pieces]"]', '3');
      await page.fill('[name="pieces[0][depth]"]', '120');
      await page.fill('[name="pieces[0][width]"]', '80');
      await page.fill('[name="pieces[0][height]"]', '100');
      await page.fill('[name="pieces[0][weight]"]', S.pieceWeight);
      await page.fill('[name="refs[commodity]"]', 'Maschinenteile auf 3 Paletten');
      await page.fill('[name="refs[customer]"]', 'PO-4711');
      await assertNoSideScroll(page, 'freight form');
      await shoot(page, 'freight-form');
      await Promise.all([page.waitForURL(`${base}/freights/add`), page.click('form[data-validate] button[type="submit"]')]);
    });

    test('the API’s warning comes back next to its field, with what was typed kept', async () => {
      const page = shipperPage;
      assert.match(await page.locator('[data-testid="form-problems"]').innerText(), S.problems);
      assert.match(await page.locator('[data-error-for="f-to"]').innerText(), S.iataWarning);
      assert.equal(await page.locator('[name="to"]').inputValue(), 'QQQ', 'the typed value is kept');
      assert.equal(await page.locator('[name="weight"]').inputValue(), S.weight, 'the weight as typed');
      assert.equal(await page.locator('[name="refs[commodity]"]').inputValue(), 'Maschinenteile auf 3 Paletten');
      // The draft is saved: the form is now its edit form.
      assert.match((await page.locator('form[data-validate]').getAttribute('action')) ?? '', /^\/freights\/edit\/\d+$/);
      await page.fill('[name="to"]', '28021');
      await page.fill('[name="to_country"]', S.spain);
      await Promise.all([page.waitForURL(/\/freights\/view\/\d+$/), page.click('form[data-validate] button[type="submit"]')]);
      freightUrl = page.url();
      assert.match(await flashText(page), S.saved);
      const html = plain(await page.locator('main').innerText());
      assert.match(html, /04159 .*\(DE\)/);
      assert.match(html, /28021 .*\(ES\)/);
      assert.ok(html.includes(S.weightShown), `weight shown as ${S.weightShown}`);
      assert.match(html, /Maschinenteile auf 3 Paletten/, 'the goods description is shown');
      assert.doesNotMatch(html, /AHR|rfs/, 'no jargon');
      assert.match(await nextStep(page), S.yourMove);
    });

    test('the shipper publishes it', async () => {
      const page = shipperPage;
      await Promise.all([page.waitForURL(freightUrl), page.click('[data-testid="publish"] button[type="submit"]')]);
      assert.match(await flashText(page), S.published);
      assert.equal(await page.locator('.badge.open').count(), 1);
      await assertNoSideScroll(page, 'freight page');
    });

    test('the carrier finds it, bids in its own number format, and is told the shipper confirms first', async () => {
      const page = carrierPage;
      await page.goto(`${base}/freights/enlist/8`);
      await assertNoSideScroll(page, 'open requests');
      await Promise.all([page.waitForURL(freightUrl), page.click('[data-testid="freight-list"] tbody tr a >> nth=0')]);
      assert.doesNotMatch(await page.content(), /Hauptstraße/, 'the address is for owner and winner only');
      // A price of 0 passes the check while typing (it is a number); the server refuses it and
      // the freight page comes back with what was typed and the problem beside the amount.
      await page.fill('[data-testid="bid-form"] [name="amount"]', '0');
      await page.fill('[data-testid="bid-form"] [name="note"]', 'Tail-lift truck');
      await Promise.all([page.waitForURL(`${base}/quotes/add`), page.click('[data-testid="bid-form"] button[type="submit"]')]);
      assert.match(await page.locator('[data-testid="bid-problems"]').innerText(), C.bidRefused);
      assert.match(
        await page.locator('[data-error-for="bid-amount"]').innerText(),
        C.amountProblem,
        'the problem next to the amount, in the user’s language',
      );
      assert.equal(await page.locator('[data-testid="bid-form"] [name="amount"]').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('[data-testid="bid-form"] [name="amount"]').inputValue(), '0', 'the typed amount is kept');
      assert.equal(await page.locator('[data-testid="bid-form"] [name="note"]').inputValue(), 'Tail-lift truck', 'the note is kept');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'amount', 'the amount has the focus');
      assert.doesNotMatch(await page.locator('main').innerText(), /amount:/, 'no API wording');
      // While typing, a word is no amount: said at once, in the same words.
      await page.fill('[data-testid="bid-form"] [name="amount"]', C.badWeight);
      assert.match(await page.locator('[data-error-for="bid-amount"]').innerText(), C.amountProblem);
      await page.fill('[data-testid="bid-form"] [name="amount"]', C.amount);
      assert.equal(await page.locator('[data-error-for="bid-amount"]').innerText(), '', 'fixed: the message goes');
      await Promise.all([page.waitForURL(freightUrl), page.click('[data-testid="bid-form"] button[type="submit"]')]);
      assert.match(await flashText(page), C.bidSaved);
      assert.match(await nextStep(page), C.withShipper);
      assert.ok((await nextStep(page)).includes(C.amountShown), `amount shown as ${C.amountShown}`);
      assert.equal(
        await page.locator('[data-testid="confirm-bid"]').count(),
        0,
        'no Confirm on the own new bid before the shipper confirmed',
      );
      await assertNoSideScroll(page, 'freight page of the bidder');
    });

    test('the shipper sees the bid by company name and confirms it after a second look', async () => {
      const page = shipperPage;
      await page.goto(freightUrl);
      const bids = page.locator('[data-testid="bids"]');
      assert.match(await bids.innerText(), new RegExp(carrier.companyName), 'bidders by name');
      assert.ok(plain(await bids.innerText()).includes(S.amountShown), 'the amount in the shipper’s format');
      await shoot(page, 'freight-view');
      await confirmAction(page, bids.locator('[data-testid="confirm-bid"]').first(), freightUrl);
      assert.match(await flashText(page), S.waitingOther);
      assert.match(await nextStep(page), S.mustConfirm);
      assert.equal(await page.locator('[data-testid="confirm-bid"]').count(), 0, 'no second confirmation by the same side');
    });

    test('the carrier reads that its confirmation is awaited, is offered no bid change, and confirms', async () => {
      const page = carrierPage;
      await page.goto(freightUrl);
      assert.match(await nextStep(page), C.awaited);
      assert.equal(await page.locator('[data-testid="bid-form"]').count(), 0, 'a confirmed bid cannot change: no "Update my bid"');
      await confirmAction(page, page.locator('[data-testid="confirm-bid"]').first(), freightUrl);
      assert.match(await flashText(page), C.awarded);
      assert.equal(await page.locator('.badge.taken').count(), 1);
      const contact = await page.locator('[data-testid="contact"]').innerText();
      assert.match(contact, /Erika Mustermann/);
      assert.ok(contact.includes(shipper.email));
      assert.match(await page.content(), /Hauptstraße/, 'the winner sees the address');
      await assertNoSideScroll(page, 'won order');
    });

    test('the shipper sees the carrier’s contact person; the carrier reports delivery', async () => {
      await shipperPage.goto(freightUrl);
      const contact = await shipperPage.locator('[data-testid="contact"]').innerText();
      assert.match(contact, /Jan de Vries/);
      assert.ok(contact.includes(carrier.email));
      await shipperPage.goto(`${base}/freights/enlist/12`);
      assert.equal(await shipperPage.locator('[data-testid="freight-list"] tbody tr').count(), 1);
      assert.match(await shipperPage.locator('[data-testid="freight-list"]').innerText(), new RegExp(carrier.companyName));
      await shoot(shipperPage, 'freight-list');

      await carrierPage.goto(freightUrl);
      await carrierPage.selectOption('[data-testid="delivery"] select', '3');
      await Promise.all([carrierPage.waitForURL(freightUrl), carrierPage.click('[data-testid="delivery"] button')]);
      assert.equal(await carrierPage.locator('.badge.closed').count(), 1);
      assert.ok((await flashText(carrierPage)).length > 0, 'a message after the action');
    });

    test('an expired freight is published again as a new draft', async () => {
      const created = await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'FRA', etd: '2030-12-01 08:00', weight: 800, refs: { customer: 'PO-EXP' } },
      });
      const id = created.body.data.id;
      await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 hours' } });
      app.setNow(new Date(Date.now() + 3 * 3600_000));
      try {
        const page = shipperPage;
        await page.goto(`${base}/freights/view/${id}`);
        assert.equal(await page.locator('.badge.expired').count(), 1);
        await Promise.all([page.waitForURL(/\/freights\/add\?copy=/), page.click('[data-testid="republish"]')]);
        assert.equal(await page.locator('[name="refs[customer]"]').inputValue(), 'PO-EXP');
        assert.equal(await page.locator('[name="to"]').inputValue(), 'FRA');
        await Promise.all([page.waitForURL(/\/freights\/view\/\d+$/), page.click('form[data-validate] button[type="submit"]')]);
        assert.notEqual(page.url(), `${base}/freights/view/${id}`);
        assert.equal(await page.locator('.badge.draft').count(), 1);
      } finally {
        app.setNow(null);
      }
    });
  });
}
