import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { bidBody, bidRow, confirm, insertFreight, placeBid, publishedFreight, revoke, setFreightStatus } from './fixtures.ts';

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let carrierColleague: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  carrierColleague = await app.colleague(carrier, 'Dispatcher');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

const add = (actor: Actor, json: unknown) => app.post('/quotes/add.json', { token: actor.token, json });

describe('POST /quotes/add.json: create', () => {
  test('creates an open buying bid; company, user, display company set by the server; data.bid', async () => {
    const route = await publishedFreight(app, shipper);
    const res = await add(carrier, {
      ...bidBody(route),
      company: shipper.company,
      user: shipper.user,
      status: 'accepted',
      type: 'selling',
      whatever: 1,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.auth.token, carrier.token);
    const bid = res.body.data.bid;
    assert.equal(typeof bid.id, 'number');
    assert.equal(bid.route, route);
    assert.equal(bid.company, carrier.company);
    assert.equal(bid.user, carrier.user);
    assert.equal(bid.display_company_id, carrier.company);
    assert.equal(bid.status, 'open');
    assert.equal(bid.type, 'buying');
    assert.equal(bid.amount, 1250.5);
    assert.equal(bid.currency_code, 'EUR');
    assert.equal(bid.rate_base, 1000);
    assert.equal(bid.rate_fsc, 200.5);
    assert.equal(bid.rate_ssc, 50);
    assert.equal(bid.note, 'FTL, tail-lift');
    assert.match(bid.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(bid.deadline, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'the freight deadline');
  });

  test('the freight owner bidding on its own freight makes a selling bid', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, shipper, route);
    assert.equal(bid.type, 'selling');
    assert.equal(bid.company, shipper.company);
  });

  test('form encoding and query parameters work like JSON; lower-case currency normalised', async () => {
    const route = await publishedFreight(app, shipper);
    const form = await app.post('/quotes/add.json', {
      token: carrier.token,
      form: { route: String(route), amount: '99,90', currency_code: 'chf' },
    });
    assert.equal(form.body.status, 'success');
    assert.equal(form.body.data.bid.amount, 99.9);
    assert.equal(form.body.data.bid.currency_code, 'CHF');
    const query = await app.post(`/quotes/add.json?route=${route}&amount=10&currency_code=EUR`, { token: carrier.token });
    assert.equal(query.body.data.bid.amount, 10);
  });

  test('money is exact to the cent: large amounts round-trip as exact decimals', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route, { amount: '999999999999.99', rate_base: 0.1, rate_fsc: '0.20', rate_ssc: '12.300' });
    const row = await bidRow(app, bid.id);
    assert.equal(row.amount, '999999999999.99');
    assert.equal(row.rate_base, '0.10');
    assert.equal(row.rate_fsc, '0.20');
    assert.equal(row.rate_ssc, '12.30');
  });

  test('display_company_id of another company is ignored with a warning', async () => {
    const route = await publishedFreight(app, shipper);
    const res = await add(carrier, { ...bidBody(route), display_company_id: outsider.company });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.bid.display_company_id, carrier.company);
    assert.ok(res.body.warnings.some((w: { field: string }) => w.field === 'display_company_id'));
  });

  test('a bid on a pending freight is allowed', async () => {
    const route = await publishedFreight(app, shipper);
    const first = await placeBid(app, outsider, route);
    assert.equal((await confirm(app, shipper, first.id)).status, 302);
    const bid = await placeBid(app, carrier, route);
    assert.equal(bid.status, 'open');
  });
});

describe('POST /quotes/add.json: bad input', () => {
  test('amount missing, not a number, zero, negative, more than 2 decimals, too large: status error with a message', async () => {
    const route = await publishedFreight(app, shipper);
    for (const amount of [undefined, '', 'abc', '12abc', 0, '-5', '10.001', '1e5', 1e13, '1234567890123', [1], { a: 1 }, true, null]) {
      const res = await add(carrier, { ...bidBody(route), amount });
      assert.equal(res.status, 200, String(amount));
      assert.equal(res.body.status, 'error', JSON.stringify(amount));
      assert.match(res.body.message, /amount/);
      assert.deepEqual(res.body.data, []);
    }
    const rows = await app.services.db.selectFrom('bids').select('id').where('freight_id', '=', route).execute();
    assert.equal(rows.length, 0, 'nothing written');
  });

  test('currency_code missing or not 3 letters: status error', async () => {
    const route = await publishedFreight(app, shipper);
    for (const currency_code of [undefined, '', 'EURO', '12', ['EUR']]) {
      const res = await add(carrier, { ...bidBody(route), currency_code });
      assert.equal(res.body.status, 'error', JSON.stringify(currency_code));
      assert.match(res.body.message, /currency_code/);
    }
  });

  test('route missing or unreadable: status error; a route that does not exist: 404', async () => {
    for (const route of [undefined, 'abc', -1, 0, 1.5]) {
      const res = await add(carrier, { ...bidBody(1), route });
      assert.equal(res.body.status, 'error', JSON.stringify(route));
      assert.match(res.body.message, /route/);
    }
    const missing = await add(carrier, bidBody(99999999));
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body.data, []);
  });

  test('unreadable optional money fields are ignored with a warning; a huge note is refused', async () => {
    const route = await publishedFreight(app, shipper);
    const res = await add(carrier, { ...bidBody(route), rate_base: 'abc', rate_fsc: '1.234', rate_ssc: -3 });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.bid.rate_base, null);
    assert.equal(res.body.data.bid.rate_fsc, null);
    assert.equal(res.body.data.bid.rate_ssc, null);
    assert.deepEqual(res.body.warnings.map((w: { field: string }) => w.field).sort(), ['rate_base', 'rate_fsc', 'rate_ssc']);
    const huge = await add(carrier, { ...bidBody(route), note: 'x'.repeat(2001) });
    assert.equal(huge.body.status, 'error');
    assert.match(huge.body.message, /note/);
    const max = await add(carrier, { ...bidBody(route), note: 'ü'.repeat(2000) });
    assert.equal(max.body.data.bid.note.length, 2000);
    const html = await add(carrier, { ...bidBody(route), note: '<script>alert(1)</script>' });
    assert.equal(html.body.data.bid.note, '<script>alert(1)</script>', 'stored as sent; pages escape');
  });

  test('without a token: 401', async () => {
    const res = await app.post('/quotes/add.json', { json: bidBody(1) });
    assert.equal(res.status, 401);
    assert.equal(res.body.status, 'error');
  });
});

describe('POST /quotes/add.json: which freights', () => {
  test('a freight the caller cannot see is a 404 (draft, own-company-only, whitelist without the caller)', async () => {
    const draft = await insertFreight(app.services.db, shipper, { status: 'draft' });
    const internal = await insertFreight(app.services.db, shipper, { visibility: -1 });
    const listed = await insertFreight(app.services.db, shipper, { visibility: -2, whitelist: [outsider.company] });
    for (const route of [draft, internal, listed]) {
      const res = await add(carrier, bidBody(route));
      assert.equal(res.status, 404, String(route));
      assert.deepEqual(res.body.data, []);
    }
    const whitelisted = await add(outsider, bidBody(listed));
    assert.equal(whitelisted.body.status, 'success');
  });

  test('a visible freight that is not open or pending: status error', async () => {
    for (const status of ['taken', 'expired', 'revoked', 'closed', 'archived'] as const) {
      const route = await insertFreight(app.services.db, shipper, { status });
      // Visible to its owner in every state; the owner cannot bid on it either.
      const res = await add(shipper, bidBody(route));
      assert.equal(res.status, 200, status);
      assert.equal(res.body.status, 'error', status);
      assert.match(res.body.message, /not open for bids/);
    }
  });

  test('a freight whose deadline has passed is not open for bids', async () => {
    const route = await insertFreight(app.services.db, shipper, { deadline: new Date(Date.now() + 3600_000) });
    app.setNow(new Date(Date.now() + 2 * 3600_000));
    try {
      const res = await add(shipper, bidBody(route));
      assert.equal(res.body.status, 'error');
    } finally {
      app.setNow(null);
    }
  });
});

describe('POST /quotes/add.json with id: update', () => {
  test('the bidder company (any of its users) updates its open bid; company and user stay', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    const res = await add(carrierColleague, { id: bid.id, amount: '1100', currency_code: 'USD', note: '' });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.bid.id, bid.id);
    assert.equal(res.body.data.bid.amount, 1100);
    assert.equal(res.body.data.bid.currency_code, 'USD');
    assert.equal(res.body.data.bid.rate_base, 1000, 'fields not sent stay');
    assert.equal(res.body.data.bid.note, null);
    assert.equal(res.body.data.bid.user, carrier.user);
    const count = await app.services.db.selectFrom('bids').select('id').where('freight_id', '=', route).execute();
    assert.equal(count.length, 1);
  });

  test("someone else's bid id, a missing id or an unreadable id: 404, nothing changes", async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    for (const [actor, id] of [
      [outsider, bid.id],
      [shipper, bid.id],
      [carrier, 99999999],
      [carrier, 'abc'],
      [carrier, -2],
    ] as const) {
      const res = await add(actor, { id, amount: '1', currency_code: 'EUR' });
      assert.equal(res.status, 404, `${actor.companyName} ${id}`);
    }
    assert.equal((await bidRow(app, bid.id)).amount, '1250.50');
  });

  test('a bid cannot move to another freight', async () => {
    const route = await publishedFreight(app, shipper);
    const other = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    const res = await add(carrier, { ...bidBody(other), id: bid.id });
    assert.equal(res.body.status, 'error');
    assert.equal((await bidRow(app, bid.id)).freight_id, route);
  });

  test('only while open: pending, revoked and accepted bids are not changed', async () => {
    const route = await publishedFreight(app, shipper);
    const pending = await placeBid(app, carrier, route);
    await confirm(app, carrier, pending.id);
    const revoked = await placeBid(app, carrier, route);
    await revoke(app, carrier, revoked.id);
    for (const id of [pending.id, revoked.id]) {
      const res = await add(carrier, { id, amount: '1', currency_code: 'EUR' });
      assert.equal(res.body.status, 'error');
      assert.match(res.body.message, /open bid/);
    }
    await confirm(app, shipper, pending.id);
    const accepted = await add(carrier, { id: pending.id, amount: '1', currency_code: 'EUR' });
    assert.equal(accepted.body.status, 'error');
    assert.equal((await bidRow(app, pending.id)).amount, '1250.50');
  });

  test('an open bid on a freight no longer open is not changed', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    await setFreightStatus(app, route, 'revoked');
    const res = await add(carrier, { id: bid.id, amount: '1', currency_code: 'EUR' });
    assert.equal(res.body.status, 'error');
  });
});
