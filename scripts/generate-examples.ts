// npm run examples:generate: records one request and one response example per operation of the
// API description on a test app (tests/support/api-examples.ts: the isolation tests' world, then
// every operation still unanswered) and writes them to src/openapi/examples.json, which
// buildOpenApiDocument attaches to the operations (issue 25). A test (tests/platform/examples.test.ts)
// fails when an operation has none, or an example does not validate against its schema.
import fs from 'node:fs';
import { recordExamples } from '../tests/support/api-examples.ts';
import { startTestApp } from '../tests/support/harness.ts';

const app = await startTestApp({ env: { LOG_LEVEL: 'silent' } });
try {
  const examples = await recordExamples(app);
  const file = new URL('../src/openapi/examples.json', import.meta.url);
  fs.writeFileSync(file, `${JSON.stringify(examples, null, 1)}\n`);
  console.log(`wrote ${Object.keys(examples).length} operations' examples to ${file.pathname}`);
} finally {
  await app.close();
}
