import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workQueue } from '../../src/desk/queue.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * Issue 47, item 2: a freight whose side is a town without a postal code (its country and
 * coordinates, as the freight form stores a typed town) can be published, so the desk's "drafts
 * with gaps" must not count such a draft as lacking a place. Before the fix the queue read only
 * the postal code and listed it ("Missing: the origin").
 */
describe('desk: a town-only draft is complete', () => {
  let app: TestApp;
  let shipper: Actor;
  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Town Shipper', { language: 'eng' });
  });
  after(async () => app?.close());

  const add = async (json: Record<string, unknown>) => {
    const res = await app.post('/freights/add.json', { token: shipper.token, json });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.id as number;
  };
  const town = (side: 'from' | 'to', country: string, latitude: number, longitude: number, addr: string) => ({
    [`${side}_country`]: country,
    [`${side}_latitude`]: latitude,
    [`${side}_longitude`]: longitude,
    [`${side}_addr`]: addr,
  });

  test('towns on both sides, a pick-up and a weight: not in "drafts with gaps"; one lacking its weight is', async () => {
    const complete = await add({
      ...town('from', 'DE', 48.1374, 11.5755, 'München'),
      ...town('to', 'PL', 52.2297, 21.0122, 'Warszawa'),
      etd: '2030-05-04 08:00',
      weight: 12000,
    });
    const lacking = await add({ ...town('from', 'DE', 48.1374, 11.5755, 'München'), to: 'MUC', etd: '2030-05-04 08:00' });
    const stored = (await app.get(`/freights/view/${complete}.json`, { token: shipper.token })).body.data.route;
    assert.equal(stored.from ?? null, null, 'no postal code stored');
    assert.equal(stored.from_country, 'DE');

    const queue = await workQueue(app.services.db, app.services.clock, shipper.company, new Date(0));
    const ids = queue.drafts.entries.map((e) => e.freight.id);
    assert.deepEqual(ids, [lacking], JSON.stringify(queue.drafts));
    assert.deepEqual(queue.drafts.entries[0]!.gaps, ['weight']);
    assert.equal(queue.drafts.count, 1);

    // The start page says the same, and the freight page agrees: the complete draft has no gaps.
    const session = await browserSession(app, shipper);
    const desk = (await app.get('/', { headers: { cookie: session.cookie } })).text;
    assert.ok(!desk.includes(`/freights/view/${complete}"`), 'the complete town-only draft is not on the desk');
    assert.ok(desk.includes(`/freights/view/${lacking}"`));
    // It publishes.
    const published = await app.post(`/freights/view/${complete}.json`, {
      token: shipper.token,
      json: { action: 'publish', deadline: '+7 days' },
    });
    assert.ok([200, 302].includes(published.status), published.text);
    const after = (await app.get(`/freights/view/${complete}.json`, { token: shipper.token })).body.data.route;
    assert.equal(after.status, 'open');
  });
});
