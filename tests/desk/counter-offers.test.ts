import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workQueue } from '../../src/desk/queue.ts';
import { LIST, listPath } from '../../src/freights/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * The work queue's counter-offers to answer (docs/reference.md#one-step): a bid the freight's owner
 * answered with its own price waits for the bidder (accept it, or change the bid), in English and
 * German; a new amount of the bid ends the counter and the entry; the owner's queue has none.
 */
describe('desk: counter-offers to answer', () => {
  let app: TestApp;
  let shipper: Actor;
  before(async () => {
    app = await startTestApp();
    shipper = await app.actor('Counter Shipper', { language: 'eng' });
  });
  after(async () => app?.close());

  const published = async () => {
    const id = (
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 700 } })
    ).body.data.id as number;
    await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 day' } });
    return id;
  };
  /** A bid of the carrier on the freight; `bidId`: that bid changed. */
  const bid = async (carrier: Actor, id: number, amount: string, bidId?: number) => {
    const json = { ...(bidId ? { id: bidId } : {}), route: id, amount, currency_code: 'EUR' };
    const res = await app.post('/quotes/add.json', { token: carrier.token, json });
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data.bid.id as number;
  };

  for (const [language, text] of [
    ['eng', 'Counter Shipper 1 Ltd offers €950.50 for your bid of €1,000.00: accept it, or change your bid.'],
    ['deu', 'Counter Shipper 1 Ltd bietet 950,50 € für Ihr Gebot über 1.000,00 €: annehmen oder Ihr Gebot ändern.'],
  ] as const) {
    test(`${language}: the bidder's queue lists the counter-offer until its bid changes; the owner's never`, async () => {
      const carrier = await app.actor('Counter Carrier', { language });
      const id = await published();
      const bidId = await bid(carrier, id, '1000');
      const countered = await app.post(`/quotes/counter/${bidId}.json`, { token: shipper.token, json: { amount: 950.5 } });
      assert.equal(countered.body.status, 'success', countered.text);

      const queue = await workQueue(app.services.db, app.services.clock, carrier.company, new Date(0));
      assert.equal(queue.answerCounters.count, 1);
      assert.deepEqual(
        queue.answerCounters.entries.map((e) => [e.freight.id, e.company, Number(e.amount), e.currency, Number(e.bidAmount)]),
        [[id, shipper.companyName, 950.5, 'EUR', 1000]],
      );
      const owners = await workQueue(app.services.db, app.services.clock, shipper.company, new Date(0));
      assert.equal(owners.answerCounters.count, 0);
      const desk = (await app.get('/', { headers: { cookie: (await browserSession(app, carrier)).cookie } })).text.replace(
        /[\u00a0\u202f]/g,
        ' ',
      );
      assert.ok(
        desk.includes(text.replace('Counter Shipper 1 Ltd', shipper.companyName)),
        desk.slice(desk.indexOf('<main'), desk.indexOf('<main') + 3000),
      );
      assert.ok(desk.includes(`/freights/view/${id}"`));
      // The list of its bids marks the row: its move (freights/lists/moves.ts, the one rule).
      const session = await browserSession(app, carrier);
      const marked = (html: string) => {
        const row = html.slice(html.indexOf(`href="/freights/view/${id}"`));
        return row.slice(0, row.indexOf('</tr>')).includes('data-testid="your-move"');
      };
      assert.ok(marked((await app.get(listPath(LIST.bidOn), { headers: { cookie: session.cookie } })).text), 'marked: its move');

      // A new amount ends the counter (§16), and the entry with it.
      await bid(carrier, id, '980', bidId);
      assert.equal((await workQueue(app.services.db, app.services.clock, carrier.company, new Date(0))).answerCounters.count, 0);
      assert.ok(!marked((await app.get(listPath(LIST.bidOn), { headers: { cookie: session.cookie } })).text), 'the shipper’s move again');
    });
  }
});
