import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createCompany, createUser } from '../../src/accounts/commands.ts';
import { TokenIssuer } from '../../src/accounts/tokens.ts';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { emitEvent } from '../../src/freights/events.ts';
import { Clock } from '../../src/kernel/time.ts';
import { migratedDeployment, TEST_DB } from '../support/databases.ts';
import { SERVER_NODE_FLAGS } from '../support/server-flags.ts';
import { startReceiver, verifyStandardWebhook, type Receiver } from './support.ts';

/**
 * Real server processes (bin/freight-exchange.js serve): the outbox survives a SIGKILL after the
 * change committed, and two processes on one PostgreSQL deliver every event exactly once.
 */

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const SECRET = 'events-test-secret-0123456789';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  base: string;
  stderr: () => string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  let err = '';
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'bin/freight-exchange.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, TOKEN_SECRET: SECRET, APP_ENV: 'demo', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => (err += String(d)));
  const base = `http://127.0.0.1:${port}`;
  // Allow for a busy machine (not a speed check).
  for (const until = Date.now() + 90_000; Date.now() < until; ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${err}`);
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, base, stderr: () => err };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy: ${err}`);
}

async function stopServer(s: Server | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}

async function api(base: string, method: string, url: string, token: string, json?: unknown) {
  const res = await fetch(base + url, {
    method,
    redirect: 'manual',
    headers: { authorization: `TokenPass ${token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** A database the servers will use, migrated already: PGlite in a data directory, or a new PostgreSQL database. */
async function deployment(): Promise<{ env: Record<string, string>; open: () => Promise<Database>; cleanup: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-events-'));
  const { env, drop } = await migratedDeployment(dataDir);
  return {
    env,
    open: () => openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir }),
    cleanup: async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function seedCompany(db: Database['db'], name: string) {
  const company = await createCompany(db, name);
  const user = await createUser(db, new TokenIssuer(SECRET, 'demo'), {
    company: company.id,
    email: `${name.toLowerCase().replace(/\W/g, '')}@events.test`,
    password: 'pw-events',
  });
  return { company: company.id, user: user.id, token: user.token };
}

describe(`webhooks with real server processes (${TEST_DB})`, () => {
  const servers: Server[] = [];
  const receivers: Receiver[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const s of servers) await stopServer(s, 'SIGKILL');
    for (const r of receivers) await r.close();
    for (const c of cleanups) await c();
  });

  test('a server killed (SIGKILL) right after committing a change delivers its event after the restart', async () => {
    const dep = await deployment();
    cleanups.push(dep.cleanup);
    const seeded = await dep.open();
    const shipper = await seedCompany(seeded.db, 'Kill Shipper');
    await seeded.close(); // releases the embedded database for the server
    const receiver = await startReceiver();
    receivers.push(receiver);

    // A long poll interval: the dispatcher looked once at start and sleeps through the change.
    const first = await startServer({ ...dep.env, WEBHOOK_POLL_MS: '60000' });
    servers.push(first);
    const hook = await api(first.base, 'POST', '/webhooks/add.json', shipper.token, {
      url: `${receiver.url}/kill`,
      events: ['freight.published'],
    });
    assert.equal(hook.body.status, 'success', JSON.stringify(hook.body));
    const add = await api(first.base, 'POST', '/freights/add.json', shipper.token, { from: 'airport:FRA', to: 'airport:AMS', weight: 5 });
    const id = add.body.data.id as number;
    assert.equal((await api(first.base, 'POST', `/freights/view/${id}.json`, shipper.token, { action: 'publish' })).status, 302);
    await stopServer(first, 'SIGKILL');
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.equal(receiver.received.length, 0, 'nothing was sent before the kill');

    const second = await startServer({ ...dep.env, WEBHOOK_POLL_MS: '100' });
    servers.push(second);
    await waitFor(() => receiver.received.length >= 1, 30_000, 'the event after the restart');
    const got = receiver.received[0]!;
    assert.equal(got.json.type, 'freight.published');
    assert.equal(got.json.data.route.id, id);
    assert.ok(verifyStandardWebhook(hook.body.data.webhook.secret, got.headers, got.body));
    // The attempt is written once the receiver's answer is read, a moment after it received the body.
    const attempts = async () => {
      const log = await api(second.base, 'GET', `/webhooks/deliveries/${hook.body.data.webhook.id}.json`, shipper.token);
      return log.body.data.deliveries.map((d: any) => [d.attempt, d.status, d.state]);
    };
    await waitFor(async () => (await attempts()).some((a: unknown[]) => a[2] !== 'pending'), 10_000, 'the attempt in the log');
    assert.deepEqual(await attempts(), [[1, 200, 'delivered']]);
    await stopServer(second);
    assert.equal(second.child.exitCode, 0, second.stderr());
  });

  test('two server processes on one PostgreSQL deliver 500 events exactly once each', {
    skip: TEST_DB !== 'postgres' ? 'needs PostgreSQL (TEST_DB=postgres): the embedded database serves one process by design' : false,
  }, async () => {
    const dep = await deployment();
    cleanups.push(dep.cleanup);
    const database = await dep.open();
    cleanups.unshift(() => database.close());
    const db = database.db;
    const shipper = await seedCompany(db, 'Twin Shipper');
    const receiver = await startReceiver();
    receivers.push(receiver);
    for (let i = 0; i < 2; i++) servers.push(await startServer({ ...dep.env, WEBHOOK_POLL_MS: '50' }));
    const [a, b] = servers.slice(-2) as [Server, Server];
    const hook = await api(a.base, 'POST', '/webhooks/add.json', shipper.token, { url: `${receiver.url}/twin`, events: ['*'] });
    assert.equal(hook.body.status, 'success');
    const add = await api(b.base, 'POST', '/freights/add.json', shipper.token, { from: 'airport:FRA', to: 'airport:AMS', weight: 5 });
    const route = add.body.data.id as number;

    // 500 events through the outbox itself, in batches while both dispatchers are claiming.
    const clock = new Clock('UTC');
    for (let batch = 0; batch < 10; batch++) {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 50; i++) await emitEvent(trx, clock, { type: 'freight.updated', freightId: route });
      });
    }
    const ids = () => receiver.received.map((r) => String(r.headers['webhook-id']));
    await waitFor(() => new Set(ids()).size >= 500, 60_000, '500 distinct events');
    await new Promise((r) => setTimeout(r, 1000)); // any duplicate would arrive by now
    const counts = new Map<string, number>();
    for (const id of ids()) counts.set(id, (counts.get(id) ?? 0) + 1);
    assert.equal(counts.size, 500);
    assert.deepEqual(
      [...counts.values()].filter((n) => n !== 1),
      [],
      'every event exactly once',
    );
    const rows = await db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute();
    assert.equal(rows.length, 500);
    assert.ok(rows.every((r) => r.state === 'delivered' && r.attempts === 1));
    for (const r of receiver.received.slice(0, 20)) assert.ok(verifyStandardWebhook(hook.body.data.webhook.secret, r.headers, r.body));
    for (const s of [a, b]) {
      await stopServer(s);
      assert.equal(s.child.exitCode, 0, s.stderr());
    }
  });
});
