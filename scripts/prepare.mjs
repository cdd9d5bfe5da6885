#!/usr/bin/env node
// npm install runs this (the `prepare` script): it builds dist/ (scripts/build.mjs) when the
// TypeScript compiler is installed (a development install). An install without development
// dependencies (`npm ci --omit=dev` of a built checkout) keeps the dist/ it has. A development
// install also installs the independent client's tooling (tools/independent-client: its own
// package and lock, for tests/client/independent-client.test.ts) when its lock is newer than
// what is installed there. Under CI (`CI` set, as .ci/run does) a failed install of the tool fails
// this script, and so the install: elsewhere its test is skipped, under CI it would fail anyway.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('typescript/package.json');
} catch {
  if (!fs.existsSync(new URL('../dist/admin.js', import.meta.url))) {
    console.error('freight-exchange: no dist/ and no TypeScript compiler: install with development dependencies, or build first');
  }
  process.exit(0);
}
installTool(new URL('../tools/independent-client/', import.meta.url));
const run = spawnSync(process.execPath, [new URL('build.mjs', import.meta.url).pathname, '--lenient'], { stdio: 'inherit' });
process.exit(run.status ?? 1);

/** `npm ci` in a tool's directory when its lock is newer than its installed tree (npm's node_modules/.package-lock.json). */
function installTool(dir) {
  const mtime = (file) => (fs.existsSync(new URL(file, dir)) ? fs.statSync(new URL(file, dir)).mtimeMs : -1);
  const lock = mtime('package-lock.json');
  if (lock < 0 || mtime('node_modules/.package-lock.json') >= lock) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['ci', '--prefix', dir.pathname, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (install.status === 0) return;
  if (process.env.CI) {
    console.error(`freight-exchange: npm ci in ${dir.pathname} failed (CI: its test must run)`);
    process.exit(install.status ?? 1);
  }
  console.error(`freight-exchange: npm ci in ${dir.pathname} failed: its tests will be skipped`);
}
