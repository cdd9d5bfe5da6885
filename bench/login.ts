// npm run bench:login — how long `npm start` takes to answer its first request, and how many
// logins per second one server process serves. Loopback only, bounded in time.
// Runs on the embedded database, and on PostgreSQL when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a server (a fresh database is created and dropped).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createPostgresDatabase } from '../tests/support/databases.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = 18000 + Math.floor(Math.random() * 1000);

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

async function run(label: string, env: NodeJS.ProcessEnv) {
  cli(env, ['company', 'create', '--name', 'Bench Co']);
  const user = cli(env, ['user', 'create', '--company', '1', '--email', 'bench@example.test', '--password', 'bench-password']);

  const started = performance.now();
  const server = spawn(process.execPath, ['bin/freight-exchange.js', 'serve'], { cwd: ROOT, env: { ...env, PORT: String(PORT), LOG_LEVEL: 'warn' }, stdio: 'inherit' });
  try {
    const firstMs = await waitForFirstAnswer(`http://127.0.0.1:${PORT}/healthz`, started);
    const result = await autocannon({
      url: `http://127.0.0.1:${PORT}/users/login.json`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'bench / 1.0' },
      body: JSON.stringify({ auth: { user: user.email, password: 'bench-password' } }),
      connections: 8,
      duration: SECONDS,
    });
    const ok = result['2xx'];
    const authed = await autocannon({
      url: `http://127.0.0.1:${PORT}/users/me.json`,
      headers: { authorization: `TokenPass ${user.token}` },
      connections: 8,
      duration: Math.min(5, SECONDS),
    });
    console.log(
      `${label.padEnd(10)} first answer after start: ${firstMs.toFixed(0)} ms | logins: ${(ok / SECONDS).toFixed(1)}/s ` +
        `(p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}) | ` +
        `token-authenticated requests: ${authed.requests.average}/s (p50 ${authed.latency.p50} ms)`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-bench-'));
const base = { ...process.env, DATA_DIR: dataDir, TOKEN_SECRET: 'bench-secret-0123456789', DATABASE_URL: '' };
console.log(`login benchmark: ${SECONDS} s per run, 8 connections, ${os.cpus().length} cores`);
try {
  await run('embedded', base);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (server) {
  process.env.TEST_DATABASE_URL = server;
  const { url, drop } = await createPostgresDatabase();
  try {
    await run('postgres', { ...base, DATABASE_URL: url });
  } finally {
    await drop();
  }
}
