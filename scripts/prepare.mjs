#!/usr/bin/env node
// npm install runs this (the `prepare` script): it compiles src/ to dist/ when the TypeScript
// compiler is installed (a development install). An install without development dependencies
// (`npm ci --omit=dev` of a built checkout) keeps the dist/ it has.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = new URL('bin/tsc', `file://${require.resolve('typescript/package.json')}`).pathname;
} catch {
  if (!fs.existsSync(new URL('../dist/cli.js', import.meta.url))) {
    console.error('freight-exchange: no dist/ and no TypeScript compiler: install with development dependencies, or build first');
  }
  process.exit(0);
}
const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });
// 2: type errors, but the JavaScript was written. The install goes on; `npm run typecheck` and
// `npm run build` (CI runs both) are where type errors stop a change.
if (run.status === 2) console.error('freight-exchange: built dist/ despite type errors (see above)');
process.exit(run.status === 0 || run.status === 2 ? 0 : (run.status ?? 1));
