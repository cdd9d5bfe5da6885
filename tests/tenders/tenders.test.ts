import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { seedAward } from '../lanes/helpers.ts';
import { browserSession, cookiesOf } from '../support/session.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';

/**
 * docs/reference.md#tenders, lane tenders and contracts: every refusal of a tender (naming the lane's
 * position and field, nothing stored), who sees a tender (404 for neither owner nor invited),
 * sealed bids before and after the deadline through the view, the index, the events (the outbox
 * webhooks and the live board are fed from) and the owner's pages, replacement of bids, the
 * deadline closing the tender by the sweeper, the award only to bidders at their bid prices, the
 * events to winners and losers, the contracts of both sides, and the routing guide (§16) at
 * each carrier's own contract price.
 */

let app: TestApp;
let shipper: Actor, carrierA: Actor, carrierB: Actor, carrierC: Actor, outsider: Actor;

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const refused = (res: ApiResponse, code: string) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'error', res.text);
  assert.equal(res.body.code, code, res.text);
  return res.body;
};
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const inHours = (h: number) => {
  const d = new Date(Date.now() + h * 3_600_000);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
};
const LANES = [
  { from: 'DE-60', to: 'FR-75', loads: 10, weight: 24000, body: 'tautliner' },
  { from: 'de 80', to: 'IT', loads: 4, note: 'ramp 3' },
  { from: 'airport:FRA', to: 'PL-0', loads: 2 },
];
const base = (over: Record<string, unknown> = {}) => ({
  name: 'Yearly tender 2031',
  valid_from: day(1),
  valid_to: day(366),
  deadline: inHours(2),
  lanes: LANES,
  ...over,
});
const add = (json: Record<string, unknown>, who = shipper) => app.post('/tenders/add.json', { token: who.token, json });
const view = (id: number, who: Actor) => app.get(`/tenders/view/${id}.json`, { token: who.token });
const bid = (id: number, who: Actor, bids: unknown) => app.post(`/tenders/bid/${id}.json`, { token: who.token, json: { bids } });
const count = async (table: 'tenders' | 'tender_lanes' | 'tender_bids' | 'contracts') =>
  Number(
    (
      await app.services.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const eventsOf = async (type: string) =>
  (await app.services.db.selectFrom('events').select(['company_id', 'body']).where('type', '=', type).orderBy('seq').execute()).map(
    (e) => ({
      company: e.company_id,
      data: JSON.parse(e.body).data,
    }),
  );

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'UTC' } });
  shipper = await app.actor('Shipper');
  carrierA = await app.actor('Alpha');
  carrierB = await app.actor('Beta');
  carrierC = await app.actor('Gamma');
  outsider = await app.actor('Outsider');
});
after(() => {
  app.setNow(null);
  return app.close();
});

describe(`lane tenders (docs/reference.md#tenders) (${TEST_DB})`, () => {
  let tender: any;

  test('refusals of a tender: each names the field, a bad lane its position and field; nothing stored', async () => {
    const before = await count('tenders');
    const lanesBefore = await count('tender_lanes');
    refused(await add(base({ name: '' })), 'tenders.name_invalid');
    refused(await add(base({ name: 'x'.repeat(201) })), 'tenders.name_invalid');
    refused(await add(base({ valid_from: '2031-02-30' })), 'tenders.period_invalid');
    refused(await add(base({ valid_from: day(10), valid_to: day(5) })), 'tenders.period_invalid');
    refused(await add(base({ deadline: '2020-01-01 10:00' })), 'tenders.deadline_invalid');
    refused(await add(base({ deadline: 'tomorrow' })), 'tenders.deadline_invalid');
    refused(await add(base({ currency: 'EURO' })), 'tenders.currency_invalid');
    refused(await add(base({ invited: [shipper.company] })), 'tenders.invited_invalid');
    refused(await add(base({ invited: ['x'] })), 'tenders.invited_invalid');
    refused(await add(base({ lanes: [] })), 'tenders.lanes_invalid');
    refused(await add(base({ lanes: Array.from({ length: 1001 }, () => LANES[0]) })), 'tenders.lanes_invalid');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: 'XX-60', to: 'FR', loads: 1 }, 'from'],
      [{ from: 'DE', to: 'Paris', loads: 1 }, 'to'],
      [{ from: 'DE', to: 'FR', loads: 0 }, 'loads'],
      [{ from: 'DE', to: 'FR' }, 'loads'],
      [{ from: 'DE', to: 'FR', loads: 1, weight: -5 }, 'weight'],
      [{ from: 'DE', to: 'FR', loads: 1, body: 'spaceship' }, 'body'],
      [{ from: 'DE', to: 'FR', loads: 1, note: 'n'.repeat(501) }, 'note'],
    ];
    for (const [lane, field] of cases) {
      const body = refused(await add(base({ lanes: [LANES[0], LANES[1], lane] })), 'tenders.lane_invalid');
      assert.deepEqual(body.data.errors[0].field, `lanes[2].${field}`);
      assert.equal(body.data.errors[0].position, 3);
      assert.match(body.message, new RegExp(`^Lane 3, ${field}:`));
    }
    assert.equal(await count('tenders'), before);
    assert.equal(await count('tender_lanes'), lanesBefore);
  });

  test('a draft with its lanes (patterns normalised), unseen by others until published; publish sends tender.published to the invited', async () => {
    tender = ok(await add(base({ invited: [carrierA.company, carrierB.company, carrierC.company] }))).tender;
    assert.equal(tender.status, 'draft');
    assert.deepEqual(
      tender.lanes.map((l: any) => [l.position, l.from, l.to, l.loads]),
      [
        [1, 'DE-60', 'FR-75', 10],
        [2, 'DE-80', 'IT', 4],
        [3, 'airport:FRA', 'PL-0', 2],
      ],
    );
    assert.ok(tender.lanes.every((l: any) => Number.isInteger(l.id)));
    assert.equal((await view(tender.id, carrierA)).status, 404, 'a draft is its owner’s alone');
    refused(await bid(tender.id, shipper, [{ lane: tender.lanes[0].id, price: 900, capacity: 5 }]), 'tenders.own_tender');
    const published = ok(await app.post(`/tenders/publish/${tender.id}.json`, { token: shipper.token })).tender;
    assert.equal(published.status, 'open');
    refused(await app.post(`/tenders/publish/${tender.id}.json`, { token: shipper.token }), 'tenders.not_draft');
    assert.equal((await app.post(`/tenders/publish/${tender.id}.json`, { token: carrierA.token })).status, 404);
    const events = await eventsOf('tender.published');
    assert.deepEqual(events.map((e) => e.company).sort(), [carrierA.company, carrierB.company, carrierC.company].sort());
    assert.equal(events[0]!.data.tender.id, tender.id);
    assert.equal(events[0]!.data.tender.lanes, 3);
    // and the notification: each invited company's user reads it, naming the tender; no one else
    const notices = async (who: Actor) =>
      ok(await app.get('/notifications/index.json', { token: who.token })).notifications.filter((n: any) => n.type === 'tender.published');
    const [notice] = await notices(carrierA);
    assert.ok(notice, 'the invited company is notified');
    assert.equal(notice.tender_id, tender.id);
    assert.equal(notice.tender.id, tender.id);
    assert.equal(notice.tender.name, 'Yearly tender 2031');
    assert.equal(notice.tender.company.id, shipper.company);
    assert.equal(notice.route, null);
    assert.equal((await notices(outsider)).length, 0, 'not invited: no notification');
    assert.equal((await notices(shipper)).length, 0, 'the owner is not notified of its own tender');
    const session = await browserSession(app, carrierA);
    const opened = await app.get(`/notifications/open/${notice.id}`, { headers: { cookie: session.cookie } });
    assert.equal(opened.status, 302);
    assert.equal(opened.headers.location, `/tenders/view/${tender.id}`);
    const page = await app.get('/notifications/index', { headers: { cookie: session.cookie } });
    assert.match(page.text, /Invitation to a lane tender/);
    assert.match(page.text, /Yearly tender 2031/);
    // neither owner nor invited: 404 everywhere
    assert.equal((await view(tender.id, outsider)).status, 404);
    assert.equal((await bid(tender.id, outsider, [{ lane: tender.lanes[0].id, price: 1, capacity: 1 }])).status, 404);
    assert.ok(!ok(await app.get('/tenders/index.json', { token: outsider.token })).tenders.some((t: any) => t.id === tender.id));
    assert.ok(ok(await app.get('/tenders/index.json', { token: carrierA.token })).tenders.some((t: any) => t.id === tender.id));
    assert.ok(ok(await app.get('/tenders/index.json', { token: shipper.token })).tenders.some((t: any) => t.id === tender.id));
  });

  test('bids: one bad item refuses the whole request; a bidder sees only its own; the owner sees none before the deadline', async () => {
    const [l1, l2, l3] = tender.lanes.map((l: any) => l.id);
    const bids = await count('tender_bids');
    let body = refused(
      await bid(tender.id, carrierA, [
        { lane: l1, price: 900, capacity: 5 },
        { lane: l2, price: 0, capacity: 1 },
      ]),
      'tenders.bid_invalid',
    );
    assert.equal(body.data.errors[0].field, 'bids[1].price');
    body = refused(await bid(tender.id, carrierA, [{ lane: l1, price: 900, capacity: 0 }]), 'tenders.bid_invalid');
    assert.equal(body.data.errors[0].field, 'bids[0].capacity');
    body = refused(
      await bid(tender.id, carrierA, [
        { lane: l1, price: 900, capacity: 2 },
        { lane: 999999, price: 5, capacity: 1 },
      ]),
      'tenders.bid_invalid',
    );
    assert.equal(body.data.errors[0].field, 'bids[1].lane');
    refused(
      await bid(tender.id, carrierA, [
        { lane: l1, price: 9, capacity: 1 },
        { lane: l1, price: 8, capacity: 1 },
      ]),
      'tenders.bid_invalid',
    );
    refused(await bid(tender.id, carrierA, []), 'tenders.bids_invalid');
    assert.equal(await count('tender_bids'), bids, 'nothing stored');

    ok(
      await bid(tender.id, carrierA, [
        { lane: l1, price: 1111.11, capacity: 5 },
        { lane: l2, price: 700, capacity: 2 },
      ]),
    );
    // replaces its bid on lane 1, keeps lane 2
    const a = ok(await bid(tender.id, carrierA, [{ lane: l1, price: '950.50', capacity: 6 }])).tender;
    assert.deepEqual(a.lanes[0].bid, { price: 950.5, capacity: 6 });
    assert.deepEqual(a.lanes[1].bid, { price: 700, capacity: 2 });
    assert.equal(a.lanes[2].bid, null);
    ok(
      await bid(tender.id, carrierB, [
        { lane: l1, price: 870, capacity: 3 },
        { lane: l3, price: 2222.22, capacity: 1 },
      ]),
    );
    ok(await bid(tender.id, carrierC, [{ lane: l1, price: 990, capacity: 4 }]));

    const b = ok(await view(tender.id, carrierB)).tender;
    assert.deepEqual(b.lanes[0].bid, { price: 870, capacity: 3 });
    assert.equal(b.lanes[1].bid, null);
    assert.ok(
      b.lanes.every((l: any) => !('bids' in l)),
      'a bidder never sees `bids`',
    );
    assert.ok(!JSON.stringify(b).includes('950.5') && !JSON.stringify(b).includes('990'), 'nor another company’s price');
    const owner = ok(await view(tender.id, shipper)).tender;
    assert.ok(
      owner.lanes.every((l: any) => Array.isArray(l.bids) && l.bids.length === 0),
      'the owner sees no bid before the deadline',
    );
    const page = await app.get(`/tenders/view/${tender.id}`, { headers: { cookie: (await browserSession(app, shipper)).cookie } });
    assert.match(page.text, /data-testid="lane-1"/);
    assert.ok(!page.text.includes('950') && !page.text.includes('870'), 'nor on its page');
    assert.equal((await app.get(`/tenders/export/${tender.id}`, { token: shipper.token })).status, 404, 'nor in an export');
    const events = await app.services.db.selectFrom('events').select('body').execute();
    assert.ok(!events.some((e) => e.body.includes('950.5') || e.body.includes('2222.22')), 'no event carries a bid');
  });

  test('the deadline closes the tender without a request (the sweeper); then bids are refused and the owner sees every bid', async () => {
    const [l1] = tender.lanes.map((l: any) => l.id);
    refused(
      await app.post(`/tenders/award/${tender.id}.json`, {
        token: shipper.token,
        json: { awards: [{ lane: l1, company: carrierB.company, rank: 1 }] },
      }),
      'tenders.not_closed',
    );
    app.setNow(new Date(Date.now() + 3 * 3_600_000));
    assert.equal(await app.tenders.sweep(), 1);
    const row = await app.services.db.selectFrom('tenders').select('status').where('id', '=', tender.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'closed');
    refused(await bid(tender.id, carrierA, [{ lane: l1, price: 10, capacity: 1 }]), 'tenders.closed');
    const owner = ok(await view(tender.id, shipper)).tender;
    assert.equal(owner.status, 'closed');
    assert.deepEqual(
      owner.lanes[0].bids.map((b: any) => [b.company, b.price, b.capacity]),
      [
        [carrierB.company, 870, 3],
        [carrierA.company, 950.5, 6],
        [carrierC.company, 990, 4],
      ],
      'sorted by price',
    );
    assert.deepEqual(
      owner.lanes[1].bids.map((b: any) => b.company),
      [carrierA.company],
    );
    // still sealed for the bidders after the deadline
    const c = ok(await view(tender.id, carrierC)).tender;
    assert.ok(c.lanes.every((l: any) => !('bids' in l)));
    const page = await app.get(`/tenders/view/${tender.id}`, { headers: { cookie: (await browserSession(app, shipper)).cookie } });
    assert.match(page.text, /data-testid="evaluate-lane-1"/);
    assert.ok(page.text.indexOf(carrierB.companyName) < page.text.indexOf(carrierA.companyName), 'the evaluation lists bids by price');
    const csv = await app.get(`/tenders/export/${tender.id}`, { token: shipper.token });
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    assert.match(csv.text, new RegExp(`1;DE-60;FR-75;10;${carrierB.company};[^;]*;870\\.00;EUR;3`));
    assert.equal((await app.get(`/tenders/export/${tender.id}`, { token: carrierA.token })).status, 404, 'a bidder exports nothing');
  });

  test('award only to bidders at their bid prices; awarded, tender.awarded and tender.lost; contracts of both sides', async () => {
    const [l1, l2, l3] = tender.lanes.map((l: any) => l.id);
    const award = (awards: unknown, who = shipper) => app.post(`/tenders/award/${tender.id}.json`, { token: who.token, json: { awards } });
    let body = refused(await award([{ lane: l2, company: carrierB.company, rank: 1 }]), 'tenders.award_invalid');
    assert.equal(body.data.errors[0].field, 'awards[0].company');
    body = refused(await award([{ lane: 999999, company: carrierB.company, rank: 1 }]), 'tenders.award_invalid');
    assert.equal(body.data.errors[0].field, 'awards[0].lane');
    refused(
      await award([
        { lane: l1, company: carrierB.company, rank: 1 },
        { lane: l1, company: carrierA.company, rank: 1 },
      ]),
      'tenders.award_invalid',
    );
    refused(await award([]), 'tenders.awards_invalid');
    assert.equal((await award([{ lane: l1, company: carrierB.company, rank: 1 }], carrierA)).status, 404);
    assert.equal(await count('contracts'), 0);
    const done = ok(
      await award([
        { lane: l1, company: carrierB.company, rank: 1 },
        { lane: l1, company: carrierA.company, rank: 2 },
        { lane: l3, company: carrierB.company, rank: 1 },
      ]),
    );
    assert.equal(done.tender.status, 'awarded');
    assert.deepEqual(
      done.contracts.map((c: any) => [c.lane, c.carrier.id, c.rank, c.price]),
      [
        [l1, carrierB.company, 1, 870],
        [l1, carrierA.company, 2, 950.5],
        [l3, carrierB.company, 1, 2222.22],
      ],
    );
    refused(await award([{ lane: l2, company: carrierA.company, rank: 1 }]), 'tenders.already_awarded');
    const awarded = await eventsOf('tender.awarded');
    assert.deepEqual(awarded.map((e) => e.company).sort(), [carrierA.company, carrierB.company].sort());
    const toA = awarded.find((e) => e.company === carrierA.company)!;
    assert.deepEqual(
      toA.data.contracts.map((c: any) => [c.lane, c.price]),
      [[l1, 950.5]],
      'each its own contracts only',
    );
    assert.deepEqual(
      (await eventsOf('tender.lost')).map((e) => e.company),
      [carrierC.company],
    );

    const mine = ok(await app.get('/contracts/index.json', { token: shipper.token })).contracts;
    assert.equal(mine.length, 3);
    // The tender's lanes in its order, each lane's primary carrier before its backup.
    assert.deepEqual(
      mine.map((x: any) => [x.lane, x.rank]),
      [
        [l1, 1],
        [l1, 2],
        [l3, 1],
      ],
    );
    const c = mine.find((x: any) => x.carrier.id === carrierA.company);
    assert.deepEqual(
      { ...c, id: 0 },
      {
        id: 0,
        tender: tender.id,
        lane: l1,
        from: 'DE-60',
        to: 'FR-75',
        shipper: { id: shipper.company, name: shipper.companyName },
        carrier: { id: carrierA.company, name: carrierA.companyName },
        rank: 2,
        price: 950.5,
        currency: 'EUR',
        loads: 10,
        valid_from: tender.valid_from,
        valid_to: tender.valid_to,
      },
    );
    const theirs = ok(await app.get('/contracts/index.json', { token: carrierB.token })).contracts;
    assert.deepEqual(
      theirs.map((x: any) => [x.lane, x.shipper.id, x.carrier.id]).sort(),
      [
        [l1, shipper.company, carrierB.company],
        [l3, shipper.company, carrierB.company],
      ].sort(),
    );
    assert.deepEqual(ok(await app.get('/contracts/index.json', { token: carrierC.token })).contracts, []);
    assert.deepEqual(ok(await app.get('/contracts/index.json', { token: outsider.token })).contracts, []);
    const page = await app.get('/contracts/index', { headers: { cookie: (await browserSession(app, carrierB)).cookie } });
    assert.match(page.text, /data-testid="contracts"/);
  });

  test('the routing guide: a freight on a contract lane goes to the primary first, each carrier at its own price', async () => {
    const pickup = `${day(30)} 08:00`;
    const draft = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 8000, from_addr: 'Dock 1', to_addr: 'Dock 2', etd: pickup },
      }),
    ).id as number;
    const started = ok(await app.post(`/freights/waterfall/${draft}.json`, { token: shipper.token, json: { guide: 1, minutes: 30 } }));
    assert.equal(started.status, 'open');
    const fall = await app.services.db
      .selectFrom('freight_waterfalls')
      .selectAll()
      .where('freight_id', '=', draft)
      .executeTakeFirstOrThrow();
    assert.deepEqual(fall.carriers, [carrierB.company, carrierA.company]);
    assert.deepEqual(fall.prices.map(Number), [870, 950.5]);
    assert.equal(fall.guide, true);
    const seen = ok(await app.get(`/freights/view/${draft}.json`, { token: carrierB.token })).route;
    assert.equal(seen.book_now, 870);
    assert.equal((await app.get(`/freights/view/${draft}.json`, { token: carrierA.token })).status, 404, 'the backup waits for its turn');
    // its pass: the backup's turn at its own price
    ok(await app.post(`/quotes/decline/${draft}.json`, { token: carrierB.token }));
    assert.equal(ok(await app.get(`/freights/view/${draft}.json`, { token: carrierA.token })).route.book_now, 950.5);

    // the draft's page offers the guide, with the carriers in order
    const next = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 100, etd: pickup },
      }),
    ).id;
    const draftPage = await app.get(`/freights/view/${next}`, { headers: { cookie: (await browserSession(app, shipper)).cookie } });
    assert.match(draftPage.text, /data-testid="routing-guide"/);
    const guide = /data-testid="routing-guide"[\s\S]*?<\/section>/.exec(draftPage.text)![0];
    assert.ok(
      guide.indexOf(carrierB.companyName) >= 0 && guide.indexOf(carrierB.companyName) < guide.indexOf(carrierA.companyName),
      'primary first',
    );
    // no contract for the lane, or outside the contract period: refused
    const other = ok(
      await app.post('/freights/add.json', { token: shipper.token, json: { from: 'city:AT-1010', to: 'city:FR-75001', weight: 100 } }),
    ).id;
    refused(
      await app.post(`/freights/waterfall/${other}.json`, { token: shipper.token, json: { guide: 1, minutes: 30 } }),
      'freight.waterfall.no_contracts',
    );
    const late = ok(
      await app.post('/freights/add.json', {
        token: shipper.token,
        json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 100, etd: `${day(900)} 08:00` },
      }),
    ).id;
    refused(
      await app.post(`/freights/waterfall/${late}.json`, { token: shipper.token, json: { guide: 1, minutes: 30 } }),
      'freight.waterfall.no_contracts',
    );
    // another company's contracts are not its guide
    const carriers = ok(
      await app.post('/freights/add.json', { token: carrierB.token, json: { from: 'city:DE-60311', to: 'city:FR-75001', weight: 100 } }),
    ).id;
    refused(
      await app.post(`/freights/waterfall/${carriers}.json`, { token: carrierB.token, json: { guide: 1, minutes: 30 } }),
      'freight.waterfall.no_contracts',
    );
    assert.equal(
      (await app.post(`/freights/waterfall/${other}.json`, { token: carrierB.token, json: { guide: 1, minutes: 30 } })).status,
      404,
    );
  });

  test('every company when none is invited, except one that blocked the shipper (the push rule)', async () => {
    app.setNow(null);
    ok(await app.post(`/companies/block/${shipper.company}.json`, { token: outsider.token }));
    const t = ok(await add(base({ name: 'Open to all' }))).tender;
    const before = (await eventsOf('tender.published')).length;
    ok(await app.post(`/tenders/publish/${t.id}.json`, { token: shipper.token }));
    const to = (await eventsOf('tender.published')).slice(before).map((e) => e.company);
    assert.ok(to.includes(carrierC.company));
    assert.ok(!to.includes(outsider.company), 'a company that blocked the shipper gets no push from it');
    assert.ok(!to.includes(shipper.company));
    assert.equal((await view(t.id, carrierC)).status, 200);
    const notified = async (who: Actor) =>
      ok(await app.get('/notifications/index.json', { token: who.token })).notifications.some((n: any) => n.tender_id === t.id);
    assert.ok(await notified(carrierC), 'every company is notified when none is invited');
    assert.ok(!(await notified(outsider)), 'a company that blocked the shipper gets no notification from it');
  });

  test('the tender form names the invited companies (the shared company picker): names become ids, an unknown name refuses', async () => {
    app.setNow(null);
    const session = await browserSession(app, shipper);
    const form = await app.get('/tenders/index', { headers: { cookie: session.cookie } });
    assert.match(form.text, /<input id="tender-invited" name="invited_names" list="tender-invited-companies"/);
    assert.match(form.text, /<datalist id="tender-invited-companies">/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const post = (invited: string) =>
      app.post('/tenders/add', {
        headers: { cookie: session.cookie },
        form: {
          _csrf: csrf,
          name: 'Picked',
          valid_from: day(1),
          valid_to: day(300),
          deadline: inHours(5),
          currency: 'EUR',
          invited_names: invited,
          lanes_csv: 'from;to;loads\nDE-60;FR-75;3\n',
        },
      });
    const before = await count('tenders');
    const refusedPost = await post(`${carrierA.companyName}, No Such Company GmbH`);
    assert.equal(refusedPost.status, 302);
    assert.equal(await count('tenders'), before, 'an unknown name stores nothing');
    const flash = await app.get('/tenders/index', { headers: { cookie: `${session.cookie}; ${cookiesOf(refusedPost)}` } });
    assert.match(flash.text, /Unknown company: No Such Company GmbH/);
    const done = await post(`${carrierA.companyName}, ${carrierB.companyName.toUpperCase()}`);
    assert.equal(done.status, 302);
    const id = Number(/\/tenders\/view\/(\d+)/.exec(String(done.headers.location))![1]);
    assert.deepEqual(ok(await view(id, shipper)).tender.invited, [carrierA.company, carrierB.company]);
  });

  test("market prices beside every lane (not the first 20 only): the lane prices page's last median, in the page and the export", async () => {
    app.setNow(null);
    // The awards are dated at the evaluation, 6 hours from now (after the tender's deadline): the
    // medians are the evaluation month's, and awards dated now had none late on a month's last day.
    const at = new Date(Date.now() + 6 * 3_600_000);
    const owners = [carrierA, carrierB, carrierC];
    const munich = { code: '80331', country: 'DE' };
    // Five awards of three owners on DE-60 → FR-75 and on DE-80 → FR-75: each cell a batch the first read releases.
    for (let i = 0; i < 5; i++) {
      await seedAward(app, { owner: owners[i % 3]!, winner: outsider, price: String(1000 + i * 100), at });
      await seedAward(app, { owner: owners[i % 3]!, winner: outsider, price: String(2000 + i * 100), at, from: munich });
    }
    const lanes = [
      ...Array.from({ length: 22 }, (_, i) => ({ from: `DE-${10 + i}`, to: 'FR-13', loads: 1 })),
      { from: 'DE-60', to: 'FR-75', loads: 3 },
      { from: 'DE', to: 'FR', loads: 2 },
      { from: 'DE-6', to: 'FR-7', loads: 1 },
      { from: 'airport:FRA', to: 'FR-75', loads: 1 },
    ];
    const t = ok(await add(base({ name: 'Many lanes', lanes, invited: [carrierA.company] }))).tender;
    ok(await app.post(`/tenders/publish/${t.id}.json`, { token: shipper.token }));
    ok(await bid(t.id, carrierA, [{ lane: t.lanes[22].id, price: 1100, capacity: 3 }]));
    app.setNow(at);
    const page = await app.get(`/tenders/view/${t.id}`, { headers: { cookie: (await browserSession(app, shipper)).cookie } });
    assert.equal(page.status, 200);
    const section = (n: number) => {
      const from = page.text.indexOf(`data-testid="evaluate-lane-${n}"`);
      return page.text.slice(from, page.text.indexOf('</section>', from));
    };
    // What the lane prices page answers for each lane: its last month's median.
    const median = async (from: string, to: string) => {
      const months = ok(await app.get(`/market/prices.json?from=${from}&to=${to}`, { token: shipper.token })).months;
      return months.at(-1).median as number | null;
    };
    assert.equal(await median('DE-60', 'FR-75'), 1200);
    assert.equal(await median('DE', 'FR'), 1700, 'a country lane merges its cells');
    assert.equal(await median('DE-6', 'FR-7'), 1200);
    assert.match(section(23), /Market price \(median\): €1,200\.00/);
    assert.match(section(24), /Market price \(median\): €1,700\.00/);
    assert.match(section(25), /Market price \(median\): €1,200\.00/);
    assert.match(section(26), /no market price/, 'an airport lane has none');
    assert.match(section(1), /no market price/);
    assert.match(section(23), /€1,100\.00/, 'the bid beside it');
    const csv = await app.get(`/tenders/export/${t.id}`, { token: shipper.token });
    assert.match(csv.text, new RegExp(`\\n23;DE-60;FR-75;3;${carrierA.company};[^;]*;1100\\.00;EUR;3;[^;]*;[01];1200\\n`));
    app.setNow(null);
  });
  test("the evaluation page shows each lane's cheapest 5 bids (by price, then company) and links the rest; all=1 and the JSON carry every bid", async () => {
    app.setNow(null);
    const more = [await app.actor('Delta'), await app.actor('Epsilon'), await app.actor('Zeta')];
    const [delta, epsilon, zeta] = more as [Actor, Actor, Actor];
    const t = ok(
      await add(
        base({
          name: 'Cheapest five',
          lanes: [
            { from: 'DE-60', to: 'FR-75', loads: 2 },
            { from: 'DE-80', to: 'FR-13', loads: 1 },
          ],
          invited: [],
        }),
      ),
    ).tender;
    ok(await app.post(`/tenders/publish/${t.id}.json`, { token: shipper.token }));
    const prices: Array<[Actor, number]> = [
      [carrierA, 1000],
      [carrierB, 900],
      [carrierC, 900],
      [outsider, 1100],
      [delta, 800],
      [epsilon, 1200],
      [zeta, 900],
    ];
    for (const [who, price] of prices) ok(await bid(t.id, who, [{ lane: t.lanes[0].id, price, capacity: 2 }]));
    app.setNow(new Date(Date.now() + 6 * 3_600_000));
    // By price, then company id: 800, the three of 900 by id, 1000, 1100, 1200.
    const order = [...prices].sort((a, b) => a[1] - b[1] || a[0].company - b[0].company).map(([who]) => who.companyName);
    const cookie = (await browserSession(app, shipper)).cookie;
    const namesIn = (html: string, lane: number) => {
      const from = html.indexOf(`data-testid="evaluate-lane-${lane}"`);
      const section = html.slice(from, html.indexOf('</section>', from));
      return { section, names: [...section.matchAll(/<tr><td>([^<]*)/g)].map((m) => m[1]) };
    };
    const page = await app.get(`/tenders/view/${t.id}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const first = namesIn(page.text, 1);
    assert.deepEqual(first.names, order.slice(0, 5));
    assert.match(first.section, new RegExp(`href="/tenders/view/${t.id}\\?all=1#lane-1">Show 2 more bids</a>`));
    assert.match(namesIn(page.text, 2).section, /no bids/, 'a lane without bids');
    const all = await app.get(`/tenders/view/${t.id}?all=1`, { headers: { cookie } });
    assert.deepEqual(namesIn(all.text, 1).names, order);
    assert.doesNotMatch(namesIn(all.text, 1).section, /more bids/);
    const json = ok(await view(t.id, shipper)).tender;
    assert.deepEqual(
      json.lanes[0].bids.map((b: { company_name: string }) => b.company_name),
      order,
    );
    assert.deepEqual(json.lanes[1].bids, []);
    app.setNow(null);
  });
});
