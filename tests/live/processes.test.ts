import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { LiveHub } from '../../src/live/hub.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { serverDatabase, startServer, type ServerActor, type ServerDatabase, type ServerProcess } from '../reliability/server-process.ts';
import { about, openStream, type SseStream } from './support.ts';

/**
 * docs/reference.md#live-board: events reach streams on every server process (PostgreSQL LISTEN/NOTIFY, one
 * listening connection per process: two real server processes here, as in production), and a
 * stream is kept alive by a comment line.
 */

describe(`the heartbeat (${TEST_DB})`, () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  test('an idle stream receives a comment line at the heartbeat interval, and nothing else', async () => {
    const who = await app.actor('Idle');
    const hub = new LiveHub({ db: app.services.db, clock: app.services.clock, listen: app.database.listen, heartbeatMs: 100 });
    const server = http.createServer((_req, res) => void hub.open({ userId: who.user, companyId: who.company }, res, {}));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const s = await openStream(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      for (let i = 0; i < 100 && s.comments.filter((c) => c === 'keep-alive').length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(s.comments.filter((c) => c === 'keep-alive').length >= 3, `comments: ${s.comments.join(' | ')}`);
      assert.equal(s.events.length, 0);
    } finally {
      s.close();
      await hub.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe(`two server processes on one database (${TEST_DB})`, {
  skip: TEST_DB !== 'postgres' && 'the embedded database has one process',
}, () => {
  let database: ServerDatabase;
  const servers: ServerProcess[] = [];
  const bases: string[] = [];
  const open: SseStream[] = [];
  let shipper: ServerActor;
  let carrier: ServerActor;

  const call = async (base: string, token: string, method: string, path: string, json?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
  };
  const stream = async (base: string, token: string, lastEventId?: string) => {
    const s = await openStream(base, { token, lastEventId });
    open.push(s);
    assert.equal(s.status, 200);
    return s;
  };
  const publishOn = async (base: string) => {
    const add = await call(base, shipper.token, 'POST', '/freights/add.json', { from: 'airport:FRA', to: 'airport:AMS', weight: 500 });
    const id = add.body.data.id as number;
    assert.equal((await call(base, shipper.token, 'POST', `/freights/view/${id}.json`, { action: 'publish' })).status, 302);
    return id;
  };
  /** The listening sessions of the test's database (the servers' own, one per process). */
  // Listening connections of the live board (the token cache's own listener on fx_callers,
  // docs/choices.md "Hot paths, third pass", is counted apart: one per process as well).
  const listening = (callers = false) =>
    database.inspect(async (db) => {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'
          and (query ilike '%fx_callers%') = ${callers}`.execute(db);
      return r.rows[0]!.n;
    });

  before(async () => {
    database = await serverDatabase(['Shipper', 'Carrier']);
    [shipper, carrier] = database.actors as [ServerActor, ServerActor];
    // Two real server processes (bin/freight-exchange.js serve), each with its own pool and listening connection.
    for (let i = 0; i < 2; i++) {
      const server = await startServer(database.env);
      servers.push(server);
      bases.push(server.base);
    }
  });
  after(async () => {
    for (const s of open) s.close();
    for (const server of servers) await server.kill('SIGKILL');
    await database?.drop();
  });

  test('a freight published through one process reaches the streams of the other, each as its company sees it', async () => {
    const [a, b] = bases as [string, string];
    assert.notEqual(servers[0]!.child.pid, servers[1]!.child.pid);
    const carrierOnB = await stream(b, carrier.token);
    const shipperOnB = await stream(b, shipper.token);
    const id = await publishOn(a);
    const market = await carrierOnB.waitFor(about('freight.published', id));
    assert.equal(market.json.company, carrier.company);
    assert.equal(market.json.data.route.from_addr, null);
    const own = await shipperOnB.waitFor(about('freight.published', id));
    assert.equal(own.json.company, shipper.company);
    // And back: a bid made through the second process reaches the owner's stream on the first.
    const shipperOnA = await stream(a, shipper.token);
    const bid = await call(b, carrier.token, 'POST', '/quotes/add.json', { route: id, amount: '700.00', currency_code: 'EUR' });
    assert.equal(bid.body.status, 'success');
    const seen = await shipperOnA.waitFor(about('bid.created', id));
    assert.equal(seen.json.data.bid.id, bid.body.data.bid.id);
  });

  test('one listening connection per process, however many streams', async () => {
    const [a, b] = bases as [string, string];
    for (let i = 0; i < 5; i++) await stream(b, carrier.token);
    for (let i = 0; i < 3; i++) await stream(a, carrier.token);
    assert.equal(await listening(), 2, 'one per process');
    assert.equal(await listening(true), 2, 'one token-cache listener per process, whatever the streams');
  });

  test('when a process loses its listening connection, its streams end; reconnecting with Last-Event-ID replays what was missed', async () => {
    const [a, b] = bases as [string, string];
    for (const s of open) s.close();
    const watched = await stream(b, carrier.token);
    const first = await publishOn(a);
    const last = await watched.waitFor(about('freight.published', first));
    await database.inspect((db) =>
      sql`select pg_terminate_backend(pid) from pg_stat_activity
                   where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`.execute(db),
    );
    await watched.ended;
    const missed = await publishOn(a);
    const again = await stream(b, carrier.token, last.id);
    await again.waitFor(about('freight.published', missed));
    // Listening again, the live events flow.
    let live: number | undefined;
    for (let i = 0; i < 50 && live === undefined; i++) {
      const id = await publishOn(a);
      if (await again.waitFor(about('freight.published', id), 300).catch(() => undefined)) live = id;
    }
    assert.ok(live, 'live events arrive again after the reconnect');
  });
});
