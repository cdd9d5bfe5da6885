// Issue 22 item 2: naming another company's AWB on a freight of one's own must not make a
// company a party to it. Before the fix, a draft with the AWB was enough: the intruder's forged
// DLV replaced the real pusher's events on public tracking and reached the real owner's webhook
// under the owner's freight ids. Every way of naming an AWB is tried here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { awb, push } from './samples.ts';

let app: TestApp;
let shipper: Actor; // tendered the shipment
let carrier: Actor; // won it
let intruder: Actor; // names the shipment's AWB on freights of its own
let order: number; // the shipment's tender: the shipper's, won by the carrier
const shipped = awb(701);

const csv = (code: string, time: string) =>
  `awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n${shipped},${code},${time},FRA,,2,40,,\n`;

async function trackedCodes(query = shipped): Promise<string[]> {
  const res = await app.get(`/freights/track/${query}.json`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.tracking.events.map((e: { code: string }) => e.code);
}

/** Deliveries queued for a company's webhooks. */
async function deliveriesFor(who: Actor): Promise<number> {
  const row = await app.services.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('w.company_id', '=', who.company)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `shipment.status` events in the outbox for a company, in order of writing. */
async function statusEventsFor(who: Actor) {
  const rows = await app.services.db
    .selectFrom('events')
    .select('body')
    .where('company_id', '=', who.company)
    .where('type', '=', 'shipment.status')
    .orderBy('seq')
    .execute();
  return rows.map((r) => JSON.parse(r.body).data);
}

const post = async (who: Actor, url: string, json: unknown) => {
  const res = await app.post(url, { token: who.token, json });
  assert.equal(res.status === 200 || res.status === 302, true, `${url}: ${res.status} ${res.text}`);
  return res;
};

/** A freight of `owner` awarded to `winner` through the exchange: add, publish, bid, both confirm. */
async function award(owner: Actor, winner: Actor, fields: Record<string, unknown>): Promise<number> {
  const id = (await post(owner, '/freights/add.json', { from: 'airport:FRA', to: 'airport:JFK', weight: 40, ...fields })).body.data.id;
  await post(owner, `/freights/view/${id}.json`, { action: 'publish' });
  const bid = (await post(winner, '/quotes/add.json', { route: id, amount: 100, currency_code: 'EUR' })).body.data.bid.id;
  await post(winner, `/quotes/confirm/${bid}.json`, {});
  await post(owner, `/quotes/confirm/${bid}.json`, {});
  return id;
}

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  intruder = await app.actor('Intruder');
  for (const who of [shipper, carrier]) {
    const res = await app.post('/webhooks/add.json', {
      token: who.token,
      json: { url: 'http://127.0.0.1:9/hook', events: ['shipment.status'] },
    });
    assert.equal(res.body.status, 'success', res.text);
  }
  order = await award(shipper, carrier, { awb: shipped });
  const view = await app.get(`/freights/view/${order}.json`, { token: shipper.token });
  assert.equal(view.body.data.route.status, 'taken');
  assert.equal((await push(app, shipper, 'status', csv('RCS', '2026-04-14 07:30'))).status, 200);
});
after(() => app.close());

describe("a company that names someone else's AWB is no party to it (issue 22, item 2)", () => {
  let forged = 0;

  test('the parties: the owner hears the winner, named as the sender', async () => {
    const events = await statusEventsFor(shipper);
    assert.equal(events.length, 1); // its own push
    await push(app, carrier, 'status', csv('DEP', '2026-04-14 09:00'));
    const heard = (await statusEventsFor(shipper)).at(-1);
    assert.deepEqual(
      heard.events.map((e: { code: string }) => e.code),
      ['DEP'],
    );
    assert.deepEqual(heard.sender, { id: carrier.company, name: carrier.companyName });
    assert.deepEqual(await trackedCodes(), ['RCS', 'DEP']);
    // From here on the parties' events are RCS and DEP.
  });

  test('a draft, published, edited, typed with spaces, on a piece line', async () => {
    const draft = (await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', weight: 5, awb: shipped })).body.data;
    assert.equal(draft.awb, shipped);
    await assertNoTakeover('a draft');
    await post(intruder, `/freights/view/${draft.id}.json`, { action: 'publish' });
    await assertNoTakeover('an open tender');
    const other = (await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', weight: 5 })).body.data.id;
    await post(intruder, `/freights/view/${other}.json`, { action: 'publish' });
    await post(intruder, `/freights/edit/${other}.json`, { awb: shipped.replace('-', ' ') });
    await assertNoTakeover('an edited open tender, the AWB typed with a space');
    await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', pieces: [{ pieces: 1, weight: 5, refs: { awb: shipped } }] });
    await assertNoTakeover('a piece line');
  });

  test('a direct order, a booking request (flight and direct), a template, an own bid confirmed', async () => {
    await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', weight: 5, awb: shipped, winner_direct: carrier.company });
    await assertNoTakeover('a direct order (open, whitelisted)');

    const flight = (
      await post(carrier, '/flights/add.json', {
        from: 'FRA',
        to: 'JFK',
        etd: '2032-01-01 10:00',
        eta: '2032-01-01 18:00',
        flight_number: 'LH400',
      })
    ).body.data.flight;
    const booking = (await post(intruder, `/freights/request/flight/${flight.id}.json`, { weight: 5, awb: shipped })).body.data.route;
    assert.equal(booking.winner, carrier.company, 'a flight request names its provider as winner, still a draft');
    await assertNoTakeover('a booking request of a flight');
    await post(intruder, `/freights/request/direct/${carrier.company}.json`, { weight: 5, awb: shipped });
    await assertNoTakeover('a direct booking request');

    const template = (await post(intruder, '/templates/add.json', { name: 'AWB', from: 'FRA', to: 'JFK', weight: 5, awb: shipped })).body
      .data.template;
    const created = (await post(intruder, '/freights/create-from-template.json', { template_id: template.id })).body.data.route_id;
    const fromTemplate = (await app.get(`/freights/view/${created}.json`, { token: intruder.token })).body.data.route;
    assert.equal(fromTemplate.status, 'taken');
    assert.equal(fromTemplate.awb, shipped);
    await assertNoTakeover('a freight created from a template (taken, own company the carrier)');

    const own = (await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', weight: 5, awb: shipped })).body.data.id;
    await post(intruder, `/freights/view/${own}.json`, { action: 'publish' });
    const bid = (await post(intruder, '/quotes/add.json', { route: own, amount: 1, currency_code: 'EUR' })).body.data.bid;
    assert.equal(bid.type, 'selling');
    await post(intruder, `/quotes/confirm/${bid.id}.json`, {});
    await post(intruder, `/quotes/confirm/${bid.id}.json`, {});
    const selfAwarded = (await app.get(`/freights/view/${own}.json`, { token: intruder.token })).body.data.route;
    assert.equal(selfAwarded.winner === null || selfAwarded.winner === intruder.company, true);
    await assertNoTakeover('an own bid confirmed by the own company');
  });

  /** After each way of naming the AWB the intruder pushes a forged DLV: nobody but the intruder hears of it. */
  async function assertNoTakeover(way: string) {
    const before = {
      shipper: (await statusEventsFor(shipper)).length,
      carrier: (await statusEventsFor(carrier)).length,
      hooks: await deliveriesFor(shipper),
    };
    forged++;
    const res = await push(app, intruder, 'status', csv('DLV', `2026-04-15 0${forged % 10}:00`));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await trackedCodes(), ['RCS', 'DEP'], `${way}: tracking shows the parties' events only`);
    assert.deepEqual(await trackedCodes(shipped.replace('-', '')), ['RCS', 'DEP'], `${way}: by digits too`);
    assert.equal((await statusEventsFor(shipper)).length, before.shipper, `${way}: no forged status reaches the owner`);
    assert.equal((await statusEventsFor(carrier)).length, before.carrier, `${way}: no forged status reaches the winner`);
    assert.equal(await deliveriesFor(shipper), before.hooks, `${way}: nor the owner's webhook`);
  }

  test('an own tender with the AWB that an honest carrier wins: the intruder speaks to that carrier, under its own freight, never for the shipment', async () => {
    const honest = await app.actor('Honest Haulage');
    const tender = await award(intruder, honest, { awb: shipped });
    assert.equal((await app.get(`/freights/view/${tender}.json`, { token: honest.token })).body.data.route.status, 'taken');
    await assertNoTakeover('an own tender, awarded to an honest carrier');
    // The intruder's DLV went to the party of its own freight, named as the intruder's.
    const heard = (await statusEventsFor(honest)).at(-1);
    assert.deepEqual(
      heard.events.map((e: { code: string }) => e.code),
      ['DLV'],
    );
    assert.deepEqual(heard.routes, [tender]);
    assert.deepEqual(heard.sender, { id: intruder.company, name: intruder.companyName });

    // Even when the shipment's own carrier wins the intruder's tender: it hears the intruder under
    // that tender's id only; the shipper hears nothing and tracking stays the parties'.
    const second = await award(intruder, carrier, { awb: shipped });
    const before = { shipper: (await statusEventsFor(shipper)).length, hooks: await deliveriesFor(shipper) };
    assert.equal((await push(app, intruder, 'status', csv('DLV', '2026-04-16 08:00'))).status, 200);
    assert.deepEqual(await trackedCodes(), ['RCS', 'DEP']);
    assert.equal((await statusEventsFor(shipper)).length, before.shipper);
    assert.equal(await deliveriesFor(shipper), before.hooks);
    const toCarrier = (await statusEventsFor(carrier)).at(-1);
    assert.deepEqual(toCarrier.routes, [second], 'never under the shipper’s freight id');
    assert.deepEqual(toCarrier.sender, { id: intruder.company, name: intruder.companyName });

    // The shipment's parties still speak for it: the carrier's arrival reaches the shipper under
    // the shipper's freight, and shows on tracking.
    assert.equal((await push(app, carrier, 'status', csv('ARR', '2026-04-14 18:00'))).status, 200);
    const real = (await statusEventsFor(shipper)).at(-1);
    assert.deepEqual(real.routes, [order]);
    assert.deepEqual(await trackedCodes(), ['RCS', 'DEP', 'ARR']);
  });

  test('before any award, the first pusher speaks for the AWB, whatever drafts name it', async () => {
    const fresh = awb(702);
    const line = (code: string) =>
      `awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n${fresh},${code},2026-04-14 10:00,FRA,,1,5,,\n`;
    await push(app, carrier, 'status', line('RCS'));
    await post(intruder, '/freights/add.json', { from: 'FRA', to: 'JFK', weight: 5, awb: fresh });
    await push(app, intruder, 'status', line('DLV'));
    assert.deepEqual(await trackedCodes(fresh), ['RCS']);
  });
});
