// Issue 15: the server runs as compiled JavaScript with plain node, from any working directory.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createPostgresDatabase, TEST_DB } from '../support/databases.ts';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

test('the command runs dist/ with plain node and no TypeScript loader', () => {
  const bin = fs.readFileSync(path.join(ROOT, 'bin/freight-exchange.js'), 'utf8');
  assert.doesNotMatch(bin, /tsx|register\(/);
  assert.ok(fs.existsSync(path.join(ROOT, 'dist/cli.js')), 'npm test builds dist/ first');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const dev of ['tsx', 'typescript']) assert.ok(!(dev in pkg.dependencies) && dev in pkg.devDependencies, dev);
});

test('started from another working directory, pages and the API answer', async () => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-elsewhere-'));
  const pgdb = TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const port = 20000 + Math.floor(Math.random() * 20000);
  // No NODE_OPTIONS (the test runner's tsx loader): plain node.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: path.join(cwd, 'data'), DATABASE_URL: pgdb?.url ?? '', LOG_LEVEL: 'silent', TOKEN_SECRET: '' };
  delete env.NODE_OPTIONS;
  // A user first, with the compiled command (the server will hold an embedded data directory).
  const seeded = spawnSync(process.execPath, [path.join(ROOT, 'bin/freight-exchange.js'), 'seed', 'demo', '--json'], { cwd, env, encoding: 'utf8' });
  assert.equal(seeded.status, 0, seeded.stderr);
  const token = JSON.parse(seeded.stdout).users[0].token as string;
  const server = spawn(process.execPath, [path.join(ROOT, 'bin/freight-exchange.js'), 'serve'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    let page: Response | undefined;
    for (const until = Date.now() + 60_000; !page && Date.now() < until && server.exitCode === null; ) {
      page = await fetch(`http://127.0.0.1:${port}/users/login`).catch(() => undefined);
      if (!page) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(page, `the server answered (${stderr})`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<form method="post" action="\/users\/login"/);
    const api = await fetch(`http://127.0.0.1:${port}/users/me.json`);
    assert.equal(api.status, 401);
    assert.equal((await api.json()).status, 'error');
    // The compiled server carries its worker threads too: the city data answers a suggestion
    // (and, started, never keeps the process from stopping).
    let cities: Array<{ label: string }> = [];
    for (const until = Date.now() + 30_000; !cities.length && Date.now() < until; ) {
      const res = await fetch(`http://127.0.0.1:${port}/places/suggest.json?q=Frankfurt&for=filter`, { headers: { authorization: `TokenPass ${token}` } });
      const body = await res.json();
      assert.equal(body.status, 'success', JSON.stringify(body));
      cities = (body.data.places as Array<{ kind: string; label: string }>).filter((p) => p.kind === 'city');
      if (!cities.length) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(cities.some((c) => /Frankfurt/.test(c.label)), JSON.stringify(cities));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    server.kill('SIGKILL');
    await pgdb?.drop();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});
