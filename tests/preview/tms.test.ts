import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { insertFreight, wonOrder } from './fixtures.ts';

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let rival: Actor;
let w1: number;
let w2: number;
let w3: number;
let rivalsOrder: number;
let openFreight: number;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  rival = await app.actor('Rival');
  w1 = await wonOrder(app, shipper, carrier, { from: 'FRA', to: '60311', weight: '800.2' });
  w2 = await wonOrder(app, shipper, carrier, { from: 'FRA', to: '65451', weight: '1200' });
  w3 = await wonOrder(app, shipper, carrier, { from: 'HHN', to: '55122', weight: '300' });
  rivalsOrder = await wonOrder(app, shipper, rival);
  openFreight = await insertFreight(app, shipper, { status: 'open' });
});
after(() => app.close());

const addTour = (actor: Actor, json: Record<string, unknown>) => app.post('/tours/add.json', { token: actor.token, json });
const editTour = (actor: Actor, id: number, json: Record<string, unknown>) =>
  app.post(`/tours/edit/${id}.json`, { token: actor.token, json });
const tmsIds = async (actor: Actor, filter: number, path = 'freights') => {
  const res = await app.get(`/${path}/enlist/${filter}.json`, { token: actor.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return (res.body.data.routes as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);
};

describe('tours', () => {
  let tour: number;

  test('won orders on no tour are list 51; nothing planned yet', async () => {
    assert.deepEqual(
      await tmsIds(carrier, 51),
      [w1, w2, w3].sort((a, b) => a - b),
    );
    assert.deepEqual(await tmsIds(carrier, 52), []);
    assert.deepEqual(await tmsIds(carrier, 53), []);
    assert.deepEqual(await tmsIds(rival, 51), [rivalsOrder]);
    assert.deepEqual(await tmsIds(shipper, 51), []);
  });

  test('POST /tours/add plans won orders: data.tour with its Shipments in order', async () => {
    const res = await addTour(carrier, { name: 'Monday FRA', date: '2026-03-09', route_ids: [w2, w1] });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success', res.text);
    const t = res.body.data.tour;
    tour = t.id;
    assert.equal(t.name, 'Monday FRA');
    assert.equal(t.date, '2026-03-09');
    assert.deepEqual(t.route_ids, [w2, w1]);
    assert.deepEqual(t.routes, [
      { id: w2, from: 'FRA', to: '65451', weight: 1200, capacity: null },
      { id: w1, from: 'FRA', to: '60311', weight: 801, capacity: null },
    ]);
    assert.match(t.created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test('lists 51, 52, 53 follow the plan (on /freights/enlist and /routes/enlist)', async () => {
    for (const path of ['freights', 'routes']) {
      assert.deepEqual(await tmsIds(carrier, 51, path), [w3]);
      assert.deepEqual(
        await tmsIds(carrier, 52, path),
        [w1, w2].sort((a, b) => a - b),
      );
      assert.deepEqual(await tmsIds(carrier, 53, path), [tour]);
    }
    const planned = (await app.get('/freights/enlist/52.json', { token: carrier.token })).body.data.routes;
    assert.ok(planned.every((r: { tour_id: number }) => r.tour_id === tour));
    const tours = (await app.get('/freights/enlist/53.json', { token: carrier.token })).body.data.routes;
    assert.equal(tours[0].name, 'Monday FRA');
    assert.equal(tours[0].routes.length, 2);
  });

  test('other companies see none of it', async () => {
    for (const filter of [52, 53]) assert.deepEqual(await tmsIds(rival, filter), []);
    assert.deepEqual(await tmsIds(shipper, 53), []);
    assert.equal((await app.get(`/tours/view/${tour}.json`, { token: rival.token })).status, 404);
    assert.equal((await editTour(rival, tour, { name: 'mine' })).status, 404);
    assert.equal((await app.post(`/tours/delete/${tour}.json`, { token: rival.token })).status, 404);
  });

  test("only won orders of the caller's company: others are refused, naming the ids; nothing stored", async () => {
    const before = await tmsIds(carrier, 53);
    for (const ids of [[w3, rivalsOrder], [openFreight], [99999999], [w3, openFreight, rivalsOrder]]) {
      const res = await addTour(carrier, { name: 'Bad', route_ids: ids });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error');
      for (const id of ids.filter((i) => i !== w3)) assert.match(res.body.message, new RegExp(`\\b${id}\\b`));
      assert.doesNotMatch(res.body.message, new RegExp(`\\b${w3}\\b`));
    }
    assert.deepEqual(await tmsIds(carrier, 53), before);
    assert.deepEqual(await tmsIds(carrier, 51), [w3]);
  });

  test('a freight already on a tour cannot go on another', async () => {
    const res = await addTour(carrier, { name: 'Second', route_ids: [w3, w1] });
    assert.equal(res.body.status, 'error');
    assert.match(res.body.message, new RegExp(`${w1} already on another tour`));
    assert.deepEqual(await tmsIds(carrier, 51), [w3]);
  });

  test('bad fields are status error: name, date, route_ids', async () => {
    for (const [json, pattern] of [
      [{ route_ids: [w3] }, /name/],
      [{ name: '  ' }, /name/],
      [{ name: 'x', date: '2026-02-30' }, /date/],
      [{ name: 'x', date: 'tomorrow' }, /date/],
      [{ name: 'x', route_ids: ['abc'] }, /route_ids: "abc"/],
      [{ name: 'x', route_ids: { a: -1 } }, /route_ids/],
    ] as const) {
      const res = await addTour(carrier, json);
      assert.equal(res.body.status, 'error', JSON.stringify(json));
      assert.match(res.body.message, pattern);
    }
  });

  test('route_ids as a comma list (forms) and an empty tour work', async () => {
    const empty = await addTour(carrier, { name: 'Empty' });
    assert.equal(empty.body.status, 'success');
    assert.deepEqual(empty.body.data.tour.routes, []);
    assert.equal(empty.body.data.tour.date, null);
    const form = await app.post(`/tours/edit/${empty.body.data.tour.id}.json`, { token: carrier.token, form: { route_ids: `${w3}` } });
    assert.deepEqual(form.body.data.tour.route_ids, [w3]);
    const del = await app.post(`/tours/delete/${empty.body.data.tour.id}.json`, { token: carrier.token });
    assert.equal(del.body.status, 'success');
    assert.deepEqual(await tmsIds(carrier, 51), [w3]);
  });

  test('POST /tours/edit: route_ids replaces the list; name and date change when sent', async () => {
    const res = await editTour(carrier, tour, { route_ids: [w1, w3], date: '2026-03-10' });
    assert.equal(res.body.status, 'success', res.text);
    assert.deepEqual(res.body.data.tour.route_ids, [w1, w3]);
    assert.equal(res.body.data.tour.name, 'Monday FRA');
    assert.equal(res.body.data.tour.date, '2026-03-10');
    assert.deepEqual(await tmsIds(carrier, 51), [w2]);
    const renamed = await editTour(carrier, tour, { name: 'Tuesday FRA' });
    assert.deepEqual(renamed.body.data.tour.route_ids, [w1, w3]);
    const refused = await editTour(carrier, tour, { route_ids: [w1, rivalsOrder] });
    assert.equal(refused.body.status, 'error');
    assert.deepEqual((await app.get(`/tours/view/${tour}.json`, { token: carrier.token })).body.data.tour.route_ids, [w1, w3]);
  });

  test('a delivered (closed) order may stay on its tour but not be newly planned', async () => {
    await app.services.db.updateTable('freights').set({ status: 'closed' }).where('id', '=', w1).execute();
    const keep = await editTour(carrier, tour, { route_ids: [w1] });
    assert.equal(keep.body.status, 'success', keep.text);
    const again = await addTour(carrier, { name: 'Later', route_ids: [w1] });
    assert.equal(again.body.status, 'error');
  });

  test('two tours planning the same order at once: exactly one gets it', async () => {
    const order = await wonOrder(app, shipper, carrier);
    const results = await Promise.all([1, 2, 3].map((n) => addTour(carrier, { name: `Race ${n}`, route_ids: [order] })));
    assert.equal(results.filter((r) => r.body.status === 'success').length, 1, results.map((r) => r.text).join('\n'));
    const rows = await app.services.db.selectFrom('tour_freights').selectAll().where('freight_id', '=', order).execute();
    assert.equal(rows.length, 1);
  });

  test('missing or foreign tour ids are 404; no token 401', async () => {
    assert.equal((await app.get('/tours/view/99999999.json', { token: carrier.token })).status, 404);
    assert.equal((await editTour(carrier, 99999999, { name: 'x' })).status, 404);
    assert.equal((await app.post('/tours/add.json', { json: { name: 'x' } })).status, 401);
  });
});
