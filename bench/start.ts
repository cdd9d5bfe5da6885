// npm run bench:start — how long the server takes from `spawn` to its first answer (GET /healthz),
// on the embedded database: the compiled server (`npm start`: bin/freight-exchange.js runs dist/)
// against the same server run from the TypeScript sources through tsx (how it started before
// issue 15). Two cases each: a new data directory (migrations run) and a restart on an existing one.
// BENCH_RUNS (default 5) runs per case; the median and the range are printed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const RUNS = Math.max(1, Math.min(50, Number(process.env.BENCH_RUNS ?? 5)));
const PORT = 19000 + Math.floor(Math.random() * 1000);

const SERVERS = {
  'compiled (node bin/freight-exchange.js serve)': ['bin/freight-exchange.js', 'serve'],
  'sources through tsx': [
    '--import',
    'tsx',
    '--eval',
    "const { main } = await import('./src/admin.ts'); process.exitCode = await main(['serve']);",
    '--input-type=module',
  ],
} as const;

async function firstAnswer(args: readonly string[], dataDir: string): Promise<number> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    TOKEN_SECRET: 'bench-secret-0123456789',
  };
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return performance.now() - started;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms over ${xs.length} runs)`;

const build = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(
  `start benchmark: embedded database, ${RUNS} runs per case, ${os.cpus().length} cores; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [label, args] of Object.entries(SERVERS)) {
  const fresh: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-start-'));
    try {
      fresh.push(await firstAnswer(args, dataDir));
      restart.push(await firstAnswer(args, dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(`${label}\n  new data directory: ${summary(fresh)}\n  restart:            ${summary(restart)}`);
}
console.log(
  `load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
