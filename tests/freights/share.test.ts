import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, openFreight, view } from './helpers.ts';

/**
 * Issue 24, item 5, as the shipper's choice (docs/choices.md, "What a carrier prices a load by"):
 * `share` lists what of its refs the owner shows carriers (`goods`: refs.commodity;
 * `target_price`: refs.target_rate and target_currency); nothing by default. Every company that
 * sees the freight unmasked reads it in `shared`, only the shared keys; `refs` stays the owner's
 * and the winner's (docs/reference.md#freights). A masked former bidder sees `shared` null, a company outside
 * the whitelist still gets 404, and only the owner sets `share`.
 */

const REFS = { customer: 'PO-4711', commodity: 'Maschinenteile', target_rate: '1450.50', target_currency: 'EUR' };

describe(`freights: the owner shares goods and target price with carriers (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor;
  let carrier: Actor;
  let other: Actor;
  let outsider: Actor;

  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    other = await app.actor('Other carrier');
    outsider = await app.actor('Outsider');
  });
  after(async () => {
    await app?.close();
  });

  const route = async (who: Actor, id: number) => {
    const res = await view(app, who, id);
    assert.equal(res.status, 200, res.text);
    return res.body.data.route;
  };

  test('the API shares nothing by default: a carrier sees neither refs nor shared', async () => {
    const id = await openFreight(app, shipper, { refs: REFS });
    const own = await route(shipper, id);
    assert.deepEqual(own.share, []);
    assert.equal(own.shared, null);
    assert.deepEqual(own.refs, REFS);
    const seen = await route(carrier, id);
    assert.equal(seen.shared, null);
    assert.equal(seen.refs, null);
    assert.equal(seen.share, null, 'the setting is the owner’s, seen like refs');
  });

  test('shared goods and target price reach a carrier in `shared`, only those keys; refs stay hidden', async () => {
    const both = await openFreight(app, shipper, { refs: REFS, share: ['target_price', 'goods', 'goods'] });
    assert.deepEqual((await route(shipper, both)).share, ['goods', 'target_price'], 'each once, in a fixed order');
    const seen = await route(carrier, both);
    assert.deepEqual(seen.shared, { commodity: 'Maschinenteile', target_rate: 1450.5, target_currency: 'EUR' });
    assert.equal(seen.refs, null);
    assert.equal(seen.from_addr, null);

    const goods = await openFreight(app, shipper, { refs: REFS, share: 'goods' });
    assert.deepEqual((await route(carrier, goods)).shared, { commodity: 'Maschinenteile' });
    const price = await openFreight(app, shipper, { refs: { target_rate: 'soon' }, share: 'TARGET_PRICE' });
    assert.deepEqual((await route(carrier, price)).shared, { target_rate: null, target_currency: null }, 'what refs do not hold is null');

    // The lists present it the same way.
    const list = await app.get('/freights/enlist/8.json?limit=100', { token: carrier.token });
    const row = list.body.data.routes.find((r: { id: number }) => r.id === both);
    assert.deepEqual(row.shared, seen.shared);
    assert.equal(row.refs, null);
  });

  test('as a form body (checkboxes beside an empty value), and as text; an unknown key is a warning and changes nothing', async () => {
    const res = await app.post('/freights/add.json', {
      token: shipper.token,
      form: 'from=airport:FRA&to=city:60311&weight=100&refs[commodity]=Paper&share=&share=goods',
    });
    assert.equal(res.body.status, 'success', res.text);
    const id = res.body.data.id as number;
    assert.deepEqual(res.body.data.share, ['goods']);

    const bad = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { share: ['goods', 'price'] } });
    assert.equal(bad.body.status, 'success');
    assert.deepEqual(bad.body.warnings, [{ field: 'share', reason: 'not a list of goods, target_price' }]);
    assert.deepEqual(bad.body.data.route.share, ['goods'], 'unchanged');
    for (const nothing of ['', [], null]) {
      const none = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { share: nothing } });
      assert.deepEqual(none.body.data.route.share, [], JSON.stringify(nothing));
      await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { share: 'goods,target_price' } });
    }
    const tooMany = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { share: Array(50).fill('goods') } });
    assert.deepEqual(tooMany.body.warnings, [{ field: 'share', reason: 'not a list of goods, target_price' }]);
    const notText = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { share: { a: { b: 1 } } } });
    assert.deepEqual(notText.body.warnings, [{ field: 'share', reason: 'not a list of goods, target_price' }]);
    assert.deepEqual((await route(shipper, id)).share, ['goods', 'target_price']);
    // `shared` is the server's.
    const sent = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { shared: { commodity: 'x' } } });
    assert.deepEqual(sent.body.warnings, [{ field: 'shared', reason: 'set by the server' }]);
  });

  test('only the owner sets it: another company’s edit is a 404 and changes nothing', async () => {
    const id = await openFreight(app, shipper, { refs: REFS, share: 'goods' });
    const res = await app.post(`/freights/edit/${id}.json`, { token: carrier.token, json: { share: 'goods,target_price' } });
    assert.equal(res.status, 404);
    assert.deepEqual((await route(shipper, id)).share, ['goods']);
    assert.deepEqual((await route(carrier, id)).shared, { commodity: 'Maschinenteile' });
  });

  test('a masked former bidder sees shared null; the winner sees refs; a company outside the whitelist 404 as before', async () => {
    const id = await openFreight(
      app,
      shipper,
      { refs: REFS, share: 'goods,target_price' },
      { visibility: -2, whitelist: [carrier.company, other.company] },
    );
    assert.equal((await view(app, outsider, id)).status, 404, 'outside the whitelist');
    assert.deepEqual((await route(other, id)).shared, { commodity: 'Maschinenteile', target_rate: 1450.5, target_currency: 'EUR' });
    const bid = async (who: Actor, amount: number) => {
      const res = await app.post('/quotes/add.json', { token: who.token, json: { route: id, amount, currency_code: 'EUR' } });
      assert.equal(res.body.status, 'success', res.text);
      return res.body.data.bid.id as number;
    };
    const won = await bid(carrier, 1400);
    await bid(other, 1500);
    // The owner confirms, then the bidder: awarded to the carrier.
    for (const who of [shipper, carrier]) {
      const res = await app.post(`/quotes/confirm/${won}.json`, { token: who.token, json: {} });
      assert.ok(res.status === 200 || res.status === 302, res.text);
    }
    const masked = await route(other, id);
    assert.equal(masked.status, 'taken');
    assert.equal(masked.from, null, 'masked');
    assert.equal(masked.shared, null);
    assert.equal(masked.refs, null);
    const winner = await route(carrier, id);
    assert.deepEqual(winner.refs, REFS);
    assert.deepEqual(winner.share, ['goods', 'target_price']);
    assert.deepEqual(winner.shared, { commodity: 'Maschinenteile', target_rate: 1450.5, target_currency: 'EUR' });
  });

  test('the market’s event of a published freight carries what is shared, never the refs', async () => {
    const id = await openFreight(app, shipper, { refs: REFS, share: ['goods'] });
    const rows = await app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('freight_id', '=', id)
      .where('type', '=', 'freight.published')
      .execute();
    const market = rows.find((r) => r.company_id === null);
    assert.ok(market, 'a market row');
    const body = typeof market.body === 'string' ? JSON.parse(market.body) : market.body;
    assert.deepEqual(body.data.route.shared, { commodity: 'Maschinenteile' });
    assert.equal(body.data.route.refs, null);
    assert.equal(body.data.route.share, null);
  });

  test('drafts from the API: share is stored on creation like any freight field', async () => {
    const id = await addFreight(app, shipper, { share: ['target_price'], refs: { target_rate: 900 } });
    assert.deepEqual((await route(shipper, id)).shared, { target_rate: 900, target_currency: null });
  });
});
