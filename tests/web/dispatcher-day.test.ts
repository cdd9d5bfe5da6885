import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAVE_CHROMIUM, screenshot } from '../support/browser.ts';
import type { TestApp } from '../support/harness.ts';
import { force, insertBid, openFreight } from '../freights/helpers.ts';
import { DELIVERY } from '../../src/freights/tables.ts';
import { addOffer, eventually, FREIGHT, notificationsOf } from '../vehicles/helpers.ts';
import { assertNoSideScroll, axeProblems, DESKTOP, PHONE, pageFor, plain } from './helpers.ts';
import { closeBrowserSuite, openBrowserSuite } from './suite.ts';

/**
 * Issue 47 (the dispatcher's day, third pass), the items of this pass, each in English and German,
 * at the desk and on a phone, each failing before its fix. One app and one browser for all.
 */
describe('browser: the dispatcher’s day (issue 47)', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async () => ({ app, browser, base } = await openBrowserSuite({ now: new Date('2030-05-01T08:00:00Z'), cities: true })));
  after(() => closeBrowserSuite(contexts, browser, app));

  const cases = (['eng', 'deu'] as const).flatMap((lang) => [DESKTOP, PHONE].map((viewport) => ({ lang, viewport })));

  // Item 7: one load gave a carrier one notification per matching offer and saved search.
  for (const { lang, viewport } of cases) {
    test(`item 7, ${lang} at ${viewport.width} px: one notification per load naming every reason`, async () => {
      const shipper = await app.actor(`Shipper 7 ${lang} ${viewport.width}`, { language: lang });
      const carrier = await app.actor(`Carrier 7 ${lang} ${viewport.width}`, { language: lang });
      const search = await app.post('/searches/add.json', {
        token: carrier.token,
        json: { name: `Hessen ${lang}`, params: { from: 'DE-60' }, alert: 1 },
      });
      assert.equal(search.body.status, 'success', search.text);
      const one = await addOffer(app, carrier);
      const two = await addOffer(app, carrier, { from_radius: 150 });
      const id = await openFreight(app, shipper, FREIGHT);
      await eventually(async () => (await notificationsOf(app, carrier)).some((n) => n.route_id === id), 'the alert');

      const page = await pageFor(browser, base, carrier, viewport, contexts);
      await page.goto(`${base}/notifications/index`);
      const rows = page.locator('[data-testid="notifications"] tbody tr');
      assert.equal(await rows.count(), 1, 'one row for the load');
      const reasons = plain(await page.locator('ul.reasons').innerText());
      const offer = lang === 'deu' ? 'Fahrzeugangebot' : 'Vehicle offer';
      assert.match(reasons, new RegExp(`Hessen ${lang}`));
      assert.match(reasons, new RegExp(`${offer} ${one.id}`));
      assert.match(reasons, new RegExp(`${offer} ${two.id}`));
      await screenshot(page, `issue47-item7-alerts-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the notifications');
      assert.deepEqual(await axeProblems(page), []);
    });
  }

  // Item 6: truck offers read "100 km um 48.137, 11.575 → PL" or bare codes.
  for (const { lang, viewport } of cases) {
    test(`item 6, ${lang} at ${viewport.width} px: offers read "München (DE) +100 km → PL", towns in the reader’s language`, async () => {
      const carrier = await app.actor(`Carrier 6 ${lang} ${viewport.width}`);
      const reader = await app.actor(`Reader 6 ${lang} ${viewport.width}`, { language: lang });
      const munich = await addOffer(app, carrier, { from: 'city:80331', from_country: 'DE', from_radius: 100, to: 'PL' });
      // Only a point (docs/reference.md#vehicles allows it): Warsaw's.
      const warsaw = await addOffer(app, carrier, {
        from: undefined,
        from_country: undefined,
        from_latitude: 52.2297,
        from_longitude: 21.0122,
        from_radius: 50,
        to: 'DE-80,DE-60',
      });
      const page = await pageFor(browser, base, reader, viewport, contexts);
      await page.goto(`${base}/vehicles/index`);
      const text = plain(await page.locator('[data-testid="vehicles"]').innerText());
      const [mun, war] = lang === 'deu' ? ['München', 'Warschau'] : ['Munich', 'Warsaw'];
      assert.ok(text.includes(`${mun} (DE) +100 km → PL`), text);
      assert.ok(text.includes(`${war} (PL) +50 km → DE-80, DE-60`), text);
      assert.doesNotMatch(text, /\d+\.\d{3}, \d+\.\d{3}/, 'no coordinates');
      await screenshot(page, `issue47-item6-offers-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the offers');
      assert.deepEqual(await axeProblems(page), []);
      // The offer's own page says the same.
      await page.goto(`${base}/vehicles/view/${munich.id}`);
      assert.ok(plain(await page.locator('main').innerText()).includes(`${mun} (DE) +100 km`));
      await page.goto(`${base}/vehicles/view/${warsaw.id}`);
      assert.ok(plain(await page.locator('main').innerText()).includes(`${war} (PL) +50 km`));
    });
  }
  // Item 9: the truck form asked for company numbers for its whitelist.
  for (const { lang, viewport } of cases) {
    test(`item 9, ${lang} at ${viewport.width} px: the offer's whitelist by company names with suggestions`, async () => {
      const carrier = await app.actor(`Carrier 9 ${lang} ${viewport.width}`, { language: lang });
      const first = await app.actor(`Spedition Nord 9 ${lang} ${viewport.width}`);
      const second = await app.actor(`Transporte Süd 9 ${lang} ${viewport.width}`);
      const offer = await addOffer(app, carrier, { whitelist: [first.company] });
      const page = await pageFor(browser, base, carrier, viewport, contexts);
      await page.goto(`${base}/vehicles/edit/${offer.id}`);
      const input = page.locator('input[name="whitelist_names"]');
      assert.equal(await input.inputValue(), first.companyName, 'the chosen company by name, not its number');
      // The suggestions are the freight form's: the companies by name.
      const list = await input.getAttribute('list');
      const options = await page.locator(`datalist#${list} option`).evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      assert.ok(options.includes(second.companyName), 'the other company is suggested');
      await screenshot(page, `issue47-item9-whitelist-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the offer form');
      assert.deepEqual(await axeProblems(page), []);
      await input.fill(`${first.companyName}, ${second.companyName}`);
      await Promise.all([
        page.waitForURL(new RegExp(`/vehicles/view/${offer.id}`)),
        page.locator('[data-testid="vehicle-form"] button[type="submit"]').click(),
      ]);
      const saved = await app.get(`/vehicles/view/${offer.id}.json`, { token: carrier.token });
      assert.deepEqual(saved.body.data.vehicle.whitelist, [first.company, second.company]);
      // A name no company has is refused, said beside the field, and nothing changes.
      await page.goto(`${base}/vehicles/edit/${offer.id}`);
      await page.locator('input[name="whitelist_names"]').fill('No Such Company GmbH');
      await page.locator('[data-testid="vehicle-form"] button[type="submit"]').click();
      await page.waitForLoadState();
      assert.match(plain(await page.locator('main').innerText()), /No Such Company GmbH/);
      const still = await app.get(`/vehicles/view/${offer.id}.json`, { token: carrier.token });
      assert.deepEqual(still.body.data.vehicle.whitelist, [first.company, second.company]);
    });
  }
  // Item 5: the bids table lacked rating, completed loads and membership; sortable.
  for (const { lang, viewport } of cases) {
    test(`item 5, ${lang} at ${viewport.width} px: bids with each bidder's rating, completed loads, member since; sortable`, async () => {
      const tag = `${lang} ${viewport.width}`;
      const shipper = await app.actor(`Shipper 5 ${tag}`, { language: lang });
      const good = await app.actor(`Good Carrier 5 ${tag}`);
      const fair = await app.actor(`Fair Carrier 5 ${tag}`);
      const old = await app.actor(`Old Carrier 5 ${tag}`);
      const db = app.services.db;
      // Three delivered loads each for `good` (rated 5) and `fair` (rated 3): the trust module's figures.
      for (const [carrier, score] of [
        [good, 5],
        [fair, 3],
      ] as const) {
        for (let i = 0; i < 3; i++) {
          const id = await openFreight(app, shipper, { weight: 100 + i });
          await force(app, id, { status: 'closed', winner_id: carrier.company, delivery_status: DELIVERY.delivered });
          await db
            .insertInto('ratings')
            .values({ freight_id: id, rater_id: shipper.company, rated_id: carrier.company, score, created: new Date() })
            .execute();
        }
      }
      await db
        .updateTable('companies')
        .set({ created: new Date('2019-03-01T10:00:00Z') } as never)
        .where('id', '=', old.company)
        .execute();
      const freight = await openFreight(app, shipper, { weight: 900 });
      await insertBid(app, freight, good, 'open', '300.00');
      await insertBid(app, freight, fair, 'open', '100.00');
      await insertBid(app, freight, old, 'open', '200.00');

      const page = await pageFor(browser, base, shipper, viewport, contexts);
      const order = async (sort: string) => {
        await page.goto(`${base}/freights/view/${freight}${sort ? `?bids_sort=${sort}` : ''}`);
        const names = await page.locator('[data-testid="bids"] tbody tr td:first-child').allInnerTexts();
        return names.map((n) => (n.includes('Good') ? 'good' : n.includes('Fair') ? 'fair' : n.includes('Old') ? 'old' : n));
      };
      assert.deepEqual(await order(''), ['good', 'fair', 'old'], 'as they came');
      const table = plain(await page.locator('[data-testid="bids"]').innerText());
      const w =
        lang === 'deu'
          ? {
              rating: 'Bewertung',
              done: 'Erledigte Ladungen',
              since: 'Mitglied seit',
              five: '5 von 5 (3)',
              none: 'noch nicht bewertet (0)',
              day: '01.03.2019',
            }
          : {
              rating: 'Rating',
              done: 'Completed loads',
              since: 'Member since',
              five: '5 of 5 (3)',
              none: 'not yet rated (0)',
              day: '2019-03-01',
            };
      for (const word of Object.values(w)) assert.ok(table.includes(word), `${word} in ${table}`);
      assert.deepEqual(await order('rating'), ['good', 'fair', 'old'], 'best rated first, unrated last');
      assert.deepEqual(await order('-rating'), ['fair', 'good', 'old']);
      assert.deepEqual(await order('amount'), ['fair', 'old', 'good'], 'cheapest first');
      assert.deepEqual(await order('since'), ['old', 'good', 'fair'], 'longest member first');
      // The headers are the sort links.
      assert.equal(await page.locator(`[data-testid="bids"] thead a[href*="bids_sort=completed"]`).count(), 1);
      await screenshot(page, `issue47-item5-bids-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the freight page with bids');
      assert.deepEqual(await axeProblems(page), []);
    });
  }
  // Item 4: "bids to answer" began with dead ends; live first by deadline, expired in their own group.
  for (const { lang, viewport } of cases) {
    test(`item 4, ${lang} at ${viewport.width} px: the work queue's live bids first by deadline, expired ones apart`, async () => {
      const tag = `${lang} ${viewport.width}`;
      const shipper = await app.actor(`Shipper 4 ${tag}`, { language: lang });
      const carrier = await app.actor(`Carrier 4 ${tag}`);
      const later = await openFreight(app, shipper, { refs: { customer: `LATER-${tag}` } }, { deadline: '2030-05-04 10:00' });
      const sooner = await openFreight(app, shipper, { refs: { customer: `SOONER-${tag}` } }, { deadline: '2030-05-02 10:00' });
      const gone = await openFreight(app, shipper, { refs: { customer: `GONE-${tag}` } }, { deadline: '2030-05-03 10:00' });
      for (const id of [later, sooner, gone]) await insertBid(app, id, carrier, 'open', '150.00');
      // Its bidding ended yesterday, with the bid left.
      await force(app, gone, { deadline: new Date('2030-04-30T10:00:00Z') });

      const page = await pageFor(browser, base, shipper, viewport, contexts);
      await page.goto(`${base}/`);
      const live = await page.locator('[data-testid="desk-chooseBids"] [data-testid="desk-entry"] strong').allInnerTexts();
      assert.deepEqual(live, [`SOONER-${tag}`, `LATER-${tag}`], 'live ones only, nearest deadline first');
      const expiredHeading = plain(await page.locator('[data-testid="desk-expired"]').innerText());
      assert.match(expiredHeading, lang === 'deu' ? /Abgelaufen \(1\)/ : /Expired \(1\)/);
      const expired = plain(await page.locator('[data-testid="desk-expiredBids"]').innerText());
      assert.ok(expired.includes(`GONE-${tag}`), expired);
      assert.ok(expired.includes(lang === 'deu' ? 'Gebotsfrist endete 30.04.2030' : 'bidding ended 2030-04-30'), expired);
      await screenshot(page, `issue47-item4-queue-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the work queue');
      assert.deepEqual(await axeProblems(page), []);
    });
  }
  // Item 12, the smaller ones: "1 Gebot(e)", ISO dates on German profiles, a duplicate saved search accepted silently.
  for (const { lang, viewport } of cases) {
    test(`item 12, ${lang} at ${viewport.width} px: one bid in words, profile dates in the reader's format, a duplicate search refused`, async () => {
      const tag = `${lang} ${viewport.width}`;
      const shipper = await app.actor(`Shipper 12 ${tag}`, { language: lang });
      const carrier = await app.actor(`Carrier 12 ${tag}`);
      const freight = await openFreight(app, shipper, { weight: 1200 });
      await insertBid(app, freight, carrier, 'open', '420.00');
      const page = await pageFor(browser, base, shipper, viewport, contexts);
      await page.goto(`${base}/freights/view/${freight}`);
      const next = plain(await page.locator('[data-testid="next-step"]').innerText());
      assert.match(next, lang === 'deu' ? /Ein Gebot eingegangen/ : /One bid received/);
      assert.doesNotMatch(plain(await page.locator('main').innerText()), /Gebot\(e\)|bid\(s\)/);

      await app.services.db
        .updateTable('companies')
        .set({ created: new Date('2019-03-01T10:00:00Z') } as never)
        .where('id', '=', carrier.company)
        .execute();
      await page.goto(`${base}/companies/view/${carrier.company}`);
      const profile = plain(await page.locator('main').innerText());
      assert.ok(profile.includes(lang === 'deu' ? '01.03.2019' : '2019-03-01'), profile);
      if (lang === 'deu') assert.ok(!profile.includes('2019-03-01'), 'no ISO date on a German page');
      await screenshot(page, `issue47-item12-profile-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the profile');
      assert.deepEqual(await axeProblems(page), []);

      // The same search saved twice from the list: refused, said in the reader's words.
      const first = await app.post('/searches/add.json', {
        token: shipper.token,
        json: { name: `PL ${tag}`, filter: 8, params: { to: 'PL' } },
      });
      assert.equal(first.body.status, 'success', first.text);
      await page.goto(`${base}/freights/enlist/8?to=PL`);
      // On a phone the search bar is folded: the form is sent as its button would.
      await Promise.all([
        page.waitForURL(/\/freights\/enlist\/8/),
        page.locator('details.save-search form').evaluate((f) => (f as HTMLFormElement).submit()),
      ]);
      await page.waitForSelector('[data-testid="flash"]');
      const flash = plain(await page.locator('[data-testid="flash"]').innerText());
      assert.match(
        flash,
        lang === 'deu' ? new RegExp(`schon als „PL ${tag}“ gespeichert`) : new RegExp(`already saved this search as “PL ${tag}”`),
      );
      const searches = await app.get('/searches/index.json', { token: shipper.token });
      assert.equal(searches.body.data.searches.length, 1, 'nothing added');
    });
  }
  // Item 12: a lost load in the notifications read `xxx (XX) → xxx (XX)`; now the lists' words.
  for (const { lang, viewport } of cases) {
    test(`item 12, ${lang} at ${viewport.width} px: a lost load in the notifications in the lists' words`, async () => {
      const tag = `${lang} ${viewport.width}`;
      const shipper = await app.actor(`Shipper 12b ${tag}`);
      const carrier = await app.actor(`Carrier 12b ${tag}`, { language: lang });
      const winner = await app.actor(`Winner 12b ${tag}`);
      const search = await app.post('/searches/add.json', {
        token: carrier.token,
        json: { name: `Hessen 12b ${tag}`, params: { from: 'DE-60' }, alert: 1 },
      });
      assert.equal(search.body.status, 'success', search.text);
      const id = await openFreight(app, shipper, FREIGHT);
      await eventually(async () => (await notificationsOf(app, carrier)).some((n) => n.route_id === id), 'the alert');
      await insertBid(app, id, carrier, 'open', '500.00');
      await insertBid(app, id, winner, 'accepted', '450.00');
      await force(app, id, { status: 'taken', winner_id: winner.company });
      const page = await pageFor(browser, base, carrier, viewport, contexts);
      await page.goto(`${base}/notifications/index`);
      const text = plain(await page.locator('[data-testid="notifications"]').innerText());
      assert.doesNotMatch(text, /xxx \(XX\)/);
      assert.match(text, lang === 'deu' ? new RegExp(`Fracht ${id} vom 05\\.05\\.2030`) : new RegExp(`Freight ${id} of 2030-05-05`));
      await screenshot(page, `issue47-item12-lost-${lang}-${viewport.width}`);
      await assertNoSideScroll(page, 'the notifications');
      assert.deepEqual(await axeProblems(page), []);
    });
  }
});
