import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { freightRow, insertFreight } from './fixtures.ts';

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
/** A form posted in a browser session (post/redirect/get), and the page it redirects to, read with the flash the post set. */
const postAndFollow = async (who: Actor, path: string, fields: Record<string, string>) => {
  const session = await browserSession(app, who);
  const posted = await app.post(path, {
    headers: { cookie: session.cookie },
    form: new URLSearchParams({ _csrf: session.csrf, ...fields }).toString(),
  });
  assert.equal(posted.status, 302, posted.text.slice(0, 300));
  const flash = /fx_flash=[^;]*/.exec(String(posted.headers['set-cookie']))?.[0];
  assert.ok(flash, 'a flash says what happened');
  return app.get(String(posted.headers.location), { headers: { cookie: `${session.cookie}; ${flash}` } });
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
    // The line of whose move it is tells the running offer, once: the actions do not repeat it.
    const state = /data-testid="next-step"[^>]*>([\s\S]*?)<\/p>/.exec(ownerPage)![1]!.replace(/<[^>]+>/g, '');
    assert.match(state, new RegExp(`${first.companyName} hat Zeit bis .*, dann ${second.companyName}, dann der Markt`));
    assert.ok(!ownerPage.includes('data-testid="waterfall-state"'), 'the offer said once');

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
    // Once the offer is over, the owner's actions say how it ended.
    const ended = /data-testid="waterfall-state">([\s\S]*?)<\/p>/.exec(await page(shipper, `/freights/view/${id}`))?.[1];
    assert.equal(ended?.replace(/<[^>]+>/g, ''), 'Angebot: Während des Angebots gebucht.');
  });

  test('a bid from the page’s form at the walk-away price: the flash says it was accepted at once', async () => {
    const id = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 600, auto_award: 800, book_now_currency: 'EUR' },
      }),
    ).id;
    assert.equal(
      (await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    const flashOf = async (who: Actor, amount: string, route: number) => {
      const back = await postAndFollow(who, '/quotes/add', { route: String(route), amount, currency_code: 'EUR' });
      return /class="flash[^"]*"[^>]*>([^<]*)</.exec(back.text)?.[1];
    };
    // Above the walk-away price: saved, as any bid; at it (German amounts): awarded at once, and the flash says so.
    assert.equal(await flashOf(first, '900', id), 'Bid saved.');
    assert.equal(await flashOf(second, '800,00', id), 'Gebot sofort angenommen: die Fracht gehört Ihnen.');
    const row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', second.company, '800.00']);
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
    const countered = await form(shipper, `/quotes/counter/${bid.id}`, { route: String(id), amount: '950,50', note: 'Tolls included' });
    assert.equal(countered.status, 302);
    const bidderPage = await page(first, `/freights/view/${id}`);
    assert.match(bidderPage, /Counter-offer: /);
    assert.match(bidderPage, /Accept /);
    assert.match(bidderPage, /History \(2\)/, 'the bid’s history: its amount, then the counter');
    assert.match(bidderPage, /counter-offer €950.50/);
    // Accepting it leads the bidder's actions, with the owner's note; nothing says the bidder waits.
    assert.match(
      bidderPage,
      /class="stack counter-standing" data-testid="counter-standing"><p>Counter-offer: €950.50 · Tolls included<\/p>/,
    );
    assert.doesNotMatch(bidderPage, /waiting for the shipper/i);
    // The line that says whose move it is: the bidder's, to accept or change its bid; the owner waits.
    const nextStep = (html: string) =>
      /data-testid="next-step"[^>]*>([\s\S]*?)<\/p>/
        .exec(html)?.[1]
        ?.replace(/<[^>]+>/g, '')
        .replace(/[\u00a0\u202f]/g, ' ') ?? '';
    assert.equal(
      nextStep(bidderPage),
      'Your move: the shipper answered your bid of €1,000.00 with €950.50: accept it, or change your bid.',
    );
    assert.equal(
      nextStep(await page(shipper, `/freights/view/${id}`)),
      // The shipper reads German.
      `Warten: Sie haben das Gebot von ${first.companyName} (1.000,00 €) mit 950,50 € beantwortet; ${first.companyName} kann es annehmen oder sein Gebot ändern.`,
    );
    const accepted = await form(first, `/quotes/accept/${bid.id}`, { route: String(id) });
    assert.equal(accepted.status, 302);
    const row = await freightRow(app, id);
    assert.deepEqual([row.status, row.winner_id, row.price], ['taken', first.company, '950.50']);
  });
  test('the waterfall’s picker names each partner with its rating (from 3 ratings on the average)', async () => {
    const rated = await app.actor('Rated Haulage');
    const fresh = await app.actor('Fresh Haulage');
    // Partners: they bid on one of the shipper's freights.
    const old = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 500 } }),
    ).id;
    assert.equal(
      (await app.post(`/freights/view/${old}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    for (const c of [rated, fresh])
      ok(await app.post('/quotes/add.json', { token: c.token, json: { route: old, amount: 900, currency_code: 'EUR' } }));
    // Ratings after deliveries (docs/reference.md#trust): three of `rated` (5, 4, 4: 4.3), one of `fresh`.
    const rate = async (who: Actor, score: number) => {
      const freight = await insertFreight(app.services.db, shipper, { status: 'closed' });
      await app.services.db
        .insertInto('ratings')
        .values({ freight_id: freight, rater_id: shipper.company, rated_id: who.company, score, comment: '', created: new Date() })
        .execute();
    };
    for (const score of [5, 4, 4]) await rate(rated, score);
    await rate(fresh, 2);
    const id = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, etd: '2031-01-10 08:00' },
      }),
    ).id;
    const option = (html: string, company: number) =>
      new RegExp(`<option value="${company}">([^<]*)</option>`).exec(html)?.[1]?.replace(/&#x27;|&#39;/g, "'") ?? '';
    const german = await page(shipper, `/freights/view/${id}`);
    assert.equal(option(german, rated.company), `${rated.companyName} · ★ 4,3 von 5 (3 Bewertungen)`);
    assert.equal(option(german, fresh.company), `${fresh.companyName} · weniger als 3 Bewertungen (1)`);
    const colleague = await app.colleague(shipper, 'english');
    await app.services.db.updateTable('users').set({ language: 'eng' }).where('id', '=', colleague.user).execute();
    const english = await page(colleague, `/freights/view/${id}`);
    assert.equal(option(english, rated.company), `${rated.companyName} · ★ 4.3 of 5 (3 ratings)`);
    assert.equal(option(english, fresh.company), `${fresh.companyName} · fewer than 3 ratings (1)`);
  });

  test('Book Now in the rows of a carrier’s lists, one click, English and German; never in the owner’s', async () => {
    const market = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 800, book_now: '1912.50', auto_award: 1500 },
      }),
    ).id as number;
    assert.equal(
      (await app.post(`/freights/view/${market}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    const plain = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 700 } }),
    ).id as number;
    assert.equal(
      (await app.post(`/freights/view/${plain}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } })).status,
      302,
    );
    const row = (html: string, id: number) => {
      // A row: from its link to the freight to the end of its table row.
      const at = html.indexOf(`href="/freights/view/${id}"`);
      if (at < 0) return null;
      return html.slice(at, html.indexOf('</tr>', at));
    };
    const english = await page(first, '/freights/enlist/8');
    assert.match(english, /<th[^>]*>Book Now<\/th>/);
    assert.match(
      row(english, market) ?? '',
      new RegExp(`action="/quotes/book/${market}"[\\s\\S]*Book now for (€1,912\\.50|1,912\\.50\\s€)`),
    );
    assert.ok(!(row(english, plain) ?? 'missing').includes('/quotes/book/'), 'no price: no button');
    assert.ok(!english.includes('1500') && !english.includes('1.500'), 'the walk-away price is the owner’s');
    const german = await page(second, '/freights/enlist/8');
    assert.match(german, /<th[^>]*>Sofort buchen<\/th>/);
    assert.match(row(german, market) ?? '', /Sofort buchen für 1\.912,50\s€/);
    // The owner's own list: its freights are not its to book.
    assert.ok(!(await page(shipper, '/freights/enlist/10')).includes('/quotes/book/'));

    // One click: the row's form posts, the freight is taken, the freight page says so.
    const booked = await form(second, `/quotes/book/${market}`, {});
    assert.equal(booked.status, 302);
    assert.equal(booked.headers.location, `/freights/view/${market}`);
    const taken = await freightRow(app, market);
    assert.deepEqual([taken.status, taken.winner_id, taken.price], ['taken', second.company, '1912.50']);
    assert.ok(!(row(await page(first, '/freights/enlist/8'), market) ?? '').includes('/quotes/book/'), 'taken: gone from the market');
  });

  test('while a waterfall runs, its audience is not the owner’s to edit (freight.edit.waterfall_running); other fields are', async () => {
    const id = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000 } }),
    ).id as number;
    ok(
      await app.post(`/freights/waterfall/${id}.json`, {
        token: shipper.token,
        // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
        json: { carriers: [first.company], price: 900, minutes: 30, then: 'market' },
      }),
    );
    const edit = (json: Record<string, unknown>) => app.post(`/freights/edit/${id}.json`, { token: shipper.token, json });
    for (const change of [{ visibility: 0 }, { whitelist: [second.company] }, { visibility: -1, weight: 1 }]) {
      const res = await edit(change);
      assert.equal(res.body.status, 'error', res.text);
      assert.equal(res.body.code, 'freight.edit.waterfall_running');
    }
    let row = await freightRow(app, id);
    assert.deepEqual([row.visibility, row.whitelist, Number(row.weight)], [-2, [first.company], 8000], 'nothing changed');
    // The same audience sent again (a whole form) is no change; other fields stay editable.
    ok(await edit({ visibility: -2, whitelist: [first.company], weight: 7000 }));
    row = await freightRow(app, id);
    assert.equal(Number(row.weight), 7000);
    // German, on the page's form.
    const back = await postAndFollow(shipper, `/freights/edit/${id}`, { visibility: '0' });
    assert.match(back.text, /Wasserfall/);
    assert.equal((await freightRow(app, id)).visibility, -2);
    // Once the waterfall ended (the market after the only carrier passed), the audience is the owner's again.
    ok(await app.post(`/quotes/decline/${id}.json`, { token: first.token }));
    ok(await edit({ visibility: -2, whitelist: [second.company] }));
    row = await freightRow(app, id);
    assert.deepEqual([row.visibility, row.whitelist], [-2, [second.company]]);
  });
});
