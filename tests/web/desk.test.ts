import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 24, item 6: the start page is the dispatcher's work queue. What waits for the company's
 * move (bids to answer and to confirm, confirmations awaited from it, deliveries to report,
 * drafts with gaps) and what changed since the user last looked (new bids, its bids accepted or
 * lost), with counts, each entry linking to its freight. The list rows say whose move it is; the
 * awarded lists show the price with its currency and the delivery status. Ratings (issue 27)
 * joined it: a delivered freight whose counterpart the company has not rated yet, and a rating of
 * the company it has not answered. German and English, 1366 and 390 px.
 */

const T0 = new Date('2030-03-01T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const TEXT = {
  deu: {
    title: 'Arbeitsliste',
    choose: 'Gebote zu beantworten (1)',
    chooseItem: '2 Gebote, das beste 1.745,50 €',
    confirmMine: 'Ihre Bestätigung wird erwartet (1)',
    confirmMineItem: 'hat Ihr Gebot über 1.500,00 € angenommen',
    deliveries: 'Lieferstatus zu melden (1)',
    deliveriesItem: 'nicht begonnen; Abholung 04.05.2030 08:00',
    drafts: 'Unvollständige Entwürfe (1)',
    draftsItem: 'Es fehlt: das Gewicht',
    newBids: 'Neue Gebote auf Ihre Ausschreibungen',
    won: 'Ihre Gebote angenommen (1)',
    lost: 'Ihre Gebote verloren (1)',
    lostItem: (id: number) => `Fracht ${id} vom 04.05.2030`,
    lostAmount: 'Ihr Gebot war 2.200,00 €',
    firstLook: 'Neu in den letzten sieben Tagen',
    since: 'Neu seit Ihrem letzten Besuch (01.03.2030 09:01)',
    noChanges: 'Nichts Neues.',
    yourMove: 'Sie sind dran',
    price: '2.100,00 €',
    notStarted: 'nicht begonnen',
    rate: (n: number) => `Partner zu bewerten (${n})`,
    rateItem: (company: string) => `Geliefert 01.03.2030 09:01; mit ${company}.`,
    rateLink: (company: string) => `${company} bewerten`,
    answer: (n: number) => `Bewertungen zu beantworten (${n})`,
    answerItem: (company: string) => `${company} hat Sie mit 4 von 5 bewertet: antworten Sie auf Ihrem Profil.`,
    ratingFreight: (ref: string) => `Bewertung zu Fracht ${ref}`,
  },
  eng: {
    title: 'Work queue',
    choose: 'Bids to answer (1)',
    chooseItem: '2 bids, the best €1,745.50',
    confirmMine: 'Confirmations awaited from you (1)',
    confirmMineItem: 'accepted your bid of €1,500.00',
    deliveries: 'Deliveries to report (1)',
    deliveriesItem: 'not started; pick-up 2030-05-04 08:00',
    drafts: 'Drafts with gaps (1)',
    draftsItem: 'Missing: the weight',
    newBids: 'New bids on your tenders',
    won: 'Your bids accepted (1)',
    lost: 'Your bids lost (1)',
    lostItem: (id: number) => `Freight ${id} of 2030-05-04`,
    lostAmount: 'your bid was €2,200.00',
    firstLook: 'What changed in the last seven days',
    since: 'What changed since you last looked (2030-03-01 09:01)',
    noChanges: 'Nothing changed.',
    yourMove: 'your move',
    price: '€2,100.00',
    notStarted: 'not started',
    rate: (n: number) => `Counterparts to rate (${n})`,
    rateItem: (company: string) => `Delivered 2030-03-01 09:01; with ${company}.`,
    rateLink: (company: string) => `Rate ${company}`,
    answer: (n: number) => `Ratings to answer (${n})`,
    answerItem: (company: string) => `${company} rated you 4 of 5: answer it on your profile.`,
    ratingFreight: (ref: string) => `Rating for freight ${ref}`,
  },
} as const;
type Lang = keyof typeof TEXT;

interface Party {
  shipper: Actor;
  winner: Actor;
  loser: Actor;
  /** T1: two bids to choose from; T2: the shipper accepted the winner's bid; T3: awarded; D: a draft without weight */
  ids: { choose: number; confirm: number; awarded: number; draft: number; later: number };
}

describe('pages: the start page is the dispatcher’s work queue (issue 24, item 6)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const parties = {} as Record<Lang, Party>;
  const contexts: BrowserContext[] = [];

  const post = async (who: Actor, url: string, json: Record<string, unknown> = {}) => {
    const res = await app.post(url, { token: who.token, json });
    assert.ok(res.status === 200 || res.status === 302, `${url}: ${res.text}`);
    return res.body;
  };

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    app.setNow(T0);
    const freight = async (shipper: Actor, extra: Record<string, unknown> = {}) => {
      const id = (
        await post(shipper, '/freights/add.json', {
          from: 'city:DE-60311',
          from_latitude: 50.11,
          from_longitude: 8.68,
          to: 'city:IT-20121',
          to_latitude: 45.47,
          to_longitude: 9.19,
          etd: '2030-05-04 08:00',
          weight: 12000,
          refs: { customer: `PO-${Math.floor(Math.random() * 1e6)}` },
          ...extra,
        })
      ).data.id as number;
      await post(shipper, `/freights/view/${id}.json`, { action: 'publish', deadline: '+7 days' });
      return id;
    };
    const bid = async (who: Actor, route: number, amount: string) =>
      (await post(who, '/quotes/add.json', { route, amount, currency_code: 'EUR' })).data.bid.id as number;
    for (const lang of ['deu', 'eng'] as const) {
      const shipper = await app.actor(`Spedition ${lang}`, { language: lang });
      const winner = await app.actor(`Winner ${lang}`, { language: lang });
      const loser = await app.actor(`Loser ${lang}`, { language: lang });
      const choose = await freight(shipper);
      await bid(winner, choose, '1745.50');
      await bid(loser, choose, '1900');
      const confirm = await freight(shipper);
      await post(shipper, `/quotes/confirm/${await bid(winner, confirm, '1500')}.json`);
      const awarded = await freight(shipper);
      const won = await bid(winner, awarded, '2100');
      await bid(loser, awarded, '2200');
      await post(shipper, `/quotes/confirm/${won}.json`);
      await post(winner, `/quotes/confirm/${won}.json`);
      const draft = (await post(shipper, '/freights/add.json', { from: 'FRA', to: 'MUC', etd: '2030-05-04 08:00' })).data.id as number;
      const later = await freight(shipper);
      parties[lang] = { shipper, winner, loser, ids: { choose, confirm, awarded, draft, later } };
    }
    app.setNow(at(1));
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  /** A part of the queue (its panel): heading with count, entries. */
  const part = (page: Page, name: string) => page.locator(`[data-testid="desk-${name}"]`);
  const text = async (page: Page, name: string) => plain(await part(page, name).innerText());
  const links = (page: Page, name: string) =>
    part(page, name)
      .locator('[data-testid="desk-entry"] a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));

  for (const lang of ['deu', 'eng'] as const) {
    const T = TEXT[lang];
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} ${viewport.width}px: the shipper's queue: bids to answer, a draft with gaps, the new bids; the rows say whose move`, async () => {
        const { shipper, ids } = parties[lang];
        const page = await pageFor(browser, base, shipper, viewport, contexts);
        await page.goto(`${base}/`);
        assert.equal(plain(await page.locator('h1').innerText()), T.title);
        assert.ok((await text(page, 'chooseBids')).includes(T.choose));
        assert.ok((await text(page, 'chooseBids')).includes(T.chooseItem), await text(page, 'chooseBids'));
        assert.deepEqual(await links(page, 'chooseBids'), [`/freights/view/${ids.choose}`]);
        assert.ok((await text(page, 'drafts')).includes(T.drafts));
        assert.ok((await text(page, 'drafts')).includes(T.draftsItem));
        assert.deepEqual(await links(page, 'drafts'), [`/freights/view/${ids.draft}`]);
        assert.ok(plain(await page.locator('[data-testid="desk-changed"]').innerText()).includes(T.firstLook));
        assert.ok((await text(page, 'newBids')).includes(`${T.newBids} (5)`), await text(page, 'newBids'));
        assert.equal(await part(page, 'confirmMine').count(), 0, 'nothing of a carrier’s queue');
        await assertNoSideScroll(page, `desk ${lang}`);
        await screenshot(page, `issue24-desk-shipper-${lang}-${viewport.width}`);
        // An entry leads to its freight, where the move is made.
        await Promise.all([
          page.waitForURL(new RegExp(`/freights/view/${ids.choose}$`)),
          part(page, 'chooseBids').locator('a').first().click(),
        ]);
        assert.equal(await page.locator('[data-testid="confirm-bid"]').count(), 2, 'both bids can be confirmed there');
        // The own open tenders: the row with bids to answer is the shipper's move; the accepted one waits for the carrier.
        await page.goto(`${base}/freights/enlist/10`);
        const row = (id: number) =>
          page.locator('[data-testid="freight-list"] tbody tr', { has: page.locator(`a[href="/freights/view/${id}"]`) });
        assert.equal(await row(ids.choose).locator('[data-testid="your-move"]').count(), 1);
        assert.equal(plain(await row(ids.choose).locator('[data-testid="your-move"]').innerText()), T.yourMove);
        assert.equal(await row(ids.confirm).locator('[data-testid="your-move"]').count(), 0);
        // Awarded: the carrier's price with its currency and the delivery status.
        await page.goto(`${base}/freights/enlist/12`);
        const awarded = plain(await row(ids.awarded).innerText());
        assert.ok(awarded.includes(T.price), awarded);
        assert.ok(awarded.includes(T.notStarted), awarded);
        await assertNoSideScroll(page, `awarded list ${lang}`);
      });

      test(`${lang} ${viewport.width}px: the carriers' queues: a confirmation awaited, a delivery to report, a bid accepted, a bid lost`, async () => {
        const { winner, loser, ids } = parties[lang];
        const page = await pageFor(browser, base, winner, viewport, contexts);
        await page.goto(`${base}/`);
        assert.ok((await text(page, 'confirmMine')).includes(T.confirmMine));
        assert.ok((await text(page, 'confirmMine')).includes(T.confirmMineItem), await text(page, 'confirmMine'));
        assert.deepEqual(await links(page, 'confirmMine'), [`/freights/view/${ids.confirm}`]);
        assert.ok((await text(page, 'deliveries')).includes(T.deliveries));
        assert.ok((await text(page, 'deliveries')).includes(T.deliveriesItem), await text(page, 'deliveries'));
        assert.deepEqual(await links(page, 'deliveries'), [`/freights/view/${ids.awarded}`]);
        assert.ok((await text(page, 'won')).includes(T.won));
        assert.deepEqual(await links(page, 'won'), [`/freights/view/${ids.awarded}`]);
        await assertNoSideScroll(page, `carrier desk ${lang}`);
        await screenshot(page, `issue24-desk-carrier-${lang}-${viewport.width}`);
        // My bids: the accepted bid waiting for the carrier is marked; won orders: price and delivery status, its move.
        await page.goto(`${base}/freights/enlist/7`);
        const row = (id: number) =>
          page.locator('[data-testid="freight-list"] tbody tr', { has: page.locator(`a[href="/freights/view/${id}"]`) });
        assert.equal(await row(ids.confirm).locator('[data-testid="your-move"]').count(), 1);
        assert.equal(
          await row(ids.choose).locator('[data-testid="your-move"]').count(),
          0,
          'a bid with the shipper is not the carrier’s move',
        );
        await page.goto(`${base}/freights/enlist/2`);
        const won = plain(await row(ids.awarded).innerText());
        assert.ok(won.includes(T.price) && won.includes(T.notStarted) && won.includes(T.yourMove), won);

        const lostPage = await pageFor(browser, base, loser, viewport, contexts);
        await lostPage.goto(`${base}/`);
        const lost = await text(lostPage, 'lost');
        assert.ok(lost.includes(T.lost), lost);
        assert.ok(lost.includes(T.lostItem(ids.awarded)), lost);
        assert.ok(lost.includes(T.lostAmount), lost);
        assert.doesNotMatch(lost, /60311|20121|xxx/, 'a lost load is masked: no places');
        assert.deepEqual(await links(lostPage, 'lost'), [`/freights/view/${ids.awarded}`]);
      });
    }

    for (const viewport of [DESKTOP, PHONE])
      test(`${lang} ${viewport.width}px: ratings in the queue: counterparts to rate, a rating to answer; each gone once done`, async () => {
        // A shipper and a carrier with two freights delivered between them; the shipper rated the first.
        const shipper = await app.actor(`Versand ${lang} ${viewport.width}`, { language: lang });
        const carrier = await app.actor(`Fuhrpark ${lang} ${viewport.width}`, { language: lang });
        const names = {
          shipper: (await app.get(`/companies/view/${shipper.company}.json`, { token: shipper.token })).body.data.company.name as string,
          carrier: (await app.get(`/companies/view/${carrier.company}.json`, { token: carrier.token })).body.data.company.name as string,
        };
        const delivered: number[] = [];
        for (const customer of ['RATE-1', 'RATE-2']) {
          const id = (
            await post(shipper, '/freights/add.json', {
              from: 'city:DE-60311',
              to: 'city:IT-20121',
              etd: '2030-05-04 08:00',
              weight: 9000,
              refs: { customer: `${customer}-${lang}-${viewport.width}` },
            })
          ).data.id as number;
          await post(shipper, `/freights/view/${id}.json`, { action: 'publish', deadline: '+7 days' });
          const bid = (await post(carrier, '/quotes/add.json', { route: id, amount: '800', currency_code: 'EUR' })).data.bid.id;
          await post(shipper, `/quotes/confirm/${bid}.json`);
          await post(carrier, `/quotes/confirm/${bid}.json`);
          await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 3 });
          delivered.push(id);
        }
        const [first, second] = delivered as [number, number];
        await post(shipper, `/companies/rate/${first}.json`, { score: 4, comment: 'On time.' });

        // The shipper: the second freight's carrier to rate (the first is rated); its link opens the rate form.
        const owner = await pageFor(browser, base, shipper, viewport, contexts);
        await owner.goto(`${base}/`);
        let rate = await text(owner, 'rateCounterparts');
        assert.ok(rate.includes(T.rate(1)), rate);
        assert.ok(rate.includes(T.rateItem(names.carrier)), rate);
        assert.deepEqual(await links(owner, 'rateCounterparts'), [`/freights/view/${second}`, `/companies/view/${carrier.company}#rate`]);
        assert.equal(await part(owner, 'answerRatings').count(), 0);
        await assertNoSideScroll(owner, `desk with ratings ${lang}`);
        await Promise.all([
          owner.waitForURL(new RegExp(`/companies/view/${carrier.company}#rate$`)),
          part(owner, 'rateCounterparts')
            .getByRole('link', { name: T.rateLink(names.carrier) })
            .click(),
        ]);
        await Promise.all([
          owner.waitForURL(/\/companies\/view\//),
          owner.locator('[data-testid="rate-form"] button[type="submit"]').click(),
        ]);
        await owner.goto(`${base}/`);
        assert.equal(await part(owner, 'rateCounterparts').count(), 0, 'rated: no longer waiting');

        // The carrier: both deliveries to rate, and the shipper's rating to answer (on its own profile).
        const driver = await pageFor(browser, base, carrier, viewport, contexts);
        await driver.goto(`${base}/`);
        rate = await text(driver, 'rateCounterparts');
        assert.ok(rate.includes(T.rate(2)) && rate.includes(T.rateItem(names.shipper)), rate);
        const answer = await text(driver, 'answerRatings');
        assert.ok(answer.includes(T.answer(2)), answer);
        assert.ok(answer.includes(T.answerItem(names.shipper)), answer);
        assert.ok(answer.includes(T.ratingFreight(`RATE-1-${lang}-${viewport.width}`)), answer);
        // Both ratings (the first by the API, the second by the form just now), each linking to the own profile.
        assert.deepEqual(await links(driver, 'answerRatings'), [
          `/companies/view/${carrier.company}`,
          `/companies/view/${carrier.company}`,
        ]);
        assert.ok(
          plain(await driver.locator('[data-testid="desk-summary"]').innerText()).includes(lang === 'deu' ? '4 Vorgänge' : '4 things'),
        );
        await assertNoSideScroll(driver, `carrier desk with ratings ${lang}`);
        await screenshot(driver, `issue24-desk-ratings-${lang}-${viewport.width}`);
        await Promise.all([
          driver.waitForURL(`${base}/companies/view/${carrier.company}`),
          part(driver, 'answerRatings').locator('a').first().click(),
        ]);
        const firstRating = driver.locator('[data-testid="rating"]').first();
        await firstRating.locator('details summary').click();
        await firstRating.locator('textarea[name="reply"]').fill('Thank you.');
        await Promise.all([driver.waitForURL(/\/companies\/view\//), firstRating.locator('form button[type="submit"]').click()]);
        await driver.goto(`${base}/`);
        assert.ok((await text(driver, 'answerRatings')).includes(T.answer(1)), 'the answered one no longer waits');
        assert.ok((await text(driver, 'rateCounterparts')).includes(T.rate(2)));
      });

    test(`${lang}: "what changed" starts when the user last looked`, async () => {
      const { shipper, loser, ids } = parties[lang];
      const page = await pageFor(browser, base, shipper, DESKTOP, contexts);
      app.setNow(at(1));
      await page.goto(`${base}/`);
      assert.ok(plain(await page.locator('[data-testid="desk-changed"]').innerText()).includes(T.firstLook));
      // Two hours later a bid came in: the next look shows it alone, since the look before.
      app.setNow(at(120));
      await app.post('/quotes/add.json', { token: loser.token, json: { route: ids.later, amount: '999', currency_code: 'EUR' } });
      await page.goto(`${base}/`);
      assert.ok(plain(await page.locator('[data-testid="desk-changed"]').innerText()).includes(T.since));
      assert.ok((await text(page, 'newBids')).includes(`${T.newBids} (1)`), await text(page, 'newBids'));
      assert.deepEqual(await links(page, 'newBids'), [`/freights/view/${ids.later}`]);
      // A reload within the same stretch of work keeps it; after a pause it is seen.
      app.setNow(at(130));
      await page.reload();
      assert.ok((await text(page, 'newBids')).includes(`${T.newBids} (1)`));
      app.setNow(at(200));
      await page.reload();
      assert.equal(await part(page, 'newBids').count(), 0);
      assert.ok(plain(await page.locator('section[data-testid="desk"]').innerText()).includes(T.noChanges));
      app.setNow(at(1));
    });
  }
});
