import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {}

const LOCK_FILE = 'freight-exchange.lock';

/**
 * Holds the embedded data directory for this process. The embedded database must never be
 * opened twice, so a second process (a CLI call next to a running server) is refused.
 * The lock file carries the holder's pid: a lock left behind by a crashed process is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(safeRead(file));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(
          `the data directory ${dir} is in use by a running freight-exchange process (pid ${holder}); ` +
            'stop it first, or point DATA_DIR elsewhere, or use DATABASE_URL',
        );
      }
      if (holder === process.pid) {
        throw new DataDirInUseError(`the data directory ${dir} is already open in this process`);
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirInUseError(`could not lock the data directory ${dir}`);
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
