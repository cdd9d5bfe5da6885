import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepTracking } from '../../src/positions/index.ts';
import { openFreight } from '../freights/helpers.ts';
import { openStream, type SseStream } from '../live/support.ts';
import { TEST_DB } from '../support/databases.ts';
import { browserSession } from '../support/session.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * docs/reference.md#tracking: "nobody but the two parties ever sees them". A truck's positions, its
 * milestones, its ETA and its lateness reach the freight's owner and winner, and nobody else
 * through any route: the freight's view and lists, its page, the positions' endpoints and page,
 * the events (outbox), the webhooks' deliveries and the live board's streams.
 */
describe(`tracking: only the two parties (${TEST_DB})`, () => {
  let app: TestApp;
  let base: string;
  let shipper: Actor, carrier: Actor, loser: Actor, outsider: Actor;
  let freight: number;
  const streams: SseStream[] = [];
  /** Coordinates no freight has: wherever they show, a position showed. */
  const SECRET = { latitude: 50.123457, longitude: 7.654321 };
  const secretText = [String(SECRET.latitude), String(SECRET.longitude)];
  const carries = (text: string) => secretText.some((s) => text.includes(s));

  before(async () => {
    app = await startTestApp();
    base = await app.listen();
    shipper = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    loser = await app.actor('Loser');
    outsider = await app.actor('Outsider');
    for (const who of [shipper, carrier, loser, outsider]) {
      const res = await app.post('/webhooks/add.json', {
        token: who.token,
        json: { url: `http://127.0.0.1:9/hook/${who.company}`, events: ['*'] },
      });
      assert.equal(res.body.status, 'success', res.text);
    }
    const now = app.services.clock.now();
    const stamp = (ms: number) => app.services.clock.format(new Date(now.getTime() + ms))!;
    freight = await openFreight(app, shipper, {
      from: 'city:60311',
      from_country: 'DE',
      from_latitude: 50.1109,
      from_longitude: 8.6821,
      to: 'city:75001',
      to_country: 'FR',
      to_latitude: 48.8566,
      to_longitude: 2.3522,
      weight: 12000,
      eta: stamp(3_600_000),
      eta_end: stamp(2 * 3_600_000),
    });
    for (const who of [loser, carrier]) {
      const bid = await app.post('/quotes/add.json', { token: who.token, json: { route: freight, amount: 990, currency_code: 'EUR' } });
      assert.equal(bid.body.status, 'success', bid.text);
      if (who === carrier) {
        await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: shipper.token });
        await app.post(`/quotes/confirm/${bid.body.data.bid.id}.json`, { token: carrier.token });
      }
    }
    for (const who of [shipper, carrier, loser, outsider]) streams.push(await openStream(base, { token: who.token }));
    // At the pickup (a milestone), then the secret position (late: Paris is far), then the sweeper.
    const res = await app.post(`/freights/positions/${freight}.json`, {
      token: carrier.token,
      json: {
        positions: [
          { latitude: 50.111, longitude: 8.6822, at: stamp(-60_000) },
          { ...SECRET, at: stamp(0), speed: 71 },
        ],
      },
    });
    assert.equal(res.body.status, 'success', res.text);
    await sweepTracking(app.services.db, app.services.clock);
    // The parties' streams hear of it: so the others' had the time to.
    for (const s of streams.slice(0, 2)) await s.waitFor((e) => e.json.type === 'freight.late', 5_000);
  });
  after(async () => {
    for (const s of streams) s.close();
    await app?.close();
  });

  test('the parties read the positions; nobody else reads anything of them, by the API', async () => {
    for (const who of [shipper, carrier]) {
      const res = await app.get(`/freights/positions/${freight}.json`, { token: who.token });
      assert.ok(carries(res.text), 'the parties see the positions');
    }
    for (const who of [loser, outsider]) {
      for (const url of [`/freights/positions/${freight}.json`, `/freights/view/${freight}.json`, `/routes/view/${freight}.json`]) {
        const res = await app.get(url, { token: who.token });
        assert.ok(!carries(res.text), `${url} for ${who.companyName}`);
        assert.ok(!/milestone|arrived_pickup|km_left/.test(res.text), `${url} for ${who.companyName}: ${res.text.slice(0, 200)}`);
      }
      assert.equal((await app.get(`/freights/positions/${freight}.json`, { token: who.token })).status, 404);
      for (const filter of [6, 7, 8, 9, 2]) {
        const res = await app.get(`/freights/enlist/${filter}.json`, { token: who.token });
        assert.ok(!carries(res.text) && !/milestone/.test(res.text), `list ${filter} for ${who.companyName}`);
      }
    }
    // The freight's own view and lists carry no positions for the parties either: only the tracking endpoint does.
    for (const who of [shipper, carrier]) {
      assert.ok(!carries((await app.get(`/freights/view/${freight}.json`, { token: who.token })).text));
      assert.ok(!carries((await app.get('/freights/enlist/12.json', { token: who.token })).text));
    }
  });

  test('the pages show the map to the parties only', async () => {
    for (const [who, shows] of [
      [shipper, true],
      [carrier, true],
      [loser, false],
      [outsider, false],
    ] as const) {
      const session = await browserSession(app, who);
      const page = await app.get(`/freights/view/${freight}`, { headers: { cookie: session.cookie } });
      assert.equal(page.text.includes('data-testid="tracking-map"'), shows, `${who.companyName}'s freight page`);
      if (!shows) assert.ok(!carries(page.text));
      const own = await app.get(`/freights/positions/${freight}`, { headers: { cookie: session.cookie } });
      assert.equal(own.status, shows ? 200 : 404, `${who.companyName}'s tracking page`);
      if (shows) assert.ok(own.text.includes('data-testid="map-truck"'));
    }
  });

  test("the list pages mark lateness and the last milestone on the parties' rows only", async () => {
    // The shipper's awarded list and the carrier's won list: the row says late and departed pickup.
    // (In German at 390 px: tests/web/tracking.test.ts.)
    for (const [who, list] of [
      [shipper, 12],
      [carrier, 2],
    ] as const) {
      const session = await browserSession(app, who);
      const page = await app.get(`/freights/enlist/${list}`, { headers: { cookie: session.cookie } });
      assert.equal(page.status, 200);
      const row = page.text.slice(page.text.indexOf(`/freights/view/${freight}`));
      const mark = row.slice(row.indexOf('data-testid="tracking-mark"'), row.indexOf('</tr>'));
      assert.ok(
        row.indexOf('data-testid="tracking-mark"') >= 0 && row.indexOf('data-testid="tracking-mark"') < row.indexOf('</tr>'),
        `${who.companyName}'s row is marked`,
      );
      assert.ok(mark.includes('>Late</span>'), `${who.companyName}: ${mark}`);
      assert.ok(mark.includes('>Departed pickup '), `${who.companyName}: ${mark}`);
      assert.ok(!carries(page.text));
    }
    // Anyone else's lists (the loser's lost and archive lists, the outsider's market): no mark, in no language.
    for (const who of [loser, outsider]) {
      const session = await browserSession(app, who);
      for (const list of [6, 7, 8, 9, 2]) {
        const page = await app.get(`/freights/enlist/${list}`, { headers: { cookie: session.cookie } });
        assert.equal(page.status, 200, `list ${list} for ${who.companyName}`);
        assert.ok(!page.text.includes('tracking-mark'), `list ${list} for ${who.companyName}`);
        assert.ok(!/Departed pickup|Arrived at pickup/.test(page.text) && !carries(page.text), `list ${list} for ${who.companyName}`);
      }
    }
  });

  test('events, webhook deliveries and streams: milestones and lateness to the parties only, positions to nobody', async () => {
    const db = app.services.db;
    const rows = await db.selectFrom('events').select(['type', 'company_id', 'body']).where('freight_id', '=', freight).execute();
    for (const row of rows) assert.ok(!carries(row.body), `${row.type} to ${row.company_id} carries no position`);
    const tracking = rows.filter((r) => r.type === 'freight.milestone' || r.type === 'freight.late');
    assert.deepEqual(
      [...new Set(tracking.map((r) => `${r.type} ${r.company_id}`))].sort(),
      [
        `freight.late ${carrier.company}`,
        `freight.late ${shipper.company}`,
        `freight.milestone ${carrier.company}`,
        `freight.milestone ${shipper.company}`,
      ].sort(),
    );
    const deliveries = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.seq', 'd.event_seq')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['e.type', 'w.company_id'])
      .where('e.freight_id', '=', freight)
      .where('e.type', 'in', ['freight.milestone', 'freight.late'])
      .execute();
    assert.deepEqual([...new Set(deliveries.map((d) => d.company_id))].sort(), [shipper.company, carrier.company].sort());
    const [own, won, lost, other] = streams;
    for (const s of [own!, won!]) assert.ok(s.events.some((e) => e.json.type === 'freight.milestone' && e.json.data.route_id === freight));
    for (const s of [lost!, other!]) {
      assert.deepEqual(
        s.events.filter((e) => /^freight\.(milestone|late)$/.test(e.json.type)),
        [],
      );
      assert.ok(!s.events.some((e) => carries(e.data)));
    }
    // Replayed from the start (Last-Event-ID), the others' streams still hold none of it.
    for (const who of [loser, outsider]) {
      const replay = await openStream(base, { token: who.token, lastEventId: '0' });
      streams.push(replay);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!replay.events.some((e) => /^freight\.(milestone|late)$/.test(e.json.type) || carries(e.data)));
    }
  });
});
