#!/usr/bin/env node
// npm run generate -- <openapi.json> <output dir>: a TypeScript client of the freight-exchange API
// by an independent generator (@hey-api/openapi-ts, its fetch client), from the description as the
// server serves it, nothing changed. tests/client/independent-client.test.ts runs it on the current
// description, compiles the generated code with sample.ts under `tsc --strict` and runs the sample.
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node generate.mjs <openapi.json> <output dir>');
  process.exit(2);
}
await createClient({
  input: path.resolve(input),
  output: { path: path.resolve(output) },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { level: 'silent' },
});
