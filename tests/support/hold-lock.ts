// Holds an embedded data directory's lock like a server would, until killed; prints "locked" or the refusal.
import { lockDataDir } from '../../src/db/lock.ts';

try {
  await lockDataDir(process.argv[2]!);
  process.stdout.write('locked\n');
  setInterval(() => {}, 60_000);
} catch (err) {
  process.stdout.write(`refused: ${(err as Error).message}\n`);
  process.exit(3);
}
