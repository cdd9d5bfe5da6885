import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { sweepWaterfalls } from '../../src/freights/index.ts';
import { Clock } from '../../src/kernel/time.ts';
import { TEST_DB, createPostgresDatabase } from '../support/databases.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';

/**
 * docs/reference.md#one-step, the waterfall's sweeper done set-based (issue 42): a pass advances every due
 * waterfall with a few statements per batch. Proved here: (1) it ends every case exactly as the
 * turn-by-turn catch-up of a request does (freight, waterfall and events, byte for byte but for
 * the events' ids): turns passed over, the market, `stop` from the last turn and from an earlier
 * one, a deadline that passed first, a freight revoked meanwhile; (2) two sweeps at once (on
 * PostgreSQL two connection pools, as two server processes) advance each turn exactly once, with
 * one `freight.offered` each.
 */

let app: TestApp;
let shipper: Actor;
let carriers: Actor[];
let outsider: Actor;
let second: { database: Database; drop?: () => Promise<void> } | undefined;

before(async () => {
  if (TEST_DB === 'postgres') {
    // One database, two pools: the app's and a second one standing for another server process.
    const created = await createPostgresDatabase({ migrated: true });
    const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    app = await startTestApp({ database });
    second = { database: await openDatabase({ databaseUrl: created.url, dataDir: '' }), drop: created.drop };
  } else {
    app = await startTestApp();
  }
  shipper = await app.actor('Shipper');
  carriers = [await app.actor('First'), await app.actor('Second'), await app.actor('Third')];
  outsider = await app.actor('Outsider');
});
after(async () => {
  app.setNow(null);
  await app.close();
  await second?.database.close();
  await second?.drop?.();
});

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const MIN = 60_000;
const noWork = { enteredMarket: async () => undefined };

async function waterfall(options: { after: 'market' | 'stop'; carriers?: number; minutes?: number }): Promise<number> {
  const id = ok(
    await app.post('/freights/add.json', {
      token: shipper.token,
      json: { from: 'city:DE-60311', to: 'city:AT-6020', weight: 8000, from_addr: 'Dock 1', to_addr: 'Dock 2' },
    }),
  ).id as number;
  ok(
    await app.post(`/freights/waterfall/${id}.json`, {
      token: shipper.token,
      json: {
        carriers: carriers.slice(0, options.carriers ?? 3).map((c) => c.company),
        price: '912.50',
        minutes: options.minutes ?? 10,
        // biome-ignore lint/suspicious/noThenProperty: the waterfall's field is named `then` (docs/reference.md#one-step)
        then: options.after,
      },
    }),
  );
  return id;
}

const lastSeq = async () =>
  Number(
    (
      await app.services.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('max'))
        .executeTakeFirst()
    )?.max ?? 0,
  );

/** A freight's state after its catch-up: the freight's columns a turn writes, its waterfall, and the events written for it since `since` (ids and freight ids aside). */
async function state(id: number, since: number) {
  const db = app.services.db;
  const f = await db
    .selectFrom('freights')
    .select(['status', 'visibility', 'whitelist', 'book_now', 'book_now_currency', 'deadline'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const w = await db
    .selectFrom('freight_waterfalls')
    .select(['step', 'step_until', 'state', 'carriers', 'prices'])
    .where('freight_id', '=', id)
    .executeTakeFirstOrThrow();
  const events = (
    await db
      .selectFrom('events')
      .select(['type', 'company_id', 'except_companies', 'body'])
      .where('freight_id', '=', id)
      .where('seq', '>', since)
      .orderBy('seq')
      .execute()
  ).map((e) => {
    const body = JSON.parse(e.body);
    // The freight's own id, in what names it, is the one difference between the two.
    const route = body.data.route;
    if (route?.id === id) {
      route.id = 'ID';
      route.display_id = 'ID';
      route.caption = String(route.caption).replace(`(${id})`, '(ID)');
    }
    return { type: e.type, company: e.company_id, except: e.except_companies, created: body.created, data: body.data };
  });
  return { freight: f, waterfall: w, events };
}

/** The alert jobs queued for a freight (the market's saved-search alerts). */
const alertJobs = async (id: number) =>
  Number(
    (
      await app.services.db
        .selectFrom('alert_jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('subject', '=', 'freight')
        .where('subject_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`waterfall sweeper, set-based (${TEST_DB})`, () => {
  test('every case ends as the turn-by-turn catch-up of a request ends it: freight, waterfall and events', async () => {
    const t0 = new Date(Date.now() + 5 * MIN);
    // Each case twice: one caught up by a request (an outsider's pass: refused, the catch-up
    // committed), the other by the sweeper, at the same moment.
    const cases: Array<{ name: string; after: 'market' | 'stop'; at: number; prepare?: (id: number) => Promise<void> }> = [
      { name: 'the first turn over: the second carrier’s', after: 'market', at: 11 },
      { name: 'two turns over at once: the third carrier’s, from the second’s end', after: 'market', at: 25 },
      { name: 'every turn over: the market', after: 'market', at: 31 },
      { name: 'every turn over: stop, from the first turn', after: 'stop', at: 35 },
      {
        name: 'stop from the last turn (the freight’s deadline ends with it)',
        after: 'stop',
        at: 31,
        prepare: async (id) => {
          app.setNow(new Date(t0.getTime() + 1 * MIN));
          ok(await app.post(`/quotes/decline/${id}.json`, { token: carriers[0]!.token }));
          app.setNow(new Date(t0.getTime() + 2 * MIN));
          ok(await app.post(`/quotes/decline/${id}.json`, { token: carriers[1]!.token }));
        },
      },
      {
        name: 'the freight’s deadline passed first (edited earlier): expired, the waterfall ended',
        after: 'market',
        at: 21,
        prepare: async (id) => {
          app.setNow(new Date(t0.getTime() + 1 * MIN));
          const edit = await app.post(`/freights/edit/${id}.json`, {
            token: shipper.token,
            json: { deadline: app.services.clock.format(new Date(t0.getTime() + 15 * MIN)) },
          });
          assert.equal(edit.body.status, 'success', edit.text);
        },
      },
      {
        name: 'the freight revoked meanwhile: the waterfall ended',
        after: 'market',
        at: 12,
        prepare: async (id) => {
          app.setNow(new Date(t0.getTime() + 1 * MIN));
          const res = await app.post(`/freights/view/${id}.json`, { token: shipper.token, json: { action: 'revoke' } });
          assert.ok([200, 302].includes(res.status), res.text);
        },
      },
    ];
    try {
      for (const c of cases) {
        app.setNow(t0);
        const byRequest = await waterfall({ after: c.after });
        const bySweep = await waterfall({ after: c.after });
        for (const id of [byRequest, bySweep]) await c.prepare?.(id);
        const at = new Date(t0.getTime() + c.at * MIN);
        app.setNow(at);
        const since = await lastSeq();
        const pass = await app.post(`/quotes/decline/${byRequest}.json`, { token: outsider.token });
        assert.ok(pass.status === 404 || pass.body.code === 'quotes.decline.not_your_turn', `${c.name}: ${pass.text}`);
        const due = await app.services.db
          .selectFrom('freight_waterfalls')
          .select(['state', 'step_until'])
          .where('freight_id', '=', bySweep)
          .executeTakeFirstOrThrow();
        assert.ok(due.state === 'running' && due.step_until! <= at, `${c.name}: due for the sweep, untouched before it`);
        // The sweep's work is the app's (alerts for a freight entering the market), counted here.
        const entered: number[] = [];
        const moved = await sweepWaterfalls(app.services.db, new Clock(app.services.clock.zone, () => at), {
          enteredMarket: async () => assert.fail('the batch form is given'),
          enteredMarketAll: async (_trx, _clock, ids) => entered.push(...ids),
        });
        assert.ok(moved >= 1, `${c.name}: the sweep moved the other one (and what earlier cases left due)`);
        const [a, b] = [await state(byRequest, since), await state(bySweep, since)];
        assert.deepEqual(b, a, c.name);
        assert.ok(b.waterfall.state !== 'running' || b.waterfall.step_until! > at, `${c.name}: nothing left due`);
        assert.equal(entered.includes(bySweep), b.waterfall.state === 'market', `${c.name}: the market's alerts`);
      }
    } finally {
      app.setNow(null);
    }
  });

  test('the market after the last turn queues its saved-search alerts (the app’s own sweeper)', async () => {
    const t0 = new Date(Date.now() + 5 * MIN);
    try {
      app.setNow(t0);
      const id = await waterfall({ after: 'market', carriers: 1 });
      const before = await alertJobs(id);
      app.setNow(new Date(t0.getTime() + 11 * MIN));
      const since = await lastSeq();
      assert.ok((await app.waterfalls.sweep()) >= 1);
      const after = await state(id, since);
      assert.equal(after.waterfall.state, 'market');
      assert.deepEqual(
        after.events.map((e) => [e.type, e.company]),
        [
          ['freight.published', shipper.company],
          ['freight.published', null],
        ],
      );
      assert.equal((await alertJobs(id)) - before, 1, 'one alert job, as a publish queues');
    } finally {
      app.setNow(null);
    }
  });

  test('two sweeps at once (two pools on PostgreSQL): every turn advanced once, one freight.offered each', async () => {
    const t0 = new Date(Date.now() + 5 * MIN);
    try {
      app.setNow(t0);
      const ids: number[] = [];
      for (let i = 0; i < 24; i++) ids.push(await waterfall({ after: i % 2 ? 'market' : 'stop', carriers: 2 }));
      const at = new Date(t0.getTime() + 11 * MIN);
      app.setNow(at);
      const since = await lastSeq();
      const clock = new Clock(app.services.clock.zone, () => at);
      const dbs = [app.services.db, second?.database.db ?? app.services.db];
      // Small batches, so the two interleave over several transactions each.
      const moved = await Promise.all([
        sweepWaterfalls(dbs[0]!, clock, noWork, 5),
        sweepWaterfalls(dbs[1]!, clock, noWork, 5),
        sweepWaterfalls(dbs[0]!, clock, noWork, 7),
      ]);
      assert.equal(
        moved.reduce((a, b) => a + b, 0),
        ids.length,
        `each waterfall moved by exactly one sweep (${moved.join(' + ')})`,
      );
      assert.equal(await sweepWaterfalls(dbs[1]!, clock, noWork), 0, 'nothing left');
      const falls = await app.services.db
        .selectFrom('freight_waterfalls')
        .select(['freight_id', 'step', 'state', 'step_until'])
        .where('freight_id', 'in', ids)
        .execute();
      for (const w of falls) {
        assert.deepEqual([w.step, w.state, w.step_until?.getTime()], [1, 'running', t0.getTime() + 20 * MIN], `waterfall ${w.freight_id}`);
      }
      const offered = await app.services.db
        .selectFrom('events')
        .select(['freight_id', 'company_id'])
        .where('seq', '>', since)
        .where('type', '=', 'freight.offered')
        .execute();
      assert.equal(offered.length, ids.length, 'one freight.offered per turn started');
      assert.deepEqual(new Set(offered.map((e) => e.freight_id)), new Set(ids));
      assert.ok(offered.every((e) => e.company_id === carriers[1]!.company));
      const others = await app.services.db
        .selectFrom('events')
        .select('type')
        .where('seq', '>', since)
        .where('type', '<>', 'freight.offered')
        .execute();
      assert.deepEqual(others, [], 'no other event');

      // The second carrier sees each freight now, the first none.
      const any = ids[0]!;
      assert.equal((await app.get(`/freights/view/${any}.json`, { token: carriers[1]!.token })).status, 200);
      assert.equal((await app.get(`/freights/view/${any}.json`, { token: carriers[0]!.token })).status, 404);
    } finally {
      app.setNow(null);
    }
  });
});
