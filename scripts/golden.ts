/**
 * What the exchange answers, written down, so a refactoring can prove it changed no byte:
 *
 *   node --import tsx scripts/golden.ts DIR        # writes DIR/<n>-<name>.txt and DIR/SUMMARY
 *   diff -r before/ after/                          # nothing: the answers are the same
 *
 * The requests and the seeded exchange are tests/support/golden.ts's (the backup tests ask a
 * restored server the same).
 */
import fs from 'node:fs';
import path from 'node:path';
import { citiesReady } from '../src/places/cities.ts';
import { recordGolden, seedGoldenWorld } from '../tests/support/golden.ts';
import { startTestApp, type TestApp } from '../tests/support/harness.ts';

const out = path.resolve(process.argv[2] ?? '.test-cache/golden');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// Town names in answers come from the city data once it is loaded (places/cities.ts answers
// without them meanwhile): wait for it, so two recordings do not differ by a slow load.
await citiesReady();
const app: TestApp = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
const answers = await recordGolden(app, await seedGoldenWorld(app));
for (const a of answers) fs.writeFileSync(path.join(out, a.file), a.text);
fs.writeFileSync(path.join(out, 'SUMMARY'), `${answers.map((a) => `${a.file} ${a.status} ${a.length}`).join('\n')}\n`);
console.log(`${answers.length} answers written to ${out}`);
await app.close();
