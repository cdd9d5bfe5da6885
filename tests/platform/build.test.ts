// Issue 15: the server runs as compiled JavaScript with plain node, from any working directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

test('the command runs dist/ with plain node and no TypeScript loader', () => {
  const bin = fs.readFileSync(path.join(ROOT, 'bin/freight-exchange.js'), 'utf8');
  assert.doesNotMatch(bin, /tsx|register\(/);
  assert.ok(fs.existsSync(path.join(ROOT, 'dist/admin.js')), 'npm test builds dist/ first');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const dev of ['tsx', 'typescript']) assert.ok(!(dev in pkg.dependencies) && dev in pkg.devDependencies, dev);
});

// Started from another working directory, the compiled server serves pages, JSON and its worker
// threads: tests/reliability/cwd.test.ts.
