import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { importRateSheet } from '../../src/pricing/import.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { DESKTOP, LONG_WORDS_BID, LONG_WORDS_FREIGHT, pageFor, PHONE, sideScroll, untilInPage } from './helpers.ts';
import { seedExchange, type SeededExchange } from './seed.ts';

/**
 * WCAG 2.2 A/AA on every main page of a realistic exchange (tests/web/seed.ts): axe-core finds no
 * serious or critical violation on the lists, the freight pages in their states (as owner and as
 * carrier; one with its conversation and documents), the forms, rates, templates, flights,
 * milk-run, cases, tours, saved searches, notifications (with unread ones: the header's count),
 * webhooks, the account, /docs and the login, the vehicle offers, company profiles (ratings,
 * replies, the rate form), the blocked companies, unread messages, the Shipments preview and lane
 * prices, the lane tenders (list, a tender as owner and as bidder, the contracts), in German and English at 1366 and 390 px. One browser; each page once per language and
 * width. A failure names the page, the width, the language and the rule.
 *
 * And on every one of those visits: nothing scrolls sideways (the document no wider than the
 * window), with the longest words a dispatcher meets (a long company name in the header, a
 * freight with long addresses, references, goods and bid notes; tests/web/layout.test.ts checked
 * this on its own visits of a subset of these pages before 2026-11-30).
 *
 * And the keyboard: from the top of a list, the skip links lead to the list's rows in a few Tab
 * presses, not past the menu, the search bar and the tabs one by one.
 */

const RATES = [
  'origin,destination,transit_days,min_charge,kg_100,kg_300,kg_500,kg_1000,kg_3000,fsc_pct,ssc_per_kg,uld_price',
  'city:DE-60,airport:FRA,1,45.00,0.40,0.35,0.30,0.25,0.20,12.5,0.05,',
  'airport:FRA,airport:AMS,1,80.00,0.30,0.28,0.26,0.24,0.22,10,0.04,950',
].join('\n');

const STATUS_CSV = [
  'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location',
  '176-10000001,RCF,2030-03-02 06:10,FRA,EK9901,4,1250.25,PER COL,A-12',
  '176-10000001,NFD,2030-03-02 09:00,FRA,,,,,',
].join('\n');

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  rule: string;
  impact: string;
  nodes: Array<{ target: string; html: string }>;
}

/**
 * axe-core in every page of the context from now on: handed to the browser once per context (an
 * init script), instead of 650 kB sent and parsed page by page (`violations` adds it where missing).
 */
async function withAxe(page: Page): Promise<Page> {
  await page.context().addInitScript({ content: AXE_SOURCE });
  return page;
}

/** axe-core's violations of WCAG 2.x A/AA rules and its best practices on the page as it is now (every impact). */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const found = await page.evaluate(async () => {
    type Result = { id: string; impact: string; nodes: Array<{ target: unknown[]; html: string }> };
    const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: Result[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160) })),
    }));
  });
  return found;
}

/** What fails the test: serious and critical violations, and a table header without text (issue 24 named it). */
const grave = (v: Violation) => v.impact === 'serious' || v.impact === 'critical' || v.rule === 'empty-table-header';

const FIRST_ROW = '[data-testid="freight-list"] tbody tr:first-child';

/** Tabs to the skip link to `href` among the first three stops and follows it: the presses; undefined when there is none. */
async function skip(page: Page, href: string): Promise<number | undefined> {
  for (let n = 1; n <= 3; n++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('href'))) === href) {
      await page.keyboard.press('Enter');
      return n;
    }
  }
  return undefined;
}

/** Presses Tab until the focus is inside `selector` (or gives up after `limit`); the number of presses. */
async function tabsUntil(page: Page, selector: string, limit: number): Promise<number> {
  for (let n = 1; n <= limit; n++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector)) return n;
  }
  return Number.POSITIVE_INFINITY;
}

describe('accessibility of the main pages (axe-core, keyboard)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let seeded: SeededExchange;
  let shipper: Actor;
  let carrier: Actor;
  const ids: Record<string, number> = {};

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    seeded = await seedExchange(app);
    shipper = seeded.shipperDe;
    carrier = seeded.carriers[1]!;
    const post = async (who: Actor, url: string, json: Record<string, unknown>) => {
      const res = await app.post(url, { token: who.token, json });
      assert.ok(res.status === 200 || res.status === 302, `${url}: ${res.text}`);
      return res.body;
    };
    await importRateSheet(app.services.db, { companyId: carrier.company, name: 'Road feeders', csvText: RATES, visibility: 'exchange' });
    await post(shipper, '/templates/add.json', {
      name: 'Weekly Leipzig–Madrid',
      from: 'city:DE-04159',
      to: 'city:ES-28021',
      weight: 12500,
    });
    await post(shipper, '/flights/add.json', {
      from: 'FRA',
      to: 'JFK',
      etd: '2030-06-01 10:00',
      eta: '2030-06-01 18:00',
      flight_number: 'LH400',
    });
    await post(shipper, '/files/push.json', {
      encoding: 'base64',
      content: Buffer.from(STATUS_CSV).toString('base64'),
      name: 'status.csv',
      action: 'status',
    });
    ids.case = (await post(shipper, '/cdr/cases/add.json', { name: 'Damaged pallet' })).data.case.id;
    await post(shipper, `/cdr/cases/link/${ids.case}.json`, { route_id: seeded.freights.taken[0] });
    ids.webhook = (await post(shipper, '/webhooks/add.json', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).data.webhook.id;
    await post(shipper, `/webhooks/test/${ids.webhook}.json`, {});
    // Alerting saved searches, then new freights in the market: unread notifications, so the
    // header shows its count on every page.
    for (const who of [shipper, carrier]) await post(who, '/searches/add.json', { name: 'Alles offen', filter: 8, params: {}, alert: 1 });
    for (const owner of [seeded.shipperEn, seeded.carriers[3]!]) {
      const id = (
        await post(owner, '/freights/add.json', { from: 'city:DE-60311', to: 'city:IT-20121', weight: 8000, etd: '2030-05-04 08:00' })
      ).data.id;
      await post(owner, `/freights/view/${id}.json`, { action: 'publish', deadline: '+3 days' });
    }
    // The carrier's freights by what it sees of them.
    const bids = await app.services.db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .select(['freights.id', 'freights.status', 'freights.winner_id', 'bids.owner_confirmed'])
      .where('bids.company_id', '=', carrier.company)
      .orderBy('freights.id')
      .execute();
    ids.carrierOpen = bids.find((b) => b.status === 'open')!.id;
    ids.carrierWon = bids.find((b) => b.status === 'taken' && b.winner_id === carrier.company)!.id;
    ids.carrierLost = bids.find((b) => (b.status === 'taken' || b.status === 'closed') && b.winner_id !== carrier.company)?.id ?? 0;
    ids.carrierPending = bids.find((b) => b.status === 'pending')?.id ?? 0;

    // The pages of issues 25-30: a freight of the shipper won by the carrier with a conversation
    // and documents; two more delivered, one rated by both sides (the other offers the rate form);
    // a vehicle offer; a tour; a blocked company.
    const award = async (json: Record<string, unknown> = {}) => {
      const id = (
        await post(shipper, '/freights/add.json', {
          from: 'city:DE-60311',
          from_latitude: 50.11,
          from_longitude: 8.68,
          to: 'city:IT-20121',
          to_latitude: 45.47,
          to_longitude: 9.19,
          weight: 11000,
          etd: '2030-05-05 08:00',
          refs: { customer: `DEAL-${Math.floor(Math.random() * 1e6)}`, commodity: 'Papierrollen' },
          share: ['goods'],
          ...json,
        })
      ).data.id as number;
      await post(shipper, `/freights/view/${id}.json`, { action: 'publish', deadline: '+3 days' });
      const bid = (await post(carrier, '/quotes/add.json', { route: id, amount: '1650', currency_code: 'EUR' })).data.bid.id;
      await post(shipper, `/quotes/confirm/${bid}.json`, {});
      await post(carrier, `/quotes/confirm/${bid}.json`, {});
      return id;
    };
    ids.deal = await award();
    await post(shipper, `/freights/messages/${ids.deal}.json`, { text: 'Rampe 4, bitte vorher anrufen.', company: carrier.company });
    await post(carrier, `/freights/messages/${ids.deal}.json`, { text: 'Fahrer ist um 7:30 da.' });
    await post(carrier, `/freights/documents/${ids.deal}.json`, {
      kind: 'cmr',
      name: 'cmr.pdf',
      content: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1').toString(
        'base64',
      ),
    });
    for (const rated of [true, false]) {
      const id = await award();
      await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 3 });
      if (rated) {
        await post(shipper, `/companies/rate/${id}.json`, { score: 4, comment: 'Pünktlich, sauber.' });
        const rating = (await post(carrier, `/companies/rate/${id}.json`, { score: 5, comment: 'Klare Absprachen.' })).data.rating.id;
        await post(shipper, `/companies/reply/${rating}.json`, { reply: 'Danke!' });
      }
    }
    ids.vehicle = (
      await post(carrier, '/vehicles/add.json', {
        from: 'city:60311',
        from_country: 'DE',
        from_radius: 150,
        available_from: '2030-05-04 06:00:00',
        available_to: '2030-05-06 18:00:00',
        body: 'tautliner',
        capacity: 24000,
      })
    ).data.vehicle.id;
    ids.tour = (await post(carrier, '/tours/add.json', { name: 'Montag Süd', date: '2030-05-05', route_ids: [ids.deal] })).data.tour.id;
    // A published lane tender the carrier is invited to (issue 43: its list, its bidding form, the contracts).
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    ids.tender = (
      await post(shipper, '/tenders/add.json', {
        name: 'Jahresausschreibung 2031',
        valid_from: day(1),
        valid_to: day(366),
        deadline: `${day(7)} 12:00`,
        invited: [carrier.company],
        lanes: [
          { from: 'DE-60', to: 'FR-75', loads: 12, weight: 24000, body: 'tautliner' },
          { from: 'DE-8', to: 'IT-20', loads: 4, note: 'Rampe 3' },
        ],
      })
    ).data.tender.id;
    await post(shipper, `/tenders/publish/${ids.tender}.json`, {});
    // The longest words of a dispatcher's day: the shipper's company name in the header, and a
    // freight (draft, open with two bids, taken) whose addresses, references, goods and bid notes are long.
    await app.services.db
      .updateTable('companies')
      .set({ name: 'Spedition mit einem recht langen Firmennamen Nord GmbH & Co. KG' })
      .where('id', '=', shipper.company)
      .execute();
    const long = async () => (await post(shipper, '/freights/add.json', LONG_WORDS_FREIGHT)).data.id as number;
    ids.longDraft = await long();
    ids.longOpen = await long();
    ids.longTaken = await long();
    for (const id of [ids.longOpen, ids.longTaken])
      await post(shipper, `/freights/view/${id}.json`, { action: 'publish', deadline: '+48 hours' });
    for (const c of [carrier, seeded.carriers[2]!]) await post(c, '/quotes/add.json', { route: ids.longOpen, ...LONG_WORDS_BID });
    const longBid = (await post(carrier, '/quotes/add.json', { route: ids.longTaken, amount: '2100', currency_code: 'EUR' })).data.bid.id;
    await post(shipper, `/quotes/confirm/${longBid}.json`, {});
    await post(carrier, `/quotes/confirm/${longBid}.json`, {});
    const blocked = await app.actor('Blocked Freight GmbH');
    await post(shipper, `/companies/block/${blocked.company}.json`, {});
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  const setLanguage = (lang: string) =>
    app.services.db.updateTable('users').set({ language: lang }).where('id', 'in', [shipper.user, carrier.user]).execute();

  /** The shipper's pages (its company owns the freights): path, or a name and what to do to get there. */
  const shipperPages = (): Array<string | [string, (page: Page) => Promise<void>]> => {
    const f = seeded.freights;
    return [
      '/',
      '/freights/enlist/10',
      '/freights/enlist/17',
      '/freights/enlist/20',
      '/freights/enlist/12',
      '/freights/enlist/19',
      '/freights/enlist/200',
      '/freights/enlist/53',
      '/freights/enlist/10?from=DE&to=IT,ES&weight_min=5000',
      `/freights/view/${f.draft[0]}`,
      `/freights/view/${f.open[2]}`,
      `/freights/view/${f.pending[0]}`,
      `/freights/view/${f.taken[0]}`,
      `/freights/view/${f.closed[0]}`,
      `/freights/view/${f.expired[0]}`,
      `/freights/view/${f.revoked[0]}`,
      `/freights/view/${f.booking[0]}`,
      `/freights/view/${ids.longDraft}`,
      `/freights/view/${ids.longOpen}`,
      `/freights/view/${ids.longTaken}`,
      `/freights/edit/${ids.longDraft}`,
      '/freights/add',
      `/freights/edit/${f.draft[0]}`,
      `/freights/add?copy=${f.expired[0]}`,
      '/pricing/search/results',
      [
        'rate results',
        async (page) => {
          await page.goto(`${base}/pricing/search/results`);
          await page.fill('input[name="origin"]', 'city:DE-60311');
          await page.fill('input[name="destination"]', 'airport:AMS');
          await page.fill('input[name="weight"]', '250');
          await Promise.all([
            page.waitForURL(`${base}/pricing/search/results`),
            page.click('form[action="/pricing/search/results"] button[type="submit"]'),
          ]);
        },
      ],
      '/pricing/search/history',
      '/templates/index',
      '/flights/index',
      '/milkrun/import/short/70',
      '/milkrun/import/short/80',
      '/cdr/cases/index',
      `/cdr/cases/view/${ids.case}`,
      '/tours/add',
      '/searches/index',
      '/notifications/index',
      '/webhooks/index',
      `/webhooks/deliveries/${ids.webhook}`,
      '/users/password',
      '/docs',
      '/no/such/page',
      // The pages of issues 25-30.
      '/vehicles/index',
      '/vehicles/mine',
      '/vehicles/add',
      `/vehicles/view/${ids.vehicle}`,
      `/companies/view/${carrier.company}`,
      `/companies/view/${shipper.company}`,
      '/companies/edit',
      `/companies/ratings/${carrier.company}`,
      '/companies/blocked',
      '/messages/unread',
      `/freights/view/${ids.deal}`,
      '/routes/enlist/10',
      `/routes/view/${ids.deal}`,
      '/market/prices',
      '/market/prices?from=DE-60&to=IT-20',
      // Lane tenders (issue 43; the evaluation after the deadline: tests/web/tenders.test.ts).
      '/tenders/index',
      `/tenders/view/${ids.tender}`,
      '/contracts/index',
    ];
  };
  const carrierPages = (): string[] => [
    '/freights/enlist/8',
    '/freights/enlist/8?from_near=50.11,8.68&from_radius=200',
    '/freights/enlist/7',
    '/freights/enlist/6',
    '/freights/enlist/2',
    '/freights/enlist/210',
    `/freights/view/${seeded.freights.open[0]}`,
    `/freights/view/${ids.carrierOpen}`,
    ...(ids.carrierPending ? [`/freights/view/${ids.carrierPending}`] : []),
    `/freights/view/${ids.carrierWon}`,
    ...(ids.carrierLost ? [`/freights/view/${ids.carrierLost}`] : []),
    `/freights/view/${seeded.freights.booking[1]}`,
    `/freights/view/${ids.longOpen}`,
    `/freights/view/${ids.longTaken}`,
    '/vehicles/mine',
    `/vehicles/view/${ids.vehicle}`,
    `/freights/view/${ids.deal}`,
    `/companies/view/${carrier.company}`,
    '/messages/unread',
    `/tours/view/${ids.tour}`,
    '/freights/enlist/53',
    `/tenders/view/${ids.tender}`,
  ];

  const found: Array<{ where: string; v: Violation }> = [];

  // Every language and width (the file runs once a test run: scripts/test.mjs).
  const variants = [
    ['deu', DESKTOP],
    ['deu', PHONE],
    ['eng', DESKTOP],
    ['eng', PHONE],
  ] as const;
  for (const [lang, viewport] of variants) {
    test(`axe-core: no serious or critical violation, nothing scrolls sideways (${lang}, ${viewport.width} px)`, async () => {
      await setLanguage(lang);
      const contexts: BrowserContext[] = [];
      const locale = lang === 'deu' ? 'de-DE' : 'en-GB';
      try {
        const problems: string[] = [];
        const wide: string[] = [];
        const check = async (page: Page, what: string) => {
          const overflow = await sideScroll(page);
          if (overflow > 0) wide.push(`${what}: ${overflow}px`);
          for (const v of await violations(page)) {
            found.push({ where: `${lang} ${viewport.width}px ${what}`, v });
            if (grave(v))
              problems.push(
                `${what} (${lang}, ${viewport.width} px): ${v.rule} (${v.impact}) at ${v.nodes
                  .slice(0, 3)
                  .map((n) => n.target)
                  .join(', ')}`,
              );
          }
        };
        const visit = async (page: Page, entry: string | [string, (page: Page) => Promise<void>]) => {
          if (typeof entry === 'string') {
            // The header's unread count arrives from public/app.js after the page (generous waits:
            // a loaded two-core machine takes seconds).
            const unread = page.waitForResponse((r) => r.url().includes('/notifications/unread.json'), { timeout: 20_000 });
            unread.catch(() => undefined);
            await page.goto(`${base}${entry}`);
            // Plain evaluations, not a locator or waitForFunction: those make Playwright send its
            // injected script (360 kB) into every new document, twice a visit (tests/web/helpers.ts, untilInPage).
            if (await page.evaluate(() => document.querySelector('[data-notifications]') !== null)) {
              await unread;
              await untilInPage(page, '[data-notifications] .count', 10_000);
            }
            await check(page, entry);
          } else {
            await entry[1](page);
            await check(page, entry[0]);
          }
        };
        const owner = await withAxe(await pageFor(browser, base, shipper, viewport, contexts, locale));
        for (const entry of shipperPages()) await visit(owner, entry);
        const bidder = await withAxe(await pageFor(browser, base, carrier, viewport, contexts, locale));
        for (const path of carrierPages()) await visit(bidder, path);
        // Without a session: the login page (its language from the browser's).
        const visitor = await browser.newContext({ viewport, bypassCSP: true, locale });
        contexts.push(visitor);
        await visit(await withAxe(await visitor.newPage()), '/users/login');
        assert.deepEqual(problems, [], 'axe-core: serious or critical violations');
        assert.deepEqual(wide, [], `pages wider than ${viewport.width} px`);
        if (lang === 'deu' && viewport === PHONE) {
          await owner.goto(`${base}/freights/view/${ids.longOpen}`);
          await screenshot(owner, 'freight-view-phone');
        }
      } finally {
        for (const c of contexts) await c.close();
      }
    });
  }

  test('the skip links lead past the menu, the search bar and the tabs to the list in a few Tab presses', async () => {
    await setLanguage('deu');
    const contexts: BrowserContext[] = [];
    try {
      const page = await pageFor(browser, base, shipper, DESKTOP, contexts);
      const list = `${base}/freights/enlist/10`;
      // Without the skip links: every stop of the menu, the header, the search bar and the tabs.
      await page.goto(list);
      const plain = await tabsUntil(page, FIRST_ROW, 200);
      // The skip link to the content (the page's heading), then on to the first row.
      await page.goto(list);
      const viaMain = (await skip(page, '#main'))! + (await tabsUntil(page, FIRST_ROW, 200));
      // The skip link to the list: the next Tab is in the first row.
      await page.goto(list);
      const presses = await skip(page, '#list');
      assert.ok(presses, 'a skip link to the list among the first Tab stops');
      const after = await tabsUntil(page, FIRST_ROW, 40);
      console.log(
        `# Tab presses to the first row of list 10: ${plain} without skip links, ${viaMain} through "skip to content", ${presses + after} through "skip to the list"`,
      );
      assert.ok(after <= 1, `the first row is the next Tab stop after the skip link (${after})`);
      assert.ok(presses + after <= 3, `at most 3 Tab presses reach the first row (${presses + after})`);
      // Seen: the header's unread count (its link's name says what it counts) and the skip links
      // shown on the first Tab press.
      await page.goto(list);
      await page.waitForFunction(() => document.querySelector('[data-notifications] .count'), null, { timeout: 20_000 });
      await page.keyboard.press('Tab');
      await screenshot(page, 'issue24-skip-link-deu-1366', { fullPage: false });
      // The first skip link still leads to the page's heading, on every page.
      for (const path of ['/freights/enlist/10', '/webhooks/index']) {
        await page.goto(`${base}${path}`);
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '#main', path);
      }
      // A page without a list under tabs has no second skip link.
      await page.goto(`${base}/webhooks/index`);
      assert.equal(await page.locator('a.skip-link[href="#list"]').count(), 0);
    } finally {
      for (const c of contexts) await c.close();
    }
  });

  test('the keyboard journeys of a day: a carrier bids, a shipper confirms (Tab presses counted)', async () => {
    await setLanguage('deu');
    const contexts: BrowserContext[] = [];
    try {
      /** From the top of a list to its first freight (the best skip link there is), opened with Enter. */
      const openFirst = async (page: Page, path: string) => {
        await page.goto(`${base}${path}`);
        let presses = await skip(page, '#list');
        if (presses === undefined) {
          await page.goto(`${base}${path}`);
          presses = (await skip(page, '#main'))!;
        }
        presses += await tabsUntil(page, `${FIRST_ROW} a[href^="/freights/view/"]`, 300);
        await Promise.all([page.waitForURL(/\/freights\/view\/\d+$/), page.keyboard.press('Enter')]);
        return presses;
      };
      /** On the freight page: past the menu, then to the control. */
      const reach = async (page: Page, selector: string) => (await skip(page, '#main'))! + (await tabsUntil(page, selector, 300));

      const bidder = await pageFor(browser, base, carrier, DESKTOP, contexts);
      const bid =
        (await openFirst(bidder, '/freights/enlist/8')) +
        (await reach(bidder, '[data-testid="bid-form"] [name="amount"]')) +
        (await tabsUntil(bidder, '[data-testid="bid-form"] button[type="submit"]', 50));
      const owner = await pageFor(browser, base, shipper, DESKTOP, contexts);
      const confirm = (await openFirst(owner, '/freights/enlist/17')) + (await reach(owner, '[data-testid="confirm-bid"] summary'));
      console.log(
        `# Tab presses: a carrier from list 8 to its bid's send button ${bid}; a shipper from list 17 to a bid's Confirm ${confirm}`,
      );
      assert.ok(Number.isFinite(bid) && Number.isFinite(confirm), 'both journeys end where they should');
    } finally {
      for (const c of contexts) await c.close();
    }
  });

  after(() => {
    if (!process.env.A11Y_REPORT) return;
    const byRule = new Map<string, { pages: number; nodes: number; impact: string; where: string[] }>();
    for (const { where, v } of found) {
      const r = byRule.get(v.rule) ?? { pages: 0, nodes: 0, impact: v.impact, where: [] };
      r.pages++;
      r.where.push(where);
      r.nodes += v.nodes.length;
      byRule.set(v.rule, r);
    }
    fs.writeFileSync(process.env.A11Y_REPORT, JSON.stringify({ byRule: Object.fromEntries(byRule), found }, null, 1));
  });
});
