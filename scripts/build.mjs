#!/usr/bin/env node
// npm run build: src/ compiled to dist/ (tsconfig.build.json), plus the files tsc does not
// emit: JavaScript modules that run as they are (worker threads, *.mjs). With --lenient (the
// install's `prepare`), type errors do not stop it when the JavaScript was written.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const lenient = process.argv.includes('--lenient');
const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin/tsc');

const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
// tsc: 0 clean; 2 type errors but the JavaScript was written; anything else nothing usable.
if (run.status !== 0 && !(lenient && run.status === 2)) process.exit(run.status ?? 1);
if (run.status === 2) console.error('freight-exchange: built dist/ despite type errors (see above)');

function copyAssets(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(from);
    else if (entry.name.endsWith('.mjs')) {
      const to = path.join(root, 'dist', path.relative(path.join(root, 'src'), from));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
  }
}
copyAssets(path.join(root, 'src'));
