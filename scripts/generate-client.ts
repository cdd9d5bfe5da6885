// npm run client:generate: writes the API description the server serves into the TypeScript
// client (clients/typescript/openapi.json) and generates its types (src/schema.d.ts) with
// openapi-typescript. The generator needs TypeScript 5's compiler API, which this repository's
// TypeScript 7 does not have: it runs through npx at pinned versions, outside the dependencies.
// A test (tests/client) fails when the committed description differs from the server's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { buildApp } from '../src/app.ts';
import { readConfig } from '../src/config/config.ts';
import { createPglite, openDatabase } from '../src/db/connection.ts';

const dir = new URL('../clients/typescript/', import.meta.url);
const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: await createPglite() });
const { http } = await buildApp({ config: readConfig({ LOG_LEVEL: 'silent' }), database });
const res = await http.inject({ method: 'GET', url: '/openapi.json' });
await http.close();
await database.close();
if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
const file = new URL('openapi.json', dir);
fs.writeFileSync(file, `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);

const gen = spawnSync(
  'npx',
  ['--yes', '-p', 'typescript@5.9', '-p', 'openapi-typescript@7.13.0', 'openapi-typescript', 'openapi.json', '-o', 'src/schema.d.ts'],
  {
    cwd: dir,
    stdio: 'inherit',
  },
);
process.exit(gen.status ?? 1);
