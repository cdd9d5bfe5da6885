import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { insertFreight } from '../quotes/fixtures.ts';
import { assertNoSideScroll, confirmAction, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 42 in a browser, in German and English, at 1366 and 390 px: a shipper offers a draft to
 * two partners one after the other (docs/reference.md#one-step) from its freight page; the first carrier
 * passes on its freight page; the second finds the load in its work queue ("your turn") and
 * books it there with one confirmed click. The picker names each partner with its rating; a
 * carrier books a load with a Book Now price from a row of the market list, in one click. Nothing
 * scrolls sideways.
 */

const TEXT = {
  deu: {
    waterfall: 'Nacheinander Frachtführern anbieten',
    start: 'Angebot starten',
    pass: 'Ablehnen',
    turn: 'Sie sind an der Reihe',
    book: 'Sofort buchen für 912,50 €',
    rating: '★ 4,3 von 5 (3 Bewertungen)',
    rowBook: 'Sofort buchen für 1.250,00 €',
    turnNext: 'Sie sind dran: bis {until} für 912,50 € sofort buchen oder ablehnen',
    // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
    then: 'dann der Markt',
  },
  eng: {
    waterfall: 'Offer to carriers one after another',
    start: 'Start the offer',
    pass: 'Pass',
    turn: 'Loads offered to you: your turn',
    book: 'Book now for €912.50',
    rating: '★ 4.3 of 5 (3 ratings)',
    rowBook: 'Book now for €1,250.00',
    turnNext: 'Your move: book it for €912.50 or pass, by {until}',
    // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
    then: 'then the market',
  },
} as const;

describe('a waterfall in the browser: set up, passed, booked from the work queue', { skip: HAVE_CHROMIUM ? false : 'no chromium' }, () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
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

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px`, async () => {
        const words = TEXT[lang];
        const shipper: Actor = await app.actor('Spedition', { language: lang });
        const first: Actor = await app.actor('C Transport', { language: lang });
        const second: Actor = await app.actor('Alpen Cargo', { language: lang });
        // Partners: both bid on an earlier freight of the shipper.
        const old = (
          await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 500 } })
        ).body.data.id;
        await app.post(`/freights/view/${old}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } });
        for (const c of [first, second])
          await app.post('/quotes/add.json', { token: c.token, json: { route: old, amount: 900, currency_code: 'EUR' } });
        // The first carrier's ratings after three deliveries (docs/reference.md#trust): 5, 4, 4.
        for (const score of [5, 4, 4]) {
          const delivered = await insertFreight(app.services.db, shipper, { status: 'closed' });
          await app.services.db
            .insertInto('ratings')
            .values({ freight_id: delivered, rater_id: shipper.company, rated_id: first.company, score, comment: '', created: new Date() })
            .execute();
        }
        const id = (
          await app.post('/freights/add.json', {
            token: shipper.token,
            json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, etd: '2031-01-10 08:00', eta: '2031-01-10 18:00' },
          })
        ).body.data.id as number;

        // The shipper sets up the waterfall on its draft's page.
        const s = await pageFor(browser, base, shipper, viewport, contexts);
        await s.goto(`${base}/freights/view/${id}`);
        const setup = s.locator('[data-testid="waterfall-setup"]');
        await setup.locator('summary').click();
        assert.equal(plain(await setup.locator('summary').innerText()), words.waterfall);
        const rated = plain(await s.locator(`[data-testid="waterfall-carrier-0"] option[value="${first.company}"]`).innerText());
        assert.ok(rated.startsWith(first.companyName) && rated.endsWith(words.rating), rated);
        await s.selectOption('[data-testid="waterfall-carrier-0"]', String(first.company));
        await s.selectOption('[data-testid="waterfall-carrier-1"]', String(second.company));
        await setup.locator('input[name="price"]').fill(lang === 'deu' ? '912,50' : '912.50');
        await setup.locator('input[name="minutes"]').fill('90');
        await assertNoSideScroll(s, 'the waterfall set-up');
        await Promise.all([s.waitForURL(`${base}/freights/view/${id}`), setup.getByRole('button', { name: words.start }).click()]);
        // The line that says whose move it is tells the offer (not the bidding deadline), and only it.
        const state = plain(await s.locator('[data-testid="next-step"]').innerText());
        assert.ok(state.includes(first.companyName) && state.includes(second.companyName) && state.includes(words.then), state);
        assert.equal(await s.locator('[data-testid="waterfall-state"]').count(), 0, 'the offer said once');

        // The first carrier passes from the freight page.
        const a = await pageFor(browser, base, first, viewport, contexts);
        await a.goto(`${base}/freights/view/${id}`);
        await assertNoSideScroll(a, 'the carrier’s turn');
        // Its move: book or pass by the turn's end (the time the "your turn" note gives).
        const until = /(\d{2}[.-]\d{2}[.-]\d{4}|\d{4}-\d{2}-\d{2}) \d{2}:\d{2}/.exec(
          plain(await a.locator('[data-testid="your-turn"]').innerText()),
        )?.[0];
        assert.ok(until, 'the turn ends at a time');
        const turnNext = plain(await a.locator('[data-testid="next-step"]').innerText());
        assert.ok(turnNext.startsWith(words.turnNext.replace('{until}', until)), turnNext);
        await confirmAction(a, a.locator('[data-testid="decline-turn"]'), `${base}/`);
        assert.equal((await a.goto(`${base}/freights/view/${id}`))?.status(), 404);

        // The second finds it in its work queue and books it there.
        const b = await pageFor(browser, base, second, viewport, contexts);
        await b.goto(`${base}/`);
        const desk = plain(await b.locator('main').innerText());
        assert.ok(desk.includes(words.turn), desk.slice(0, 400));
        await assertNoSideScroll(b, 'the work queue');
        await Promise.all([b.waitForURL(`${base}/freights/view/${id}`), b.locator(`main a[href="/freights/view/${id}"]`).first().click()]);
        const book = b.locator('[data-testid="book-now"]');
        assert.equal(plain(await book.locator('summary').innerText()), words.book);
        await assertNoSideScroll(b, 'Book Now');
        await confirmAction(b, book, `${base}/freights/view/${id}`);
        const row = await app.services.db.selectFrom('freights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        assert.deepEqual([row.status, row.winner_id, row.price], ['taken', second.company, '912.50']);

        // A load with a Book Now price, booked by the first carrier from its row in the market list, in one click.
        const market = (
          await app.post('/freights/add.json', {
            token: shipper.token,
            json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 900, etd: '2031-01-11 08:00', book_now: 1250 },
          })
        ).body.data.id as number;
        await app.post(`/freights/view/${market}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } });
        await a.goto(`${base}/freights/enlist/8`);
        const rowBook = a.locator(`form[action="/quotes/book/${market}"] button`);
        assert.equal(plain(await rowBook.innerText()), words.rowBook);
        await assertNoSideScroll(a, 'Book Now in the market list');
        await Promise.all([a.waitForURL(`${base}/freights/view/${market}`), rowBook.click()]);
        const taken = await app.services.db.selectFrom('freights').selectAll().where('id', '=', market).executeTakeFirstOrThrow();
        assert.deepEqual([taken.status, taken.winner_id, taken.price], ['taken', first.company, '1250.00']);
      });
    }
  }
});
