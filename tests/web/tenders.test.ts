import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, flashText, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 43 in a browser, in German and English, at 1366 and 390 px: a shipper uploads 20 lanes
 * from a CSV file on the tenders page and publishes the tender; two carriers bid on the tender's
 * page; the clock passes the deadline; the shipper awards from the evaluation page (the total a
 * month shown as ranks are chosen, and after the award from the contracts); its contracts list
 * them; a freight on the first lane goes down the routing guide from its draft page. Nothing
 * scrolls sideways, and axe-core finds no serious or critical violation on the tender pages.
 */

const TEXT = {
  deu: {
    read: '20 Relationen gelesen',
    create: 'Ausschreibung anlegen',
    publish: 'Ausschreibung veröffentlichen',
    bid: 'Gebote senden',
    award: 'Vergeben',
    open: 'offen für Gebote',
    guide: 'Über den Routing Guide anbieten',
    price: (n: string) => n.replace('.', ','),
  },
  eng: {
    read: '20 lanes read',
    create: 'Create the tender',
    publish: 'Publish the tender',
    bid: 'Send the bids',
    award: 'Award',
    open: 'open for bids',
    guide: 'Offer it down the routing guide',
    price: (n: string) => n,
  },
} as const;

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const minutesFromNow = (m: number) => {
  const d = new Date(Date.now() + m * 60_000);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
};

/** 20 lanes: the first from Frankfurt (DE-60) to Paris (FR-75), 20 loads a month; the others elsewhere. */
function lanesCsv(): string {
  const lines = ['from;to;loads;weight;body;note', 'DE-60;FR-75;20;24000;tautliner;Rampe 3'];
  for (let i = 1; i < 20; i++) lines.push(`DE-${10 + i};${i % 2 ? 'PL' : `IT-${20 + i}`};${i};;;`);
  return `${lines.join('\n')}\n`;
}

describe('lane tenders in the browser: CSV upload, bids, award, routing guide', { skip: HAVE_CHROMIUM ? false : 'no chromium' }, () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'UTC' } });
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    app?.setNow(null);
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  const clean = async (page: Page, what: string) => {
    await assertNoSideScroll(page, what);
    assert.deepEqual(await axeProblems(page), [], `${what}: axe-core`);
  };

  for (const lang of ['deu', 'eng'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px`, async () => {
        const words = TEXT[lang];
        // The README's pictures of the tender pages: English on the desk.
        const README = lang === 'eng' && viewport === DESKTOP;
        app.setNow(null);
        const shipper: Actor = await app.actor('Verlader', { language: lang });
        const alpha: Actor = await app.actor('Alpha Trans', { language: lang });
        const beta: Actor = await app.actor('Beta Logistik', { language: lang });

        // The shipper creates the tender: its lanes from a CSV file.
        const s = await pageFor(browser, base, shipper, viewport, contexts);
        await s.goto(`${base}/tenders/index`);
        const form = s.locator('[data-testid="tender-form"]');
        await form.locator('[name="name"]').fill(`Jahresausschreibung ${lang} ${viewport.width}`);
        await form.locator('[name="valid_from"]').fill(day(1));
        await form.locator('[name="valid_to"]').fill(day(366));
        // As the dispatcher types it: `31.01.2031 12:00` in German.
        await form
          .locator('[name="deadline"]')
          .fill(lang === 'deu' ? minutesFromNow(120).replace(/^(\d{4})-(\d{2})-(\d{2})/, '$3.$2.$1') : minutesFromNow(120));
        // The invited companies by name, with the freight form's suggestions (the shared company picker).
        const invited = form.locator('input[name="invited_names"]');
        const list = await invited.getAttribute('list');
        const options = await s.locator(`datalist#${list} option`).evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
        assert.ok(options.includes(alpha.companyName) && options.includes(beta.companyName), 'the carriers are suggested by name');
        await invited.fill(`${alpha.companyName}, ${beta.companyName}`);
        await form.locator('[data-csv-file]').setInputFiles({ name: 'lanes.csv', mimeType: 'text/csv', buffer: Buffer.from(lanesCsv()) });
        await s.waitForFunction(() => document.querySelector('[data-csv-state]')?.textContent?.trim());
        assert.equal(plain(await form.locator('[data-csv-state]').innerText()), words.read);
        await clean(s, 'the new tender form');
        await Promise.all([s.waitForURL(/\/tenders\/view\/\d+$/), form.getByRole('button', { name: words.create }).click()]);
        const id = Number(/\/tenders\/view\/(\d+)$/.exec(s.url())![1]);
        assert.deepEqual(
          (await app.get(`/tenders/view/${id}.json`, { token: shipper.token })).body.data.tender.invited,
          [alpha.company, beta.company],
          'the names became the companies',
        );
        assert.equal(await s.locator('tbody tr[data-testid^="lane-"]').count(), 20);
        await clean(s, 'the draft tender');
        await Promise.all([s.waitForURL(`${base}/tenders/view/${id}`), s.getByRole('button', { name: words.publish }).click()]);
        assert.equal(plain(await s.locator('[data-testid="tender-status"]').innerText()), words.open);
        await s.goto(`${base}/tenders/index`);
        await clean(s, 'the tenders list');
        if (README) await screenshot(s, 'tenders-list');

        // Two carriers bid on the tender's page: lane 1 and lane 2 each.
        const prices = { [alpha.company]: ['950.50', '700'], [beta.company]: ['870', '650'] };
        for (const carrier of [alpha, beta]) {
          const c = await pageFor(browser, base, carrier, viewport, contexts);
          await c.goto(`${base}/tenders/index`);
          await Promise.all([c.waitForURL(`${base}/tenders/view/${id}`), c.locator(`a[href="/tenders/view/${id}"]`).click()]);
          const bidForm = c.locator('[data-testid="bid-form"]');
          const [first, second] = prices[carrier.company]!;
          await bidForm.locator('[name="bids[0][price]"]').fill(words.price(first!));
          await bidForm.locator('[name="bids[1][price]"]').fill(words.price(second!));
          await clean(c, 'the bidding form');
          await Promise.all([c.waitForURL(`${base}/tenders/view/${id}`), bidForm.getByRole('button', { name: words.bid }).click()]);
          const said = await flashText(c);
          assert.ok(!(await c.locator('[data-testid="flash"].error').count()), said);
          assert.equal(
            await bidForm.locator('[name="bids[0][price]"]').inputValue(),
            words.price(Number(first).toFixed(2)),
            'the own bid shows in the form',
          );
        }
        const stored = await app.services.db
          .selectFrom('tender_bids')
          .innerJoin('tender_lanes', 'tender_lanes.id', 'tender_bids.lane_id')
          .select(['tender_bids.company_id', 'tender_bids.price'])
          .where('tender_lanes.tender_id', '=', id)
          .execute();
        assert.equal(stored.length, 4);

        // The deadline passes; the shipper evaluates and awards lane 1 (Beta first, Alpha backup) and lane 2 (Beta).
        app.setNow(new Date(Date.now() + 3 * 3_600_000));
        await app.tenders.sweep();
        await s.goto(`${base}/tenders/view/${id}`);
        const lane1 = s.locator('[data-testid="evaluate-lane-1"]');
        const lane2 = s.locator('[data-testid="evaluate-lane-2"]');
        // Each lane's heading says its loads in words: 20 of them, and one.
        const heading = { eng: ['20 loads a month', 'one load a month'], deu: ['20 Ladungen im Monat', 'eine Ladung im Monat'] }[lang];
        assert.ok(plain(await lane1.locator('h2').innerText()).endsWith(`· ${heading[0]}`));
        assert.ok(plain(await lane2.locator('h2').innerText()).endsWith(`· ${heading[1]}`));
        const rank = (lane: typeof lane1, who: Actor) =>
          lane.locator(`tr:has(input[name$="[company]"][value="${who.company}"]) input[name$="[rank]"]`);
        await rank(lane1, beta).fill('1');
        await rank(lane1, alpha).fill('2');
        await rank(lane2, beta).fill('1');
        // 870 × 20 + 650 × 1 (lane 2: one load a month)
        const expected = lang === 'deu' ? '18.050,00 €' : '€18,050.00';
        assert.equal(plain(await s.locator('[data-testid="award-total"]').innerText()), expected);
        await clean(s, 'the evaluation');
        if (README) await screenshot(s, 'tender-evaluation');
        await Promise.all([
          s.waitForURL(`${base}/contracts/index`),
          s.locator('[data-testid="award-form"]').getByRole('button', { name: words.award }).click(),
        ]);
        assert.equal(await s.locator('[data-testid="contracts"] tbody tr').count(), 3);
        await clean(s, 'the contracts');
        if (README) await screenshot(s, 'contracts');
        // After the award the evaluation shows the awarded total, from the contracts.
        await s.goto(`${base}/tenders/view/${id}`);
        assert.equal(plain(await s.locator('[data-testid="award-total"]').innerText()), expected);
        await clean(s, 'the awarded evaluation');

        // A freight on lane 1 goes down the routing guide from its draft page.
        app.setNow(null);
        const freight = (
          await app.post('/freights/add.json', {
            token: shipper.token,
            json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 8000, etd: `${day(30)} 08:00` },
          })
        ).body.data.id as number;
        await s.goto(`${base}/freights/view/${freight}`);
        const guide = s.locator('[data-testid="routing-guide"]');
        const order = plain(await guide.locator('ol').innerText());
        assert.ok(order.indexOf(beta.companyName) >= 0 && order.indexOf(beta.companyName) < order.indexOf(alpha.companyName), order);
        await clean(s, 'the routing guide');
        await Promise.all([s.waitForURL(`${base}/freights/view/${freight}`), guide.getByRole('button', { name: words.guide }).click()]);
        const fall = await app.services.db
          .selectFrom('freight_waterfalls')
          .selectAll()
          .where('freight_id', '=', freight)
          .executeTakeFirstOrThrow();
        assert.deepEqual(fall.carriers, [beta.company, alpha.company]);
        assert.deepEqual(fall.prices.map(Number), [870, 950.5]);
        assert.equal(fall.guide, true);
      });
    }
  }
});
