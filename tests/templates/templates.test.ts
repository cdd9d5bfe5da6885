import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPair } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';
import { view } from '../freights/helpers.ts';

let app: TestApp;
let shipper: Actor, carrier: Actor;

before(async () => ({ app, shipper, carrier } = await startPair()));
after(() => app.close());

const post = (who: Actor, path: string, json: unknown = {}) => app.post(path, { token: who.token, json });

describe('templates', () => {
  test('add, index (own company only), create-from-template starts taken with own company as carrier', async () => {
    const res = await post(shipper, '/templates/add.json', {
      name: 'Weekly FRA-MUC',
      from: 'FRA',
      to: 'MUC',
      weight: 400,
      pieces: [{ pieces: 4 }],
      refs: { customer: 'W' },
      nonsense: 1,
      deadline: '+2 days',
    });
    assert.equal(res.body.status, 'success');
    const template = res.body.data.template;
    assert.equal(typeof template.id, 'number');
    assert.equal(template.name, 'Weekly FRA-MUC');
    assert.ok(res.body.warnings.some((w: { field: string }) => w.field === 'nonsense'));
    await post(carrier, '/templates/add.json', { name: 'Carrier template' });
    const index = await app.get('/templates/index.json', { token: shipper.token });
    assert.deepEqual(
      index.body.data.templates.map((t: { id: number }) => t.id),
      [template.id],
    );
    const created = await post(shipper, '/freights/create-from-template.json', { template_id: template.id });
    assert.equal(created.body.status, 'success');
    const id = created.body.data.route_id;
    assert.equal(typeof id, 'number');
    const f = (await view(app, shipper, id)).body.data.route;
    assert.equal(f.status, 'taken');
    assert.equal(f.winner, shipper.company);
    assert.equal(f.transport_company_id, shipper.company);
    assert.equal(f.from, 'FRA');
    assert.equal(f.weight, 400);
    assert.equal(f._route_pieces.length, 1);
    assert.deepEqual(f.refs, { customer: 'W' });
    assert.deepEqual(f._bids, []);
    // Created taken, it is announced as an award (the company is owner and winner): one event, to it.
    const hook = await post(shipper, '/webhooks/add.json', { url: 'http://127.0.0.1:9/hook', events: ['freight.awarded'] });
    assert.equal(hook.body.status, 'success', hook.text);
    const again = (await post(shipper, '/freights/create-from-template.json', { template_id: template.id })).body.data.route_id;
    const events = await app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('type', '=', 'freight.awarded')
      .execute();
    const announced = events.filter((e) => JSON.parse(e.body).data.route.id === again);
    assert.deepEqual(
      announced.map((e) => e.company_id),
      [shipper.company],
    );
  });

  test('template of another company, missing or bad id: 404; a template needs a name', async () => {
    const other = (await post(carrier, '/templates/add.json', { name: 'Mine' })).body.data.template.id;
    for (const template_id of [other, 999999, 'abc', null]) {
      assert.equal((await post(shipper, '/freights/create-from-template.json', { template_id })).status, 404, String(template_id));
    }
    for (const name of [undefined, '', 'x'.repeat(500), { a: 1 }]) {
      const res = await post(shipper, '/templates/add.json', { name });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'error');
    }
  });
});
