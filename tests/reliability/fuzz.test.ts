import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { check, describeRequest, rawCases, runFuzz, summary, type FuzzTarget } from './fuzzer.ts';
import { fuzzTarget } from './support.ts';

// The short run of the seeded fuzzer (the long one is `npm run fuzz`). A new seed every run
// widens what CI covers over time; the seed is printed, and FUZZ_SEED replays a run.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const COUNT = Number(process.env.FUZZ_TEST_COUNT ?? 300);

let app: TestApp;
let target: FuzzTarget;

before(async () => {
  app = await startTestApp();
  ({ target } = await fuzzTarget(app));
});
after(() => app.close());

test(`${COUNT} fuzzed requests to every endpoint (seed ${SEED}): no 5xx, none slower than 2 s, JSON in the envelope, /healthz healthy`, async (t) => {
  const report = await runFuzz(target, { seed: SEED, count: COUNT, concurrency: 4, limitMs: 2000, healthEvery: 100 });
  t.diagnostic(summary(report));
  assert.equal(report.sent, COUNT);
  const routes = target.endpoints.flatMap((e) => [e.spec.method].flat().map((m) => `${m} ${e.spec.path}`));
  assert.deepEqual(
    routes.filter((r) => !report.byRoute[r]),
    [],
    'every endpoint of the route table was fuzzed',
  );
  assert.equal(report.failures.length, 0, summary(report));
});

test('malformed HTTP, each case once: malformed request lines, URLs and headers over 16 KB, broken framing', async () => {
  const problems: string[] = [];
  for (const req of [...rawCases(target.tokens[0]), ...rawCases()]) {
    const problem = await check(target.base, req);
    if (problem) problems.push(`${describeRequest(req).slice(0, 160)} → ${problem}`);
  }
  assert.deepEqual(problems, []);
  const health = await fetch(`${target.base}/healthz`);
  assert.equal(health.status, 200);
});
