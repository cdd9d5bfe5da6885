import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { sweepExpiredFreights } from '../../src/freights/lifecycle.ts';
import { addFreight, enlistIds, force, insertBid, openFreight } from './helpers.ts';

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let outsider: Actor;
const f: Record<string, number> = {};

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const same = (actual: number[], expected: number[], label: string) => assert.deepEqual(sorted(actual), sorted(expected), label);

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  outsider = await app.actor('Outsider');
  const S = shipper;
  f.d1 = await addFreight(app, S);
  f.o1 = await openFreight(app, S);
  f.o2 = await openFreight(app, S);
  await insertBid(app, f.o2, carrier);
  f.o3 = await openFreight(app, S);
  await insertBid(app, f.o3, carrier, 'revoked');
  await force(app, f.o3, { status: 'pending' });
  f.o4 = await openFreight(app, S, {}, { visibility: -2, whitelist: [outsider.company] });
  f.o5 = await openFreight(app, S, {}, { visibility: -1 });
  f.t1 = await openFreight(app, S);
  await insertBid(app, f.t1, carrier);
  await force(app, f.t1, { status: 'taken', winner_id: carrier.company });
  f.t2 = await openFreight(app, S, { from_addr: 'Secret 1' });
  await insertBid(app, f.t2, carrier);
  await force(app, f.t2, { status: 'taken', winner_id: outsider.company });
  f.cl1 = await openFreight(app, S);
  await insertBid(app, f.cl1, carrier);
  await force(app, f.cl1, { status: 'closed', winner_id: outsider.company });
  f.ar1 = await openFreight(app, S);
  await force(app, f.ar1, { status: 'archived', winner_id: carrier.company });
  f.ex1 = await openFreight(app, S);
  await insertBid(app, f.ex1, carrier, 'pending');
  await force(app, f.ex1, { status: 'expired' });
  f.rv1 = await openFreight(app, S);
  await force(app, f.rv1, { status: 'revoked' });
  // Carrier's own freights never show in its provider lists.
  f.c1 = await openFreight(app, carrier);
});
after(() => app.close());

describe('enlist filters: exact membership', () => {
  test('provider lists of the carrier: 8, 7, 6, 2, 9', async () => {
    same(await enlistIds(app, carrier, 8), [f.o1!, f.o3!], '8');
    same(await enlistIds(app, carrier, 7), [f.o2!], '7');
    same(await enlistIds(app, carrier, 6), [f.t2!, f.cl1!], '6');
    same(await enlistIds(app, carrier, 2), [f.t1!], '2');
    same(await enlistIds(app, carrier, 9), [f.cl1!, f.ar1!, f.ex1!], '9'); // closed with another winner is in 6 and 9 alike
  });

  test('provider lists of the outsider (whitelisted on o4, winner of t2 and cl1)', async () => {
    same(await enlistIds(app, outsider, 8), [f.o1!, f.o2!, f.o3!, f.o4!, f.c1!], '8');
    same(await enlistIds(app, outsider, 7), [], '7');
    same(await enlistIds(app, outsider, 2), [f.t2!], '2');
    same(await enlistIds(app, outsider, 9), [f.cl1!], '9');
    same(await enlistIds(app, outsider, 6), [], '6');
  });

  test('principal lists of the shipper: 20, 10, 17, 18, 12, 19', async () => {
    same(await enlistIds(app, shipper, 20), [f.d1!], '20');
    same(await enlistIds(app, shipper, 10), [f.o1!, f.o2!, f.o3!, f.o4!, f.o5!], '10');
    same(await enlistIds(app, shipper, 17), [f.o2!], '17');
    same(await enlistIds(app, shipper, 18), [f.o1!, f.o3!, f.o4!, f.o5!], '18');
    same(await enlistIds(app, shipper, 12), [f.t1!, f.t2!], '12');
    same(await enlistIds(app, shipper, 19), [f.cl1!, f.ar1!, f.ex1!, f.rv1!], '19');
  });

  test('filter 6 and 9 are masked unless winner; lists carry pieces and company but no _bids', async () => {
    const six = (await app.get('/freights/enlist/6.json', { token: carrier.token })).body.data.routes;
    for (const r of six) {
      assert.equal(r.from, null);
      assert.equal(r.from_addr, null);
      assert.equal(r.winner, null);
      assert.equal(r.f_from, 'xxx (XX)');
      assert.ok(Array.isArray(r._route_pieces));
      assert.ok(!('_bids' in r));
      assert.deepEqual(r._company, { id: shipper.company, name: shipper.companyName, verified: false });
    }
    assert.ok(!JSON.stringify(six).includes('Secret'));
    const nine = (await app.get('/freights/enlist/9.json', { token: carrier.token })).body.data.routes;
    const won = nine.find((r: { id: number }) => r.id === f.ar1);
    const lost = nine.find((r: { id: number }) => r.id === f.ex1);
    assert.equal(won.from, 'FRA');
    assert.equal(lost.from, null);
    const market = (await app.get('/freights/enlist/8.json', { token: carrier.token })).body.data.routes;
    for (const r of market) {
      assert.equal(r.refs, null);
      assert.equal(r.from, 'FRA');
    }
  });

  test('a revoked bid puts the freight back on filter 8', async () => {
    const id = await openFreight(app, shipper);
    const bid = await insertBid(app, id, outsider);
    assert.ok(!(await enlistIds(app, outsider, 8)).includes(id));
    assert.ok((await enlistIds(app, outsider, 7)).includes(id));
    await app.services.db.updateTable('bids').set({ status: 'revoked' }).where('id', '=', bid).execute();
    assert.ok((await enlistIds(app, outsider, 8)).includes(id));
    assert.ok(!(await enlistIds(app, outsider, 7)).includes(id));
    await force(app, id, { status: 'revoked' });
  });

  test('expiry by moving the clock takes freights off the market lists', async () => {
    const now = new Date();
    const id = await openFreight(app, shipper, {}, { deadline: '+2 hours' });
    assert.ok((await enlistIds(app, carrier, 8)).includes(id));
    app.setNow(new Date(now.getTime() + 3 * 3600_000));
    try {
      assert.ok(!(await enlistIds(app, carrier, 8)).includes(id));
      assert.ok(!(await enlistIds(app, shipper, 10)).includes(id));
      assert.ok((await enlistIds(app, shipper, 19)).includes(id));
      // Reads compute expiry; the sweeper writes it down, and the lists read the same after.
      const stored = () => app.services.db.selectFrom('freights').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal((await stored()).status, 'open');
      assert.ok((await sweepExpiredFreights(app.services.db, app.services.clock)) >= 1);
      assert.equal((await stored()).status, 'expired');
      assert.ok(!(await enlistIds(app, carrier, 8)).includes(id));
      assert.ok((await enlistIds(app, shipper, 19)).includes(id));
    } finally {
      app.setNow(null);
    }
    // Written down, expiry stays when the clock returns.
    assert.ok((await enlistIds(app, shipper, 19)).includes(id));
  });

  test('unknown filter: status error; non-numeric: 404; TMS 51-53: empty lists', async () => {
    const unknown = await app.get('/freights/enlist/999.json', { token: carrier.token });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.status, 'error');
    assert.equal((await app.get('/freights/enlist/abc.json', { token: carrier.token })).status, 404);
    for (const id of [51, 52, 53]) {
      const res = await app.get(`/freights/enlist/${id}.json`, { token: carrier.token });
      assert.equal(res.body.status, 'success');
      assert.ok(Array.isArray(res.body.data.routes));
    }
    assert.equal((await app.get('/freights/enlist/8.json')).status, 401);
  });
});

describe('booking request lists 200/201/209 and 210/211/219', () => {
  test('outgoing and incoming groups', async () => {
    const booker = await app.actor('Booker');
    const provider = await app.actor('Provider');
    const flight = await app.post('/flights/add.json', {
      token: provider.token,
      json: { from: 'FRA', to: 'JFK', etd: '2031-01-01 10:00', eta: '2031-01-01 18:00', flight_number: 'LH400' },
    });
    const flightId = flight.body.data.flight.id;
    const viaFlight = (await app.post(`/freights/request/flight/${flightId}.json`, { token: booker.token, json: { weight: 300 } })).body
      .data.route.id;
    const direct = (
      await app.post(`/freights/request/direct/${provider.company}.json`, { token: booker.token, json: { from: 'FRA', to: 'AMS' } })
    ).body.data.route.id;
    same(await enlistIds(app, booker, 200), [viaFlight, direct], '200');
    // The flight provider is the winner: it sees the draft request; the direct draft is not visible yet.
    same(await enlistIds(app, provider, 210), [viaFlight], '210 draft');
    const pub = await app.post(`/freights/view/${direct}.json`, { token: booker.token, json: { action: 'publish' } });
    assert.equal(pub.status, 302);
    same(await enlistIds(app, provider, 210), [viaFlight, direct], '210 open');
    same(await enlistIds(app, outsider, 210), [], '210 outsider');
    await force(app, viaFlight, { status: 'taken' });
    same(await enlistIds(app, booker, 201), [viaFlight], '201');
    same(await enlistIds(app, provider, 211), [viaFlight], '211');
    await force(app, viaFlight, { status: 'archived' });
    await force(app, direct, { status: 'revoked' });
    same(await enlistIds(app, booker, 209), [viaFlight, direct], '209');
    same(await enlistIds(app, provider, 219), [viaFlight], '219');
    same(await enlistIds(app, booker, 200), [], '200 after');
  });
});

describe('paging and sorting', () => {
  let pager: Actor;
  const ids: number[] = [];
  before(async () => {
    pager = await app.actor('Pager');
    app.setNow(new Date('2031-01-01T00:00:00Z'));
    try {
      for (let i = 0; i < 25; i++) {
        // Five share one creation time (ties by id); weights descend with i.
        if (i >= 5) app.setNow(new Date(Date.UTC(2031, 0, 1, 0, i)));
        ids.push(await addFreight(app, pager, { weight: 1000 - i * 10, etd: i % 2 ? '2031-02-01 10:00' : '' }));
      }
    } finally {
      app.setNow(null);
    }
  });

  test('defaults: page 1, limit 20, Routes.created desc, ties by id', async () => {
    const page1 = await enlistIds(app, pager, 20);
    assert.equal(page1.length, 20);
    const expected = [...ids].reverse();
    assert.deepEqual(page1, expected.slice(0, 20));
    const page2 = await enlistIds(app, pager, 20, '?page=2');
    assert.deepEqual(page2, expected.slice(20));
    assert.deepEqual(await enlistIds(app, pager, 20, '?page=3'), []);
  });

  test('limit is capped at 100; bad paging values fall back with warnings', async () => {
    assert.equal((await enlistIds(app, pager, 20, '?limit=500')).length, 25);
    assert.equal((await enlistIds(app, pager, 20, '?limit=3')).length, 3);
    const res = await app.get('/freights/enlist/20.json?limit=-5&page=abc&sort=Routes.password&direction=sideways', { token: pager.token });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.routes.length, 20);
    const warned = res.body.warnings.map((w: { field: string }) => w.field).sort();
    // An unreadable page is named too (issue 39: every list says what of its query it ignored).
    assert.deepEqual(warned, ['direction', 'limit', 'page', 'sort']);
  });

  test('sort by weight asc and desc; by id; etd with nulls last', async () => {
    const asc = await enlistIds(app, pager, 20, '?sort=Routes.weight&direction=asc&limit=100');
    assert.deepEqual(asc, [...ids].reverse());
    const desc = await enlistIds(app, pager, 20, '?sort=Routes.weight&direction=desc&limit=100');
    assert.deepEqual(desc, ids);
    assert.deepEqual(await enlistIds(app, pager, 20, '?sort=Routes.id&direction=asc&limit=100'), ids);
    const byEtd = (await app.get('/freights/enlist/20.json?sort=Routes.etd&direction=asc&limit=100', { token: pager.token })).body.data
      .routes;
    const firstNull = byEtd.findIndex((r: { etd: string | null }) => r.etd === null);
    assert.ok(byEtd.slice(firstNull).every((r: { etd: string | null }) => r.etd === null));
    for (const sort of ['created', 'modified', 'deadline', 'eta']) {
      assert.equal((await enlistIds(app, pager, 20, `?sort=Routes.${sort}&limit=100`)).length, 25, sort);
    }
  });
});
