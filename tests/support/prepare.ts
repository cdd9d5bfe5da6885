// Builds the migrated PGlite snapshot that every test app clones (see databases.ts).
import { pgliteSnapshot } from './databases.ts';

await pgliteSnapshot();
