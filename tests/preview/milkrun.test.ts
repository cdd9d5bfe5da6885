import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { pushStatus, statusCsv } from './fixtures.ts';

let app: TestApp;
let forwarder: Actor;
let trucker: Actor;
let outsider: Actor;

before(async () => {
  app = await startTestApp();
  forwarder = await app.actor('Forwarder');
  trucker = await app.actor('Trucker');
  outsider = await app.actor('Outsider');
});
after(() => app.close());

const list = async (actor: Actor, id: number | string) => {
  const res = await app.get(`/milkrun/import/short/${id}.json`, { token: actor.token });
  assert.equal(res.status, 200, res.text);
  return res;
};
const awbsIn = async (actor: Actor, id: number) =>
  ((await list(actor, id)).body.data.shipments as Array<{ awb: string }>).map((s) => s.awb).sort();
const move = (actor: Actor, action: string, id: number, json: Record<string, unknown> = {}) =>
  app.post(`/milkrun/${action}/${id}.json`, { token: actor.token, json });
async function shipmentId(awb: string, company = forwarder.company): Promise<number> {
  const row = await app.services.db
    .selectFrom('milkrun_shipments')
    .select('id')
    .where('awb', '=', awb)
    .where('company_id', '=', company)
    .executeTakeFirstOrThrow();
  return row.id;
}
async function push(csv: string) {
  const res = await pushStatus(app, forwarder, csv);
  assert.equal(res.status, 200, res.text);
}

describe('status events build import shipments', () => {
  test('the first event creates the shipment; RCF, NFD, AWD and the cargo data fill it', async () => {
    await push(
      statusCsv('176-10000001,NFD,2026-03-02 09:00,FRA,,,,,', '176-10000001,RCF,2026-03-02 06:10,FRA,EK9901,4,1250.25,PER COL,A-12'),
    );
    const [s] = (await list(forwarder, 70)).body.data.shipments.filter((x: { awb: string }) => x.awb === '176-10000001');
    assert.equal(typeof s.id, 'number');
    assert.deepEqual(
      { ...s, id: 0 },
      {
        id: 0,
        awb: '176-10000001',
        weight: 1251,
        awd_received: null,
        nfd_received: '2026-03-02 09:00:00',
        special_handling_codes: 'PER COL',
        warehouse_location: 'A-12',
        flight_number: 'EK9901',
        ata: '2026-03-02 06:10:00',
        state: 'waiting',
        pieces: 4,
        location: 'FRA',
        carrier: null,
        delivered: null,
      },
    );
  });

  test('later files update it: the first NFD and AWD stay, the latest RCF and cargo data win', async () => {
    await push(
      statusCsv(
        '176-10000001,NFD,2026-03-02 11:00,FRA,,,,,',
        '176-10000001,AWD,2026-03-02 12:00,FRA,,,,,B-07',
        '176-10000001,NFD,2026-03-02 08:30,FRA,,,,,',
      ),
    );
    await push(statusCsv('176-10000001,RCF,2026-03-02 07:00,FRA,EK9903,5,1300,,', '176-10000001,AWD,2026-03-02 13:00,FRA,,,,,'));
    const [s] = (await list(forwarder, 70)).body.data.shipments.filter((x: { awb: string }) => x.awb === '176-10000001');
    assert.equal(s.nfd_received, '2026-03-02 08:30:00');
    assert.equal(s.awd_received, '2026-03-02 12:00:00');
    assert.equal(s.ata, '2026-03-02 07:00:00');
    assert.equal(s.flight_number, 'EK9903');
    assert.equal(s.pieces, 5);
    assert.equal(s.weight, 1300);
    assert.equal(s.warehouse_location, 'B-07');
    const rows = await app.services.db.selectFrom('milkrun_shipments').select('id').where('awb', '=', '176-10000001').execute();
    assert.equal(rows.length, 1);
  });

  test('DLV marks a shipment delivered; its events also feed tracking (awb_events)', async () => {
    await push(statusCsv('176-10000002,RCF,2026-03-02 06:00,FRA,LH1,1,10,,', '176-10000002,DLV,2026-03-03 15:00,FRA,,,,,'));
    const delivered = (await list(forwarder, 84)).body.data.shipments.find((x: { awb: string }) => x.awb === '176-10000002');
    assert.equal(delivered.state, 'delivered');
    assert.equal(delivered.delivered, '2026-03-03 15:00:00');
    const events = await app.services.db
      .selectFrom('awb_events')
      .select('code')
      .where('awb', '=', '176-10000002')
      .orderBy('event_time')
      .execute();
    assert.deepEqual(
      events.map((e) => e.code),
      ['RCF', 'DLV'],
    );
  });

  test("shipments of another company are not in the caller's lists", async () => {
    for (const id of [70, 71, 72, 73, 74, 75, 78, 80, 81, 82, 83, 84])
      assert.deepEqual((await list(outsider, id)).body.data.shipments, [], String(id));
  });

  test('an unknown list id is status error', async () => {
    for (const id of ['79', '1', 'abc']) {
      const res = await app.get(`/milkrun/import/short/${id}.json`, { token: forwarder.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error');
      assert.match(res.body.message, /not a milk-run list/);
    }
  });

  test('no token: 401', async () => {
    assert.equal((await app.get('/milkrun/import/short/70.json')).status, 401);
    assert.equal((await app.post('/milkrun/select/1.json')).status, 401);
  });
});

describe('moving shipments through the lists', () => {
  const A = '176-20000001';
  const B = '176-20000002';
  const C = '176-20000003';
  let a: number;
  let b: number;
  let c: number;

  before(async () => {
    await push(
      statusCsv(
        `${A},RCF,2026-03-05 06:00,FRA,LH1,1,100,,`,
        `${B},RCF,2026-03-05 07:00,FRA,LH2,1,200,,`,
        `${C},RCF,2026-03-05 08:00,FRA,LH3,1,300,,`,
      ),
    );
    [a, b, c] = [await shipmentId(A), await shipmentId(B), await shipmentId(C)];
  });

  test('new shipments wait for selection: handling 70 and forwarding 80', async () => {
    for (const id of [70, 80]) {
      const awbs = await awbsIn(forwarder, id);
      for (const awb of [A, B, C]) assert.ok(awbs.includes(awb), `${awb} in ${id}`);
    }
  });

  test('select, deselect, follow-up: 71/81, 72/82, 78/80', async () => {
    const sel = await move(forwarder, 'select', a);
    assert.equal(sel.body.status, 'success', sel.text);
    assert.equal(sel.body.data.shipment.state, 'selected');
    assert.equal((await move(forwarder, 'deselect', b)).body.data.shipment.state, 'deselected');
    assert.equal((await move(forwarder, 'follow-up', c)).body.data.shipment.state, 'follow_up');
    assert.deepEqual(await awbsIn(forwarder, 71), [A]);
    assert.deepEqual(await awbsIn(forwarder, 81), [A]);
    assert.deepEqual(await awbsIn(forwarder, 72), [B]);
    assert.deepEqual(await awbsIn(forwarder, 82), [B]);
    assert.deepEqual(await awbsIn(forwarder, 78), [C]);
    assert.ok((await awbsIn(forwarder, 80)).includes(C));
    assert.ok(!(await awbsIn(forwarder, 70)).includes(C));
  });

  test('selection decisions are revisable before dispatch', async () => {
    assert.equal((await move(forwarder, 'select', c)).body.data.shipment.state, 'selected');
    assert.equal((await move(forwarder, 'follow-up', c)).body.data.shipment.state, 'follow_up');
    assert.equal((await move(forwarder, 'select', b)).body.data.shipment.state, 'selected');
    assert.equal((await move(forwarder, 'deselect', b)).body.data.shipment.state, 'deselected');
  });

  test('refused moves are status error and change nothing', async () => {
    for (const [action, id] of [
      ['select', a],
      ['deliver', a],
      ['dispatch', b],
      ['deselect', b],
      ['follow-up', c],
      ['deliver', c],
    ] as const) {
      const res = await move(forwarder, action, id);
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error', `${action} ${id}`);
      assert.match(res.body.message, new RegExp(`${action}: not allowed`));
    }
    assert.deepEqual(await awbsIn(forwarder, 71), [A]);
  });

  test('dispatch needs an existing carrier company', async () => {
    const none = await move(forwarder, 'dispatch', a);
    assert.equal(none.body.status, 'error');
    assert.match(none.body.message, /carrier/);
    const unknown = await move(forwarder, 'dispatch', a, { carrier: 999999 });
    assert.equal(unknown.body.status, 'error');
    assert.match(unknown.body.message, /no company 999999/);
    assert.deepEqual(await awbsIn(forwarder, 71), [A]);
  });

  test("another company's shipment is a 404 for every move, also for a carrier-to-be", async () => {
    for (const action of ['select', 'deselect', 'follow-up', 'dispatch', 'deliver']) {
      for (const actor of [outsider, trucker]) {
        const res = await move(actor, action, a, { carrier: trucker.company });
        assert.equal(res.status, 404, `${action}`);
        assert.deepEqual(res.body.data, []);
      }
    }
    assert.equal((await move(forwarder, 'select', 99999999)).status, 404);
    assert.equal((await move(forwarder, 'select', 'x' as unknown as number)).status, 404);
  });

  test('dispatch to a trucker: forwarding 83 in delivery, trucking 73 upcoming', async () => {
    const res = await move(forwarder, 'dispatch', a, { carrier: trucker.company });
    assert.equal(res.body.status, 'success', res.text);
    assert.equal(res.body.data.shipment.state, 'dispatched');
    assert.equal(res.body.data.shipment.carrier, trucker.company);
    assert.deepEqual(await awbsIn(forwarder, 83), [A]);
    assert.deepEqual(await awbsIn(trucker, 73), [A]);
    assert.deepEqual(await awbsIn(trucker, 74), []);
    // the trucker sees only its trucking lists, never the forwarder's
    for (const id of [70, 71, 72, 78, 80, 81, 82, 83, 84]) assert.deepEqual(await awbsIn(trucker, id), [], String(id));
  });

  test('the trucker may not select or re-dispatch to someone else; the outsider still gets 404', async () => {
    const sel = await move(trucker, 'select', a);
    assert.equal(sel.body.status, 'error');
    assert.equal((await move(outsider, 'deliver', a)).status, 404);
  });

  test('the trucker dispatches its truck: trucking 74 running, still 83 for the forwarder', async () => {
    const res = await move(trucker, 'dispatch', a);
    assert.equal(res.body.data.shipment.state, 'running');
    assert.deepEqual(await awbsIn(trucker, 74), [A]);
    assert.deepEqual(await awbsIn(trucker, 73), []);
    assert.deepEqual(await awbsIn(forwarder, 83), [A]);
    assert.equal((await move(trucker, 'dispatch', a)).body.status, 'error');
  });

  test('deliver: trucking 75, forwarding 84; no move after delivery', async () => {
    app.setNow(new Date('2026-03-06T10:00:00Z'));
    const res = await move(trucker, 'deliver', a);
    app.setNow(null);
    assert.equal(res.body.data.shipment.state, 'delivered');
    assert.equal(res.body.data.shipment.delivered, '2026-03-06 10:00:00');
    assert.deepEqual(await awbsIn(trucker, 75), [A]);
    assert.ok((await awbsIn(forwarder, 84)).includes(A));
    for (const action of ['select', 'deselect', 'follow-up', 'dispatch', 'deliver']) {
      assert.equal((await move(forwarder, action, a, { carrier: trucker.company })).body.status, 'error', action);
    }
  });

  test('the forwarder may confirm delivery too; a DLV event delivers from any state', async () => {
    await move(forwarder, 'select', c);
    await move(forwarder, 'dispatch', c, { carrier: trucker.company });
    assert.equal((await move(forwarder, 'deliver', c)).body.data.shipment.state, 'delivered');
    await push(statusCsv(`${B},DLV,2026-03-07 09:00,FRA,,,,,`));
    assert.ok((await awbsIn(forwarder, 84)).includes(B));
    assert.ok(!(await awbsIn(forwarder, 82)).includes(B));
  });

  test('the routes list shows milk-run lists as Shipments', async () => {
    const res = await app.get('/routes/enlist/75.json', { token: trucker.token });
    assert.equal(res.body.status, 'success');
    const ids = res.body.data.routes.map((r: { id: number }) => r.id).sort();
    assert.deepEqual(ids, [a, c].sort());
    assert.deepEqual(
      res.body.data.routes.find((r: { id: number }) => r.id === a),
      { id: a, from: 'FRA', to: null, weight: 100, capacity: null },
    );
  });

  test('concurrent identical moves on one shipment: exactly one succeeds', async () => {
    await push(statusCsv('176-20000009,RCF,2026-03-05 06:00,FRA,LH1,1,100,,'));
    const id = await shipmentId('176-20000009');
    const results = await Promise.all([move(forwarder, 'select', id), move(forwarder, 'select', id), move(forwarder, 'select', id)]);
    // the row lock serialises them: the first selects, the others find it selected already
    assert.deepEqual(results.map((r) => r.body.status).sort(), ['error', 'error', 'success']);
  });
});
