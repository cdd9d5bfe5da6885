import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { insertFreight } from '../preview/fixtures.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { awb, push } from './samples.ts';

let app: TestApp;
let shipper: Actor; // A: tendered the shipment
let carrier: Actor; // B: won it
let intruder: Actor; // C: pushes events for shipments it has nothing to do with
let handler: Actor; // H: a handler's feed for an AWB no freight carries

const status = (...rows: string[]) =>
  `${['awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location', ...rows].join('\n')}\n`;

async function codes(awbNumber: string): Promise<string[]> {
  const res = await app.get(`/freights/track/${awbNumber}.json`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.tracking.events.map((e: { code: string }) => e.code);
}

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  intruder = await app.actor('Intruder');
  handler = await app.actor('Handler');
});
after(() => app.close());

describe('public tracking shows only the events of the companies involved (issue 10, item 4)', () => {
  const shipped = awb(601);

  before(async () => {
    const freight = await insertFreight(app, shipper, { status: 'taken', winner: carrier });
    // Typed with spaces on the freight: matched by its digits.
    await app.services.db
      .updateTable('freights')
      .set({ awb: shipped.replace('-', ' ').replace(/(\d{4})(\d{4})$/, '$1 $2') })
      .where('id', '=', freight)
      .execute();
    assert.equal(
      (
        await push(
          app,
          shipper,
          'status',
          status(`${shipped},RCS,2026-04-14 07:30,FRA,,2,40,,`, `${shipped},DEP,2026-04-14 09:00,FRA,LH400,2,40,,`),
        )
      ).status,
      200,
    );
  });

  test("another company's DLV for A's AWB is not shown; A's events are", async () => {
    const res = await push(app, intruder, 'status', status(`${shipped},DLV,2026-04-14 08:00,FRA,,2,40,,`));
    assert.equal(res.status, 200, res.text); // stored for the intruder's own milk-run, not published
    assert.deepEqual(await codes(shipped), ['RCS', 'DEP']);
    assert.deepEqual(await codes(shipped.replace('-', '')), ['RCS', 'DEP']);
  });

  test('the winner of the freight is involved: its events are shown', async () => {
    await push(app, carrier, 'fsu', `FSU/14\n${shipped}FRAJFK/T2K40\nDLV/15APR1500/JFK/T2K40\n`);
    assert.deepEqual(await codes(shipped), ['RCS', 'DEP', 'DLV']);
  });

  test('a revoked freight makes nobody involved; without any freight, the first company to push', async () => {
    const unowned = awb(602);
    await push(app, handler, 'status', status(`${unowned},RCF,2026-04-14 10:00,JFK,LH400,1,5,,`));
    // Backdated: an event's own time does not make its sender first.
    await push(app, intruder, 'status', status(`${unowned},DLV,2020-01-01 00:00,JFK,,1,5,,`, `${unowned},NFD,2026-04-14 11:00,JFK,,1,5,,`));
    assert.deepEqual(await codes(unowned), ['RCF']);
    const revoked = await insertFreight(app, intruder, { status: 'revoked' });
    await app.services.db.updateTable('freights').set({ awb: unowned }).where('id', '=', revoked).execute();
    assert.deepEqual(await codes(unowned), ['RCF']);
    // Nor does an open tender of the intruder (issue 22): only a freight two companies awarded does
    // (tests/aircargo/tracking-parties.test.ts tries every way of naming an AWB).
    const live = await insertFreight(app, intruder, { status: 'open' });
    await app.services.db.updateTable('freights').set({ awb: unowned }).where('id', '=', live).execute();
    assert.deepEqual(await codes(unowned), ['RCF']);
    const awarded = await insertFreight(app, intruder, { status: 'taken', winner: carrier });
    await app.services.db.updateTable('freights').set({ awb: unowned }).where('id', '=', awarded).execute();
    assert.deepEqual(await codes(unowned), ['DLV', 'NFD']);
  });

  test('an AWB nobody pushed for answers no events; tracking never names a company', async () => {
    assert.deepEqual(await codes(awb(603)), []);
    const text = (await app.get(`/freights/track/${shipped}.json`)).text;
    for (const name of [shipper.companyName, carrier.companyName, intruder.companyName]) assert.ok(!text.includes(name));
  });
});

describe('the milk-run lists are not poisoned', () => {
  test("an intruder's DLV delivers only its own shipment, never A's", async () => {
    const a = awb(611);
    await push(app, shipper, 'status', status(`${a},RCF,2026-04-14 07:30,FRA,LH400,3,60,,`));
    await push(app, intruder, 'status', status(`${a},DLV,2026-04-14 08:00,FRA,,3,60,,`));
    const list = async (actor: Actor, id: number) =>
      ((await app.get(`/milkrun/import/short/${id}.json`, { token: actor.token })).body.data.shipments as Array<{ awb: string }>).map(
        (s) => s.awb,
      );
    assert.ok((await list(shipper, 70)).includes(a), "A's shipment still waits");
    assert.ok(!(await list(shipper, 84)).includes(a));
    assert.ok((await list(intruder, 84)).includes(a), "the intruder's own, separate shipment");
    const rows = await app.services.db
      .selectFrom('milkrun_shipments')
      .select(['company_id', 'state'])
      .where('awb', '=', a)
      .orderBy('company_id')
      .execute();
    assert.deepEqual(rows, [
      { company_id: shipper.company, state: 'waiting' },
      { company_id: intruder.company, state: 'delivered' },
    ]);
  });
});

describe('every status event names the company that pushed it', () => {
  test('stored with the pusher; the database refuses an event without one', async () => {
    const a = awb(621);
    await push(
      app,
      handler,
      'xfsu',
      `<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1" xmlns:ram="iata:datamodel:3"><rsm:MasterConsignment><ram:TransportContractDocument><ram:ID>${a}</ram:ID></ram:TransportContractDocument><ram:ReportedStatus><ram:ReasonCode>RCS</ram:ReasonCode><ram:AssociatedStatusConsignment><ram:PieceQuantity>1</ram:PieceQuantity><ram:SpecifiedLogisticsTransportMovement><ram:SpecifiedLocation><ram:ID>FRA</ram:ID></ram:SpecifiedLocation><ram:SpecifiedEvent><ram:OccurrenceDateTime>2026-04-14T09:30:00Z</ram:OccurrenceDateTime></ram:SpecifiedEvent></ram:SpecifiedLogisticsTransportMovement></ram:AssociatedStatusConsignment></ram:ReportedStatus></rsm:MasterConsignment></rsm:StatusMessage>`,
    );
    const rows = await app.services.db.selectFrom('awb_events').select('company_id').where('awb', '=', a).execute();
    assert.deepEqual(rows, [{ company_id: handler.company }]);
    await assert.rejects(
      app.services.db
        .insertInto('awb_events')
        .values({ awb: a, code: 'DLV', event_time: new Date(), company_id: null, created: new Date() })
        .execute(),
      /null value|not-null|violates/,
    );
  });

  test("a file's events are published when its import is complete, not before", async () => {
    const a = awb(631);
    const db = app.services.db;
    const file = await db
      .insertInto('files')
      .values({
        company_id: handler.company,
        user_id: handler.user,
        name: 'x',
        action: 'status',
        encoding: 'plain',
        size: 1,
        sha256: '-',
        status: 'importing',
        created: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('awb_events')
      .values({ awb: a, code: 'RCF', event_time: new Date(), company_id: handler.company, file_id: file.id, created: new Date() })
      .execute();
    assert.deepEqual(await codes(a), []);
    await db.updateTable('files').set({ status: 'processed' }).where('id', '=', file.id).execute();
    assert.deepEqual(await codes(a), ['RCF']);
  });
});
