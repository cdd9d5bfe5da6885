import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp, type App } from '../../src/app.ts';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { readConfig } from '../../src/config/config.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { LiveHub } from '../../src/live/hub.ts';
import { createPostgresDatabase, TEST_DB } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { about, openStream, type SseStream } from './support.ts';

/**
 * decisions.md §15: events reach streams on every server process (PostgreSQL LISTEN/NOTIFY, one
 * listening connection per process), and a stream is kept alive by a comment line.
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
  let drop: () => Promise<void>;
  const databases: Database[] = [];
  const apps: App[] = [];
  const bases: string[] = [];
  const open: SseStream[] = [];
  let shipper: { company: number; token: string; user: number };
  let carrier: { company: number; token: string; user: number };

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

  before(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    const config = readConfig({
      APP_ENV: 'demo',
      TOKEN_SECRET: 'test-secret-0123456789abcdef',
      DATABASE_URL: created.url,
      LOG_LEVEL: 'silent',
    });
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
      databases.push(database);
      const app = await buildApp({ config, database });
      apps.push(app);
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`);
    }
    const actor = async (name: string) => {
      const company = await createCompany(databases[0]!.db, name);
      const user = await createUser(databases[0]!.db, apps[0]!.tokens, {
        company: company.id,
        email: `${name.toLowerCase()}@example.test`,
        password: 'pw-12345678',
      });
      return { company: company.id, token: user.token, user: user.id };
    };
    shipper = await actor('Shipper');
    carrier = await actor('Carrier');
  });
  after(async () => {
    for (const s of open) s.close();
    for (const app of apps) await app.http.close();
    for (const database of databases) await database.close();
    await drop?.();
  });

  test('a freight published on one process reaches the streams of the other, each as its company sees it', async () => {
    const [a, b] = bases as [string, string];
    const carrierOnB = await stream(b, carrier.token);
    const shipperOnB = await stream(b, shipper.token);
    const id = await publishOn(a);
    const market = await carrierOnB.waitFor(about('freight.published', id));
    assert.equal(market.json.company, carrier.company);
    assert.equal(market.json.data.route.from_addr, null);
    const own = await shipperOnB.waitFor(about('freight.published', id));
    assert.equal(own.json.company, shipper.company);
    // And back: a bid on the second process reaches the owner's stream on the first.
    const shipperOnA = await stream(a, shipper.token);
    const bid = await call(b, carrier.token, 'POST', '/quotes/add.json', { route: id, amount: '700.00', currency_code: 'EUR' });
    assert.equal(bid.body.status, 'success');
    const seen = await shipperOnA.waitFor(about('bid.created', id));
    assert.equal(seen.json.data.bid.id, bid.body.data.bid.id);
    assert.equal(apps[0]!.live.size, 1);
    assert.equal(apps[1]!.live.size, 2);
  });

  test('one listening connection per process, however many streams', async () => {
    const [, b] = bases as [string, string];
    for (let i = 0; i < 5; i++) await stream(b, carrier.token);
    const listening = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`.execute(
      databases[0]!.db,
    );
    assert.equal(listening.rows[0]!.n, 2, 'one per process');
  });

  test('when a process loses its listening connection, its streams end; reconnecting with Last-Event-ID replays what was missed', async () => {
    const [a, b] = bases as [string, string];
    for (const s of open) s.close();
    const watched = await stream(b, carrier.token);
    const first = await publishOn(a);
    const last = await watched.waitFor(about('freight.published', first));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`.execute(databases[0]!.db);
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
