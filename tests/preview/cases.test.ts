import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { insertBid, insertFreight } from './fixtures.ts';

let app: TestApp;
let ops: Actor;
let colleague: Actor;
let other: Actor;
let ownFreight: number;
let marketFreight: number;
let hiddenFreight: number;

before(async () => {
  app = await startTestApp();
  ops = await app.actor('Ops');
  colleague = await app.colleague(ops, 'Colleague');
  other = await app.actor('Other');
  ownFreight = await insertFreight(app, ops, { status: 'draft', from: 'FRA', to: '60311', weight: '99.5', refs: { capacity: 1.5 } });
  marketFreight = await insertFreight(app, other, { status: 'open', from: 'MUC', to: '80331' });
  hiddenFreight = await insertFreight(app, other, { status: 'draft' });
});
after(() => app.close());

const addCase = (actor: Actor, json: Record<string, unknown>) => app.post('/cdr/cases/add.json', { token: actor.token, json });
const link = (actor: Actor, id: number | string, json: Record<string, unknown>) =>
  app.post(`/cdr/cases/link/${id}.json`, { token: actor.token, json });
const viewCase = (actor: Actor, id: number | string) => app.get(`/cdr/cases/view/${id}.json`, { token: actor.token });

describe('cases', () => {
  let caseId: number;

  test('POST /cdr/cases/add answers data.case without links', async () => {
    app.setNow(new Date('2026-03-02T08:15:42Z'));
    const res = await addCase(ops, { name: 'Damaged pallet FRA' });
    app.setNow(null);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success', res.text);
    caseId = res.body.data.case.id;
    assert.deepEqual(res.body.data.case, {
      id: caseId,
      name: 'Damaged pallet FRA',
      author_user_id: ops.user,
      author_company_id: ops.company,
      created: '2026-03-02 08:15',
      modified: '2026-03-02 08:15',
      _links: [],
    });
  });

  test('a name is required', async () => {
    for (const json of [{}, { name: '' }, { name: '   ' }, { name: ['x'] }, { name: 'x'.repeat(201) }]) {
      const res = await addCase(ops, json);
      assert.equal(res.body.status, 'error', JSON.stringify(json).slice(0, 40));
      assert.match(res.body.message, /name/);
    }
  });

  test('link a shipment: data.routes holds every linked shipment; linking twice is idempotent', async () => {
    app.setNow(new Date('2026-03-03T10:00:00Z'));
    const first = await link(ops, caseId, { route_id: ownFreight });
    app.setNow(null);
    assert.equal(first.body.status, 'success', first.text);
    assert.deepEqual(first.body.data.routes, [{ id: ownFreight, from: 'FRA', to: '60311', weight: 100, capacity: 2 }]);
    const second = await link(colleague, caseId, { route_id: marketFreight });
    assert.deepEqual(
      second.body.data.routes.map((r: { id: number }) => r.id),
      [ownFreight, marketFreight],
    );
    const again = await link(ops, caseId, { route_id: ownFreight });
    assert.deepEqual(
      again.body.data.routes.map((r: { id: number }) => r.id),
      [ownFreight, marketFreight],
    );
    const rows = await app.services.db.selectFrom('case_links').selectAll().where('case_id', '=', caseId).execute();
    assert.equal(rows.length, 2);
  });

  test('concurrent links of the same shipment store one link', async () => {
    const c = (await addCase(ops, { name: 'Race' })).body.data.case.id;
    const results = await Promise.all([1, 2, 3, 4].map(() => link(ops, c, { route_id: marketFreight })));
    for (const r of results)
      assert.deepEqual(
        r.body.data.routes.map((x: { id: number }) => x.id),
        [marketFreight],
      );
    const rows = await app.services.db.selectFrom('case_links').selectAll().where('case_id', '=', c).execute();
    assert.equal(rows.length, 1);
  });

  test('view shows the links with their authors and objects; modified moved with the link', async () => {
    const res = await viewCase(colleague, caseId);
    assert.equal(res.body.status, 'success');
    const c = res.body.data.case;
    assert.notEqual(c.modified, c.created);
    assert.equal(c._links.length, 2);
    const [l1, l2] = c._links;
    assert.deepEqual(l1, {
      id: l1.id,
      author_user_id: ops.user,
      author_company_id: ops.company,
      created: '2026-03-03 10:00',
      modified: '2026-03-03 10:00',
      object: { id: ownFreight, from: 'FRA', to: '60311', weight: 100, capacity: 2 },
    });
    assert.equal(l2.author_user_id, colleague.user);
    assert.deepEqual(l2.object, { id: marketFreight, from: 'MUC', to: '80331', weight: 1000, capacity: null });
  });

  test('a shipment the caller cannot see cannot be linked (status error naming it); nothing stored', async () => {
    for (const routeId of [hiddenFreight, 99999999, 'abc']) {
      const res = await link(ops, caseId, { route_id: routeId });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error');
      assert.match(res.body.message, new RegExp(`shipment ${routeId} not found`));
    }
    const missing = await link(ops, caseId, {});
    assert.equal(missing.body.status, 'error');
    assert.match(missing.body.message, /route_id/);
    const rows = await app.services.db.selectFrom('case_links').selectAll().where('case_id', '=', caseId).execute();
    assert.equal(rows.length, 2);
  });

  test('a linked freight that is no longer visible shows object null and leaves data.routes', async () => {
    const rival = await app.actor('Rival');
    const temp = await insertFreight(app, other, { status: 'open' });
    const own = await addCase(rival, { name: 'Rival case' });
    const rivalCase = own.body.data.case.id;
    await link(rival, rivalCase, { route_id: temp });
    await app.services.db.updateTable('freights').set({ status: 'revoked' }).where('id', '=', temp).execute();
    const view = await viewCase(rival, rivalCase);
    assert.equal(view.body.data.case._links[0].object, null);
    const again = await link(rival, rivalCase, { route_id: marketFreight });
    assert.deepEqual(
      again.body.data.routes.map((r: { id: number }) => r.id),
      [marketFreight],
    );
    // a bidder after the award sees the masked shipment
    const bidOn = await insertFreight(app, other, { status: 'open' });
    await insertBid(app, rival, bidOn);
    await link(rival, rivalCase, { route_id: bidOn });
    await app.services.db.updateTable('freights').set({ status: 'taken', winner_id: other.company }).where('id', '=', bidOn).execute();
    const masked = (await viewCase(rival, rivalCase)).body.data.case._links.find(
      (l: { object: { id: number } | null }) => l.object?.id === bidOn,
    );
    assert.deepEqual(masked.object, { id: bidOn, from: null, to: null, weight: 1000, capacity: null });
  });

  test("index lists the caller's company's cases, newest first, with links", async () => {
    const second = await addCase(colleague, { name: 'Late delivery' });
    const res = await app.get('/cdr/cases/index.json', { token: ops.token });
    assert.equal(res.body.status, 'success');
    const cases = res.body.data.cases;
    const ids = cases.map((c: { id: number }) => c.id);
    assert.equal(ids[0], second.body.data.case.id);
    assert.equal(ids[ids.length - 1], caseId);
    assert.deepEqual(
      [...ids].sort((a: number, b: number) => b - a),
      ids,
    );
    assert.equal(cases[ids.length - 1]._links.length, 2);
    assert.deepEqual((await app.get('/cdr/cases/index.json', { token: other.token })).body.data.cases, []);
  });

  test("another company's case is a 404 for view and link", async () => {
    const view = await viewCase(other, caseId);
    assert.equal(view.status, 404);
    assert.deepEqual(view.body.data, []);
    const res = await link(other, caseId, { route_id: marketFreight });
    assert.equal(res.status, 404);
    assert.equal((await viewCase(ops, 99999999)).status, 404);
    assert.equal((await viewCase(ops, 'x')).status, 404);
    const rows = await app.services.db.selectFrom('case_links').selectAll().where('case_id', '=', caseId).execute();
    assert.equal(rows.length, 2);
  });

  test('no token: 401', async () => {
    assert.equal((await app.get('/cdr/cases/index.json')).status, 401);
    assert.equal((await app.post('/cdr/cases/add.json', { json: { name: 'x' } })).status, 401);
  });
});
