import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Database } from '../../db/connection.ts';
import { dataDirKey } from '../../db/lock.ts';
import { BackupRefused } from './archive.ts';
import { type Snapshot, snapshotDataDir } from './snapshot.ts';

/**
 * The running server's backup socket (embedded database only). A server holds DATA_DIR, so
 * `freight-exchange backup` cannot open it; it asks the server instead, over a local socket named
 * after the data directory (a Linux abstract socket, like the lock's; a socket file in DATA_DIR
 * elsewhere), to copy the database into a directory it names (embedded.ts snapshotDataDir).
 *
 * Who may ask: whoever can read KEY_FILE, a random key the server writes into DATA_DIR readable by
 * its owner only at each start — the same people who could read the database's files anyway. An
 * abstract socket has no file permissions, so the key is what keeps other local users out.
 * One request per connection: a line of JSON in, a line of JSON out.
 */

const KEY_FILE = 'freight-exchange.admin';
const MAX_REQUEST = 64 * 1024;

function socketPath(dataDir: string): string {
  return process.platform === 'linux'
    ? `\0freight-exchange-backup-${dataDirKey(dataDir)}`
    : path.join(dataDir, '.freight-exchange-backup.sock');
}

interface Request {
  key: string;
  op: 'snapshot';
  into: string;
}

type Answer = ({ ok: true } & Snapshot) | { ok: false; error: string };

/** Serves snapshots while the server listens; answers how to stop. */
export async function serveBackupSocket(
  database: Database,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Promise<() => Promise<void>> {
  const dataDir = database.embedded!.dataDir;
  const key = randomBytes(32).toString('hex');
  const keyFile = path.join(dataDir, KEY_FILE);
  const tmp = `${keyFile}.${process.pid}`;
  fs.writeFileSync(tmp, key, { mode: 0o600 });
  fs.renameSync(tmp, keyFile);
  const expected = Buffer.from(key);
  let busy: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    socket.setTimeout(10_000, () => socket.destroy());
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.length > MAX_REQUEST) return socket.destroy();
      const end = text.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      const reply = (answer: Answer) => socket.end(`${JSON.stringify(answer)}\n`);
      let request: Partial<Request>;
      try {
        request = JSON.parse(text.slice(0, end)) as Partial<Request>;
      } catch {
        return reply({ ok: false, error: 'the request is not JSON' });
      }
      const given = Buffer.from(String(request.key ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply({ ok: false, error: 'wrong key' });
      const into = String(request.into ?? '');
      if (request.op !== 'snapshot' || !path.isAbsolute(into)) return reply({ ok: false, error: 'unknown request' });
      // One copy at a time: a second waits for the first.
      const run = busy.then(async () => {
        try {
          if (!fs.statSync(into).isDirectory() || fs.readdirSync(into).length)
            return reply({ ok: false, error: `${into} is not an empty directory` });
          const snapshot = await snapshotDataDir(database, into);
          log.info({ into, ...snapshot }, 'backup: data directory copied');
          reply({ ok: true, ...snapshot });
        } catch (err) {
          log.error({ err }, 'backup: copying the data directory failed');
          reply({ ok: false, error: (err as Error).message });
        }
      });
      busy = run;
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath(dataDir), exclusive: true }, () => resolve());
  });
  server.unref();
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await busy;
    if (fs.existsSync(keyFile) && fs.readFileSync(keyFile, 'utf8') === key) fs.rmSync(keyFile, { force: true });
  };
}

/** Asks the server holding `dataDir` to copy its database into `into` (an empty directory). */
export async function askServerForSnapshot(dataDir: string, into: string): Promise<Snapshot> {
  let key: string;
  try {
    key = fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupRefused(
      code === 'EACCES'
        ? `${dataDir} is held by a running server and ${KEY_FILE} in it is not readable: run the backup as the server's user`
        : `${dataDir} is held by a running server that takes no backups (an older version?): stop it, or upgrade it`,
    );
  }
  const answer = await new Promise<Answer>((resolve, reject) => {
    const socket = net.connect(socketPath(dataDir));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ key, op: 'snapshot', into } satisfies Request)}\n`));
    socket.on('data', (c) => {
      text += c.toString('utf8');
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as Answer);
      } catch {
        reject(new BackupRefused('the running server gave no answer to the backup request'));
      }
    });
    socket.on('error', (err) =>
      reject(
        new BackupRefused(
          `${dataDir} is held by a running server that does not answer backup requests (${(err as NodeJS.ErrnoException).code ?? err.message}): is it this version?`,
        ),
      ),
    );
  });
  if (!answer.ok) throw new BackupRefused(`the running server could not copy its database: ${answer.error}`);
  return { files: answer.files, bytes: answer.bytes, pausedMs: answer.pausedMs };
}
