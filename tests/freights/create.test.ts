import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { addFreight, browser, force, insertBid, openFreight, publish, view } from './helpers.ts';

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier', { language: 'deu' });
  outsider = await app.actor('Outsider');
});
after(() => app.close());

const add = (json: unknown, query = '', token = shipper.token) => app.post(`/freights/add.json${query}`, { token, json });

describe('create', () => {
  test('flat freight in data, server-set company/user/target, draft, prefixes stripped, airport resolved', async () => {
    const res = await add({
      class: 'air',
      from: 'airport:FRA',
      to: 'MUC',
      weight: '1250.5',
      company: 999,
      user: 999,
      target: 7,
      status: 'taken',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const f = res.body.data;
    assert.equal(typeof f.id, 'number');
    assert.equal(f.route, undefined);
    assert.equal(f.company, shipper.company);
    assert.equal(f.user, shipper.user);
    assert.equal(f.target, 2);
    assert.equal(f.status, 'draft');
    assert.equal(f.type, 'AHR');
    assert.equal(f.from, 'FRA');
    assert.equal(f.from_country, 'DE');
    assert.match(f.from_addr, /Frankfurt/);
    assert.equal(typeof f.from_latitude, 'number');
    assert.ok(Math.abs(f.from_latitude - 50.03) < 0.1);
    assert.equal(f.to, 'MUC');
    assert.equal(f.to_country, 'DE');
    assert.equal(f.weight, 1250.5);
    assert.equal(f.f_from, 'FRA (DE)');
    const fields = res.body.warnings.map((w: { field: string }) => w.field).sort();
    assert.deepEqual(fields, ['company', 'status', 'target', 'user']);
  });

  test('class rfs gives target 3 (the default); query type is taken', async () => {
    const res = await add({ from: 'city:60311', to: 'FRA' }, '?type=DTR');
    assert.equal(res.body.data.class, 'rfs');
    assert.equal(res.body.data.target, 3);
    assert.equal(res.body.data.type, 'DTR');
    assert.equal(res.body.data.from, '60311');
    assert.equal(res.body.data.from_country, null);
    assert.equal(res.body.data.from_addr, null);
  });

  test('city:CC-postal keeps the postal code and takes the country letters', async () => {
    const res = await add({ from: 'city:DE-60311', to: 'airport:AMS' });
    assert.equal(res.body.data.from, '60311');
    assert.equal(res.body.data.from_country, 'DE');
    assert.equal(res.body.data.to_country, 'NL');
  });

  test('once an address is sent, no airport resolution happens for that side', async () => {
    const res = await add({ from: 'FRA', from_addr: 'Gate 5, Cargo City Süd', to: 'airport:MUC' });
    const f = res.body.data;
    assert.equal(f.from_addr, 'Gate 5, Cargo City Süd');
    assert.equal(f.from_country, null);
    assert.equal(f.from_latitude, null);
    assert.equal(f.to_country, 'DE');
  });

  test('weight rule: actual and volume together, the larger applies; one alone has no effect', async () => {
    let f = (await add({ weight_actual: '800', weight_volume: 950.25 })).body.data;
    assert.equal(f.weight, 950.25);
    assert.equal(f.weight_actual, 800);
    assert.equal(f.weight_volume, 950.25);
    const res = await add({ weight_actual: 800 });
    f = res.body.data;
    assert.equal(f.weight, null);
    assert.equal(f.weight_actual, null);
    assert.ok(res.body.warnings.some((w: { field: string }) => w.field === 'weight_actual'));
    f = (await add({ weight: 10, weight_actual: 800, weight_volume: 900 })).body.data;
    assert.equal(f.weight, 10);
  });

  test('time windows: " to " fills both fields, any other separator leaves both empty', async () => {
    let f = (await add({ eta_range: '2031-03-01 08:00 to 2031-03-02 17:30', etd_range: '2031-02-27 06:00:00 to 2031-02-28 07:00' })).body
      .data;
    assert.equal(f.eta, '2031-03-01 08:00:00');
    assert.equal(f.eta_end, '2031-03-02 17:30:00');
    assert.equal(f.etd, '2031-02-27 06:00:00');
    assert.equal(f.etd_end, '2031-02-28 07:00:00');
    assert.equal(f.f_eta, '2031-03-01 08:00');
    f = (await add({ eta_range: '2031-03-01 08:00 - 2031-03-02 17:30', eta: '2031-01-01 10:00' })).body.data;
    assert.equal(f.eta, null);
    assert.equal(f.eta_end, null);
    assert.equal(f.f_eta, 'not defined');
  });

  test('a date without time is dropped (null); HH:MM and HH:MM:SS are accepted', async () => {
    const res = await add({ eta: '2031-03-01', etd: '2031-02-01 09:15', deadline: '2031-01-01 12:00:30' });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.eta, null);
    assert.equal(res.body.data.etd, '2031-02-01 09:15:00');
    assert.equal(res.body.data.deadline, '2031-01-01 12:00:30');
  });

  test('refs are stored unchanged and returned as sent', async () => {
    const refs = { customer: 'PO-4711', incoterm: 'fca', nested: { b: 2, a: [1, 'x', null] }, z: true, n: 1.5 };
    const f = (await add({ from: 'FRA', to: 'city:60311', refs })).body.data;
    assert.deepEqual(f.refs, refs);
    assert.deepEqual(Object.keys(f.refs), Object.keys(refs));
    assert.equal(f.display_id, 'PO-4711');
    assert.match(f.caption, /^FRA \(DE\) to .* - \(PO-4711\)$/);
  });

  test('form body with bracket keys (pieces[0][weight], refs[customer])', async () => {
    const form =
      'from=airport%3AFRA&to=city%3A60311&weight=12.5&pieces[0][pieces]=3&pieces[0][weight]=4.25&pieces[0][depth]=120&pieces[1][pieces]=1&pieces[1][stackable]=1&refs[customer]=F-1&secured=1';
    const res = await app.post('/freights/add.json', { token: shipper.token, form });
    assert.equal(res.body.status, 'success');
    const f = res.body.data;
    assert.equal(f.weight, 12.5);
    assert.equal(f.secured, 1);
    assert.deepEqual(f.refs, { customer: 'F-1' });
    assert.equal(f._route_pieces.length, 2);
    assert.deepEqual(f._route_pieces[0], {
      pieces: 3,
      depth: 120,
      width: null,
      height: null,
      weight: 4.25,
      stackable: null,
      weight_per_piece: null,
      refs: null,
    });
    assert.equal(f._route_pieces[1].stackable, 1);
  });

  test('query parameters work as body fields', async () => {
    const res = await app.post('/freights/add.json?from=AMS&to=city:1000&weight=5&category=ftl', { token: shipper.token });
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.data.from, 'AMS');
    assert.equal(res.body.data.category, 'ftl');
  });

  test('winner_direct: open, visibility -2, whitelist [id], deadline set', async () => {
    const f = (await add({ winner_direct: carrier.company })).body.data;
    assert.equal(f.status, 'open');
    assert.equal(f.visibility, -2);
    assert.deepEqual(f.whitelist, [carrier.company]);
    assert.ok(f.deadline);
    assert.equal((await view(app, carrier, f.id)).status, 200);
    assert.equal((await view(app, outsider, f.id)).status, 404);
    const bad = await add({ winner_direct: 987654 });
    assert.equal(bad.body.data.status, 'draft');
    assert.ok(bad.body.warnings.some((w: { field: string }) => w.field === 'winner_direct'));
  });

  test('bad input per field: ignored with warnings, never a 500', async () => {
    const res = await add({
      class: 'boat',
      type: 'XYZ',
      weight: 'heavy',
      price: '12.345',
      secured: 'maybe',
      visibility: 'all',
      whitelist: ['a'],
      from_latitude: 123,
      from_country: 'DEU',
      eta: 'tomorrow',
      refs: 'text',
      pieces: 'many',
      category: 'x'.repeat(5000),
      from: { a: 1 },
      deadline: '+3 fortnights',
      unknown_field: 1,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const f = res.body.data;
    assert.equal(f.class, 'rfs');
    assert.equal(f.type, 'AHR');
    assert.equal(f.weight, null);
    assert.equal(f.price, null);
    assert.deepEqual(f.refs, {});
    const warned = new Set(res.body.warnings.map((w: { field: string }) => w.field));
    for (const k of [
      'class',
      'type',
      'weight',
      'price',
      'secured',
      'visibility',
      'whitelist',
      'from_latitude',
      'from_country',
      'eta',
      'refs',
      'pieces',
      'category',
      'from',
      'deadline',
      'unknown_field',
    ]) {
      assert.ok(warned.has(k), k);
    }
    for (const w of res.body.warnings) assert.equal(typeof w.reason, 'string');
  });

  test('odd bodies: empty, array, nulls, huge numbers, many pieces', async () => {
    for (const json of [
      {},
      [],
      { weight: 1e300 },
      { weight: '999999999999999.5' },
      { pieces: [null, 1, { pieces: -1, weight: 'x', foo: 2 }] },
      { whitelist: null, refs: null, visibility: null, class: null, eta: null },
      { pieces: Array.from({ length: 600 }, () => ({ pieces: 1 })) },
      { category: 'a\u0000b', from: 'x\u0000', dangerous_goods: '\u0000', refs: { a: 'x\u0000' }, pieces: [{ refs: { awb: '\u0000' } }] },
      { whitelist: Array.from({ length: 2000 }, (_, i) => i + 1) },
      { whitelist: '3, 4,5' },
      { awb: ['a'], direction: { x: 1 }, eta_range: ['a to b'] },
    ]) {
      const res = await add(json);
      assert.equal(res.status, 200, JSON.stringify(json).slice(0, 100));
      assert.equal(res.body.status, 'success');
    }
    const bad = await app.post('/freights/add.json', {
      token: shipper.token,
      headers: { 'content-type': 'application/json' },
      form: '{"from": ',
    });
    assert.equal(bad.status, 400);
  });

  test('price and weights stay exact', async () => {
    const f = (await add({ price: '1234567.89', weight: '0.001', pieces: [{ weight: '99999999999.999', depth: '0.01' }] })).body.data;
    assert.equal(f.price, 1234567.89);
    assert.equal(f.weight, 0.001);
    const row = await app.services.db.selectFrom('freights').select(['price', 'weight']).where('id', '=', f.id).executeTakeFirstOrThrow();
    assert.equal(row.price, '1234567.89');
    assert.equal(row.weight, '0.001');
  });

  test('without token: 401; without .json: HTML', async () => {
    assert.equal((await app.post('/freights/add.json', { json: {} })).status, 401);
    const html = await app.get('/freights/view/1');
    assert.equal(html.status, 302);
  });

  test('pricing_search_id that is unknown or foreign is ignored with a warning', async () => {
    const res = await add({ weight: 5 }, '?pricing_search_id=424242');
    assert.equal(res.body.status, 'success');
    assert.ok(res.body.warnings.some((w: { field: string }) => w.field === 'pricing_search_id'));
    assert.equal(res.body.data.refs.pricing_search_id, undefined);
  });
});

describe('edit', () => {
  test('only sent fields change; data.route; pieces replace; weight rule; resolution only while addr empty', async () => {
    const id = await addFreight(app, shipper, {
      to: 'city:DE-10115',
      category: 'ftl',
      pieces: [{ pieces: 1 }, { pieces: 2 }],
      refs: { customer: 'A' },
    });
    const res = await app.post(`/freights/edit/${id}.json`, {
      token: shipper.token,
      json: { category: 'ltl', pieces: [{ pieces: 7, weight: 1 }], from: 'MUC', bogus: 1 },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    const f = res.body.data.route;
    assert.equal(f.id, id);
    assert.equal(f.category, 'ltl');
    assert.equal(f.to, '10115');
    assert.deepEqual(f.refs, { customer: 'A' });
    assert.equal(f.weight, 100);
    assert.deepEqual(
      f._route_pieces.map((p: { pieces: number }) => p.pieces),
      [7],
    );
    // The Frankfurt address is already there: MUC is not resolved (docs/reference.md#conventions item 7).
    assert.equal(f.from, 'MUC');
    assert.match(f.from_addr, /Frankfurt/);
    assert.deepEqual(res.body.warnings, [{ field: 'bogus', reason: 'unknown field' }]);
    const cleared = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { from_addr: '', from: 'airport:MUC' } });
    assert.match(cleared.body.data.route.from_addr, /Munich|München/);
  });

  test('a non-owner gets 404; non-numeric or missing ids 404; edit after revoke is an error', async () => {
    const id = await addFreight(app, shipper);
    for (const who of [carrier, outsider])
      assert.equal((await app.post(`/freights/edit/${id}.json`, { token: who.token, json: { category: 'x' } })).status, 404);
    for (const path of ['abc', '0', '-1', '99999999', '1.5', '1e3']) {
      const res = await app.post(`/freights/edit/${path}.json`, { token: shipper.token, json: {} });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body.data, []);
    }
    await app.post(`/freights/revoke/${id}.json`, { token: shipper.token });
    const res = await app.post(`/freights/edit/${id}.json`, { token: shipper.token, json: { category: 'x' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'error');
  });
});

describe('view and visibility', () => {
  test('draft: owner only; others 404 indistinguishable from a missing id', async () => {
    const id = await addFreight(app, shipper);
    assert.equal((await view(app, shipper, id)).status, 200);
    for (const who of [carrier, outsider]) {
      const res = await view(app, who, id);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body.data, []);
      assert.equal(res.body.status, 'error');
    }
    assert.equal((await view(app, shipper, 99999999)).status, 404);
    assert.equal((await view(app, shipper, 'x' as unknown as number)).status, 404);
  });

  test('open with visibility 0: everyone sees it; addresses and refs only for the owner', async () => {
    const id = await openFreight(app, shipper, { refs: { customer: 'SECRET' }, from_addr: 'Hauptstr. 1', to: 'AMS' });
    const own = (await view(app, shipper, id)).body.data.route;
    assert.equal(own.from_addr, 'Hauptstr. 1');
    assert.deepEqual(own.refs, { customer: 'SECRET' });
    const res = await view(app, outsider, id);
    assert.equal(res.status, 200);
    const f = res.body.data.route;
    assert.equal(f.from_addr, null);
    assert.equal(f.to_addr, null);
    assert.equal(f.refs, null);
    assert.equal(f.from, 'FRA');
    assert.equal(f.to, 'AMS');
    assert.equal(f.display_id, id);
    assert.ok(!JSON.stringify(f).includes('SECRET'));
    assert.ok(!JSON.stringify(f).includes('Hauptstr'));
    assert.equal(f.editable, false);
    assert.deepEqual(f._company, { id: shipper.company, name: shipper.companyName, verified: false });
  });

  test('visibility -1 and -2', async () => {
    const own = await openFreight(app, shipper, {}, { visibility: -1 });
    assert.equal((await view(app, carrier, own)).status, 404);
    const white = await openFreight(app, shipper, {}, { visibility: -2, whitelist: [carrier.company] });
    assert.equal((await view(app, carrier, white)).status, 200);
    assert.equal((await view(app, outsider, white)).status, 404);
    assert.deepEqual((await view(app, shipper, white)).body.data.route.whitelist, [carrier.company]);
  });

  test('_bids: all for the owner, own only for a bidder, absent outside open/pending/taken', async () => {
    const id = await openFreight(app, shipper);
    const b1 = await insertBid(app, id, carrier, 'open', '500.50');
    const b2 = await insertBid(app, id, outsider);
    const own = (await view(app, shipper, id)).body.data.route;
    assert.deepEqual(
      own._bids.map((b: { id: number }) => b.id),
      [b1, b2],
    );
    assert.equal(own._bids[0].amount, 500.5);
    const mine = (await view(app, carrier, id)).body.data.route;
    assert.deepEqual(
      mine._bids.map((b: { id: number }) => b.id),
      [b1],
    );
    await force(app, id, { status: 'taken', winner_id: carrier.company, transport_company_id: carrier.company, price: '500.50' });
    const taken = (await view(app, carrier, id)).body.data.route;
    assert.deepEqual(
      taken._bids.map((b: { id: number }) => b.id),
      [b1],
    );
    assert.equal(taken.price, 500.5);
    await force(app, id, { status: 'closed' });
    const closed = (await view(app, shipper, id)).body.data.route;
    assert.ok(!('_bids' in closed));
    const draft = (await view(app, shipper, await addFreight(app, shipper))).body.data.route;
    assert.ok(!('_bids' in draft));
  });

  test('after open: a former bidder sees it masked, the winner unmasked, others 404', async () => {
    const id = await openFreight(app, shipper, { refs: { customer: 'X' }, from_addr: 'Secret road', price: '99.00' });
    await insertBid(app, id, carrier);
    await insertBid(app, id, outsider);
    await force(app, id, { status: 'taken', winner_id: carrier.company, transport_company_id: carrier.company });
    const winner = (await view(app, carrier, id)).body.data.route;
    assert.equal(winner.from, 'FRA');
    assert.equal(winner.from_addr, 'Secret road');
    const masked = (await view(app, outsider, id)).body.data.route;
    for (const k of [
      'from',
      'to',
      'from_addr',
      'to_addr',
      'from_latitude',
      'from_longitude',
      'to_latitude',
      'to_longitude',
      'refs',
      'price',
      'winner',
      'whitelist',
    ]) {
      assert.equal(masked[k], null, k);
    }
    assert.equal(masked.f_from, 'xxx (XX)');
    assert.equal(masked.f_to, 'xxx (XX)');
    assert.ok(!JSON.stringify(masked).includes('Secret'));
    const stranger = await app.actor('Stranger');
    assert.equal((await view(app, stranger, id)).status, 404);
    // A revoked bid no longer counts.
    const third = await app.actor('Revoker');
    await insertBid(app, id, third, 'revoked');
    assert.equal((await view(app, third, id)).status, 404);
  });

  test('display placeholders follow the caller language', async () => {
    const id = await openFreight(app, shipper);
    const f = (await view(app, carrier, id)).body.data.route;
    assert.equal(f.f_eta, 'nicht definiert');
    assert.equal(f.f_etd_end, 'nicht definiert');
    assert.equal((await view(app, shipper, id)).body.data.route.f_eta, 'not defined');
  });

  test('timestamps in APP_TIMEZONE', async () => {
    const berlin = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    try {
      const who = await berlin.actor('Tz');
      const res = await berlin.post('/freights/add.json', { token: who.token, json: { etd: '2031-07-01 10:00' } });
      assert.equal(res.body.data.etd, '2031-07-01 10:00:00');
      const row = await berlin.services.db
        .selectFrom('freights')
        .select('etd')
        .where('id', '=', res.body.data.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.etd!.toISOString(), '2031-07-01T08:00:00.000Z');
    } finally {
      await berlin.close();
    }
  });
});

describe('publish', () => {
  test('302 on success with a default deadline of now + 24 h; refused publish is 302 too and changes nothing', async () => {
    const now = new Date('2031-05-01T10:00:00Z');
    app.setNow(now);
    try {
      const id = await addFreight(app, shipper);
      const res = await publish(app, shipper, id);
      assert.equal(res.headers.location, `/freights/view/${id}`);
      const f = (await view(app, shipper, id)).body.data.route;
      assert.equal(f.status, 'open');
      assert.equal(f.deadline, '2031-05-02 10:00:00');
      // Publishing again (not a draft): 302, nothing changes.
      await publish(app, shipper, id, { deadline: '+2 days' });
      assert.equal((await view(app, shipper, id)).body.data.route.deadline, '2031-05-02 10:00:00');
      // A visible freight of another company: 302, unchanged.
      await publish(app, carrier, id);
    } finally {
      app.setNow(null);
    }
  });

  test('relative and absolute deadlines; whitelist only with -2', async () => {
    app.setNow(new Date('2031-05-01T10:00:00Z'));
    try {
      const a = await addFreight(app, shipper);
      await publish(app, shipper, a, { deadline: '+48 hours', whitelist: [outsider.company] });
      const fa = (await view(app, shipper, a)).body.data.route;
      assert.equal(fa.deadline, '2031-05-03 10:00:00');
      assert.deepEqual(fa.whitelist, []);
      const b = await addFreight(app, shipper, { deadline: '2031-06-01 12:00' });
      await publish(app, shipper, b, { visibility: -2, whitelist: [carrier.company] });
      const fb = (await view(app, shipper, b)).body.data.route;
      assert.equal(fb.deadline, '2031-06-01 12:00:00');
      assert.equal(fb.visibility, -2);
      assert.deepEqual(fb.whitelist, [carrier.company]);
      const c = await addFreight(app, shipper);
      await publish(app, shipper, c, { deadline: 'someday' });
      assert.equal((await view(app, shipper, c)).body.data.route.status, 'draft');
    } finally {
      app.setNow(null);
    }
  });

  test('a draft of another company or a missing id: 404; POST without action reads like GET', async () => {
    const id = await addFreight(app, shipper);
    const res = await app.post(`/freights/view/${id}.json`, { token: carrier.token, json: { action: 'publish' } });
    assert.equal(res.status, 404);
    assert.equal((await app.post('/freights/view/999999.json', { token: shipper.token, json: { action: 'publish' } })).status, 404);
    const read = await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: {} });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.route.id, id);
  });

  test('publish also redirects in HTML (form post with a session is CSRF-checked)', async () => {
    const id = await addFreight(app, shipper);
    const session = await browser(app, shipper);
    const res = await app.post(`/freights/view/${id}`, {
      headers: { cookie: session.cookie },
      form: { action: 'publish', _csrf: session.csrf },
    });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `/freights/view/${id}`);
    assert.equal((await view(app, shipper, id)).body.data.route.status, 'open');
    const again = await app.post(`/freights/view/${id}`, {
      headers: { cookie: session.cookie },
      form: { action: 'publish', _csrf: session.csrf },
    });
    assert.equal(again.status, 302);
    assert.match(String(again.headers['set-cookie']), /fx_flash/);
    const revoke = await app.post(`/freights/revoke/${id}`, { headers: { cookie: session.cookie }, form: { _csrf: session.csrf } });
    assert.equal(revoke.status, 302);
    assert.equal(revoke.headers.location, `/freights/view/${id}`);
  });

  test('a bidder of an open freight is refused with 302', async () => {
    const id = await openFreight(app, shipper);
    await insertBid(app, id, carrier);
    await force(app, id, { status: 'draft' });
    // Draft again: the bidder cannot see it any more: 404.
    assert.equal((await app.post(`/freights/view/${id}.json`, { token: carrier.token, json: { action: 'publish' } })).status, 404);
  });
});
