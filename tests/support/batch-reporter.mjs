// A node:test reporter for scripts/test.mjs's batches (tests/support/batch.ts): one JSON line per
// test file when its suite ends — its path, whether it passed, its seconds and the count of its
// tests — so that the runner reports and records each file of a batch as if it had run alone.
export default async function* batchReporter(source) {
  let counts = { tests: 0, pass: 0, fail: 0, skipped: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, name, details, skip, todo } = event.data;
    if (nesting === 0) {
      yield `${JSON.stringify({ file: name, ok: event.type === 'test:pass', seconds: details.duration_ms / 1000, counts })}\n`;
      counts = { tests: 0, pass: 0, fail: 0, skipped: 0 };
    } else if (details.type !== 'suite') {
      counts.tests++;
      if (skip || todo) counts.skipped++;
      else if (event.type === 'test:pass') counts.pass++;
      else counts.fail++;
    }
  }
}
