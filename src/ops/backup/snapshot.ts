import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';

/**
 * A consistent copy of the open embedded database's data directory (embedded.ts says why it is
 * one), taken by the process that holds it: the command itself, or the running server when asked
 * over its backup socket (socket.ts).
 */

/** Files of the data directory that are ours, not the database's (the lock's note, the backup socket's key). */
export const NOT_DATABASE = new Set([
  'freight-exchange.lock',
  '.freight-exchange.sock',
  'freight-exchange.admin',
  'postmaster.pid',
  'postmaster.opts',
]);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

export interface Snapshot {
  files: number;
  bytes: number;
  /** how long statements waited */
  pausedMs: number;
}

/**
 * Copies the open embedded database's data directory into `into` (an empty directory), consistent:
 * see above. Of the write-ahead log only the segments a start from the copy replays are copied
 * (from the checkpoint's redo segment to the one being written), not those kept for reuse.
 */
export async function snapshotDataDir(database: Database, into: string): Promise<Snapshot> {
  const embedded = database.embedded;
  if (!embedded?.dataDir) throw new Error('only an embedded database in a data directory can be copied');
  let result: Snapshot | undefined;
  await database.db.connection().execute(async (conn) => {
    const start = performance.now();
    await sql`checkpoint`.execute(conn);
    let wal: { redo: string; current: string } | undefined;
    try {
      const { rows } = await sql<{ redo: string; current: string }>`
        select redo_wal_file as redo, pg_walfile_name(pg_current_wal_insert_lsn()) as current from pg_control_checkpoint()`.execute(conn);
      wal = rows[0];
    } catch {
      wal = undefined; // then every segment is copied
    }
    // Kysely's statements wait for this connection; anything using PGlite directly (LISTEN) waits here.
    const copied = await embedded.client.runExclusive(() => copyTree(embedded.dataDir, into, wal));
    result = { ...copied, pausedMs: Math.round(performance.now() - start) };
  });
  return result!;
}

async function copyTree(from: string, to: string, wal: { redo: string; current: string } | undefined) {
  let files = 0;
  let bytes = 0;
  const jobs: Array<[string, string]> = [];
  const walk = (rel: string) => {
    fs.mkdirSync(path.join(to, rel), { recursive: true, mode: 0o700 });
    for (const e of fs.readdirSync(path.join(from, rel), { withFileTypes: true })) {
      const child = rel ? path.join(rel, e.name) : e.name;
      if (!rel && NOT_DATABASE.has(e.name)) continue;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) {
        if (rel === 'pg_wal' && wal && WAL_SEGMENT.test(e.name) && (e.name < wal.redo || e.name > wal.current)) continue;
        jobs.push([path.join(from, child), path.join(to, child)]);
      }
    }
  };
  walk('');
  // Four copies at a time (libuv's threads); a data directory is many small files and a few large.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < jobs.length) {
        const [src, dst] = jobs[next++]!;
        await fs.promises.copyFile(src, dst);
        bytes += fs.statSync(dst).size;
        files++;
      }
    }),
  );
  return { files, bytes };
}
