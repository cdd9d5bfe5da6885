import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createPostgresDatabase, migratedDeployment, TEST_DB } from '../support/databases.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

test('serve answers, logs JSON lines, and stops gracefully on SIGTERM', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-serve-'));
  const pgdb = TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, ['bin/freight-exchange.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', LOG_LEVEL: 'info', TOKEN_SECRET: '' },
  });
  let stdout = '';
  server.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    // Start includes initdb of a new embedded database: allow for a busy machine (not a speed check).
    let health: Response | undefined;
    for (const until = Date.now() + 60_000; !health && Date.now() < until; ) {
      health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(health, 'the server answered');
    assert.equal(health.status, 200);
    const res = await fetch(`http://127.0.0.1:${port}/users/me.json?auth_token=secret-looking-token`, {
      headers: { 'user-agent': 'probe / 2.0' },
    });
    assert.equal(res.status, 401);
    if (!pgdb) assert.ok(fs.existsSync(path.join(dataDir, 'freight-exchange.lock')));

    server.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(!fs.existsSync(path.join(dataDir, 'freight-exchange.lock')), 'lock released');
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const access = lines.find((l) => l.url?.startsWith('/users/me.json'));
    assert.equal(access.ua, 'probe / 2.0');
    assert.equal(access.status, 401);
    assert.ok(!stdout.includes('secret-looking-token'), 'tokens in query strings are redacted');
    assert.ok(lines.some((l) => l.msg === 'stopped'));
  } finally {
    server.kill('SIGKILL');
    await pgdb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('SIGTERM with an unfinished request: its connection is cut after the grace period, exit 0, database closed', async () => {
  // Migrated already: the first start on an empty database is the test above's.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-serve-'));
  const deployment = await migratedDeployment(dataDir);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, ['bin/freight-exchange.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), ...deployment.env, LOG_LEVEL: 'info', TOKEN_SECRET: '' },
  });
  let stdout = '';
  server.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const stalled = new net.Socket();
  try {
    let health: Response | undefined;
    for (const until = Date.now() + 60_000; !health && Date.now() < until; ) {
      health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(health, 'the server answered');
    // A client that announces a body and never sends it (a stalled upload, a slowloris).
    await new Promise<void>((resolve) => stalled.connect(port, '127.0.0.1', resolve));
    stalled.on('error', () => {});
    stalled.write(
      'POST /freights/add.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"weight":',
    );
    await new Promise((r) => setTimeout(r, 200));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(lines.some((l) => l.msg === 'closing connections that did not finish in time'));
    assert.ok(lines.some((l) => l.msg === 'stopped'));
    assert.ok(!fs.existsSync(path.join(dataDir, 'freight-exchange.lock')), 'data directory released');
  } finally {
    stalled.destroy();
    server.kill('SIGKILL');
    await deployment.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
