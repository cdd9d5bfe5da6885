import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL primary and a streaming standby of the tests' own (issue 31), started from the
 * server binaries of the machine's PostgreSQL in a temporary directory on free ports, as the
 * `postgres` system user (the server refuses to run as root). The shared server on 5432 is left
 * alone: it has no replication entry in its pg_hba.
 */

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

function postgresUid(): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) } : undefined;
}

/**
 * Why the replica tests cannot run here, or undefined when they can: only missing server binaries
 * skip them. As root the servers run as the `postgres` system user (a missing one fails the
 * test); as any other user they run as that user.
 */
export function replicasUnavailable(): string | undefined {
  if (!binDir()) return 'the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are not under /usr/lib/postgresql';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface ReplicaPair {
  primaryUrl: string;
  standbyUrl: string;
  /** stops the standby at once (as a crash would) */
  killStandby(): void;
  close(): void;
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = binDir()!;
  const root = process.getuid?.() === 0;
  const owner = root ? postgresUid() : undefined;
  if (root && !owner) throw new Error('the replica tests run as root and need the postgres system user to start the servers');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx-replica-'));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const asPostgres = (cmd: string, args: string[]) => {
    const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    execFileSync(file, argv as string[], { stdio: 'pipe', cwd: dir, timeout: 60_000 });
  };
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = path.join(dir, 'primary');
  const standby = path.join(dir, 'standby');
  const settings = (port: number) =>
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nshared_buffers = 16MB\nmax_wal_senders = 4\nwal_level = replica\nhot_standby = on\nwal_receiver_status_interval = 1s\n`;
  let started: string[] = [];
  const stop = (data: string) => {
    try {
      asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  try {
    asPostgres('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    fs.appendFileSync(path.join(primary, 'postgresql.conf'), settings(primaryPort));
    asPostgres('pg_ctl', ['-D', primary, '-l', path.join(dir, 'primary.log'), '-w', 'start']);
    started = [primary];
    asPostgres('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standby,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    fs.appendFileSync(path.join(standby, 'postgresql.conf'), settings(standbyPort));
    asPostgres('pg_ctl', ['-D', standby, '-l', path.join(dir, 'standby.log'), '-w', 'start']);
    started = [standby, primary];
  } catch (err) {
    for (const d of started) stop(d);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
    killStandby: () => stop(standby),
    close() {
      stop(standby);
      stop(primary);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
