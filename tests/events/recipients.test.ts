import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { emitEvent } from '../../src/freights/events.ts';
import { EVENT_TYPES, TEST_EVENT } from '../../src/events/types.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { Contract } from '../support/contract.ts';
import { addWebhook, deliverAll, startReceiver, verifyStandardWebhook, type Receiver } from './support.ts';
import { deliveredFreight, takenFreight } from '../trust/helpers.ts';
import { FREIGHT, OFFER } from '../vehicles/helpers.ts';

/**
 * docs/reference.md#events: every event type reaches exactly the companies entitled to it, each with the
 * data as that company sees it through the API; every delivery carries a Standard Webhooks
 * signature that an independent implementation (tests/events/support.ts) verifies, and every
 * delivered body conforms to the API description's `webhooks` entry of its type (issue 25).
 */

const SECRET_ADDR_FROM = 'Secret Dock 7, Frankfurt';
const SECRET_ADDR_TO = 'Hidden Gate 9, Amsterdam';
const CUSTOMER_REF = 'PO-4711-confidential';
const WINNING_AMOUNT = '1234.56';

describe(`events reach the right companies with the right masking (${TEST_DB})`, () => {
  let app: TestApp;
  let receiver: Receiver;
  let shipper: Actor, carrierA: Actor, carrierB: Actor, outsider: Actor, handler: Actor;
  const secrets = new Map<number, string>();
  /** Every delivery so far, by recipient company (path /c/<company>). */
  let seen = 0;
  let contract: Contract;
  /** The event types whose deliveries were checked against the description. */
  const conforming = new Set<string>();

  const take = async () => {
    await deliverAll(app);
    const fresh = receiver.received.slice(seen);
    seen = receiver.received.length;
    return fresh.map((r) => {
      const company = Number(r.path.split('/')[2]);
      assert.ok(verifyStandardWebhook(secrets.get(company)!, r.headers, r.body), `signature of ${r.json?.type} to company ${company}`);
      assert.equal(r.json.company, company, 'the body names its recipient');
      assert.equal(r.headers['webhook-id'], r.json.id);
      assert.deepEqual(contract.checkEvent(r.json), [], r.body.slice(0, 500));
      conforming.add(r.json.type);
      return { company, type: r.json.type as string, data: r.json.data, raw: r.body };
    });
  };
  const recipients = (events: Array<{ company: number; type: string }>, type: string) =>
    events
      .filter((e) => e.type === type)
      .map((e) => e.company)
      .sort((a, b) => a - b);
  const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);
  const ok = (res: { status: number; body: any; text: string }) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data;
  };

  before(async () => {
    app = await startTestApp();
    receiver = await startReceiver();
    contract = new Contract((await app.get('/openapi.json')).body);
    shipper = await app.actor('Shipper');
    carrierA = await app.actor('CarrierA');
    carrierB = await app.actor('CarrierB');
    outsider = await app.actor('Outsider');
    handler = await app.actor('Handler');
    for (const who of [shipper, carrierA, carrierB, outsider, handler]) {
      const hook = await addWebhook(app, who, `${receiver.url}/c/${who.company}`);
      secrets.set(who.company, hook.secret);
    }
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  let route: number;
  let bidA: number;
  let bidB: number;

  test('freight.published reaches the owner only (an open-market freight is announced through saved searches)', async () => {
    const add = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: {
          from: 'airport:FRA',
          to: 'airport:AMS',
          from_addr: SECRET_ADDR_FROM,
          to_addr: SECRET_ADDR_TO,
          weight: 1200,
          awb: '020-12345675',
          refs: { customer: CUSTOMER_REF },
        },
      }),
    );
    route = add.id;
    assert.deepEqual(await take(), [], 'a draft announces nothing');
    const pub = await app.post(`/freights/view/${route}.json`, {
      token: shipper.token,
      json: { action: 'publish', deadline: '+48 hours' },
    });
    assert.equal(pub.status, 302);
    const events = await take();
    assert.deepEqual(recipients(events, 'freight.published'), [shipper.company]);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.route.from_addr, SECRET_ADDR_FROM, 'the owner sees its freight unmasked');
    assert.equal(events[0]!.data.route.status, 'open');
  });

  test('bid.created reaches the owner and that bidder, never another bidder; the bidder sees the freight as the market does', async () => {
    bidA = ok(await app.post('/quotes/add.json', { token: carrierA.token, json: { route, amount: WINNING_AMOUNT, currency_code: 'EUR' } }))
      .bid.id;
    let events = await take();
    assert.deepEqual(recipients(events, 'bid.created'), sorted(shipper.company, carrierA.company));
    const forA = events.find((e) => e.company === carrierA.company)!;
    assert.equal(forA.data.bid.amount, Number(WINNING_AMOUNT));
    assert.equal(forA.data.route.from_addr, null, 'addresses are for owner and winner only');
    assert.equal(forA.data.route.refs, null);
    assert.equal(events.find((e) => e.company === shipper.company)!.data.route.from_addr, SECRET_ADDR_FROM);

    bidB = ok(await app.post('/quotes/add.json', { token: carrierB.token, json: { route, amount: '999.99', currency_code: 'EUR' } })).bid
      .id;
    events = await take();
    assert.deepEqual(recipients(events, 'bid.created'), sorted(shipper.company, carrierB.company));
    const forB = events.find((e) => e.company === carrierB.company)!;
    assert.ok(!forB.raw.includes(WINNING_AMOUNT), "B's view holds no trace of A's bid");
    assert.deepEqual(
      forB.data.route._bids.map((b: any) => b.id),
      [bidB],
      'a bidder sees its own bids only',
    );
  });

  test('freight.updated reaches owner and bidders; bid.updated only the owner and that bidder', async () => {
    ok(await app.post(`/freights/edit/${route}.json`, { token: shipper.token, json: { weight: 1300 } }));
    let events = await take();
    assert.deepEqual(recipients(events, 'freight.updated'), sorted(shipper.company, carrierA.company, carrierB.company));
    for (const e of events) assert.equal(e.data.route.weight, 1300);
    assert.ok(!events.some((e) => e.company === outsider.company));

    ok(await app.post('/quotes/add.json', { token: carrierB.token, json: { id: bidB, amount: '990.00', currency_code: 'EUR' } }));
    events = await take();
    assert.deepEqual(recipients(events, 'bid.updated'), sorted(shipper.company, carrierB.company));
    assert.equal(events.length, 2);
  });

  test('bid.confirmed twice, then freight.awarded: the winner sees everything, the former bidder a masked freight', async () => {
    const first = await app.post(`/quotes/confirm/${bidA}.json`, { token: shipper.token });
    assert.equal(first.status, 302);
    let events = await take();
    assert.deepEqual(recipients(events, 'bid.confirmed'), sorted(shipper.company, carrierA.company));
    assert.equal(events.length, 2);

    ok(await app.post(`/quotes/confirm/${bidA}.json`, { token: carrierA.token }));
    events = await take();
    assert.deepEqual(recipients(events, 'bid.confirmed'), sorted(shipper.company, carrierA.company));
    assert.deepEqual(recipients(events, 'freight.awarded'), sorted(shipper.company, carrierA.company, carrierB.company));
    const awarded = (c: number) => events.find((e) => e.type === 'freight.awarded' && e.company === c)!;
    const winner = awarded(carrierA.company).data.route;
    assert.equal(winner.price, Number(WINNING_AMOUNT));
    assert.equal(winner.winner, carrierA.company);
    assert.equal(winner.from_addr, SECRET_ADDR_FROM);
    assert.equal(winner.refs.customer, CUSTOMER_REF);
    const loser = awarded(carrierB.company);
    for (const field of ['price', 'winner', 'from', 'to', 'from_addr', 'to_addr', 'refs', 'whitelist', 'transport_company_id'])
      assert.equal(loser.data.route[field], null, field);
    assert.equal(loser.data.route.f_from, 'xxx (XX)');
    assert.equal(loser.data.route.status, 'taken');
    for (const secret of [WINNING_AMOUNT, SECRET_ADDR_FROM, SECRET_ADDR_TO, CUSTOMER_REF]) {
      assert.ok(!loser.raw.includes(secret), `a former bidder never learns ${secret}`);
    }
  });

  test('freight.delivery_status reaches owner and winner only', async () => {
    ok(await app.post(`/freights/delivery/${route}.json`, { token: carrierA.token, json: { delivery_status: 1 } }));
    const events = await take();
    assert.deepEqual(recipients(events, 'freight.delivery_status'), sorted(shipper.company, carrierA.company));
    assert.equal(events.length, 2);
    assert.equal(events[0]!.data.route.delivery_status, 1);
  });

  test('shipment.status: the pushing company gets every field; a party’s events reach the other parties as tracking shows them', async () => {
    const csv =
      'awb,code,time,location,flight_number,pieces,weight,special_handling_codes,warehouse_location\n020-12345675,RCF,2026-05-04 10:00,AMS,KL1234,3,150.5,EAP,Rack 12\n';
    const push = (who: Actor) =>
      app.post('/files/push.json', {
        token: who.token,
        json: { encoding: 'base64', content: Buffer.from(csv).toString('base64'), name: 's.csv', action: 'status' },
      });
    // A company that is no party to the shipment cannot put events into the parties' systems.
    assert.equal((await push(handler)).status, 200);
    let events = await take();
    assert.deepEqual(recipients(events, 'shipment.status'), [handler.company]);
    assert.equal((await push(carrierA)).status, 200);
    events = await take();
    assert.deepEqual(recipients(events, 'shipment.status'), sorted(carrierA.company, shipper.company));
    const own = events.find((e) => e.company === carrierA.company)!.data;
    assert.equal(own.awb, '020-12345675');
    assert.equal(own.events[0].warehouse_location, 'Rack 12');
    const party = events.find((e) => e.company === shipper.company)!.data;
    assert.deepEqual(party.routes, [route]);
    assert.deepEqual(Object.keys(party.events[0]).sort(), ['code', 'flight_number', 'location', 'time']);
    assert.equal(party.events[0].code, 'RCF');
  });

  test('freight.revoked reaches the bidders masked; bid.revoked only the owner and that bidder', async () => {
    const add = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'airport:FRA', to: 'airport:MUC', from_addr: SECRET_ADDR_FROM },
      }),
    );
    await app.post(`/freights/view/${add.id}.json`, { token: shipper.token, json: { action: 'publish' } });
    const a = ok(await app.post('/quotes/add.json', { token: carrierA.token, json: { route: add.id, amount: '10', currency_code: 'EUR' } }))
      .bid.id;
    ok(await app.post('/quotes/add.json', { token: carrierB.token, json: { route: add.id, amount: '11', currency_code: 'EUR' } }));
    await take();
    ok(await app.post(`/quotes/revoke/${a}.json`, { token: carrierA.token }));
    let events = await take();
    assert.deepEqual(recipients(events, 'bid.revoked'), sorted(shipper.company, carrierA.company));
    assert.equal(events.length, 2);

    ok(await app.post(`/freights/revoke/${add.id}.json`, { token: shipper.token }));
    events = await take();
    // A revoked its bid: it no longer counts as a bidder and cannot see the freight any more.
    assert.deepEqual(recipients(events, 'freight.revoked'), sorted(shipper.company, carrierB.company));
    const forB = events.find((e) => e.company === carrierB.company)!.data.route;
    assert.equal(forB.from_addr, null);
    assert.equal(forB.f_from, 'xxx (XX)');
  });

  test('freight.expired reaches the owner and the bidders (masked) when the expiry is written', async () => {
    const add = ok(await app.post('/freights/add.json', { token: shipper.token, json: { from: 'airport:FRA', to: 'airport:CDG' } }));
    await app.post(`/freights/view/${add.id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+1 hours' } });
    ok(await app.post('/quotes/add.json', { token: carrierB.token, json: { route: add.id, amount: '50', currency_code: 'EUR' } }));
    await take();
    app.setNow(new Date(Date.now() + 2 * 3600_000));
    try {
      // A transition on the freight writes its due expiry first (then refuses: expired).
      const res = await app.post(`/freights/revoke/${add.id}.json`, { token: shipper.token });
      assert.equal(res.body.status, 'error');
      const events = await take();
      assert.deepEqual(recipients(events, 'freight.expired'), sorted(shipper.company, carrierB.company));
      assert.equal(events.find((e) => e.company === carrierB.company)!.data.route.status, 'expired');
      assert.equal(events.find((e) => e.company === carrierB.company)!.data.route.f_to, 'xxx (XX)');
    } finally {
      app.setNow(null);
    }
  });

  test('booking.requested reaches the requester and the flight provider (who is its winner)', async () => {
    const flight = ok(
      await app.post('/flights/add.json', {
        token: carrierA.token,
        json: { from: 'FRA', to: 'JFK', etd: '2027-03-01 10:00', eta: '2027-03-01 18:00', flight_number: 'XY 100' },
      }),
    ).flight;
    await take();
    ok(await app.post(`/freights/request/flight/${flight.id}.json`, { token: shipper.token, json: { weight: 80 } }));
    const events = await take();
    assert.deepEqual(recipients(events, 'booking.requested'), sorted(shipper.company, carrierA.company));
    assert.equal(events.length, 2);
  });

  test('freight.published for a freight created open for one company (winner_direct): the owner and that company only', async () => {
    await take();
    ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'airport:FRA', to: 'airport:LHR', winner_direct: carrierB.company, from_addr: SECRET_ADDR_FROM },
      }),
    );
    const events = await take();
    assert.deepEqual(recipients(events, 'freight.published'), sorted(shipper.company, carrierB.company));
    const seenByB = events.find((e) => e.company === carrierB.company)!.data.route;
    assert.equal(seenByB.status, 'open');
    assert.equal(seenByB.from_addr, null, 'addresses only for owner and winner');
  });

  test('freight.matched (emitted by saved searches) reaches the searcher alone, as the market sees the freight', async () => {
    const add = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'airport:FRA', to: 'airport:VIE', from_addr: SECRET_ADDR_FROM },
      }),
    );
    await app.post(`/freights/view/${add.id}.json`, { token: shipper.token, json: { action: 'publish' } });
    await take();
    // A saved search of the outsider's, presented as the alert presents it (no alert of its own: alert 0).
    const saved = ok(await app.post('/searches/add.json', { token: outsider.token, json: { name: 'FRA loads', alert: 0 } })).search;
    await app.services.db.transaction().execute((trx) =>
      emitEvent(trx, app.services.clock, {
        type: 'freight.matched',
        freightId: add.id,
        matches: [{ companyId: outsider.company, search: saved }],
      }),
    );
    const events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['freight.matched', outsider.company]],
    );
    assert.equal(events[0]!.data.route.from_addr, null);
    assert.deepEqual(events[0]!.data.search, saved);
  });

  /** Deliveries until `types` all arrived (vehicle alerts run after the publishing commit). */
  const takeUntil = async (types: string[]) => {
    const events: Awaited<ReturnType<typeof take>> = [];
    for (const until = Date.now() + 10_000; !types.every((t) => events.some((e) => e.type === t)); ) {
      assert.ok(Date.now() < until, `not delivered: ${types.filter((t) => !events.some((e) => e.type === t)).join(', ')}`);
      events.push(...(await take()));
      await new Promise((r) => setTimeout(r, 20));
    }
    return events;
  };

  test('vehicle.published, .matched, .withdrawn reach the offer’s company and the owners of the freights it fits; freight.invited the invited company', async () => {
    const add = ok(await app.post('/freights/add.json', { token: shipper.token, json: { ...FREIGHT, from_addr: SECRET_ADDR_FROM } }));
    await app.post(`/freights/view/${add.id}.json`, { token: shipper.token, json: { action: 'publish' } });
    await take();
    const offer = ok(await app.post('/vehicles/add.json', { token: carrierA.token, json: OFFER })).vehicle;
    let events = await takeUntil(['vehicle.published', 'vehicle.matched']);
    assert.deepEqual(recipients(events, 'vehicle.published'), sorted(carrierA.company, shipper.company));
    assert.deepEqual(recipients(events, 'vehicle.matched'), sorted(carrierA.company, shipper.company));
    const toOwner = events.find((e) => e.type === 'vehicle.matched' && e.company === shipper.company)!.data;
    assert.equal(toOwner.vehicle.id, offer.id);
    assert.ok(toOwner.matches.some((m: { route_id: number }) => m.route_id === add.id));
    assert.ok(!events.some((e) => [carrierB.company, outsider.company, handler.company].includes(e.company)));

    ok(await app.post(`/vehicles/invite/${offer.id}.json`, { token: shipper.token, json: { freight: add.id } }));
    events = await take();
    assert.deepEqual(recipients(events, 'freight.invited'), [carrierA.company]);
    assert.equal(events.find((e) => e.type === 'freight.invited')!.data.vehicle.id, offer.id);

    ok(await app.post(`/vehicles/withdraw/${offer.id}.json`, { token: carrierA.token }));
    events = await take();
    assert.deepEqual(recipients(events, 'vehicle.withdrawn'), sorted(carrierA.company, shipper.company));
  });

  test('rating.received reaches the rated company alone', async () => {
    const freight = await deliveredFreight(app, shipper, carrierB);
    await take();
    ok(await app.post(`/companies/rate/${freight}.json`, { token: shipper.token, json: { score: 5, comment: 'on time' } }));
    const events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['rating.received', carrierB.company]],
    );
    assert.equal(events[0]!.data.rating.score, 5);
  });

  test('message.created reaches the recipient alone; document.added the other party, the transport order both', async () => {
    const freight = await takenFreight(app, shipper, carrierB);
    let events = await take();
    assert.deepEqual(recipients(events, 'document.added'), sorted(shipper.company, carrierB.company));
    assert.ok(
      events.filter((e) => e.type === 'document.added').every((e) => e.data.document.kind === 'order' && e.data.document.company === null),
    );
    ok(await app.post(`/freights/messages/${freight}.json`, { token: carrierB.token, json: { text: 'Loaded, on my way.' } }));
    events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['message.created', shipper.company]],
    );
    assert.equal(events[0]!.data.message.text, 'Loaded, on my way.');
    ok(
      await app.post(`/freights/messages/${freight}.json`, { token: shipper.token, json: { text: 'Thanks.', company: carrierB.company } }),
    );
    events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['message.created', carrierB.company]],
    );
    const pod = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    ok(
      await app.post(`/freights/documents/${freight}.json`, {
        token: carrierB.token,
        json: { kind: 'pod', name: 'pod.pdf', content: pod },
      }),
    );
    events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['document.added', shipper.company]],
    );
    assert.equal(events[0]!.data.document.company.id, carrierB.company);
  });

  test('cmr.signed reaches the other party of the signature alone', async () => {
    const freight = await takenFreight(app, shipper, carrierB);
    await take();
    ok(await app.post(`/freights/cmr-sign/${freight}.json`, { token: shipper.token, json: { role: 'sender', name: 'S. Sender' } }));
    let events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['cmr.signed', carrierB.company]],
    );
    ok(await app.post(`/freights/cmr-sign/${freight}.json`, { token: carrierB.token, json: { role: 'carrier', name: 'C. Driver' } }));
    events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['cmr.signed', shipper.company]],
    );
  });

  test('freight.milestone and freight.late reach owner and winner only', async () => {
    const stamp = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const now = app.services.clock.now();
    const freight = await takenFreight(app, shipper, carrierB, {
      // an airport has coordinates: the ETA needs the destination's point
      to: 'airport:MUC',
      eta: stamp(new Date(now.getTime() + 3_600_000)),
      eta_end: stamp(new Date(now.getTime() + 2 * 3_600_000)),
    });
    await take();
    const from = await app.services.db
      .selectFrom('freights')
      .select(['from_latitude', 'from_longitude'])
      .where('id', '=', freight)
      .executeTakeFirstOrThrow();
    assert.ok(from.from_latitude !== null && from.from_longitude !== null, 'the freight has an origin point');
    // At the origin: arrived at pickup; and Munich is hours away by road while the window ends in
    // two hours: late, told at once.
    const at = { latitude: Number(from.from_latitude), longitude: Number(from.from_longitude), at: stamp(now) };
    ok(await app.post(`/freights/positions/${freight}.json`, { token: carrierB.token, json: { positions: [at] } }));
    const events = await take();
    assert.deepEqual(recipients(events, 'freight.milestone'), sorted(shipper.company, carrierB.company));
    assert.deepEqual(recipients(events, 'freight.late'), sorted(shipper.company, carrierB.company));
    assert.deepEqual(new Set(events.map((e) => e.type)), new Set(['freight.milestone', 'freight.late']));
  });

  test('bid.countered reaches the bidder alone; freight.offered the carrier whose turn starts, and no one else (docs/reference.md#one-step)', async () => {
    const open = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'airport:FRA', to: 'airport:AMS', weight: 900 } }),
    );
    assert.equal(
      (await app.post(`/freights/view/${open.id}.json`, { token: shipper.token, json: { action: 'publish', deadline: '+2 days' } })).status,
      302,
    );
    const bid = ok(
      await app.post('/quotes/add.json', { token: carrierA.token, json: { route: open.id, amount: '800', currency_code: 'EUR' } }),
    ).bid;
    await take();
    ok(await app.post(`/quotes/counter/${bid.id}.json`, { token: shipper.token, json: { amount: '750', note: 'budget' } }));
    let events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['bid.countered', carrierA.company]],
    );
    assert.equal(events[0]!.data.bid.counter.amount, 750);

    const draft = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'airport:FRA', to: 'airport:AMS', weight: 900 } }),
    );
    await take();
    ok(
      await app.post(`/freights/waterfall/${draft.id}.json`, {
        token: shipper.token,
        json: { carriers: [carrierB.company, carrierA.company], price: 640, minutes: 60 },
      }),
    );
    events = await take();
    assert.deepEqual(recipients(events, 'freight.offered'), [carrierB.company]);
    assert.equal(events.find((e) => e.type === 'freight.offered')!.data.route.book_now, 640);
    ok(await app.post(`/quotes/decline/${draft.id}.json`, { token: carrierB.token }));
    events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['freight.offered', carrierA.company]],
    );
  });

  test('webhook.test reaches the one webhook it was sent to', async () => {
    const hook = (await app.get('/webhooks/index.json', { token: handler.token })).body.data.webhooks[0];
    ok(await app.post(`/webhooks/test/${hook.id}.json`, { token: handler.token }));
    const events = await take();
    assert.deepEqual(
      events.map((e) => [e.type, e.company]),
      [['webhook.test', handler.company]],
    );
  });

  test('no event for a change that rolled back, and the outsider never received anything but its match', async () => {
    await assert.rejects(
      app.services.db.transaction().execute(async (trx) => {
        await emitEvent(trx, app.services.clock, { type: 'freight.updated', freightId: route });
        throw new Error('the change fails after emitting');
      }),
    );
    assert.deepEqual(await take(), []);
    const toOutsider = receiver.received.filter((r) => r.path === `/c/${outsider.company}`).map((r) => r.json.type);
    assert.deepEqual(toOutsider, ['freight.matched']);
  });

  test('tender.published reaches the invited, tender.awarded the awarded and tender.lost the other bidders; none carries another’s bid', async () => {
    const d = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const deadline = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    const tender = ok(
      await app.post('/tenders/add.json', {
        token: shipper.token,
        json: {
          name: 'T',
          valid_from: d(1),
          valid_to: d(200),
          deadline,
          invited: [carrierA.company, carrierB.company],
          lanes: [{ from: 'DE', to: 'FR', loads: 3 }],
        },
      }),
    ).tender;
    await take();
    ok(await app.post(`/tenders/publish/${tender.id}.json`, { token: shipper.token }));
    let events = await take();
    assert.deepEqual(events.map((e) => [e.type, e.company]).sort(), [
      ['tender.published', carrierA.company],
      ['tender.published', carrierB.company],
    ]);
    const lane = tender.lanes[0].id;
    ok(await app.post(`/tenders/bid/${tender.id}.json`, { token: carrierA.token, json: { bids: [{ lane, price: 777.77, capacity: 2 }] } }));
    ok(await app.post(`/tenders/bid/${tender.id}.json`, { token: carrierB.token, json: { bids: [{ lane, price: 888.88, capacity: 2 }] } }));
    assert.deepEqual(await take(), [], 'a bid is sealed: no event');
    await app.services.db
      .updateTable('tenders')
      .set({ deadline: new Date(Date.now() - 1000) })
      .where('id', '=', tender.id)
      .execute();
    ok(
      await app.post(`/tenders/award/${tender.id}.json`, {
        token: shipper.token,
        json: { awards: [{ lane, company: carrierA.company, rank: 1 }] },
      }),
    );
    events = await take();
    assert.deepEqual(events.map((e) => [e.type, e.company]).sort(), [
      ['tender.awarded', carrierA.company],
      ['tender.lost', carrierB.company],
    ]);
    assert.ok(!JSON.stringify(events.find((e) => e.type === 'tender.lost')).includes('777.77'), 'the loser never sees the winning price');
  });

  test('every event type the description documents was delivered here and conformed to it', async () => {
    const documented = Object.keys((await app.get('/openapi.json')).body.webhooks).sort();
    assert.deepEqual([...conforming].sort(), documented);
    assert.deepEqual(documented, [...EVENT_TYPES, TEST_EVENT].sort());
  });
});
