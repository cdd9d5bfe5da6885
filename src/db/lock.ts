import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export class DataDirInUseError extends Error {}

const INFO_FILE = 'freight-exchange.lock';
const held = new Set<string>();

/**
 * Holds the embedded data directory for this process: the embedded database must never be
 * opened twice, so a second process (a CLI call next to a running server) is refused.
 *
 * The lock is one the operating system releases with the process, whatever way it ends
 * (SIGKILL, a crash, PID 1 of a container): a listening Linux abstract socket named after the
 * directory's device and inode. Binding it is atomic, so of two processes starting at once
 * exactly one gets it; no pid is ever compared (a recycled pid cannot block a restart). The
 * file `freight-exchange.lock` only tells a person which pid holds the directory.
 * Abstract sockets belong to a network namespace: containers with separate networks must not
 * share one DATA_DIR (several instances share PostgreSQL instead, docs/architecture.md).
 */
export async function lockDataDir(dir: string): Promise<() => void> {
  fs.mkdirSync(dir, { recursive: true });
  const key = dataDirKey(dir);
  if (held.has(key)) throw new DataDirInUseError(`the data directory ${dir} is already open in this process`);
  const info = path.join(dir, INFO_FILE);
  const server = net.createServer((socket) => socket.destroy());
  try {
    await listen(server, socketPath(dir, key));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const holder = readInfo(info);
    throw new DataDirInUseError(
      `the data directory ${dir} is in use by a running freight-exchange process${holder ? ` (pid ${holder})` : ''}; ` +
        'stop it first, or point DATA_DIR elsewhere, or use DATABASE_URL',
    );
  }
  server.unref(); // the lock never keeps the process alive by itself
  held.add(key);
  fs.writeFileSync(info, String(process.pid));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.delete(key);
    if (readInfo(info) === String(process.pid)) fs.rmSync(info, { force: true });
    server.close();
  };
}

/** The directory's identity (device and inode): the name of its lock, and of the running server's backup socket (ops/backup). */
export function dataDirKey(dir: string): string {
  const stat = fs.statSync(dir);
  return createHash('sha256').update(`${stat.dev}:${stat.ino}`).digest('hex').slice(0, 32);
}

/**
 * Linux: an abstract socket (no file; gone with the process). Elsewhere (a developer's Mac) a
 * socket file in the directory; one left by a crash is found dead (nobody accepts) and replaced.
 */
function socketPath(dir: string, key: string): string {
  return process.platform === 'linux' ? `\0freight-exchange-${key}` : path.join(dir, '.freight-exchange.sock');
}

async function listen(server: net.Server, at: string): Promise<void> {
  const attempt = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path: at, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await attempt();
  } catch (err) {
    if (at.startsWith('\0') || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (await answers(at))) throw err;
    fs.rmSync(at, { force: true });
    await attempt();
  }
}

function answers(at: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(at, () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function readInfo(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().slice(0, 20);
  } catch {
    return '';
  }
}
