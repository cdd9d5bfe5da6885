import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startWorld } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { addFreight, force, insertBid, openFreight, view } from './helpers.ts';

let app: TestApp;
let shipper: Actor, carrier: Actor, outsider: Actor;

before(async () => ({ app, shipper, carrier, outsider } = await startWorld()));
after(() => app.close());

const post = (who: Actor, path: string, json: unknown = {}) => app.post(path, { token: who.token, json });
const statusOf = async (id: number) =>
  (await app.services.db.selectFrom('freights').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('expiry', () => {
  test('open and pending expire at the deadline on the next read; bidders then see it masked', async () => {
    const start = new Date('2032-03-01T08:00:00Z');
    app.setNow(start);
    try {
      const open = await openFreight(app, shipper, {}, { deadline: '+30 minutes' });
      const pending = await openFreight(app, shipper, {}, { deadline: '+1 hours' });
      await insertBid(app, pending, carrier);
      await force(app, pending, { status: 'pending' });
      app.setNow(new Date(start.getTime() + 45 * 60_000));
      assert.equal((await view(app, shipper, open)).body.data.route.status, 'expired');
      assert.equal(await statusOf(pending), 'pending');
      assert.equal((await view(app, outsider, open)).status, 404);
      app.setNow(new Date(start.getTime() + 61 * 60_000));
      const masked = (await view(app, carrier, pending)).body.data.route;
      assert.equal(masked.status, 'expired');
      assert.equal(masked.from, null);
      assert.ok(!('_bids' in masked));
    } finally {
      app.setNow(null);
    }
  });
});

describe('revoke, delivery, archive', () => {
  test('revoke: owner only (others 404), draft/open/pending -> revoked, else status error; bids stay', async () => {
    const id = await openFreight(app, shipper);
    const bid = await insertBid(app, id, carrier);
    assert.equal((await post(carrier, `/freights/revoke/${id}.json`)).status, 404);
    assert.equal((await post(outsider, `/freights/revoke/${id}.json`)).status, 404);
    const res = await post(shipper, `/freights/revoke/${id}.json`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.route.status, 'revoked');
    const b = await app.services.db.selectFrom('bids').select('status').where('id', '=', bid).executeTakeFirstOrThrow();
    assert.equal(b.status, 'open');
    const again = await post(shipper, `/freights/revoke/${id}.json`);
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'error');
    assert.equal(typeof again.body.message, 'string');
    const draft = await addFreight(app, shipper);
    assert.equal((await post(shipper, `/freights/revoke/${draft}.json`)).body.data.route.status, 'revoked');
    assert.equal((await post(shipper, '/freights/revoke/abc.json')).status, 404);
    // The bidder still finds it in its archive (filter 9), masked.
    assert.equal((await view(app, carrier, id)).body.data.route.from, null);
  });

  test('delivery: winner or owner on taken; 3 closes; bad values and backwards are errors', async () => {
    const id = await openFreight(app, shipper);
    assert.equal((await post(shipper, `/freights/delivery/${id}.json`, { delivery_status: 1 })).body.status, 'error');
    await force(app, id, { status: 'taken', winner_id: carrier.company, transport_company_id: carrier.company });
    assert.equal((await post(outsider, `/freights/delivery/${id}.json`, { delivery_status: 1 })).status, 404);
    let res = await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 1 });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.route.delivery_status, 1);
    assert.equal(res.body.data.route.delivery_status_in_words, 'picked up');
    for (const bad of [5, -1, 'x', null, undefined]) {
      res = await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: bad });
      assert.equal(res.body.status, 'error', String(bad));
    }
    assert.equal((await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 0 })).body.status, 'error');
    res = await app.post(`/freights/delivery/${id}.json?delivery_status=2`, { token: shipper.token });
    assert.equal(res.body.data.route.delivery_status, 2);
    res = await app.post(`/freights/delivery/${id}.json`, { token: carrier.token, form: 'delivery_status=3' });
    assert.equal(res.body.data.route.status, 'closed');
    assert.equal(res.body.data.route.delivery_status, 3);
    assert.equal((await post(carrier, `/freights/delivery/${id}.json`, { delivery_status: 3 })).body.status, 'error');
  });

  test('archive: owner only; expired/revoked/closed -> archived; else error', async () => {
    const id = await openFreight(app, shipper);
    assert.equal((await post(shipper, `/freights/archive/${id}.json`)).body.status, 'error');
    await force(app, id, { status: 'closed', winner_id: carrier.company });
    assert.equal((await post(carrier, `/freights/archive/${id}.json`)).status, 404);
    const res = await post(shipper, `/freights/archive/${id}.json`);
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.route.status, 'archived');
    assert.equal((await post(shipper, `/freights/archive/${id}.json`)).body.status, 'error');
    for (const from of ['expired', 'revoked']) {
      const f = await addFreight(app, shipper);
      await force(app, f, { status: from });
      assert.equal((await post(shipper, `/freights/archive/${f}.json`)).body.data.route.status, 'archived', from);
    }
  });

  test('concurrent revokes settle on the row lock: exactly one success', async () => {
    const id = await openFreight(app, shipper);
    const results = await Promise.all([1, 2, 3].map(() => post(shipper, `/freights/revoke/${id}.json`)));
    assert.equal(results.filter((r) => r.body.status === 'success').length, 1);
  });
});

describe('booking requests', () => {
  test('request/flight: FFR, air, draft, from/to/etd/eta from the flight, provider is winner, refs set', async () => {
    const flight = (
      await post(carrier, '/flights/add.json', {
        from: 'MUC',
        to: 'ORD',
        etd: '2032-02-01 11:00',
        eta: '2032-02-01 20:00',
        flight_number: 'LH430',
      })
    ).body.data.flight;
    const res = await post(shipper, `/freights/request/flight/${flight.id}.json`, {
      weight: 250,
      pieces: [{ pieces: 2, weight: 125 }],
      from: 'AMS',
      refs: { external_ref: 'E-9' },
    });
    assert.equal(res.body.status, 'success');
    const f = res.body.data.route;
    assert.equal(f.type, 'FFR');
    assert.equal(f.class, 'air');
    assert.equal(f.target, 2);
    assert.equal(f.status, 'draft');
    assert.equal(f.from, 'MUC');
    assert.equal(f.to, 'ORD');
    assert.equal(f.to_country, 'US');
    assert.equal(f.etd, '2032-02-01 11:00:00');
    assert.equal(f.eta, '2032-02-01 20:00:00');
    assert.equal(f.winner, carrier.company);
    assert.equal(f.weight, 250);
    assert.deepEqual(f.refs, { external_ref: 'E-9', entity: 'flight', obj_id: flight.id });
    assert.equal(f.company, shipper.company);
    // The provider (winner) sees it; nobody else.
    assert.equal((await view(app, carrier, f.id)).status, 200);
    assert.equal((await view(app, outsider, f.id)).status, 404);
  });

  test('request/direct: addressed to that company alone; unknown objects and entities 404', async () => {
    const res = await post(shipper, `/freights/request/direct/${carrier.company}.json`, { from: 'FRA', to: 'LHR' });
    const f = res.body.data.route;
    assert.equal(f.visibility, -2);
    assert.deepEqual(f.whitelist, [carrier.company]);
    assert.deepEqual(f.refs, { entity: 'direct', obj_id: carrier.company });
    assert.equal(f.winner, null);
    for (const path of ['direct/999999', 'flight/999999', 'rate/999999', 'boat/1', 'flight/abc', 'direct/0']) {
      const r = await post(shipper, `/freights/request/${path}.json`, {});
      assert.equal(r.status, 404, path);
      assert.deepEqual(r.body.data, []);
    }
  });

  test('request/rate and pricing_search_id take over from the pricing module', async () => {
    const csv =
      'origin,destination,transit_days,min_charge,kg_100,kg_300,fsc_pct,ssc_per_kg,uld_price\ncity:DE-60,airport:FRA,2,45.00,0.40,0.35,12.5,0.05,\n';
    const push = await post(carrier, '/files/push.json', {
      action: 'rates',
      name: 'Road',
      visibility: 'private',
      content: Buffer.from(csv).toString('base64'),
      encoding: 'base64',
    });
    assert.equal(push.status, 200, push.text);
    const line = await app.services.db.selectFrom('rate_lines').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    // A private sheet of another company is not bookable.
    assert.equal((await post(shipper, `/freights/request/rate/${line.id}.json`)).status, 404);
    const own = await post(carrier, `/freights/request/rate/${line.id}.json`, { etd: '2032-03-01 08:00', weight: 40 });
    assert.equal(own.body.status, 'success');
    const f = own.body.data.route;
    assert.equal(f.from, '60');
    assert.equal(f.from_country, 'DE');
    assert.equal(f.to, 'FRA');
    assert.equal(f.eta, '2032-03-03 08:00:00');
    assert.deepEqual(f.refs, { entity: 'rate', obj_id: line.id });
    assert.deepEqual(f.whitelist, [carrier.company]);

    const search = await post(shipper, '/pricing/search/results.json', {
      origin: 'city:DE-60311',
      destination: 'airport:FRA',
      weight: 250,
      pieces_json: [{ pieces: 2, depth: 120, width: 80, height: 100, weight: 125 }],
    });
    const searchId = search.body.data.searchEntity.id;
    const created = await app.post(`/freights/add.json?pricing_search_id=${searchId}`, {
      token: shipper.token,
      json: { refs: { customer: 'Q' } },
    });
    assert.equal(created.body.status, 'success');
    const g = created.body.data;
    assert.equal(g.from, '60311');
    assert.equal(g.from_country, 'DE');
    assert.equal(g.to, 'FRA');
    assert.equal(g.weight, 250);
    assert.equal(g._route_pieces.length, 1);
    assert.equal(g._route_pieces[0].depth, 120);
    assert.deepEqual(g.refs, { customer: 'Q', pricing_search_id: searchId });
    // Another company's search: ignored with a warning.
    const foreign = await app.post(`/freights/add.json?pricing_search_id=${searchId}`, { token: carrier.token, json: { from: 'FRA' } });
    assert.equal(foreign.body.data.from, 'FRA');
    assert.ok(foreign.body.warnings.some((w: { field: string }) => w.field === 'pricing_search_id'));
  });
});

describe('tracking', () => {
  before(async () => {
    const now = new Date();
    await app.services.db
      .insertInto('awb_events')
      .values([
        {
          awb: '020-12345675',
          code: 'DLV',
          event_time: new Date('2032-01-03T10:00:00Z'),
          location: 'JFK',
          flight_number: null,
          company_id: shipper.company,
          created: now,
          weight: '12.5',
          warehouse_location: 'W1',
        },
        {
          awb: '020-12345675',
          code: 'RCF',
          event_time: new Date('2032-01-02T10:00:00Z'),
          location: 'JFK',
          flight_number: 'LH400',
          company_id: shipper.company,
          created: now,
        },
        {
          awb: '02012345675',
          code: 'AWD',
          event_time: new Date('2032-01-02T12:00:00Z'),
          location: 'JFK',
          flight_number: null,
          company_id: shipper.company,
          created: now,
        },
      ])
      .execute();
    await openFreight(app, shipper, { awb: '020-12345675', price: '999.99', refs: { customer: 'TOPSECRET' } });
  });

  test('no token needed; events oldest first with code, time, location, flight_number only', async () => {
    const res = await app.get('/freights/track/020-12345675.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const t = res.body.data.tracking;
    assert.equal(t.awb, '020-12345675');
    assert.equal(t.valid, true);
    assert.deepEqual(
      t.events.map((e: { code: string }) => e.code),
      ['RCF', 'AWD', 'DLV'],
    );
    assert.deepEqual(Object.keys(t.events[0]).sort(), ['code', 'flight_number', 'location', 'time']);
    assert.equal(t.events[0].time, '2032-01-02 10:00:00');
    const text = JSON.stringify(res.body);
    for (const leak of ['999.99', 'TOPSECRET', shipper.companyName, 'W1', 'Frankfurt']) assert.ok(!text.includes(leak), leak);
  });

  test('11 digits work; the check digit; fullstring=0 ignores separators; other types are an error', async () => {
    assert.equal((await app.get('/freights/track/02012345675.json')).body.data.tracking.events.length, 3);
    const bad = (await app.get('/freights/track/020-12345676.json')).body.data.tracking;
    assert.equal(bad.valid, false);
    assert.deepEqual(bad.events, []);
    assert.equal((await app.get('/freights/track/020%201234%205675.json')).body.data.tracking.valid, false);
    assert.equal((await app.get('/freights/track/020%201234%205675.json?fullstring=0')).body.data.tracking.events.length, 3);
    const junk = await app.get(`/freights/track/${encodeURIComponent("'; drop table freights; --")}.json`);
    assert.equal(junk.status, 200);
    assert.equal(junk.body.data.tracking.valid, false);
    assert.equal((await app.get('/freights/track/020-12345675.json?type=ref')).body.status, 'error');
    assert.equal((await app.get(`/freights/track/${'9'.repeat(90)}.json`)).status, 200);
    // Beyond Fastify's path parameter limit the framework answers 414: still no 500.
    assert.ok((await app.get(`/freights/track/${'9'.repeat(5000)}.json`)).status < 500);
  });
});

describe('never a 500', () => {
  test('garbage in every field of every freight endpoint', async () => {
    const id = await openFreight(app, shipper);
    const garbage: unknown[] = [
      null,
      '',
      'x\u0000y',
      'x'.repeat(3000),
      -1,
      1e308,
      2147483648,
      [1, [2]],
      { a: { b: 1 } },
      true,
      '2031-02-30 25:61',
      '+999999 weeks',
      '0000-01-01 10:00',
      '9999-12-31 23:59',
    ];
    const paths = [
      '/freights/add.json',
      `/freights/edit/${id}.json`,
      `/freights/view/${id}.json`,
      `/freights/revoke/${id}.json`,
      `/freights/delivery/${id}.json`,
      `/freights/archive/${id}.json`,
      '/templates/add.json',
      '/freights/create-from-template.json',
      '/flights/add.json',
      `/freights/request/direct/${carrier.company}.json`,
      `/freights/request/flight/1.json`,
    ];
    const keys = [
      'from',
      'to',
      'weight',
      'pieces',
      'refs',
      'whitelist',
      'visibility',
      'deadline',
      'eta_range',
      'etd',
      'name',
      'template_id',
      'flight_number',
      'delivery_status',
      'action',
      'winner_direct',
      'price',
      'class',
    ];
    for (const path of paths) {
      for (const value of garbage) {
        const json = Object.fromEntries(keys.map((k) => [k, value]));
        if (path.includes('/view/')) json.action = 'publish';
        const res = await post(shipper, path, json);
        assert.ok(res.status < 500, `${path} ${JSON.stringify(value)?.slice(0, 40)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    for (const q of ['?page=-1&limit=1e9', '?sort[]=x&direction[a]=1', '?page=99999999999999999999']) {
      const res = await app.get(`/freights/enlist/8.json${q}`, { token: carrier.token });
      assert.equal(res.status, 200, q);
    }
  });
});
