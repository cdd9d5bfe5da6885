import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 24, item 7: "My bids" shows the own bid without scrolling sideways at 1366 px; a lost
 * load shows its number, day and the own bid as lost (not `xxx (XX) → xxx (XX)` and "open"); an
 * expired tender shows its owner the bids it had (docs/reference.md#the-api keeps `_bids` out of the JSON for an
 * expired freight: the page reads them itself). German and English, 1366 and 390 px.
 */

const T0 = new Date('2030-03-01T08:00:00Z');

const TEXT = {
  deu: {
    myBid: 'Mein Gebot',
    lostRoute: (id: number) => `Fracht ${id} vom 04.05.2030`,
    lost: 'verloren',
    open: 'offen',
    pending: 'Bestätigung ausstehend',
    expired: 'Ausschreibung abgelaufen',
    amount: '2.200,00 €',
    expiredBids: ['1.111,00 €', '1.222,00 €'],
    pastNote: 'nicht mehr bestätigt werden',
  },
  eng: {
    myBid: 'My bid',
    lostRoute: (id: number) => `Freight ${id} of 2030-05-04`,
    lost: 'lost',
    open: 'open',
    pending: 'awaiting confirmation',
    expired: 'tender expired',
    amount: '€2,200.00',
    expiredBids: ['€1,111.00', '€1,222.00'],
    pastNote: 'can no longer be confirmed',
  },
} as const;
type Lang = keyof typeof TEXT;

describe('pages: my bids, lost loads and an expired tender’s bids (issue 24, item 7)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const carriers = {} as Record<Lang, Actor>;
  const shippers = {} as Record<Lang, Actor>;
  let rival: Actor;
  const ids = {} as Record<Lang, { lost: number; expired: number; pending: number }>;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    app.setNow(T0);
    rival = await app.actor('Konkurrenz Spedition und Logistik GmbH & Co. KG');
    const post = async (who: Actor, url: string, json: Record<string, unknown> = {}) => {
      const res = await app.post(url, { token: who.token, json });
      assert.ok(res.status === 200 || res.status === 302, `${url}: ${res.text}`);
      return res.body;
    };
    const publish = async (shipper: Actor, deadline = '+7 days', extra: Record<string, unknown> = {}) => {
      const id = (
        await post(shipper, '/freights/add.json', {
          from: 'city:DE-04159',
          from_latitude: 51.37,
          from_longitude: 12.36,
          to: 'city:ES-28021',
          to_latitude: 40.37,
          to_longitude: -3.7,
          etd_range: '2030-05-04 08:00 to 2030-05-05 12:00',
          eta_range: '2030-05-07 08:00 to 2030-05-08 16:00',
          weight: 12500,
          category: 'ftl',
          ...extra,
        })
      ).data.id as number;
      await post(shipper, `/freights/view/${id}.json`, { action: 'publish', deadline });
      return id;
    };
    const bid = async (who: Actor, route: number, amount: string) =>
      (await post(who, '/quotes/add.json', { route, amount, currency_code: 'EUR' })).data.bid.id as number;
    for (const lang of ['deu', 'eng'] as const) {
      // Long names, as companies have them: the shipper column must not push the own bid out of sight.
      shippers[lang] = await app.actor(`Internationale Spedition mit einem recht langen Firmennamen ${lang}`, { language: lang });
      carriers[lang] = await app.actor(`Transporte und Logistik Europa ${lang}`, { language: lang });
      const shipper = shippers[lang];
      const carrier = carriers[lang];
      for (let i = 0; i < 4; i++) await bid(carrier, await publish(shipper), String(1500 + i));
      const pending = await publish(shipper);
      await post(shipper, `/quotes/confirm/${await bid(carrier, pending, '1650')}.json`);
      // Lost: the rival's bid is confirmed by both sides.
      const lost = await publish(shipper);
      await bid(carrier, lost, '2200');
      const rivalBid = await bid(rival, lost, '2100');
      await post(shipper, `/quotes/confirm/${rivalBid}.json`);
      await post(rival, `/quotes/confirm/${rivalBid}.json`);
      // Expired: bids came, the deadline passed without an award.
      const expired = await publish(shipper, '+1 days');
      await bid(carrier, expired, '1111');
      await bid(rival, expired, '1222');
      ids[lang] = { lost, expired, pending };
    }
    app.setNow(new Date(T0.getTime() + 3 * 86_400_000));
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  const rowOf = (page: Page, id: number) =>
    page.locator('[data-testid="freight-list"] tbody tr', { has: page.locator(`a[href="/freights/view/${id}"]`) }).first();

  for (const lang of ['deu', 'eng'] as const) {
    const T = TEXT[lang];

    test(`${lang} 1366px: "My bids" shows the own bid column without scrolling sideways`, async () => {
      const page = await pageFor(browser, base, carriers[lang], DESKTOP, contexts);
      await page.goto(`${base}/freights/enlist/7`);
      const wrap = page.locator('.table-wrap').first();
      const overflow = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(overflow <= 0, `the table scrolls sideways by ${overflow}px`);
      const header = await page.locator('[data-testid="freight-list"] th', { hasText: T.myBid }).boundingBox();
      assert.ok(header && header.x + header.width <= DESKTOP.width, `the own bid's column ends at ${header && header.x + header.width}px`);
      const pending = plain(await rowOf(page, ids[lang].pending).innerText());
      assert.ok(pending.includes(T.pending), pending);
      await assertNoSideScroll(page, `my bids ${lang}`);
      await screenshot(page, `issue24-my-bids-${lang}-1366`);
    });

    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} ${viewport.width}px: a lost load shows its number, day and the own bid as lost`, async () => {
        const page = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await page.goto(`${base}/freights/enlist/6`);
        const row = plain(await rowOf(page, ids[lang].lost).innerText());
        assert.ok(row.includes(T.lostRoute(ids[lang].lost)), row);
        assert.ok(row.includes(T.amount), row);
        assert.equal(plain(await rowOf(page, ids[lang].lost).locator('[data-testid="bid-outcome"]').innerText()), T.lost);
        assert.doesNotMatch(row, /xxx \(XX\)/);
        await assertNoSideScroll(page, `lost ${lang}`);
        if (viewport === PHONE) await screenshot(page, `issue24-lost-${lang}-390`);
        // The archive: the expired tender says so.
        await page.goto(`${base}/freights/enlist/9`);
        assert.equal(plain(await rowOf(page, ids[lang].expired).locator('[data-testid="bid-outcome"]').innerText()), T.expired);
        // The freight page of the lost load: the own bid lost, not open.
        await page.goto(`${base}/freights/view/${ids[lang].lost}`);
        const bids = page.locator('[data-testid="bids"]');
        assert.equal(plain(await bids.locator('[data-testid="bid-outcome"]').innerText()), T.lost);
        assert.doesNotMatch(plain(await bids.innerText()), new RegExp(`\\b${T.open}\\b`));
        await assertNoSideScroll(page, `lost freight ${lang}`);
      });

      test(`${lang} ${viewport.width}px: the owner of an expired tender sees its bids`, async () => {
        const page = await pageFor(browser, base, shippers[lang], viewport, contexts);
        await page.goto(`${base}/freights/view/${ids[lang].expired}`);
        const bids = plain(await page.locator('[data-testid="bids"]').innerText());
        for (const amount of T.expiredBids) assert.ok(bids.includes(amount), bids);
        assert.ok(bids.includes(carriers[lang].companyName) && bids.includes(rival.companyName), bids);
        assert.ok(plain(await page.locator('[data-testid="past-bids"]').innerText()).includes(T.pastNote));
        assert.equal(await page.locator('[data-testid="confirm-bid"]').count(), 0, 'no confirmation on an expired tender');
        await assertNoSideScroll(page, `expired ${lang}`);
        if (viewport === DESKTOP) await screenshot(page, `issue24-expired-bids-${lang}-1366`);
      });
    }
  }

  test('JSON: the expired tender keeps `_bids` out, the lost load stays masked (docs/reference.md#the-api, docs/reference.md#freights)', async () => {
    const expired = (await app.get(`/freights/view/${ids.deu.expired}.json`, { token: shippers.deu.token })).body.data.route;
    assert.equal(expired.status, 'expired');
    assert.ok(!('_bids' in expired));
    const lost = (await app.get(`/freights/view/${ids.deu.lost}.json`, { token: carriers.deu.token })).body.data.route;
    assert.equal(lost.f_from, 'xxx (XX)');
    assert.equal(lost.winner, null);
    assert.deepEqual(
      lost._bids.map((b: { status: string }) => b.status),
      ['open'],
      'the API answers the bid’s own status',
    );
  });
});
