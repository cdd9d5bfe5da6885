import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { freightRow } from './fixtures.ts';

/**
 * docs/reference.md#one-step on the pages, in German and English, without a browser: the freight form's two
 * prices (as people write them), the waterfall set up from the draft's page, its state for the
 * owner, the carrier's turn on its start page and its freight page (Book Now, pass), counters and
 * their acceptance from the bids table. The browser test (tests/web/one-step.test.ts) clicks them.
 */

let app: TestApp;
let shipper: Actor;
let first: Actor;
let second: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Spedition Nord', { language: 'deu' });
  first = await app.actor('C Transport');
  second = await app.actor('Alpen Cargo', { language: 'deu' });
});
after(() => app.close());

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const page = async (who: Actor, path: string) => {
  const { cookie } = await browserSession(app, who);
  const res = await app.get(path, { headers: { cookie } });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.text;
};
const form = async (who: Actor, path: string, fields: Record<string, string>) => {
  const { cookie, csrf } = await browserSession(app, who);
  return app.post(path, { headers: { cookie }, form: new URLSearchParams({ _csrf: csrf, ...fields }).toString() });
};

describe(`deals in one step on the pages (${TEST_DB})`, () => {
  test('the freight form takes both prices as a German writes them, each explained in one line', async () => {
    const blank = await page(shipper, '/freights/add');
    assert.match(blank, /Sofort-Buchen-Preis/);
    assert.match(blank, /Schmerzgrenze/);
    assert.match(blank, /Nur Ihre Firma sieht ihn/);
    const saved = await form(shipper, '/freights/add', {
      from: 'DE-60311',
      to: 'AT-6020',
      weight: '8.000',
      book_now: '1.912,50',
      auto_award: '1.500',
      book_now_currency: 'EUR',
    });
    assert.equal(saved.status, 302, saved.text.slice(0, 300));
    const id = Number(/\/freights\/view\/(\d+)/.exec(String(saved.headers.location))![1]);
    const row = await freightRow(app, id);
    assert.deepEqual([row.book_now, row.auto_award], ['1912.50', '1500.00']);
    const bad = await form(shipper, `/freights/edit/${id}`, { book_now: '0' });
    assert.equal(bad.status, 200, 'the form comes back');
    assert.match(bad.text, /912,50/, 'with the example in the user’s format');
    assert.equal((await freightRow(app, id)).book_now, '1912.50');
  });

  test('a waterfall from the draft’s page; the owner reads its state; the carrier’s turn on its desk; pass, then book', async () => {
    // Partners are companies the shipper worked with: they bid on one of its freights before.
    const old = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 500 } }),
    ).id;
    assert.equal(
      (await app.post(`/freights/view/${old}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    for (const c of [first, second])
      ok(await app.post('/quotes/add.json', { token: c.token, json: { route: old, amount: 900, currency_code: 'EUR' } }));

    const id = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, etd: '2031-01-10 08:00' },
      }),
    ).id;
    const draftPage = await page(shipper, `/freights/view/${id}`);
    assert.match(draftPage, /Nacheinander Frachtführern anbieten/);
    assert.ok(draftPage.includes(first.companyName) && draftPage.includes(second.companyName), 'the partners to pick');
    const session = await browserSession(app, shipper);
    const body = new URLSearchParams([
      ['_csrf', session.csrf],
      ['carriers', String(first.company)],
      ['carriers', String(second.company)],
      ['carriers', ''],
      ['price', '912,50'],
      ['currency', 'EUR'],
      ['minutes', '60'],
      ['then', 'market'],
    ]).toString();
    const started = await app.post(`/freights/waterfall/${id}`, { headers: { cookie: session.cookie }, form: body });
    assert.equal(started.status, 302, started.text.slice(0, 300));
    let row = await freightRow(app, id);
    assert.deepEqual([row.status, row.whitelist, row.book_now], ['open', [first.company], '912.50']);

    const ownerPage = await page(shipper, `/freights/view/${id}`);
    const state = /data-testid="waterfall-state">([\s\S]*?)<\/p>/.exec(ownerPage)![1]!.replace(/<[^>]+>/g, '');
    assert.match(state, new RegExp(`${first.companyName} hat Zeit bis .*, dann ${second.companyName}, dann der Markt`));

    const desk = await page(first, '/');
    assert.match(desk, /Loads offered to you: your turn/);
    assert.ok(desk.includes(`/freights/view/${id}`));
    const carrierPage = await page(first, `/freights/view/${id}`);
    assert.match(carrierPage, /Your turn: this freight is offered to your company alone until/);
    assert.match(carrierPage, /Book now for/);
    assert.ok(!(await page(second, '/')).includes(`/freights/view/${id}"`), 'not yet the second carrier’s turn');

    const passed = await form(first, `/quotes/decline/${id}`, {});
    assert.equal(passed.status, 302);
    row = await freightRow(app, id);
    assert.deepEqual(row.whitelist, [second.company]);
    assert.match(await page(second, '/'), /Sie sind an der Reihe/);
    const secondPage = await page(second, `/freights/view/${id}`);
    assert.match(secondPage, /Sofort buchen für 912,50\s€/);
    const booked = await form(second, `/quotes/book/${id}`, {});
    assert.equal(booked.status, 302);
    row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', second.company, '912.50']);
  });

  test('a counter from the owner’s bids table; the bidder accepts it from its own', async () => {
    const id = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 700 } }),
    ).id;
    assert.equal(
      (await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    const bid = ok(
      await app.post('/quotes/add.json', { token: first.token, json: { route: id, amount: '1000', currency_code: 'EUR' } }),
    ).bid;
    assert.match(await page(shipper, `/freights/view/${id}`), /data-testid="counter-form"/);
    const countered = await form(shipper, `/quotes/counter/${bid.id}`, { route: String(id), amount: '950,50' });
    assert.equal(countered.status, 302);
    const bidderPage = await page(first, `/freights/view/${id}`);
    assert.match(bidderPage, /Counter-offer: /);
    assert.match(bidderPage, /Accept /);
    assert.match(bidderPage, /History \(2\)/, 'the bid’s history: its amount, then the counter');
    assert.match(bidderPage, /counter-offer €950.50/);
    const accepted = await form(first, `/quotes/accept/${bid.id}`, { route: String(id) });
    assert.equal(accepted.status, 302);
    const row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', first.company, '950.50']);
  });
});
