import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/admin.ts';
import { migratedDeployment, TEST_DB } from '../support/databases.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;

/** The first line a child process prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', () => resolve(out.split('\n')[0]!));
  });
}

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
  // Migrated already: the commands open it as they find it.
  const deployment = await migratedDeployment(dataDir);
  Object.assign(process.env, deployment.env);
  dropDatabase = deployment.drop;
});
after(async () => {
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('freight-exchange command line', () => {
  let companyId: number;

  test('every command --help lists is found by its words (a module is loaded by the first word of its commands)', async () => {
    const help = await cli('--help');
    assert.equal(help.code, 0);
    const usages = help.stdout
      .split('\n')
      .filter((l) => l.startsWith('  freight-exchange '))
      .map((l) => l.slice('  freight-exchange '.length));
    assert.ok(usages.length >= 12, `${usages.length} commands`);
    for (const usage of usages) {
      const words = usage.split(' ').filter((w) => /^[a-z]+$/.test(w));
      const r = await cli(...words, '--help');
      assert.equal(r.code, 0, `${usage}: ${r.stderr}`);
      assert.equal(r.stdout.split('\n')[0], `usage: freight-exchange ${usage}`);
    }
  });

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
    const r = await cli(
      'user',
      'create',
      '--company',
      String(companyId),
      '--email',
      'ops@acme.example',
      '--password',
      's3cret-pw',
      '--username',
      'ops',
      '--realname',
      'Olga Ops',
      '--language',
      'deu',
      '--json',
    );
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
      [
        ['user', 'create', '--company', String(companyId), '--email', 'OPS@acme.example', '--password', 'long-enough'],
        /already registered/,
      ],
      [['user', 'create', '--company', String(companyId), '--email', 'not-an-email', '--password', 'long-enough'], /--email/],
      [['user', 'create', '--company', String(companyId), '--email', 'y@acme.example', '--password', 'short'], /--password/],
      [
        ['user', 'create', '--company', String(companyId), '--email', 'y@acme.example', '--password', 'long-enough', '--language', 'fra'],
        /--language/,
      ],
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

  test('the embedded data directory held by a running process is refused, and free the moment it dies', {
    skip: TEST_DB === 'postgres' && 'embedded database only',
  }, async () => {
    const holder = spawn(process.execPath, ['--import', 'tsx', 'tests/support/hold-lock.ts', dataDir], { cwd: ROOT });
    try {
      assert.equal(await firstLine(holder), 'locked');
      const r = await cli('company', 'create', '--name', 'Blocked', '--json');
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`in use by a running freight-exchange process \\(pid ${holder.pid}\\)`));
      assert.equal(r.stdout, '');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    // The operating system released it with the process; the note it left behind means nothing.
    assert.ok(fs.existsSync(path.join(dataDir, 'freight-exchange.lock')));
    const r = await cli('company', 'create', '--name', 'After crash', '--json');
    assert.equal(r.code, 0, r.stderr);
  });

  test('a leftover lock naming a pid that now belongs to another live process does not block a restart', {
    skip: TEST_DB === 'postgres' && 'embedded database only',
  }, async () => {
    for (const pid of [process.pid, 1]) {
      fs.writeFileSync(path.join(dataDir, 'freight-exchange.lock'), String(pid));
      const r = await cli('company', 'create', '--name', `Restarted ${pid}`, '--json');
      assert.equal(r.code, 0, r.stderr);
    }
  });

  test('of several processes taking the directory at once, exactly one holds it', {
    skip: TEST_DB === 'postgres' && 'embedded database only',
  }, async () => {
    for (let round = 0; round < 3; round++) {
      fs.writeFileSync(path.join(dataDir, 'freight-exchange.lock'), '999999'); // a stale note, as after a crash
      const takers = Array.from({ length: 4 }, () =>
        spawn(process.execPath, ['--import', 'tsx', 'tests/support/hold-lock.ts', dataDir], { cwd: ROOT }),
      );
      try {
        const lines = await Promise.all(takers.map(firstLine));
        assert.equal(lines.filter((l) => l === 'locked').length, 1, lines.join(' | '));
        assert.equal(lines.filter((l) => l.startsWith('refused: ') && l.includes('in use by a running')).length, 3, lines.join(' | '));
      } finally {
        for (const t of takers) t.kill('SIGKILL');
        await Promise.all(takers.map((t) => (t.exitCode !== null || t.signalCode !== null ? null : new Promise((r) => t.once('exit', r)))));
      }
    }
  });

  test('user token rotate gives a new token and the old one is refused', async () => {
    const company = JSON.parse((await cli('company', 'create', '--name', 'Rotating', '--json')).stdout);
    const user = JSON.parse(
      (
        await cli(
          'user',
          'create',
          '--company',
          String(company.id),
          '--email',
          'rot@acme.example',
          '--password',
          'secret-pw',
          '--username',
          'rotor',
          '--json',
        )
      ).stdout,
    );
    const r = await cli('user', 'token', 'rotate', '--user', 'rotor', '--json');
    assert.equal(r.code, 0, r.stderr);
    const rotated = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(rotated).sort(), ['email', 'id', 'sessions_ended', 'token']);
    assert.equal(rotated.sessions_ended, 0);
    assert.equal(rotated.id, user.id);
    assert.notEqual(rotated.token, user.token);
    const again = JSON.parse((await cli('user', 'token', 'rotate', '--user', String(user.id), '--json')).stdout);
    assert.notEqual(again.token, rotated.token);
    const missing = await cli('user', 'token', 'rotate', '--user', 'nobody@nowhere.example', '--json');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--user: no user/);
    assert.equal(missing.stdout, '');
  });

  test('user password set changes the password; a short one is refused and changes nothing', async () => {
    const company = JSON.parse((await cli('company', 'create', '--name', 'Passwords', '--json')).stdout);
    await cli('user', 'create', '--company', String(company.id), '--email', 'pw@acme.example', '--password', 'first-pw', '--json');
    const short = await cli('user', 'password', 'set', '--user', 'pw@acme.example', '--password', 'abc', '--json');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /--password: at least 6/);
    const r = await cli('user', 'password', 'set', '--user', 'PW@acme.example', '--password', 'second-pw', '--json');
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.email, 'pw@acme.example');
    assert.equal(result.sessions_ended, 0);
  });

  test('the installed command prints one JSON object and nothing else on stdout', () => {
    const r = spawnSync(process.execPath, ['bin/freight-exchange.js', 'company', 'create', '--name', 'Spawned', '--json'], {
      cwd: ROOT,
      env: process.env,
      encoding: 'utf8',
    });
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
