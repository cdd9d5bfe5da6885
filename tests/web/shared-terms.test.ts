import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { distanceKm } from '../../src/places/geo.ts';
import { postalCentre } from '../../src/places/postal-centres.ts';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { publish, view } from '../freights/helpers.ts';
import { assertNoSideScroll, DESKTOP, pageFor, PHONE, plain } from './helpers.ts';

/**
 * Issue 24, item 5 ("carriers bid blind"), as the shipper's choice (docs/choices.md, "What a
 * carrier prices a load by"): the freight form asks what carriers see before the award, the goods
 * description ticked for a new freight, the target price not. A shipper who shares both has a
 * carrier see the goods, the category, the target price and the distance in km on the freight
 * page (and goods and price under the route in the open requests); unticked again, the carrier
 * sees neither, while category and km stay. In German and English, at 1366 and 390 px.
 */

const FRANKFURT = postalCentre('DE', '60311')!;
const MUNICH = postalCentre('DE', '80331')!;
const KM = Math.round(distanceKm(FRANKFURT, MUNICH));

const TEXT = {
  deu: {
    weight: '12.000',
    target: '1.450,50',
    targetShown: /Zielpreis \(unverbindlich\)\s*1\.450,50 €/,
    category: 'Komplettladung (FTL)',
    km: `${KM.toLocaleString('de-DE')} km`,
    goodsBox: 'Warenbeschreibung den Frachtführern zeigen',
    priceBox: 'Zielpreis den Frachtführern zeigen',
    listLine: /Maschinenteile · Zielpreis 1\.450,50 €/,
    note: 'für Frachtführer sichtbar',
  },
  eng: {
    weight: '12,000',
    target: '1,450.50',
    targetShown: /Target price \(non-binding\)\s*€1,450\.50/,
    category: 'Full truck load (FTL)',
    km: `${KM.toLocaleString('en-GB')} km`,
    goodsBox: 'Show the goods description to carriers',
    priceBox: 'Show the target price to carriers',
    listLine: /Maschinenteile · target price €1,450\.50/,
    note: 'shown to carriers',
  },
} as const;
type Lang = keyof typeof TEXT;

describe('browser: a shipper shares goods and target price with carriers (issue 24, item 5)', {
  skip: !HAVE_CHROMIUM && 'chromium is not installed',
}, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const shippers = {} as Record<Lang, Actor>;
  const carriers = {} as Record<Lang, Actor>;
  const contexts: BrowserContext[] = [];

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    for (const lang of ['deu', 'eng'] as const) {
      shippers[lang] = await app.actor(`Versender ${lang}`, { language: lang });
      carriers[lang] = await app.actor(`Carrier ${lang}`, { language: lang });
    }
    base = await app.listen();
    browser = await launchBrowser();
  });
  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await app?.close();
  });

  const facts = async (page: Page) => plain(await page.locator('dl.facts').first().innerText());
  const box = (page: Page, key: string) => page.locator(`[data-testid="share"] input[type="checkbox"][value="${key}"]`);
  const save = (page: Page, action: string) =>
    Promise.all([page.waitForURL(/\/freights\/view\/\d+/), page.click(`form[action^="${action}"] button[type="submit"]`)]);

  for (const lang of ['deu', 'eng'] as const) {
    const T = TEXT[lang];
    for (const viewport of [DESKTOP, PHONE]) {
      test(`${lang} at ${viewport.width} px: shared, the carrier sees goods, category, target price and km; unshared, neither`, async () => {
        const reference = `SHARE-${lang}-${viewport.width}`;
        const shipper = await pageFor(browser, base, shippers[lang], viewport, contexts);
        await shipper.goto(`${base}/freights/add`);
        // The two boxes, labelled in the reader's language: goods ticked for a new freight, the price not.
        const choice = plain(await shipper.locator('[data-testid="share"]').innerText());
        assert.ok(choice.includes(T.goodsBox) && choice.includes(T.priceBox), choice);
        assert.equal(await box(shipper, 'goods').isChecked(), true);
        assert.equal(await box(shipper, 'target_price').isChecked(), false);
        await shipper.fill('input[name="from"]', '60311');
        await shipper.fill('input[name="from_country"]', 'DE');
        await shipper.fill('input[name="to"]', '80331');
        await shipper.fill('input[name="to_country"]', 'DE');
        await shipper.fill('input[name="etd"]', '2030-05-04T08:00');
        await shipper.fill('input[name="weight"]', T.weight);
        await shipper.selectOption('select[name="category"]', 'ftl');
        await shipper.fill('input[name="refs[commodity]"]', 'Maschinenteile');
        await shipper.fill('input[name="refs[customer]"]', reference);
        await shipper.fill('input[name="refs[target_rate]"]', T.target);
        await box(shipper, 'target_price').check();
        await save(shipper, '/freights/add');
        const id = Number(/\/freights\/view\/(\d+)/.exec(shipper.url())![1]);
        const stored = (await view(app, shippers[lang], id)).body.data.route;
        assert.deepEqual(stored.share, ['goods', 'target_price']);
        // The owner is told what carriers see.
        const own = await facts(shipper);
        assert.ok(own.includes(`Maschinenteile · ${T.note}`), own);
        await publish(app, shippers[lang], id, { deadline: '+48 hours' });

        const carrier = await pageFor(browser, base, carriers[lang], viewport, contexts);
        await carrier.goto(`${base}/freights/view/${id}`);
        let shown = await facts(carrier);
        for (const expected of ['Maschinenteile', T.category, T.km]) assert.ok(shown.includes(expected), `${expected} in:\n${shown}`);
        assert.match(shown, T.targetShown);
        assert.ok(!shown.includes(reference), 'the reference stays the shipper’s');
        assert.ok(!shown.includes(T.note), 'the note is the owner’s');
        await assertNoSideScroll(carrier, `freight page ${lang}`);
        await screenshot(carrier, `issue24-shared-terms-${lang}-${viewport.width}`);
        // The open requests name goods and price under the route.
        await carrier.goto(`${base}/freights/enlist/8`);
        const row = carrier.locator('[data-testid="freight-list"] tbody tr', { has: carrier.locator(`a[href="/freights/view/${id}"]`) });
        assert.match(plain(await row.locator('[data-testid="shared"]').innerText()), T.listLine);
        await assertNoSideScroll(carrier, `open requests ${lang}`);

        // Both boxes unticked: carriers see neither (category and km stay theirs to see).
        await shipper.goto(`${base}/freights/edit/${id}`);
        assert.equal(await box(shipper, 'target_price').isChecked(), true, 'the edit form shows the stored choice');
        await box(shipper, 'goods').uncheck();
        await box(shipper, 'target_price').uncheck();
        await save(shipper, `/freights/edit/${id}`);
        assert.deepEqual((await view(app, shippers[lang], id)).body.data.route.share, []);
        await carrier.goto(`${base}/freights/view/${id}`);
        shown = await facts(carrier);
        for (const expected of [T.category, T.km]) assert.ok(shown.includes(expected), `${expected} in:\n${shown}`);
        assert.ok(!shown.includes('Maschinenteile'), shown);
        assert.doesNotMatch(shown, /1[.,]450/);
        assert.equal(await carrier.locator('[data-testid="fact-target"], [data-testid="fact-goods"]').count(), 0);
        await carrier.goto(`${base}/freights/enlist/8`);
        assert.equal(await row.locator('[data-testid="shared"]').count(), 0);
      });
    }
  }
});
