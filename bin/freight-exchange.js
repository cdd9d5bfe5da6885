#!/usr/bin/env node
// The admin command and `npm start`: runs the compiled server (dist/, `npm run build`) with
// plain node, from any working directory.
import fs from 'node:fs';

const entry = new URL('../dist/admin.js', import.meta.url);
if (!fs.existsSync(entry)) {
  process.stderr.write('freight-exchange: not built yet; run "npm run build" (npm install does it) in the package directory\n');
  process.exit(1);
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// A command other than `serve` is done: end now. After closing an embedded database, PGlite can
// leave a timer of its statistics running that keeps the process alive for minutes (its
// setitimer emulation); stdout and stderr are written synchronously, nothing is lost.
if (process.argv[2] === 'serve' && code === 0) process.exitCode = code;
else process.exit(code);
