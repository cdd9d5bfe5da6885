import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openFreight } from '../freights/helpers.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';

/**
 * docs/reference.md#tracking: two batches of positions of one freight arriving at once (two
 * telematics calls crossing, or the driver's phone sending its queue while the fleet system
 * sends): both are stored whole, no position is lost, and the milestones and the ETA are those
 * of the two batches taken one after the other. On PostgreSQL the collision is forced: the
 * freight's tracking row is held by a third connection until both requests wait for it, so both
 * read the same state before either writes (the conditional write of the one that comes second
 * finds the row changed, and the batch is taken again under the lock). The embedded database
 * runs one statement at a time: the two requests interleave between their statements.
 */
describe(`tracking: two batches of one freight at once (${TEST_DB})`, () => {
  let app: TestApp;
  let shipper: Actor, carrier: Actor;
  const FRANKFURT = { latitude: 50.1109, longitude: 8.6821 };
  const PARIS = { latitude: 48.8566, longitude: 2.3522 };
  const minute = 60_000;
  const NOW = new Date('2031-03-04T18:00:00Z');
  const t0 = new Date(NOW.getTime() - 10 * 60 * minute);
  const stamp = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  const at = (minutes: number) => stamp(new Date(t0.getTime() + minutes * minute));

  const success = (res: ApiResponse) => {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    return res.body.data;
  };
  const post = (freight: number, positions: unknown) =>
    app.post(`/freights/positions/${freight}.json`, { token: carrier.token, json: { positions } });
  const read = async (freight: number) => {
    const { positions, eta, milestones, late } = success(await app.get(`/freights/positions/${freight}.json`, { token: shipper.token }));
    return { positions, eta, milestones, late };
  };
  const stored = async (freight: number) =>
    (await sql<{ n: number }>`select count(*)::int as n from freight_positions where freight_id = ${freight}`.execute(app.services.db))
      .rows[0]!.n;
  const milestoneEvents = async (freight: number) =>
    (
      await app.services.db
        .selectFrom('events')
        .select(['company_id', 'body'])
        .where('type', '=', 'freight.milestone')
        .where('freight_id', '=', freight)
        .orderBy('seq')
        .execute()
    )
      .map((e) => `${e.company_id === shipper.company ? 'shipper' : 'carrier'} ${JSON.parse(e.body).data.milestone.type}`)
      .sort();
  /** A freight Frankfurt -> Paris awarded to the carrier, its delivery window far ahead (never late here). */
  const awarded = async () => {
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
      eta: '2031-03-06 08:00',
      eta_end: '2031-03-07 18:00',
    });
    const bid = success(
      await app.post('/quotes/add.json', { token: carrier.token, json: { route: id, amount: '900.00', currency_code: 'EUR' } }),
    ).bid;
    assert.equal((await app.post(`/quotes/confirm/${bid.id}.json`, { token: shipper.token })).status, 302);
    success(await app.post(`/quotes/confirm/${bid.id}.json`, { token: carrier.token }));
    return id;
  };

  /**
   * Sends both batches at once and answers both answers. PostgreSQL: the freight's tracking row
   * is locked by a transaction of its own until both requests wait for a lock, then released.
   */
  async function atOnce(freight: number, a: unknown[], b: unknown[]): Promise<[ApiResponse, ApiResponse]> {
    if (TEST_DB !== 'postgres') return Promise.all([post(freight, a), post(freight, b)]);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const holder = app.services.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('freight_tracking')
        .select('freight_id')
        .where('freight_id', '=', freight)
        .forUpdate()
        .executeTakeFirst();
      assert.ok(row, 'the freight has its tracking row');
      held();
      await released;
    });
    await holding;
    const answers = Promise.all([post(freight, a), post(freight, b)]);
    let waiting = 0;
    for (let i = 0; i < 500 && waiting < 2; i++) {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query ilike '%freight_tracking%'`.execute(app.services.db);
      waiting = r.rows[0]!.n;
      if (waiting < 2) await new Promise((r) => setTimeout(r, 20));
    }
    release();
    await holder;
    assert.equal(waiting, 2, 'both requests read the tracking and waited to write it (the collision happened)');
    return answers;
  }

  before(async () => {
    app = await startTestApp();
    app.setNow(NOW);
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
  });
  after(() => app?.close());

  test('two batches on the road at once: both stored whole, the ETA from the newest position, as if sent one after the other', async () => {
    const first = [{ latitude: 50.0, longitude: 8.3, at: at(60), speed: 80 }];
    const a = [60, 61, 62].map((m, i) => ({ latitude: 49.9 - i / 100, longitude: 8.0 - i / 100, at: at(m + 5), speed: 81 + i }));
    const b = [70, 71, 72, 73].map((m, i) => ({ latitude: 49.6 - i / 100, longitude: 7.4 - i / 100, at: at(m), speed: 70.5 + i }));
    const freight = await awarded();
    success(await post(freight, first));
    const [ra, rb] = await atOnce(freight, a, b);
    assert.equal(success(ra).stored, 3);
    assert.equal(success(rb).stored, 4);
    assert.equal(await stored(freight), 8, 'no position lost');
    // The same batches one after the other, on a freight of the same route.
    const serial = await awarded();
    for (const batch of [first, a, b]) success(await post(serial, batch));
    const together = await read(freight);
    assert.deepEqual(together, await read(serial));
    assert.deepEqual(
      together.positions.map((p: { at: string }) => p.at),
      [60, 65, 66, 67, 70, 71, 72, 73].map(at),
    );
    assert.ok(together.eta, 'an ETA');
    assert.deepEqual(together.milestones, []);
    // The freight's tracking state is the newest position's.
    const tracking = await app.services.db
      .selectFrom('freight_tracking')
      .select(['last_at', 'last_latitude', 'last_longitude'])
      .where('freight_id', '=', freight)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { at: stamp(tracking.last_at!), latitude: tracking.last_latitude, longitude: tracking.last_longitude },
      { at: at(73), latitude: b[3]!.latitude, longitude: b[3]!.longitude },
    );
  });

  test('two batches that reach milestones at once: each milestone recognised once and told once to each party', async () => {
    // A: at the pickup, then away from it (arrived and departed); B: at the destination (arrived
    // at delivery), newer. Taken in either order they make the same milestones and ETA.
    const first = [{ latitude: 50.3, longitude: 8.9, at: at(0) }];
    const a = [
      { latitude: FRANKFURT.latitude + 0.0002, longitude: FRANKFURT.longitude, at: at(10), speed: 0 },
      { latitude: FRANKFURT.latitude, longitude: FRANKFURT.longitude + 0.0003, at: at(20), speed: 0 },
      { latitude: 50.05, longitude: 8.2, at: at(50), speed: 78 },
    ];
    const b = [
      { latitude: 48.9, longitude: 2.5, at: at(500), speed: 60 },
      { latitude: PARIS.latitude + 0.0004, longitude: PARIS.longitude, at: at(540), speed: 5 },
    ];
    const freight = await awarded();
    success(await post(freight, first));
    const [ra, rb] = await atOnce(freight, a, b);
    const told = [...success(ra).milestones, ...success(rb).milestones].map((m: { type: string }) => m.type).sort();
    // Each answer shows the milestones as its batch left them; every milestone was reached by one batch.
    assert.ok(told.includes('arrived_pickup') && told.includes('departed_pickup') && told.includes('arrived_delivery'), told.join());
    assert.equal(await stored(freight), 6, 'no position lost');
    const serial = await awarded();
    for (const batch of [first, a, b]) success(await post(serial, batch));
    const together = await read(freight);
    assert.deepEqual(together, await read(serial));
    assert.deepEqual(together.milestones, [
      { type: 'arrived_pickup', at: at(10) },
      { type: 'departed_pickup', at: at(50) },
      { type: 'arrived_delivery', at: at(540) },
    ]);
    assert.ok(together.eta.km_left < 1.3, 'the ETA from the newest position, at the destination');
    assert.deepEqual(await milestoneEvents(freight), [
      'carrier arrived_delivery',
      'carrier arrived_pickup',
      'carrier departed_pickup',
      'shipper arrived_delivery',
      'shipper arrived_pickup',
      'shipper departed_pickup',
    ]);
    assert.deepEqual(await milestoneEvents(freight), await milestoneEvents(serial));
  });

  test("a freight's first two batches at once: one tracking row, both batches stored", async () => {
    const freight = await awarded();
    const a = [{ latitude: 49.9, longitude: 8.0, at: at(100), speed: 80 }];
    const b = [
      { latitude: 49.8, longitude: 7.9, at: at(110), speed: 82 },
      { latitude: 49.7, longitude: 7.8, at: at(120), speed: 84 },
    ];
    // No tracking row to hold yet: the two requests race to create it.
    const [ra, rb] = await Promise.all([post(freight, a), post(freight, b)]);
    assert.equal(success(ra).stored, 1);
    assert.equal(success(rb).stored, 2);
    assert.equal(await stored(freight), 3);
    const rows = await app.services.db.selectFrom('freight_tracking').select('freight_id').where('freight_id', '=', freight).execute();
    assert.equal(rows.length, 1);
    const serial = await awarded();
    for (const batch of [a, b]) success(await post(serial, batch));
    assert.deepEqual(await read(freight), await read(serial));
  });
});
