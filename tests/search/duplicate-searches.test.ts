import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Issue 47, item 12: a second saved search of the same list with the same parameters was accepted
 * silently (and alerted twice). Now it is refused with `searches.duplicate`, naming the one saved.
 */
describe('saved searches: the same search twice is refused', () => {
  let app: TestApp;
  let carrier: Actor;
  before(async () => {
    app = await startTestApp();
    carrier = await app.actor('Carrier', { language: 'deu' });
  });
  after(async () => app?.close());

  const add = (json: Record<string, unknown>, who = carrier) => app.post('/searches/add.json', { token: who.token, json });
  const count = async (who = carrier) => (await app.get('/searches/index.json', { token: who.token })).body.data.searches.length;

  test('same list and parameters, in any order: refused, naming the saved one; nothing added', async () => {
    const first = await add({ name: 'DE nach PL', filter: 8, params: { from: 'DE', to: 'PL', weight_min: '5000' }, alert: 1 });
    assert.equal(first.body.status, 'success', first.text);
    const again = await add({ name: 'Nochmal', filter: 8, params: { weight_min: '5000', to: 'PL', from: 'DE' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'error', again.text);
    assert.equal(again.body.code, 'searches.duplicate');
    assert.match(again.body.message, /DE nach PL/);
    assert.equal(await count(), 1);
  });

  test('another list, other parameters, or another user: saved', async () => {
    assert.equal(
      (await add({ name: 'Other list', filter: 7, params: { from: 'DE', to: 'PL', weight_min: '5000' } })).body.status,
      'success',
    );
    assert.equal((await add({ name: 'Heavier', filter: 8, params: { from: 'DE', to: 'PL', weight_min: '9000' } })).body.status, 'success');
    const colleague = await app.colleague(carrier, 'Colleague');
    assert.equal(
      (await add({ name: 'Mine too', filter: 8, params: { from: 'DE', to: 'PL', weight_min: '5000' } }, colleague)).body.status,
      'success',
    );
    assert.equal(await count(), 3);
  });
});
