// Builds, before the test files run in parallel, what every test app copies (see databases.ts):
// the migrated PGlite snapshot, and with `postgres` among the arguments the migrated template
// database on TEST_DATABASE_URL's server. Without arguments: the PGlite snapshot.
import { pgliteSnapshot, postgresTemplate } from './databases.ts';

const engines = process.argv.slice(2);
if (engines.length === 0 || engines.includes('pglite')) await pgliteSnapshot();
if (engines.includes('postgres')) await postgresTemplate();
