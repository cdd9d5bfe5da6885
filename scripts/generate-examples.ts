// npm run examples:generate: records one request and one response example per operation of the
// API description, and one delivered event per event type, on a test app
// (tests/support/api-examples.ts: the isolation tests' world, then every operation still
// unanswered; the events from the outbox those changes wrote) and writes them to
// src/openapi/examples.json and src/openapi/event-examples.json, which buildOpenApiDocument
// attaches to the operations and to the webhooks (issue 25). A test
// (tests/platform/examples.test.ts) fails when an operation or an event type has none, or an
// example does not validate against its schema.
import fs from 'node:fs';
import { recordExamples } from '../tests/support/api-examples.ts';
import { startTestApp } from '../tests/support/harness.ts';

const app = await startTestApp({ env: { LOG_LEVEL: 'silent' } });
try {
  const { operations, events } = await recordExamples(app);
  for (const [name, examples] of [
    ['examples.json', operations],
    ['event-examples.json', events],
  ] as const) {
    const file = new URL(`../src/openapi/${name}`, import.meta.url);
    fs.writeFileSync(file, `${JSON.stringify(examples, null, 1)}\n`);
    console.log(`wrote ${Object.keys(examples).length} examples to ${file.pathname}`);
  }
} finally {
  await app.close();
}
