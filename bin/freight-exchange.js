#!/usr/bin/env node
// The admin command and `npm start`: runs the compiled server (dist/, `npm run build`) with
// plain node, from any working directory.
import fs from 'node:fs';
import v8 from 'node:v8';

const entry = new URL('../dist/admin.js', import.meta.url);
if (!fs.existsSync(entry)) {
  process.stderr.write('freight-exchange: not built yet; run "npm run build" (npm install does it) in the package directory\n');
  process.exit(1);
}
// A command other than `serve` ends within seconds or minutes: the embedded database's WebAssembly
// runs as V8's baseline compiler makes it, without the optimising recompilation of its 10 MB module
// in background threads, which such a run never wins back (a restore 3.1 -> 2.0-2.3 s of CPU, an
// import of 20,000 rate lines 3.1-3.2 -> 2.3 s, each faster too; docs/choices.md, "WebAssembly at its
// baseline tier"). The server keeps the optimising tier: it answers for days.
if (process.argv[2] !== 'serve') v8.setFlagsFromString('--liftoff-only');
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// A command other than `serve` is done: end now. After closing an embedded database, PGlite can
// leave a timer of its statistics running that keeps the process alive for minutes (its
// setitimer emulation); stdout and stderr are written synchronously, nothing is lost.
if (process.argv[2] === 'serve' && code === 0) process.exitCode = code;
else process.exit(code);
