#!/usr/bin/env node
// npm test: every suite on the embedded database (PGlite), then again on PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it). Extra arguments narrow the files: npm test -- freights
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const filters = process.argv.slice(2);

function collect(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return collect(p);
    return /\.test\.tsx?$/.test(e.name) ? [path.relative(root, p)] : [];
  });
}

const files = collect(path.join(root, 'tests'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

// Spawned servers and the installed command run the compiled code: build it first.
const build = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
let failed = false;
for (const engine of engines) {
  console.log(`\n=== ${files.length} test files on ${engine} ===`);
  if (engine === 'pglite') {
    // Build the migrated snapshot once, before the files run in parallel.
    const prep = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/prepare.ts'], { cwd: root, stdio: 'inherit' });
    if (prep.status !== 0) process.exit(prep.status ?? 1);
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_DB: engine, LOG_LEVEL: 'silent' },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
