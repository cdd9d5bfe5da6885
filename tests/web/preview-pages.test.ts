import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { HAVE_CHROMIUM, launchBrowser, loginAs, screenshot } from '../support/browser.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

const STATUS_CSV = [
  'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location',
  '176-10000001,RCF,2030-03-02 06:10,FRA,EK9901,4,1250.25,PER COL,A-12',
  '176-10000001,NFD,2030-03-02 09:00,FRA,,,,,',
  '020-20000002,RCF,2030-03-02 07:45,FRA,LH8401,2,310,,B-03',
].join('\n');

describe('browser: templates, flights, milk-run, cases and tours', { skip: !HAVE_CHROMIUM && 'chromium is not installed' }, () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let me: Actor;
  let trucker: Actor;
  let page: Page;
  /** The freight made from the template: a won order of the own company. */
  let orderId = 0;

  const flash = (kind: 'ok' | 'error') => page.locator(`.flash.${kind}`).innerText();
  const rows = (testId: string) => page.locator(`[data-testid="${testId}"] tbody tr:not(:has(td.empty))`);

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    me = await app.actor('Forwarder');
    trucker = await app.actor('Trucker');
    base = await app.listen();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await loginAs(page, base, me.email, me.password);
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('a template is added through the form and a freight created from it', async () => {
    await page.goto(`${base}/templates/index`);
    // The freight form's fields: places with suggestions, countries by name, weights with units.
    assert.equal(await page.locator('[data-testid="template-form"] input[name="from"][data-place="freight"]').count(), 1);
    await page.fill('input[name="name"]', 'Weekly <b>FRA</b>');
    await page.fill('input[name="from"]', 'FRA');
    await page.fill('input[name="to"]', '60311');
    await page.fill('input[name="to_country"]', 'Germany');
    await page.fill('input[name="weight"]', '0.75 t');
    await page.fill('input[name="pieces[0][pieces]"]', '2');
    await Promise.all([page.waitForURL(`${base}/templates/index`), page.click('form[action="/templates/add"] button[type="submit"]')]);
    assert.match(await flash('ok'), /Weekly <b>FRA<\/b>.*saved/);
    assert.equal(await rows('templates').count(), 1);
    const row = await rows('templates').first().innerText();
    assert.match(row, /Weekly <b>FRA<\/b>/, 'the name is shown as text');
    assert.match(row, /FRA → 60311 Frankfurt am Main \(DE\)/);
    assert.match(row, /750 kg/);
    assert.equal(await page.locator('[data-testid="templates"] b').count(), 0, 'markup in a name is escaped');
    await screenshot(page, 'templates');

    await Promise.all([
      page.waitForURL(/\/freights\/view\/\d+$/),
      page.click('[data-testid="templates"] form[action="/freights/create-from-template"] button'),
    ]);
    orderId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.match(await flash('ok'), /created from the template/);
    assert.match(await page.content(), /badge taken/);
  });

  test('a template without a name or with an unknown country comes back with what was typed and each problem beside its field', async () => {
    await page.goto(`${base}/templates/index`);
    await page.$eval('form[action="/templates/add"] input[name="name"]', (el) => el.removeAttribute('required'));
    await page.fill('input[name="to"]', '20121');
    await page.fill('input[name="to_country"]', 'Atlantis');
    await page.fill('input[name="weight"]', '12.5 t');
    await Promise.all([page.waitForURL(`${base}/templates/add`), page.click('form[action="/templates/add"] button[type="submit"]')]);
    assert.match(await page.locator('[data-testid="form-problems"]').innerText(), /not saved/);
    assert.match(await page.locator('[data-error-for="t-name"]').innerText(), /name/);
    assert.match(await page.locator('[data-error-for="f-to-country"]').innerText(), /country/i);
    assert.equal(await page.inputValue('input[name="to_country"]'), 'Atlantis', 'typed text kept');
    assert.equal(await page.inputValue('input[name="weight"]'), '12.5 t');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'name', 'the first problem has the focus');
    assert.equal(await rows('templates').count(), 1, 'nothing saved');
    // Fixed, it is saved with the weight read from the typed tonnes.
    await page.fill('input[name="name"]', 'Milano');
    await page.fill('input[name="to_country"]', 'Italy');
    await Promise.all([page.waitForURL(`${base}/templates/index`), page.click('form[action="/templates/add"] button[type="submit"]')]);
    assert.equal(await rows('templates').count(), 2);
    assert.match(await rows('templates').filter({ hasText: 'Milano' }).innerText(), /20121 Milano \(IT\)[\s\S]*12,500 kg/);
  });

  test('a flight is added and a booking requested from the schedule', async () => {
    await page.goto(`${base}/flights/index`);
    await page.fill('input[name="flight_number"]', 'LH400');
    await page.fill('input[name="from"]', 'FRA');
    await page.fill('input[name="to"]', 'JFK');
    // Native date and time inputs (the browser's picker).
    await page.fill('input[name="etd"]', '2030-06-01T10:00');
    await page.fill('input[name="eta"]', '2030-06-01T18:00');
    await Promise.all([page.waitForURL(`${base}/flights/index`), page.click('form[action="/flights/add"] button[type="submit"]')]);
    assert.match(await flash('ok'), /LH400 added/);
    assert.equal(await rows('flights').count(), 1);
    assert.match(await rows('flights').first().innerText(), /LH400\s+FRA\s+JFK\s+2030-06-01 10:00/);

    await Promise.all([
      page.waitForURL(/\/freights\/view\/\d+$/),
      page.click('[data-testid="flights"] form[action^="/freights/request/flight/"] button'),
    ]);
    const html = await page.content();
    assert.match(html, /Booking request/);
    assert.match(html, /badge draft/);
  });

  test('a flight with an unknown airport is refused with a message', async () => {
    await page.goto(`${base}/flights/index`);
    await page.fill('input[name="flight_number"]', 'XX1');
    await page.fill('input[name="from"]', 'QQQ');
    await page.fill('input[name="to"]', 'JFK');
    await page.fill('input[name="etd"]', '2030-06-01T10:00');
    await page.fill('input[name="eta"]', '2030-06-01T18:00');
    await Promise.all([page.waitForURL(`${base}/flights/index`), page.click('form[action="/flights/add"] button[type="submit"]')]);
    await flash('error');
    assert.equal(await rows('flights').count(), 1);
  });

  test('pushed status events show on the milk-run page; select and dispatch move them', async () => {
    const pushed = await app.post('/files/push.json', {
      token: me.token,
      json: { encoding: 'base64', content: Buffer.from(STATUS_CSV).toString('base64'), name: 'status.csv', action: 'status' },
    });
    assert.equal(pushed.status, 200, pushed.text);

    await page.goto(`${base}/milkrun/import/short/70`);
    assert.equal(await rows('milkrun').count(), 2);
    const first = rows('milkrun').filter({ hasText: '176-10000001' });
    assert.match(
      await first.innerText(),
      /1,251[\s\S]*EK9901 · FRA[\s\S]*2030-03-02 06:10[\s\S]*2030-03-02 09:00 \/ –[\s\S]*PER COL[\s\S]*A-12/,
    );
    await screenshot(page, 'milkrun');

    await Promise.all([
      page.waitForURL(`${base}/milkrun/import/short/70`),
      first.locator('form[action^="/milkrun/select/"] button').click(),
    ]);
    assert.match(await flash('ok'), /176-10000001 selected/);
    assert.equal(await rows('milkrun').count(), 1);

    await page.click('.tabs a[href="/milkrun/import/short/71"]');
    await page.waitForURL(`${base}/milkrun/import/short/71`);
    assert.equal(await rows('milkrun').count(), 1);
    // A dispatch to a company that does not exist is refused and changes nothing.
    await page.fill('form[action^="/milkrun/dispatch/"] input[name="carrier"]', '99999999');
    await Promise.all([page.waitForURL(`${base}/milkrun/import/short/71`), page.click('form[action^="/milkrun/dispatch/"] button')]);
    assert.match(await flash('error'), /99999999/);
    assert.equal(await rows('milkrun').count(), 1);

    // The trucker is picked by its company name.
    await page.fill('form[action^="/milkrun/dispatch/"] input[name="carrier"]', trucker.companyName);
    await Promise.all([page.waitForURL(`${base}/milkrun/import/short/71`), page.click('form[action^="/milkrun/dispatch/"] button')]);
    assert.match(await flash('ok'), /176-10000001 dispatched/);
    assert.equal(await rows('milkrun').count(), 0);

    await page.goto(`${base}/milkrun/import/short/83`);
    assert.equal(await rows('milkrun').count(), 1);
    assert.match(await rows('milkrun').first().innerText(), new RegExp(`dispatched[\\s\\S]*${trucker.companyName}`));
    // The trucker sees it in its own list (JSON unchanged).
    const theirs = await app.get('/milkrun/import/short/73.json', { token: trucker.token });
    assert.deepEqual(
      theirs.body.data.shipments.map((s: { awb: string }) => s.awb),
      ['176-10000001'],
    );
  });

  test('an unknown milk-run list goes to the first list with the reason', async () => {
    await page.goto(`${base}/milkrun/import/short/99`);
    assert.equal(new URL(page.url()).pathname, '/milkrun/import/short/70');
    assert.match(await flash('error'), /99/);
  });

  test('a case is opened, a freight linked, and shown on the case page', async () => {
    await page.goto(`${base}/cdr/cases/index`);
    await page.fill('form[action="/cdr/cases/add"] input[name="name"]', 'Damaged pallet');
    await Promise.all([page.waitForURL(/\/cdr\/cases\/view\/\d+$/), page.click('form[action="/cdr/cases/add"] button')]);
    const caseUrl = page.url();
    assert.match(await flash('ok'), /Damaged pallet/);
    assert.equal(await rows('case-links').count(), 0);

    await page.fill('input[name="route_id"]', '99999999');
    await Promise.all([page.waitForURL(caseUrl), page.click('form[action^="/cdr/cases/link/"] button')]);
    assert.match(await flash('error'), /99999999 not found/);

    await page.fill('input[name="route_id"]', String(orderId));
    await Promise.all([page.waitForURL(caseUrl), page.click('form[action^="/cdr/cases/link/"] button')]);
    assert.match(await flash('ok'), /linked/);
    assert.equal(await rows('case-links').count(), 1);
    assert.match(await rows('case-links').first().innerText(), new RegExp(`^${orderId}\\s+FRA\\s+60311\\s+750`));
    await screenshot(page, 'case');

    await page.goto(`${base}/cdr/cases/index`);
    assert.equal(await rows('cases').count(), 1);
    assert.match(await rows('cases').first().innerText(), /Damaged pallet\s+1/);
  });

  test('a tour is planned from a won order and changed on its page', async () => {
    await page.goto(`${base}/tours/add`);
    assert.equal(await rows('won-orders').count(), 1);
    await page.fill('input[name="name"]', 'Monday run');
    await page.fill('input[name="date"]', '2030-06-03');
    await page.check(`input[name="route_ids[]"][value="${orderId}"]`);
    await Promise.all([page.waitForURL(`${base}/freights/enlist/53`), page.click('form[action="/tours/add"] button[type="submit"]')]);
    assert.match(await flash('ok'), /Monday run/);
    assert.equal(await rows('freight-list').count(), 1);
    assert.match(await rows('freight-list').first().innerText(), /Monday run\s+2030-06-03\s+1\s+750/);
    await screenshot(page, 'tours');

    await Promise.all([page.waitForURL(/\/tours\/view\/\d+$/), page.click('[data-testid="freight-list"] a >> nth=1')]);
    const tourUrl = page.url();
    assert.equal(await rows('tour-routes').count(), 1);
    assert.equal(await rows('won-orders').count(), 0);

    await page.fill('input[name="route_ids"]', '');
    await Promise.all([page.waitForURL(tourUrl), page.click(`form[action^="/tours/edit/"] button`)]);
    assert.match(await flash('ok'), /saved/);
    assert.equal(await rows('tour-routes').count(), 0);
    assert.equal(await rows('won-orders').count(), 1);

    await Promise.all([page.waitForURL(`${base}/freights/enlist/53`), page.click('form[action^="/tours/delete/"] button')]);
    assert.match(await flash('ok'), /deleted/);
    assert.equal(await rows('freight-list').count(), 0);
  });

  test('the JSON side is unchanged: the form pages are no API endpoints', async () => {
    assert.equal((await app.get('/tours/add.json', { token: me.token })).status, 404);
    const templates = await app.get('/templates/index.json', { token: me.token });
    assert.equal(templates.body.status, 'success');
    assert.equal(templates.body.data.templates.length, 2);
    // The page's form stored the API's values, read from what a person typed.
    const milano = templates.body.data.templates.find((x: { name: string }) => x.name === 'Milano').fields;
    assert.equal(milano.to, '20121');
    assert.equal(milano.to_country, 'IT');
    assert.equal(milano.weight, '12500');
    const cases = await app.get('/cdr/cases/index.json', { token: me.token });
    assert.equal(cases.body.data.cases[0]._links[0].object.id, orderId);
  });
});
