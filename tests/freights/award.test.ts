import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AwardPath, type AwardStep, type Won } from '../../src/freights/index.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { bidRow, bidsOf, freightRow, placeBid, publishedFreight } from '../quotes/fixtures.ts';

/**
 * The one award path (freights/award.ts) on its own: what it writes, the steps it runs in the
 * award's transaction and in their order, and a step that fails taking the award back with it.
 * The endpoints that award through it (quotes' confirmation, templates) have their own tests.
 */

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let carrier2: Actor;

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  carrier2 = await app.actor('Haulier');
});
after(() => app.close());

const eventTypes = async (freightId: number) =>
  (await app.services.db.selectFrom('events').select(['type']).where('freight_id', '=', freightId).orderBy('seq').execute()).map(
    (e) => e.type,
  );

describe('AwardPath.award', () => {
  test('a bid wins: accepted, the other pending bid reopened, the freight taken; steps run in order inside the transaction', async () => {
    const route = await publishedFreight(app, shipper);
    const winner = await placeBid(app, carrier, route, { amount: '980.00' });
    const other = await placeBid(app, carrier2, route, { amount: '990.00' });
    // The other bid pending (its owner side confirmed), so the award has one to reopen.
    await app.services.db.updateTable('bids').set({ status: 'pending', owner_confirmed: true }).where('id', '=', other.id).execute();

    const seen: string[] = [];
    const first: AwardStep = async (trx, _clock, won) => {
      // Inside the award's transaction: the freight reads taken there already.
      const row = await trx
        .selectFrom('freights')
        .select(['status', 'winner_id'])
        .where('id', '=', won.freight.id)
        .executeTakeFirstOrThrow();
      seen.push(`first ${won.way} ${row.status} ${row.winner_id === carrier.company} ${won.bid?.status}`);
    };
    const second: AwardStep = async (_trx, _clock, won) => {
      seen.push(`second ${won.freight.price}`);
    };
    const path = new AwardPath([first, second]);
    const result = await app.services.db
      .transaction()
      .execute((trx) => path.award(trx, app.services.clock, { way: 'book_now', freightId: route, bidId: winner.id }));

    assert.equal(result.kind, 'awarded');
    assert.deepEqual(seen, ['first book_now taken true accepted', 'second 980.00']);
    const f = await freightRow(app, route);
    assert.deepEqual([f.status, f.winner_id, f.transport_company_id, f.price], ['taken', carrier.company, carrier.company, '980.00']);
    const w = await bidRow(app, winner.id);
    assert.deepEqual([w.status, w.owner_confirmed, w.bidder_confirmed], ['accepted', true, true]);
    const o = await bidRow(app, other.id);
    assert.deepEqual([o.status, o.owner_confirmed], ['open', false]);
  });

  test('a step that throws rolls the whole award back: nothing written, no event', async () => {
    const route = await publishedFreight(app, shipper);
    const bid = await placeBid(app, carrier, route);
    const before = { freight: await freightRow(app, route), bids: await bidsOf(app, route), events: await eventTypes(route) };
    const failing: AwardStep = async () => {
      throw new Error('the step failed');
    };
    const path = new AwardPath([failing]);
    await assert.rejects(
      app.services.db
        .transaction()
        .execute((trx) => path.award(trx, app.services.clock, { way: 'auto_award', freightId: route, bidId: bid.id })),
      /the step failed/,
    );
    assert.deepEqual(await freightRow(app, route), before.freight);
    assert.deepEqual(await bidsOf(app, route), before.bids);
    assert.deepEqual(await eventTypes(route), before.events);
  });

  test('not awardable: another freight’s bid, a revoked bid, a freight out of the market; nothing written, no step run', async () => {
    const route = await publishedFreight(app, shipper);
    const elsewhere = await publishedFreight(app, shipper);
    const foreign = await placeBid(app, carrier, elsewhere);
    const revoked = await placeBid(app, carrier2, route);
    await app.services.db.updateTable('bids').set({ status: 'revoked' }).where('id', '=', revoked.id).execute();
    let ran = 0;
    const path = new AwardPath([async () => void ran++]);
    const award = (bidId: number, freightId = route) =>
      app.services.db.transaction().execute((trx) => path.award(trx, app.services.clock, { way: 'confirmed', freightId, bidId }));

    const before = await freightRow(app, route);
    assert.deepEqual(await award(foreign.id), { kind: 'not_awardable' });
    assert.deepEqual(await award(revoked.id), { kind: 'not_awardable' });
    assert.deepEqual(await award(foreign.id, 2_000_000_000), { kind: 'not_awardable' });
    const open = await placeBid(app, carrier, route);
    await app.services.db.updateTable('freights').set({ status: 'revoked' }).where('id', '=', route).execute();
    assert.deepEqual(await award(open.id), { kind: 'not_awardable' });
    assert.equal(ran, 0);
    assert.equal((await bidRow(app, open.id)).status, 'open');
    assert.equal(before.status, 'open');
  });

  test('an own order: announced and its steps run with no bid; a freight that is no own order is refused', async () => {
    const created = await app.post('/templates/add.json', {
      token: shipper.token,
      json: { name: 'Own run', from: 'airport:FRA', to: 'airport:AMS', weight: 500 },
    });
    assert.equal(created.body?.status, 'success', created.text);
    const use = await app.post('/freights/create-from-template.json', {
      token: shipper.token,
      json: { template_id: created.body.data.template.id },
    });
    assert.equal(use.body?.status, 'success', use.text);
    const route = use.body.data.route_id as number;
    // Created through the path already: its award announced.
    assert.ok((await eventTypes(route)).includes('freight.awarded'));

    const won: Won[] = [];
    const path = new AwardPath([async (_trx, _clock, w) => void won.push(w)]);
    const result = await app.services.db
      .transaction()
      .execute((trx) => path.award(trx, app.services.clock, { way: 'own_order', freightId: route }));
    assert.equal(result.kind, 'awarded');
    assert.deepEqual(
      won.map((w) => [w.way, w.bid, w.freight.winner_id]),
      [['own_order', null, shipper.company]],
    );

    const open = await publishedFreight(app, shipper);
    const refused = await app.services.db
      .transaction()
      .execute((trx) => path.award(trx, app.services.clock, { way: 'own_order', freightId: open }));
    assert.deepEqual(refused, { kind: 'not_awardable' });
    assert.equal(won.length, 1);
  });
});
