// npm run bench:login — how long `npm start` takes to answer its first request, how many logins
// per second one server process serves, and how a token-authenticated trivial request compares
// with the floor measured in the same run (bench/floor.ts in a process of its own: Fastify + one
// PK select through pg, or one in-process PGlite query). Loopback only, bounded in time.
// Runs on the embedded database, and on PostgreSQL when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a server (a fresh database is created and dropped).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../tests/support/databases.ts';
import { line, load } from './load.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = 18000 + Math.floor(Math.random() * 1000);
const CONNECTIONS = 8;

function cli(env: NodeJS.ProcessEnv, args: string[]): any {
  const r = spawnSync(process.execPath, ['bin/freight-exchange.js', ...args, '--json'], { cwd: ROOT, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`freight-exchange ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function waitForFirstAnswer(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** The floor server in a process of its own (like the app's server); answers its base URL. */
async function startFloor(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/floor.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /port (\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function measureFloor(url: string): Promise<number> {
  const paths = Array.from({ length: 1000 }, (_, i) => `/floor/${1 + i}`);
  await load({ url, paths, connections: CONNECTIONS, duration: 1 });
  const r = await load({ url, paths, connections: CONNECTIONS, duration: Math.min(5, SECONDS) });
  console.log(`  ${line('floor: Fastify + one PK select', r)}`);
  return r.average;
}

async function run(label: string, env: NodeJS.ProcessEnv, floorEnv: NodeJS.ProcessEnv) {
  cli(env, ['company', 'create', '--name', 'Bench Co']);
  const user = cli(env, ['user', 'create', '--company', '1', '--email', 'bench@example.test', '--password', 'bench-password']);

  const started = performance.now();
  const server = spawn(process.execPath, ['bin/freight-exchange.js', 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(PORT), LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
  try {
    const firstMs = await waitForFirstAnswer(`http://127.0.0.1:${PORT}/healthz`, started);
    console.log(`${label}: first answer after start ${firstMs.toFixed(0)} ms`);
    // Started once the server answers, so it does not slow the server's start.
    floor = await startFloor(floorEnv);
    const floorBefore = await measureFloor(floor.url);
    const logins = await load({
      url: `http://127.0.0.1:${PORT}/users/login.json`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: { user: user.email, password: 'bench-password' } }),
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    console.log(`  ${line('POST /users/login (scrypt on purpose)', logins)}`);
    const me = {
      url: `http://127.0.0.1:${PORT}/users/me.json`,
      headers: { authorization: `TokenPass ${user.token}` },
      connections: CONNECTIONS,
    };
    await load({ ...me, duration: 1 });
    const authed = await load({ ...me, duration: Math.min(5, SECONDS) });
    console.log(`  ${line('GET /users/me (token, trivial)', authed)}`);
    const floorAfter = await measureFloor(floor.url);
    const floorMean = (floorBefore + floorAfter) / 2;
    console.log(
      `  ratio to the floor (mean ${Math.round(floorMean)} req/s): token-authenticated ${(authed.average / floorMean).toFixed(2)} x, logins ${(logins.average / floorMean).toFixed(3)} x`,
    );
  } finally {
    await stop(server);
    if (floor) await stop(floor.child);
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-bench-'));
const base = { ...process.env, DATA_DIR: dataDir, TOKEN_SECRET: 'bench-secret-0123456789', DATABASE_URL: '' };
console.log(
  `login benchmark: ${SECONDS} s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
try {
  await run('embedded', base, { ...process.env, FLOOR_DATABASE_URL: '' });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (server) {
  process.env.TEST_DATABASE_URL = server;
  const { url, drop } = await createPostgresDatabase();
  try {
    await run('postgres', { ...base, DATABASE_URL: url }, { ...process.env, FLOOR_DATABASE_URL: url });
  } finally {
    await drop();
  }
}
