import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepTracking } from '../../src/positions/index.ts';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/** docs/reference.md#tracking: tracking by permission, through the API. */
describe(`tracking by permission (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor, loser: Actor, outsider: Actor;
  const FRANKFURT = { latitude: 50.1109, longitude: 8.6821 };
  const PARIS = { latitude: 48.8566, longitude: 2.3522 };
  const hour = 3_600_000;
  const NOW = new Date('2031-03-04T06:00:00Z');

  const success = (res: { status: number; body: any; text: string }) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data;
  };
  const refused = (res: { status: number; body: any; text: string }, code: string) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'error', res.text);
    assert.equal(res.body.code, code, res.text);
    return res.body;
  };
  /** `YYYY-MM-DD HH:MM:SS` of APP_TIMEZONE (UTC in tests). */
  const stamp = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  const post = (who: Actor, freight: number, positions: unknown) =>
    app.post(`/freights/positions/${freight}.json`, { token: who.token, json: { positions } });
  const read = (who: Actor, freight: number) => app.get(`/freights/positions/${freight}.json`, { token: who.token });
  const stored = async (freight: number) =>
    Number(
      (
        await app.services.db
          .selectFrom('freight_positions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('freight_id', '=', freight)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const eventsOf = (type: string, freight: number) =>
    app.services.db
      .selectFrom('events')
      .select(['company_id', 'body'])
      .where('type', '=', type)
      .where('freight_id', '=', freight)
      .orderBy('seq')
      .execute();
  const bidOn = async (who: Actor, freight: number, amount: string) =>
    success(await app.post('/quotes/add.json', { token: who.token, json: { route: freight, amount, currency_code: 'EUR' } })).bid;
  const award = async (freight: number) => {
    const bid = await bidOn(carrier, freight, '900.00');
    assert.equal((await app.post(`/quotes/confirm/${bid.id}.json`, { token: shipper.token })).status, 302);
    success(await app.post(`/quotes/confirm/${bid.id}.json`, { token: carrier.token }));
  };
  /** A freight Frankfurt -> Paris awarded to the carrier (the loser bid too). */
  const awarded = async (json: Record<string, unknown> = {}) => {
    const id = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      from_latitude: FRANKFURT.latitude,
      from_longitude: FRANKFURT.longitude,
      to: 'city:75001',
      to_country: 'FR',
      to_latitude: PARIS.latitude,
      to_longitude: PARIS.longitude,
      weight: 12000,
      etd: '2031-03-04 08:00',
      eta: '2031-03-05 08:00',
      eta_end: '2031-03-06 18:00',
      ...json,
    });
    await bidOn(loser, id, '950.00');
    await award(id);
    return id;
  };
  const deliver = async (freight: number) =>
    success(await app.post(`/freights/delivery/${freight}.json`, { token: carrier.token, json: { delivery_status: 3 } }));

  before(async () => {
    app = await startTestApp();
    app.setNow(NOW);
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    loser = await app.actor('Loser');
    outsider = await app.actor('Outsider');
  });
  after(() => app?.close());

  test('the winner shares positions; owner and winner read them with ETA and milestones; anyone else gets 404', async () => {
    const freight = await awarded();
    const t0 = new Date(NOW.getTime() - 2 * hour);
    // At the pickup, leaving it, on the way (given out of order: the answer is oldest first).
    const positions = [
      { latitude: 50.05, longitude: 8.2, at: stamp(new Date(t0.getTime() + 60 * 60_000)), speed: 78 },
      { latitude: 50.1112, longitude: 8.6825, at: stamp(t0) },
      { latitude: 50.1109, longitude: 8.6821, at: stamp(new Date(t0.getTime() + 10 * 60_000)), speed: 0 },
      { latitude: 50.09, longitude: 8.55, at: stamp(new Date(t0.getTime() + 30 * 60_000)), speed: 55.5 },
    ];
    const answer = success(await post(carrier, freight, positions));
    assert.equal(answer.stored, 4);
    assert.deepEqual(
      answer.milestones.map((m: { type: string }) => m.type),
      ['arrived_pickup', 'departed_pickup'],
    );
    for (const who of [shipper, carrier]) {
      const data = success(await read(who, freight));
      assert.deepEqual(
        data.positions.map((p: { at: string }) => p.at),
        [t0, new Date(t0.getTime() + 10 * 60_000), new Date(t0.getTime() + 30 * 60_000), new Date(t0.getTime() + 60 * 60_000)].map(stamp),
      );
      assert.deepEqual(data.positions[3], { latitude: 50.05, longitude: 8.2, at: positions[0]!.at, speed: 78, source: 'api' });
      // Without a speed, and with a fraction: stored as sent.
      assert.deepEqual(data.positions[0], { latitude: 50.1112, longitude: 8.6825, at: positions[1]!.at, speed: null, source: 'api' });
      assert.deepEqual(data.positions[2], { latitude: 50.09, longitude: 8.55, at: positions[3]!.at, speed: 55.5, source: 'api' });
      assert.deepEqual(data.milestones, [
        { type: 'arrived_pickup', at: stamp(t0) },
        { type: 'departed_pickup', at: stamp(new Date(t0.getTime() + 30 * 60_000)) },
      ]);
      // The ETA from the last position: the great circle (≈ 440 km to Paris) × 1.3, at 65 km/h with breaks and a rest.
      assert.ok(data.eta.km_left > 540 && data.eta.km_left < 600, String(data.eta.km_left));
      const hours = (Date.parse(`${data.eta.at.replace(' ', 'T')}Z`) - Date.parse(`${positions[0]!.at.replace(' ', 'T')}Z`)) / hour;
      const driving = data.eta.km_left / 65;
      assert.ok(Math.abs(hours - (driving + 0.75)) < 0.05, `${hours} h for ${driving} h of driving and one break`);
      assert.equal(data.late, false);
    }
    assert.ok(Array.isArray(success(await read(carrier, freight)).reads), 'the winner sees the reads');
    assert.equal(success(await read(shipper, freight)).reads, undefined, 'the owner does not');
    for (const who of [loser, outsider]) {
      const res = await read(who, freight);
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(res.body.data, []);
    }
    assert.equal((await read(carrier, 99_999_999)).status, 404);
    // Milestones went to the two parties, and to nobody else.
    const events = await eventsOf('freight.milestone', freight);
    assert.deepEqual([...new Set(events.map((e) => e.company_id))].sort(), [shipper.company, carrier.company].sort());
    assert.equal(events.length, 4);
    const body = JSON.parse(events[0]!.body);
    assert.deepEqual(body.data, { route_id: freight, milestone: { type: 'arrived_pickup', at: stamp(t0) } });
    // Arriving at Paris: arrived_delivery.
    const arrival = success(await post(carrier, freight, [{ latitude: 48.857, longitude: 2.353, at: stamp(NOW) }]));
    assert.deepEqual(arrival.milestones.at(-1), { type: 'arrived_delivery', at: stamp(NOW) });
    assert.ok(arrival.eta.km_left < 1.3);
  });

  test('only the winner sends, from the award until delivery; others are refused or get 404', async () => {
    const open = await openFreight(app, shipper, { from_latitude: 50.1, from_longitude: 8.6, to_latitude: 48.8, to_longitude: 2.3 });
    await bidOn(carrier, open, '800.00');
    const one = [{ latitude: 50, longitude: 8, at: stamp(NOW) }];
    refused(await post(shipper, open, one), 'positions.not_underway');
    refused(await post(carrier, open, one), 'positions.not_underway');
    // The market sees an open freight: told it is not underway (a freight it may not see: 404, below).
    refused(await post(outsider, open, one), 'positions.not_underway');
    assert.equal(await stored(open), 0);
    const freight = await awarded();
    refused(await post(shipper, freight, one), 'positions.winner_only');
    refused(await post(loser, freight, one), 'positions.winner_only');
    assert.equal((await post(outsider, freight, one)).status, 404);
    assert.equal(await stored(freight), 0);
    success(await post(carrier, freight, one));
    await deliver(freight);
    refused(await post(carrier, freight, one), 'positions.not_underway');
    assert.equal(await stored(freight), 1);
  });

  test('a batch is validated whole: the first bad item is named and nothing is stored', async () => {
    const freight = await awarded();
    const good = (i: number) => ({ latitude: 50 + i / 1000, longitude: 8, at: stamp(new Date(NOW.getTime() - i * 60_000)) });
    const cases: Array<[unknown, string, string]> = [
      [[], 'positions.count', 'positions'],
      [Array.from({ length: 1001 }, (_, i) => good(i)), 'positions.count', 'positions'],
      ['nonsense', 'positions.count', 'positions'],
      [[good(1), good(2), good(3), { ...good(4), latitude: 91 }], 'positions.latitude_invalid', 'positions[3].latitude'],
      [[good(1), { ...good(2), longitude: -180.5 }], 'positions.longitude_invalid', 'positions[1].longitude'],
      [[good(1), { ...good(2), longitude: '8,5' }], 'positions.longitude_invalid', 'positions[1].longitude'],
      [[{ ...good(1), at: stamp(new Date(NOW.getTime() + 6 * 60_000)) }], 'positions.at_invalid', 'positions[0].at'],
      [[{ ...good(1), at: 'yesterday' }], 'positions.at_invalid', 'positions[0].at'],
      [[good(1), { ...good(2), speed: -3 }], 'positions.speed_invalid', 'positions[1].speed'],
      [[good(1), 7], 'positions.item_invalid', 'positions[1]'],
    ];
    for (const [positions, code, field] of cases) {
      const body = refused(await post(carrier, freight, positions), code);
      assert.deepEqual(
        body.data.errors.map((e: { field: string }) => e.field),
        [field],
      );
      if (field !== 'positions') assert.ok(body.message.startsWith(field), body.message);
    }
    assert.equal(await stored(freight), 0);
    // Exactly 1,000, and ISO 8601 with a zone, and 4 minutes ahead, are taken.
    success(
      await post(
        carrier,
        freight,
        Array.from({ length: 1000 }, (_, i) => good(i + 10)),
      ),
    );
    success(
      await post(carrier, freight, [
        { latitude: 49, longitude: 7, at: new Date(NOW.getTime() + 4 * 60_000).toISOString() },
        { latitude: 49, longitude: 7, at: '2031-03-04T07:00:00+02:00' },
      ]),
    );
    assert.equal(await stored(freight), 1002);
    assert.equal(success(await read(carrier, freight)).positions.length, 500, 'at most the last 500');
  });

  test('lateness: told once, by the position that shows it or by the sweeper as time passes', async () => {
    // The window ends in 2 hours; from Frankfurt, Paris is a day away.
    const soon = await awarded({ eta: stamp(new Date(NOW.getTime() + hour)), eta_end: stamp(new Date(NOW.getTime() + 2 * hour)) });
    const late = success(await post(carrier, soon, [{ ...FRANKFURT, at: stamp(NOW) }]));
    assert.ok(late.eta);
    assert.equal(success(await read(shipper, soon)).late, true);
    let events = await eventsOf('freight.late', soon);
    assert.deepEqual(events.map((e) => e.company_id).sort(), [shipper.company, carrier.company].sort());
    assert.equal(JSON.parse(events[0]!.body).data.window_end, stamp(new Date(NOW.getTime() + 2 * hour)));
    success(await post(carrier, soon, [{ latitude: 49.5, longitude: 6, at: stamp(NOW) }]));
    await sweepTracking(app.services.db, app.services.clock);
    assert.equal((await eventsOf('freight.late', soon)).length, 2, 'once, to each party');

    // 30 km from Paris with a window ending in 3 hours: on time, until the clock passes the window.
    const near = await awarded({ eta: stamp(new Date(NOW.getTime() + 2 * hour)), eta_end: stamp(new Date(NOW.getTime() + 3 * hour)) });
    success(await post(carrier, near, [{ latitude: 48.9, longitude: 2.75, at: stamp(NOW) }]));
    assert.equal((await sweepTracking(app.services.db, app.services.clock)).late, 0);
    assert.equal((await eventsOf('freight.late', near)).length, 0);
    app.setNow(new Date(NOW.getTime() + 3 * hour + 60_000));
    try {
      const swept = await sweepTracking(app.services.db, app.services.clock);
      assert.ok(swept.late >= 1);
      events = await eventsOf('freight.late', near);
      assert.deepEqual(events.map((e) => e.company_id).sort(), [shipper.company, carrier.company].sort());
      await sweepTracking(app.services.db, app.services.clock);
      assert.equal((await eventsOf('freight.late', near)).length, 2, 'the sweeper tells it once');
      assert.equal(success(await read(carrier, near)).late, true);
    } finally {
      app.setNow(NOW);
    }
  });

  test("the winner sees who of the owner's company read the positions, and when", async () => {
    const freight = await awarded();
    success(await post(carrier, freight, [{ ...FRANKFURT, at: stamp(NOW) }]));
    assert.deepEqual(success(await read(carrier, freight)).reads, []);
    success(await read(shipper, freight));
    success(await read(shipper, freight)); // within 5 minutes: the same read
    let reads = success(await read(carrier, freight)).reads;
    assert.equal(reads.length, 1);
    assert.equal(reads[0].at, stamp(NOW));
    assert.equal(reads[0].user.id, shipper.user);
    assert.ok(reads[0].user.name.length > 0);
    app.setNow(new Date(NOW.getTime() + 10 * 60_000));
    try {
      success(await read(shipper, freight));
      reads = success(await read(carrier, freight)).reads;
      assert.deepEqual(
        reads.map((r: { at: string }) => r.at),
        [stamp(new Date(NOW.getTime() + 10 * 60_000)), stamp(NOW)],
      );
    } finally {
      app.setNow(NOW);
    }
  });

  test("the driver's link: that page and its positions only, ended by the winner or at delivery", async () => {
    const freight = await awarded();
    refused(await app.post(`/freights/tracking-link/${freight}.json`, { token: shipper.token }), 'positions.winner_only');
    refused(await app.post(`/freights/tracking-link/${freight}.json`, { token: loser.token }), 'positions.winner_only');
    assert.equal((await app.post(`/freights/tracking-link/${freight}.json`, { token: outsider.token })).status, 404);
    const link = success(await app.post(`/freights/tracking-link/${freight}.json`, { token: carrier.token })).link;
    const token = new URL(link.url).pathname.replace('/driver/', '');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(link.expires, stamp(new Date(NOW.getTime() + 14 * 86_400_000)));
    // The page says what is shared and with whom, in the reader's language.
    const page = await app.get(`/driver/${token}`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    assert.equal(page.status, 200);
    assert.match(page.text, /Nur Verlader und Frachtführer dieser Fracht sehen sie/);
    assert.match((await app.get(`/driver/${token}`)).text, /Only the shipper and the carrier of this freight see it/);
    const driver = (positions: unknown) => app.post(`/driver/${token}.json`, { json: { positions } });
    assert.deepEqual(success(await driver([{ latitude: 50.2, longitude: 8.1, at: stamp(NOW), speed: 80 }])), { stored: 1 });
    refused(await driver([{ latitude: 95, longitude: 8.1, at: stamp(NOW) }]), 'positions.latitude_invalid');
    const seen = success(await read(shipper, freight)).positions;
    assert.deepEqual(
      seen.map((p: { source: string }) => p.source),
      ['link'],
    );
    // The token opens nothing else: not the positions' reading, not another freight's page, not the API.
    assert.equal((await app.get(`/driver/${token}.json`)).status, 404);
    assert.equal((await app.get(`/freights/positions/${freight}.json`, { query: { auth_token: token } })).status, 401);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    assert.equal((await app.post(`/driver/${flipped}.json`, { json: { positions: [] } })).status, 404);
    // Revoked by the winner: the page and its posts end.
    const second = success(await app.post(`/freights/tracking-link/${freight}.json`, { token: carrier.token })).link;
    const other = new URL(second.url).pathname.replace('/driver/', '');
    assert.deepEqual(success(await app.post(`/freights/tracking-link-revoke/${freight}.json`, { token: carrier.token })), { revoked: 2 });
    assert.equal((await driver([{ latitude: 50.2, longitude: 8.1, at: stamp(NOW) }])).status, 404);
    assert.equal((await app.get(`/driver/${other}`)).status, 404);
    // A new link ends at delivery, at once (the page reads the freight's state) and for good (the sweeper ends it).
    const third = new URL(success(await app.post(`/freights/tracking-link/${freight}.json`, { token: carrier.token })).link.url).pathname;
    assert.equal((await app.get(third)).status, 200);
    await deliver(freight);
    assert.equal(
      (await app.post(`${third}.json`, { json: { positions: [{ latitude: 50.2, longitude: 8.1, at: stamp(NOW) }] } })).status,
      404,
    );
    assert.equal((await app.get(third)).status, 404);
    await sweepTracking(app.services.db, app.services.clock);
    const open = await app.services.db
      .selectFrom('freight_links')
      .select('id')
      .where('freight_id', '=', freight)
      .where('ended', 'is', null)
      .execute();
    assert.deepEqual(open, []);
    refused(await app.post(`/freights/tracking-link/${freight}.json`, { token: carrier.token }), 'positions.not_underway');
    assert.equal(await stored(freight), 1);
  });

  test('the work queue: a late order waits for both parties, milestones are among the changes; not for the others', async () => {
    const freight = await awarded({ eta: stamp(new Date(NOW.getTime() + hour)), eta_end: stamp(new Date(NOW.getTime() + 2 * hour)) });
    success(await post(carrier, freight, [{ latitude: 50.111, longitude: 8.6822, at: stamp(NOW) }]));
    for (const [who, sees] of [
      [shipper, true],
      [carrier, true],
      [loser, false],
    ] as const) {
      const { cookie } = await browserSession(app, who);
      const desk = (await app.get('/', { headers: { cookie } })).text;
      const late = /data-testid="desk-late"[\s\S]*?<\/div>/.exec(desk)?.[0] ?? '';
      const milestones = /data-testid="desk-milestones"[\s\S]*?<\/div>/.exec(desk)?.[0] ?? '';
      assert.equal(late.includes(`/freights/view/${freight}`), sees, `${who.companyName}: late`);
      assert.equal(milestones.includes(`/freights/view/${freight}`), sees, `${who.companyName}: milestones`);
      if (sees) {
        assert.match(late, /after the delivery window/);
        assert.match(milestones, /Arrived at pickup; with/);
      }
    }
  });

  test('retention: positions, milestones and reads are deleted 30 days after delivery (moved clock)', async () => {
    const freight = await awarded();
    success(await post(carrier, freight, [{ ...FRANKFURT, at: stamp(NOW) }]));
    success(await read(shipper, freight));
    await deliver(freight);
    const swept = await sweepTracking(app.services.db, app.services.clock);
    assert.ok(swept.delivered >= 1);
    // Delivered: still readable by the parties until the 30 days are over.
    assert.equal(success(await read(shipper, freight)).positions.length, 1);
    const day = 86_400_000;
    for (const [offset, left] of [
      [29 * day, 1],
      [30 * day + 60_000, 0],
    ] as const) {
      app.setNow(new Date(NOW.getTime() + offset));
      try {
        await sweepTracking(app.services.db, app.services.clock);
        assert.equal(await stored(freight), left);
      } finally {
        app.setNow(NOW);
      }
    }
    const data = success(await read(carrier, freight));
    assert.deepEqual(data, { positions: [], eta: null, milestones: [], late: false, reads: [] });
    const reads = await app.services.db.selectFrom('freight_position_reads').select('id').where('freight_id', '=', freight).execute();
    assert.deepEqual(reads, []);
  });
});
