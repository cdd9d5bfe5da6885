// npm run fuzz: the long run of the seeded request fuzzer (tests/reliability/fuzzer.ts) against
// a listening app on a fresh database, with a world of every kind of record in it.
//
//   npm run fuzz                                   10,000 requests, random seed, embedded database
//   npm run fuzz -- --seed 42 --count 20000        FUZZ_SEED / FUZZ_COUNT work too
//   npm run fuzz -- --seed 42 --from 1234 --count 1 --verbose   replay one request, show it
//   --no-large: no multi-megabyte file pushes (they are part of the long run by default)
//   TEST_DATABASE_URL=postgres://… npm run fuzz -- --engine postgres
//
// Exits 1 when any request failed (5xx, slower than --limit-ms, a .json answer outside the
// envelope, an unhealthy /healthz); the summary names the seed and each failing request.
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    count: { type: 'string' },
    from: { type: 'string' },
    engine: { type: 'string' },
    concurrency: { type: 'string' },
    'limit-ms': { type: 'string' },
    verbose: { type: 'boolean' },
    'no-large': { type: 'boolean' },
  },
});

const int = (text: string | undefined, fallback: number) => {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`not a whole number: ${text}`);
    process.exit(2);
  }
  return n;
};
const seed = int(values.seed ?? process.env.FUZZ_SEED, Math.floor(Math.random() * 2 ** 31));
const count = int(values.count ?? process.env.FUZZ_COUNT, 10_000);
const from = int(values.from, 0);
const engine = values.engine ?? process.env.TEST_DB ?? 'pglite';
if (engine !== 'pglite' && engine !== 'postgres') {
  console.error(`--engine is pglite or postgres, not ${engine}`);
  process.exit(2);
}
if (engine === 'postgres') process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
// The database helpers read the engine when loaded.
process.env.TEST_DB = engine;
process.env.LOG_LEVEL ??= 'silent';

const { startTestApp } = await import('../tests/support/harness.ts');
const { runFuzz, summary, makeRequest, describeRequest, parameterNames, fingerprint } = await import('../tests/reliability/fuzzer.ts');
const { fuzzTarget } = await import('../tests/reliability/support.ts');

console.log(`fuzz: seed ${seed}, requests ${from}..${from + count - 1}, ${engine}`);
const app = await startTestApp();
let failed = true;
try {
  const { target } = await fuzzTarget(app);
  console.log(
    `target ${target.base}: ${target.endpoints.length} endpoints, ${target.ids.length} ids, ${parameterNames().length} parameter names (fingerprint ${fingerprint(target)})`,
  );
  let last = 0;
  const report = await runFuzz(target, {
    seed,
    count,
    from,
    concurrency: int(values.concurrency, 4),
    limitMs: int(values['limit-ms'], 2000),
    largeUploads: !values['no-large'],
    onProgress(done, failures) {
      const now = Date.now();
      if (done === count || now - last > 2000) {
        last = now;
        process.stdout.write(`  ${done}/${count} sent, ${failures} failure(s)\n`);
      }
    },
  });
  if (values.verbose) {
    for (let i = from; i < from + Math.min(count, 20); i++)
      console.log(`#${i} ${describeRequest(makeRequest(seed, i, target, parameterNames(), { largeUploads: !values['no-large'] }))}`);
  }
  console.log(summary(report));
  failed = report.failures.length > 0;
} finally {
  await app.close();
}
process.exit(failed ? 1 : 0);
