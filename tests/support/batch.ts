// Several test files in one `node --test` process (scripts/test.mjs): the process, tsx and the
// application's modules (~2 s and ~4 s of CPU a file on the two-core machines) are paid once per
// batch instead of once per file. The files are named in TEST_BATCH, separated by commas,
// relative to the root; a file that cannot share a process says so with an `@own-process` comment.
//
// Each file runs as a suite named by its path, as if alone: its top-level hooks and tests belong
// to that suite (its `before` runs before its tests, its `after` when they end, and the next file
// starts after that), and what it changed in process.env is undone before the next one starts.
// Other process-wide state is the file's to put back in its `after` (module data a test replaced,
// tests/places/postal-centres; built-ins a library's polyfills replaced on import, tests/support/pdf.ts).
// node:test attaches a declaration to the suite being built by asking the async context, which
// the module loader (tsx's hooks run on another thread) does not carry into a module's body; so
// the file's top-level declarations are recorded while it is imported, and declared again, in
// order, inside its suite. Declarations made later (inside describe callbacks, when the suite is
// built) go straight to node:test.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nativeBuiltins } from './builtins.ts';

type Declare = (...args: unknown[]) => unknown;
const NAMES = ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] as const;

const nodeTest = createRequire(import.meta.url)('node:test') as Record<string, Declare>;
const real = Object.fromEntries(NAMES.map((name) => [name, nodeTest[name]!])) as Record<(typeof NAMES)[number], Declare>;
type Declaration = [(typeof NAMES)[number], unknown[]];
let recording: Declaration[] | null = null;
for (const name of NAMES) {
  const declare = real[name];
  nodeTest[name] = Object.assign(
    (...args: unknown[]) => {
      if (!recording) return declare(...args);
      recording.push([name, args]);
      return Promise.resolve();
    },
    // test.skip, test.todo, describe.only …: declared straight away (no test file uses them at the top).
    declare,
  );
}
// `import { test } from 'node:test'` in the files now binds to the recording versions.
syncBuiltinESMExports();

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const files = (process.env.TEST_BATCH ?? '').split(',').filter(Boolean);
const initialEnv = { ...process.env };
function restoreEnv(): void {
  for (const key of Object.keys(process.env)) if (!(key in initialEnv)) delete process.env[key];
  Object.assign(process.env, initialEnv);
}

// A built-in a library replaced (a polyfill) stays replaced for every later file of the process:
// one file's import made the others slower (tests/support/pdf.ts), or changed what they test.
// The file that leaves one replaced, on import or when its tests end, fails and names it.
const builtins = nativeBuiltins();
const replacedBy = (file: string) => () => {
  const replaced = builtins.restore();
  if (replaced.length) throw new Error(`${file} left built-ins replaced for the files after it: ${replaced.join(', ')}`);
};

const loaded: Array<{ file: string; declarations: Declaration[]; failed?: unknown }> = [];
for (const file of files) {
  const declarations: Declaration[] = [];
  recording = declarations;
  try {
    await import(pathToFileURL(path.join(root, file)).href);
    replacedBy(file)();
    loaded.push({ file, declarations });
  } catch (failed) {
    loaded.push({ file, declarations: [], failed });
  } finally {
    recording = null;
  }
}
for (const { file, declarations, failed } of loaded) {
  real.describe(file, () => {
    real.before(restoreEnv);
    if (failed) real.test('loads', () => Promise.reject(failed));
    for (const [name, args] of declarations) real[name](...args);
    real.after(replacedBy(file));
  });
}
// A process that does not exit after its last file has a handle left open (a server, a pool, a
// socket, a timer): scripts/test.mjs stops it after its time; this names what kind of handle it was.
real.after(() => {
  setTimeout(() => {
    process.stderr.write(`\nthe batch's files have ended, but these stay open: ${process.getActiveResourcesInfo().join(', ')}\n`);
  }, 60_000).unref();
});
