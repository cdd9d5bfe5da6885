#!/usr/bin/env node
// node generate.mjs <generator> <openapi.json> <output dir>: a TypeScript client of the freight-exchange
// API by an independent generator, from the description as the server serves it, nothing changed.
// Generators (issue 25; issue 39 added the two after the first):
//   hey-api             @hey-api/openapi-ts: its fetch client, types and SDK (sample.ts runs against a server)
//   openapi-typescript  openapi-typescript: the types of every path and schema (sample-openapi-typescript.ts)
//   orval               orval: its fetch client in one file, models included (sample-orval.ts)
// tests/client/independent-client.test.ts generates each from the current description and compiles
// it with its sample under `tsc --strict`.
import fs from 'node:fs';
import path from 'node:path';

const [generator, input, output] = process.argv.slice(2);
if (!generator || !input || !output) {
  console.error('usage: node generate.mjs <hey-api|openapi-typescript|orval> <openapi.json> <output dir>');
  process.exit(2);
}
const source = path.resolve(input);
const target = path.resolve(output);
fs.mkdirSync(target, { recursive: true });

if (generator === 'hey-api') {
  const { createClient } = await import('@hey-api/openapi-ts');
  await createClient({
    input: source,
    output: { path: target },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
} else if (generator === 'openapi-typescript') {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(new URL(`file://${source}`));
  fs.writeFileSync(path.join(target, 'schema.ts'), astToString(ast));
} else if (generator === 'orval') {
  const { generate } = await import('orval');
  await generate({ input: { target: source }, output: { target: path.join(target, 'api.ts'), client: 'fetch', mode: 'single' } });
} else {
  console.error(`unknown generator: ${generator}`);
  process.exit(2);
}
