#!/usr/bin/env node
// npm test: every suite on the embedded database (PGlite), and on PostgreSQL too when
// TEST_DATABASE_URL is set (CI sets it). Extra arguments narrow the files: npm test -- freights
//
// What runs where (README, "Tests"):
// - API and database suites run on every engine of the run;
// - browser files (they import tests/support/browser.ts) run once, on PostgreSQL when it is set
//   (the engine CI ships with), else on PGlite: a page renders the same markup from either;
// - engine-independent files run once (on PGlite): those that never open a database of the engine
//   under test (unit tests, structure, build; found by reading their imports within tests/), and
//   those that say so with an `@engine-independent` comment.
// Every (file, engine) job goes to one of the lanes (LANES, below), the longest first onto the least
// loaded by tests/durations.json; a lane's short jobs of one engine and kind share a
// `node --test` process in batches (below), long ones have one each, and a lane that runs out takes
// another's last batch; a process's report is printed whole when it ends, a line per file with
// its duration first, and the slowest are named at the end.
// `--shard k/n` runs the k-th of n shares of the jobs, balanced by the recorded durations (a
// CI with n machines runs one share on each). The migrated PGlite snapshot and the migrated
// PostgreSQL template database are built once, before the jobs start (tests/support/prepare.ts).
// With TEST_RECORD_DURATIONS=1 the measured seconds are written back into tests/durations.json.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
/**
 * Three lanes on the two-core machines: two keep both cores ~92 % busy (a test process waits on its
 * sockets, timers and child processes), three ~96 % (stop 69, the embedded run: 363-372 s with two,
 * 355 s with three). TEST_LANES sets another number.
 */
const LANES = Number(process.env.TEST_LANES ?? 3);
const durationsFile = path.join(root, 'tests', 'durations.json');
/**
 * V8's baseline WebAssembly compiler only, for the processes that open PGlite (the test processes
 * and the snapshot's preparation): PGlite's 10 MB module is otherwise compiled again by TurboFan in
 * background threads in every process, which costs more CPU than a process living minutes wins back
 * (the freights and quotes suites: 51-52 s of the machine's CPU without, 44-45 s with; docs/choices.md,
 * "WebAssembly at its baseline tier"). The answers are the same: only the tier of the machine code differs.
 */
const NODE_FLAGS = ['--liftoff-only'];
/** The seconds assumed for a job without a recorded duration (it starts early: it may be long). */
const UNKNOWN = 60;

const filters = [];
let shard = null;
/** --list: print the processes the run would start, with their files and recorded seconds, and stop. */
let listOnly = false;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--list') {
    listOnly = true;
    continue;
  }
  const m = /^--shard(?:=|$)(.*)/.exec(a);
  if (!m) {
    filters.push(a);
    continue;
  }
  const spec = m[1] || process.argv[++i] || '';
  const s = /^(\d+)\/(\d+)$/.exec(spec);
  if (!s || Number(s[1]) < 1 || Number(s[1]) > Number(s[2])) {
    console.error(`--shard k/n with 1 <= k <= n, not ${spec}`);
    process.exit(2);
  }
  shard = { k: Number(s[1]), n: Number(s[2]) };
}

function collect(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return collect(p);
    return /\.test\.tsx?$/.test(e.name) ? [path.relative(root, p)] : [];
  });
}

// ---- what a file needs: read from its source and the files it imports within tests/ ----
const ENGINE = /\b(startTestApp|freshDatabase|createPostgresDatabase|serverDatabase|TEST_DB|TEST_DATABASE_URL)\b/;
const sources = new Map();
function source(file) {
  if (!sources.has(file)) sources.set(file, fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : '');
  return sources.get(file);
}
/** The file and every file it imports (transitively) inside tests/. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of source(file).matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const target = path.relative(root, path.resolve(root, path.dirname(file), m[1]));
    if (target.startsWith('tests/')) closure(target, seen);
  }
  return seen;
}
function kind(file) {
  if (/\bfrom\s+'[./]*\/support\/browser\.ts'/.test(source(file))) return 'browser';
  if (/@engine-independent\b/.test(source(file))) return 'once';
  for (const f of closure(file)) if (f !== 'tests/support/browser.ts' && ENGINE.test(source(f))) return 'engines';
  return 'once';
}

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const engines = ['pglite', ...(postgres ? ['postgres'] : [])];
const known = fs.existsSync(durationsFile) ? JSON.parse(fs.readFileSync(durationsFile, 'utf8')) : {};
const files = collect(path.join(root, 'tests')).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// A file's figure on the other engine where this one has none (a browser file runs on either).
const recorded = (job) => known[job.file]?.[job.engine] ?? known[job.file]?.pglite ?? known[job.file]?.postgres;
const seconds = (job) => recorded(job) ?? UNKNOWN;
let jobs = files
  .flatMap((file) => {
    const k = kind(file);
    if (k === 'browser') return [{ file, engine: postgres ? 'postgres' : 'pglite', kind: k }];
    if (k === 'once') return [{ file, engine: 'pglite', kind: k }];
    return engines.map((engine) => ({ file, engine, kind: k }));
  })
  .sort((a, b) => seconds(b) - seconds(a) || a.file.localeCompare(b.file) || a.engine.localeCompare(b.engine));
if (shard) {
  // Longest first onto the least loaded share: the shares end within a job of each other.
  const load = Array.from({ length: shard.n }, () => 0);
  jobs = jobs.filter((job) => {
    const i = load.indexOf(Math.min(...load));
    load[i] += seconds(job);
    return i === shard.k - 1;
  });
}

// Batches: the files of one engine and kind share a `node --test` process (tests/support/batch.ts)
// up to BATCH_SECONDS of recorded time, so the process, tsx and the app's modules are loaded once
// per batch. A long file (it would fill a batch alone) and a file marked `@own-process` run alone.
// 200 s: quotes, freights and aircargo (30 files) took 259 s of CPU in batches of 60 s and 210 s in
// two of 200 (README, "Tests"); the longest file still fills a lane longer than any batch.
// A batch holds at most a lane's share of the run, so a small run (a filtered one, .ci/run's pass on
// the LTS line: 11 files, 75 s, which one batch ran on one lane in 93 s while the other core idled)
// keeps every lane busy.
const BATCH_SECONDS = Math.min(Number(process.env.TEST_BATCH_SECONDS ?? 200), jobs.reduce((sum, job) => sum + seconds(job), 0) / LANES);
// A file without a recorded duration joins a batch as if it took a third of one (it starts early).
const batchSeconds = (job) => recorded(job) ?? BATCH_SECONDS / 3;
const ownProcess = (job) => /@own-process\b/.test(source(job.file)) || batchSeconds(job) >= BATCH_SECONDS;
// Each lane's files first (longest first onto the least loaded lane, by the recorded seconds): the
// lanes end within a short file of each other, where batches handed out longest first ended up to
// a batch apart (stop 69: 363-372 s with one lane idle for the last 10-35 s). Then the batches of
// each lane, longest first. A lane that runs out takes the other lanes' last batches (below), so a
// figure that was wrong costs less than a lane.
const plans = Array.from({ length: LANES }, () => ({ seconds: 0, jobs: [] }));
for (const job of jobs) {
  const plan = plans.reduce((least, p) => (p.seconds < least.seconds ? p : least));
  plan.jobs.push(job);
  plan.seconds += seconds(job);
}
const laneBatches = plans.map((plan) => {
  const mine = [];
  const open = new Map();
  for (const job of plan.jobs) {
    if (ownProcess(job)) {
      mine.push({ jobs: [job], seconds: seconds(job) });
      continue;
    }
    const key = `${job.engine} ${job.kind === 'browser'}`;
    let batch = open.get(key);
    if (!batch || batch.seconds + batchSeconds(job) > BATCH_SECONDS) {
      batch = { jobs: [], seconds: 0 };
      open.set(key, batch);
      mine.push(batch);
    }
    batch.jobs.push(job);
    batch.seconds += batchSeconds(job);
  }
  return mine.sort((a, b) => b.seconds - a.seconds);
});
const batches = laneBatches.flat();
if (listOnly) {
  laneBatches.forEach((mine, i) => {
    console.log(`lane ${i + 1}: ${plans[i].seconds.toFixed(0)} s`);
    for (const b of mine)
      console.log(
        `${b.seconds.toFixed(0).padStart(5)} s  ${b.jobs[0].engine}${b.jobs[0].kind === 'browser' ? ' browser' : ''}: ${b.jobs.map((j) => j.file).join(' ')}`,
      );
  });
  process.exit(0);
}

// Spawned servers and the installed command run the compiled code: build it first.
const build = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The migrated PGlite snapshot, and the migrated PostgreSQL template, once before the jobs.
const needed = [...new Set(jobs.map((j) => j.engine))];
const prep = spawnSync(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'tests/support/prepare.ts', ...needed], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, LOG_LEVEL: 'silent' },
});
if (prep.status !== 0) process.exit(prep.status ?? 1);

// One Chromium per lane, started when the lane meets its first browser file and shared by the
// browser files it runs after (each connects to it: tests/support/browser.ts). Without one (no
// Chromium, or it did not start) each browser file starts its own. Which Chromium, and whether there
// is one, is tests/support/browser.ts's to say: the server exits without an address when it finds none.
const browsers = [];
function laneBrowser() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/browser-server.ts'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  browsers.push(child);
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve(null), 60_000);
    child.stdout.on('data', (d) => {
      text += d;
      const line = /^(ws:\/\/\S+)\n/.exec(text);
      if (line) {
        clearTimeout(timer);
        resolve(line[1]);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

// A process that outlives every figure it could have is stopped, and the file it was in named: a test
// that waits for something that never comes, or an open handle after the last test (a server, a
// pool, a timer), would otherwise hold its lane, and CI, until CI's own limit ends it without a word.
// Ten times its recorded seconds, and never under fifteen minutes: the machines differ by up to ~3x
// (stop 70's ran the browser files of CI's three lanes 4-9x slower than the durations recorded on
// stop 69's, and a batch of them outlived five times its record without hanging);
// TEST_PROCESS_TIMEOUT_SECONDS sets one limit for every process instead.
const timeoutSeconds = (batch) =>
  Number(process.env.TEST_PROCESS_TIMEOUT_SECONDS) || Math.max(900, 10 * batch.jobs.reduce((s, j) => s + seconds(j), 0));

// The test processes running now. Each has a process group of its own (below), so a Ctrl-C at the
// terminal reaches only this runner: it passes the signal on to them before it ends (with the
// shell's code for the signal: 128 + its number).
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
    process.exit(128 + os.constants.signals[signal]);
  });

/** A node:test process for one file, or for a batch of them (tests/support/batch.ts). */
function runProcess(batch, browserWs) {
  const started = Date.now();
  const single = batch.jobs.length === 1;
  const report = single ? null : path.join(root, '.test-cache', `batch-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`);
  const args = single
    ? ['--import', 'tsx', '--test', '--test-reporter=spec', batch.jobs[0].file]
    : [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=./tests/support/batch-reporter.mjs',
        `--test-reporter-destination=${report}`,
        'tests/support/batch.ts',
      ];
  const job = batch.jobs[0];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, ...args], {
      cwd: root,
      env: {
        ...process.env,
        TEST_DB: job.engine,
        LOG_LEVEL: 'silent',
        ...(single ? {} : { TEST_BATCH: batch.jobs.map((j) => j.file).join(',') }),
        ...(job.kind === 'browser' && browserWs ? { TEST_BROWSER_WS: browserWs } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a timeout stops node:test's own child processes with it.
      detached: true,
    });
    running.add(child);
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    const limit = timeoutSeconds(batch);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limit * 1000);
    child.on('close', (code) => {
      running.delete(child);
      clearTimeout(timer);
      let output = Buffer.concat(out).toString();
      const wall = (Date.now() - started) / 1000;
      if (single && timedOut) {
        output += `\n!!! ${job.file} (${job.engine}) did not end within ${limit.toFixed(0)} s and was stopped\n`;
        resolve({
          output,
          wall,
          results: [{ ...job, ok: false, timedOut, seconds: wall, counts: { tests: 0, pass: 0, fail: 1, skipped: 0 } }],
        });
        return;
      }
      if (single) {
        // The spec reporter's summary: ℹ tests 12, ℹ pass 12, ℹ fail 0, ℹ skipped 0 …
        const count = (name) => Number(new RegExp(`^\\S* ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
        const counts = { tests: count('tests'), pass: count('pass'), fail: count('fail'), skipped: count('skipped') };
        resolve({ output, wall, results: [{ ...job, ok: code === 0, seconds: wall, counts }] });
        return;
      }
      const lines = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').split('\n').filter(Boolean) : [];
      fs.rmSync(report, { force: true });
      const byFile = new Map(lines.map((l) => JSON.parse(l)).map((r) => [r.file, r]));
      // A file without its line did not end (the process died in it or before it).
      const results = batch.jobs.map((j) => {
        const r = byFile.get(j.file);
        return r
          ? { ...j, ok: r.ok, seconds: r.seconds, counts: r.counts }
          : { ...j, ok: false, seconds: 0, counts: { tests: 0, pass: 0, fail: 0, skipped: 0 } };
      });
      if (timedOut) {
        // The files run in order: the first without its line is the one the process was in.
        const stuck = results.find((r) => !byFile.has(r.file));
        output += stuck
          ? `\n!!! the batch did not end within ${limit.toFixed(0)} s and was stopped in ${stuck.file} (${stuck.engine})\n`
          : `\n!!! every file of the batch ended, but its process did not exit within ${limit.toFixed(0)} s (a handle left open: a server, a pool, a timer) and was stopped\n`;
        for (const r of results) if (!byFile.has(r.file) || !stuck) Object.assign(r, { ok: false, timedOut: true });
        resolve({ output, wall, results });
        return;
      }
      // An error outside every file's suite fails the batch: each of its files is then run alone.
      if (code !== 0 && results.every((r) => r.ok)) for (const r of results) r.ok = false;
      resolve({ output, wall, results });
    });
  });
}

const runStarted = Date.now();
const what = shard ? `share ${shard.k}/${shard.n}: ` : '';
console.log(
  `\n=== ${what}${jobs.length} jobs of ${files.length} test files on ${engines.join(' and ')} ` +
    `(${jobs.filter((j) => j.kind === 'browser').length} browser files once on ${postgres ? 'postgres' : 'pglite'}, ` +
    `${jobs.filter((j) => j.kind === 'once').length} engine-independent files once), ${LANES} at a time ===`,
);
fs.mkdirSync(path.join(root, '.test-cache'), { recursive: true });
const queues = laneBatches.map((mine) => [...mine]);
/** The lane's next batch; when it has none left, the last (shortest) batch not yet started of the lane with most left. */
function nextBatch(i) {
  if (queues[i].length > 0) return queues[i].shift();
  const left = (q) => q.reduce((sum, b) => sum + b.seconds, 0);
  const fullest = queues.reduce((most, q) => (left(q) > left(most) ? q : most));
  return fullest.pop();
}
let processSeconds = 0;
const results = [];
/** Files that failed in a batch and passed when run alone: reported, never hidden. */
const aloneAfterBatch = [];
const lane = async (_, i) => {
  let browser;
  for (let batch = nextBatch(i); batch; batch = nextBatch(i)) {
    if (batch.jobs[0].kind === 'browser') browser ??= laneBrowser();
    const browserWs = batch.jobs[0].kind === 'browser' ? await browser : null;
    const run = await runProcess(batch, browserWs);
    processSeconds += run.wall;
    // One line per file (`--- path (engine): ok in s`), then the process's report.
    const lines = run.results.map((r) => `--- ${r.file} (${r.engine}): ${r.ok ? 'ok' : 'FAILED'} in ${r.seconds.toFixed(1)} s`);
    const head =
      batch.jobs.length === 1 ? lines[0] : `=== a batch of ${batch.jobs.length} files in ${run.wall.toFixed(1)} s:\n${lines.join('\n')}`;
    process.stdout.write(`\n${head}\n${run.output}`);
    for (const r of run.results) {
      // A file stopped for its time is not run again: it would wait as long a second time.
      if (r.ok || r.timedOut || batch.jobs.length === 1) {
        results.push(r);
        continue;
      }
      // Failed beside other files: run alone, so that a file is judged by its own tests.
      const again = await runProcess({ jobs: [batch.jobs.find((j) => j.file === r.file)] }, browserWs);
      const alone = again.results[0];
      process.stdout.write(
        `\n--- ${alone.file} (${alone.engine}): ${alone.ok ? 'ok' : 'FAILED'} in ${alone.seconds.toFixed(1)} s, alone after failing in a batch\n${again.output}`,
      );
      if (alone.ok) aloneAfterBatch.push(`${r.file} (${r.engine})`);
      results.push(alone);
    }
  }
};
await Promise.all(Array.from({ length: LANES }, lane));
for (const b of browsers) b.stdin.end();

const failures = results.filter((r) => !r.ok).map((r) => `${r.file} (${r.engine})`);
if (aloneAfterBatch.length > 0)
  console.log(
    `\n${aloneAfterBatch.length} file(s) failed in a batch and passed alone:\n${aloneAfterBatch.map((f) => `    ${f}`).join('\n')}`,
  );
const wall = (Date.now() - runStarted) / 1000;
console.log(
  `\n=== ${what}${results.length} jobs in ${batches.length} processes, ${wall.toFixed(0)} s (${processSeconds.toFixed(0)} s of processes); slowest:`,
);
for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8))
  console.log(`    ${r.seconds.toFixed(1).padStart(7)} s  ${r.file} (${r.engine})`);
for (const engine of engines) {
  const mine = results.filter((r) => r.engine === engine);
  const sum = (k) => mine.reduce((s, r) => s + r.counts[k], 0);
  const serial = mine.reduce((s, r) => s + r.seconds, 0);
  console.log(
    `=== ${engine}: ${mine.length} files, ${sum('tests')} tests (${sum('pass')} passed, ${sum('fail')} failed, ` +
      `${sum('skipped')} skipped), ${serial.toFixed(0)} s serial`,
  );
}

// Recorded durations (TEST_RECORD_DURATIONS=1), merged into what is known: the next run's order
// and the shares' balance. A file that no longer exists leaves the record.
if (process.env.TEST_RECORD_DURATIONS) {
  const all = new Set(collect(path.join(root, 'tests')));
  const merged = Object.fromEntries(Object.entries(known).filter(([f]) => all.has(f)));
  for (const r of results) merged[r.file] = { ...merged[r.file], [r.engine]: Math.max(1, Math.round(r.seconds)) };
  // An engine-independent file runs on PGlite only: a PostgreSQL figure of it is no longer true.
  for (const f of Object.keys(merged)) if (kind(f) === 'once') delete merged[f].postgres;
  // A browser file runs once, on one engine: a figure of the other one is no longer true.
  for (const r of results) if (r.kind === 'browser') delete merged[r.file][r.engine === 'postgres' ? 'pglite' : 'postgres'];
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((f) => [f, merged[f]]),
  );
  fs.writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
}
if (failures.length > 0) {
  console.log(`\n${failures.length} job(s) failed:\n${failures.map((f) => `    ${f}`).join('\n')}`);
  process.exit(1);
}
