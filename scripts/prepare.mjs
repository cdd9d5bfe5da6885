#!/usr/bin/env node
// npm install runs this (the `prepare` script): it builds dist/ (scripts/build.mjs) when the
// TypeScript compiler is installed (a development install). An install without development
// dependencies (`npm ci --omit=dev` of a built checkout) keeps the dist/ it has.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('typescript/package.json');
} catch {
  if (!fs.existsSync(new URL('../dist/cli.js', import.meta.url))) {
    console.error('freight-exchange: no dist/ and no TypeScript compiler: install with development dependencies, or build first');
  }
  process.exit(0);
}
const run = spawnSync(process.execPath, [new URL('build.mjs', import.meta.url).pathname, '--lenient'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
