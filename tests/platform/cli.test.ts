import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/cli.ts';
import { createPostgresDatabase, TEST_DB } from '../support/databases.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;

/** Runs the command in-process, as `freight-exchange <args>` would, and captures its output. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), interactive: false });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-cli-'));
  process.env.DATA_DIR = dataDir;
  process.env.TOKEN_SECRET = 'cli-test-secret-0123456789';
  delete process.env.APP_ENV;
  if (TEST_DB === 'postgres') {
    const created = await createPostgresDatabase();
    process.env.DATABASE_URL = created.url;
    dropDatabase = created.drop;
  } else {
    delete process.env.DATABASE_URL;
  }
});
after(async () => {
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('freight-exchange command line', () => {
  let companyId: number;

  test('company create --json prints exactly {id, name}', async () => {
    const r = await cli('company', 'create', '--name', 'ACME Logistics', '--json');
    assert.equal(r.code, 0, r.stderr);
    const value = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(value), ['id', 'name']);
    assert.equal(value.name, 'ACME Logistics');
    assert.ok(Number.isInteger(value.id));
    companyId = value.id;
  });

  test('user create --json prints {id, company, email, token}', async () => {
    const r = await cli('user', 'create', '--company', String(companyId), '--email', 'ops@acme.example', '--password', 's3cret-pw', '--username', 'ops', '--realname', 'Olga Ops', '--language', 'deu', '--json');
    assert.equal(r.code, 0, r.stderr);
    const value = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(value), ['id', 'company', 'email', 'token']);
    assert.equal(value.company, companyId);
    assert.equal(value.email, 'ops@acme.example');
    assert.match(value.token, /^\d+\.[A-Za-z0-9_-]{43}$/);
  });

  test('bad input exits non-zero with one line on stderr and changes nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['user', 'create', '--company', '999', '--email', 'x@acme.example', '--password', 'long-enough'], /--company/],
      [['user', 'create', '--company', 'abc', '--email', 'x@acme.example', '--password', 'long-enough'], /--company/],
      [['user', 'create', '--company', String(companyId), '--email', 'OPS@acme.example', '--password', 'long-enough'], /already registered/],
      [['user', 'create', '--company', String(companyId), '--email', 'not-an-email', '--password', 'long-enough'], /--email/],
      [['user', 'create', '--company', String(companyId), '--email', 'y@acme.example', '--password', 'short'], /--password/],
      [['user', 'create', '--company', String(companyId), '--email', 'y@acme.example', '--password', 'long-enough', '--language', 'fra'], /--language/],
      [['user', 'create', '--company', String(companyId), '--email', 'y@acme.example'], /--password/],
      [['company', 'create'], /--name/],
      [['company', 'create', '--name', '   '], /--name/],
      [['company', 'create', '--name', 'X', '--bogus'], /bogus/],
      [['company', 'delete'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stderr.split('\n').length, 1, r.stderr);
    }
    const count = await cli('seed', 'demo', '--json'); // also proves nothing above was created
    const seeded = JSON.parse(count.stdout);
    assert.ok(!seeded.users.some((u: { email: string }) => /^(x|y)@acme/.test(u.email)));
  });

  test('seed demo prints companies and users with passwords, and is idempotent', async () => {
    const first = JSON.parse((await cli('seed', 'demo', '--json')).stdout);
    const second = JSON.parse((await cli('seed', 'demo', '--json')).stdout);
    assert.equal(first.companies.length, 3);
    assert.equal(first.users.length, 3);
    for (const u of first.users) {
      assert.ok(u.password.length >= 6);
      assert.ok(u.email && u.token && u.company);
    }
    assert.deepEqual(second, first);
  });

  test('the embedded data directory held by a running process is refused', { skip: TEST_DB === 'postgres' && 'embedded database only' }, async () => {
    const holder = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(dataDir, 'freight-exchange.lock'), String(holder.pid));
      const r = await cli('company', 'create', '--name', 'Blocked', '--json');
      assert.equal(r.code, 1);
      assert.match(r.stderr, /in use by a running freight-exchange process/);
      assert.equal(r.stdout, '');
    } finally {
      holder.kill();
      fs.rmSync(path.join(dataDir, 'freight-exchange.lock'), { force: true });
    }
    // A lock left by a process that is gone is taken over.
    fs.writeFileSync(path.join(dataDir, 'freight-exchange.lock'), '999999');
    const r = await cli('company', 'create', '--name', 'After crash', '--json');
    assert.equal(r.code, 0, r.stderr);
  });

  test('the installed command prints one JSON object and nothing else on stdout', () => {
    const r = spawnSync(process.execPath, ['bin/freight-exchange.js', 'company', 'create', '--name', 'Spawned', '--json'], { cwd: ROOT, env: process.env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.equal(JSON.parse(r.stdout).name, 'Spawned');
  });

  test('production without TOKEN_SECRET refuses to start', async () => {
    const saved = process.env.TOKEN_SECRET;
    process.env.APP_ENV = 'production';
    delete process.env.TOKEN_SECRET;
    try {
      const r = await cli('company', 'create', '--name', 'Nope');
      assert.equal(r.code, 1);
      assert.match(r.stderr, /TOKEN_SECRET is required/);
    } finally {
      process.env.TOKEN_SECRET = saved;
      delete process.env.APP_ENV;
    }
  });
});
