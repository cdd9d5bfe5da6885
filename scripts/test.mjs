#!/usr/bin/env node
// npm test: every suite on the embedded database (PGlite), then again on PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it). Extra arguments narrow the files: npm test -- freights
//
// Files run two at a time (the machines have two cores), each in its own `node --test` process;
// a file's report is printed whole when it ends, with its duration, and the slowest files are
// named at the end, so that a suite growing slow is seen before CI's time limit is reached.
// The slowest files start first (tests/durations.json, written by the last full run), so the
// two lanes end together.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const filters = process.argv.slice(2);
const LANES = 2;
const durationsFile = path.join(root, 'tests', 'durations.json');

function collect(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return collect(p);
    return /\.test\.tsx?$/.test(e.name) ? [path.relative(root, p)] : [];
  });
}

const known = fs.existsSync(durationsFile) ? JSON.parse(fs.readFileSync(durationsFile, 'utf8')) : {};
const files = collect(path.join(root, 'tests'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort((a, b) => (known[b]?.pglite ?? 60) - (known[a]?.pglite ?? 60) || a.localeCompare(b));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

// Spawned servers and the installed command run the compiled code: build it first.
const build = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function runFile(file, engine) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      cwd: root,
      env: { ...process.env, TEST_DB: engine, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) =>
      resolve({ file, ok: code === 0, seconds: (Date.now() - started) / 1000, output: Buffer.concat(out).toString() }),
    );
  });
}

async function runAll(engine) {
  const queue = [...files];
  const results = [];
  const lane = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const r = await runFile(file, engine);
      results.push(r);
      process.stdout.write(`\n--- ${r.file} (${engine}): ${r.ok ? 'ok' : 'FAILED'} in ${r.seconds.toFixed(1)} s\n${r.output}`);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return results;
}

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
const failures = [];
const measured = {};
for (const engine of engines) {
  console.log(`\n=== ${files.length} test files on ${engine} ===`);
  const started = Date.now();
  if (engine === 'pglite') {
    // Build the migrated snapshot once, before the files run in parallel.
    const prep = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/prepare.ts'], { cwd: root, stdio: 'inherit' });
    if (prep.status !== 0) process.exit(prep.status ?? 1);
  }
  const results = await runAll(engine);
  for (const r of results) {
    if (!r.ok) failures.push(`${r.file} (${engine})`);
    measured[r.file] = { ...measured[r.file], [engine]: Math.round(r.seconds) };
  }
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  console.log(`\n=== ${engine}: ${results.length} files in ${((Date.now() - started) / 1000).toFixed(0)} s; slowest:`);
  for (const r of slowest) console.log(`    ${r.seconds.toFixed(1).padStart(7)} s  ${r.file}`);
}
// A full run (no filter) records what each file took, for the next run's order.
if (filters.length === 0 && process.env.TEST_RECORD_DURATIONS) {
  const sorted = Object.fromEntries(
    Object.keys(measured)
      .sort()
      .map((f) => [f, measured[f]]),
  );
  fs.writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
}
if (failures.length > 0) {
  console.log(`\n${failures.length} file(s) failed:\n${failures.map((f) => `    ${f}`).join('\n')}`);
  process.exit(1);
}
