import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Config } from '../../config/config.ts';
import { type Database, openDatabase } from '../../db/connection.ts';
import { DataDirInUseError, lockDataDir } from '../../db/lock.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { BackupRefused, FORMAT, FORMAT_VERSION, hashFile, listTree, type Manifest, readArchive, writeArchive } from './archive.ts';
import { appVersion, type BackupResult, checkRestorable, type RestoreResult, rowsByTable, schemaName, totalRows } from './common.ts';
import { appliedMigrations, differences, fingerprintTables, type Query, STABLE_TEXT } from './fingerprint.ts';
import type { Progress } from './progress.ts';
import { askServerForSnapshot } from './socket.ts';
import { NOT_DATABASE, type Snapshot, snapshotDataDir } from './snapshot.ts';

/**
 * Backups of the embedded database (PGlite, DATA_DIR). A consistent copy is its data directory's
 * files as they are at one moment with no statement running: the process that holds the
 * database (the running server, or the command itself when none runs) takes PGlite's only
 * connection, so every statement after it waits, writes everything to the files (CHECKPOINT) and
 * copies them, then lets the statements go on. Writes pause for the copy alone (a few seconds
 * per gigabyte); packing, compressing and checking happen afterwards in the command's process.
 * The copy is then opened as a database of its own (which proves it is one) and its tables
 * counted and checksummed for the manifest.
 *
 * A running server holds DATA_DIR (db/lock.ts) and is asked for the copy over its backup socket
 * (socket.ts); otherwise the command holds it itself while copying.
 */

/** A query on a PGlite instance, for the fingerprint (inside a transaction). */
function pgliteQuery(database: Database): Query {
  return async (text) => (await database.embedded!.client.query<Record<string, unknown>>(text)).rows;
}

/** The copy's schema, tables and server version, read from the copy opened as a database of its own. */
async function describeCopy(pgdata: string) {
  const database = await openDatabase({ databaseUrl: undefined, dataDir: pgdata }, { migrate: false });
  try {
    const query = pgliteQuery(database);
    await query('begin');
    try {
      for (const s of STABLE_TEXT) await query(s);
      const migrations = await appliedMigrations(query);
      const tables = await fingerprintTables(query);
      const [v] = await query('show server_version');
      return { migrations, tables, serverVersion: `PostgreSQL ${v?.server_version} (PGlite)` };
    } finally {
      await query('rollback');
    }
  } finally {
    await database.close();
  }
}

export async function backupEmbedded(config: Config, to: string, progress: Progress): Promise<BackupResult> {
  const began = performance.now();
  const dataDir = config.dataDir;
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION')))
    throw new BackupRefused(`${dataDir} holds no database yet (DATA_DIR): nothing to back up`);
  const staging = fs.mkdtempSync(path.join(path.dirname(to), '.fx-backup-'));
  try {
    const pgdata = path.join(staging, 'pgdata');
    fs.mkdirSync(pgdata, { mode: 0o700 });
    progress.phase('copying the data directory');
    let snapshot: Snapshot;
    let database: Database | undefined;
    try {
      database = await openDatabase(config, { migrate: false });
    } catch (err) {
      if (!(err instanceof DataDirInUseError)) throw err;
    }
    if (database) {
      // No server runs: this process holds the database and copies it itself.
      try {
        snapshot = await snapshotDataDir(database, pgdata);
      } finally {
        await database.close();
      }
    } else snapshot = await askServerForSnapshot(dataDir, pgdata);
    progress.phase('checking the copy');
    const described = await describeCopy(pgdata);
    if (!described.migrations.length) throw new BackupRefused(`${dataDir} holds no freight-exchange database`);
    const files = listTree(staging, 'pgdata');
    progress.phase('hashing', files.length);
    const payload = [];
    for (const [i, name] of files.entries()) {
      if (fs.statSync(path.join(staging, name)).isFile()) payload.push({ name, ...(await hashFile(path.join(staging, name))) });
      progress.update(i + 1);
    }
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      engine: 'pglite',
      created: new Date().toISOString(),
      app_version: appVersion(),
      server_version: described.serverVersion,
      migrations: described.migrations,
      tables: described.tables,
      payload,
    };
    const raw = payload.reduce((n, p) => n + p.size, 0);
    progress.phase('writing the backup', raw);
    // The archive's compressed size is unknown ahead: the bar counts what has been written against the raw size.
    const bytes = await writeArchive(to, staging, manifest, files, { gzip: true, progress: (n) => progress.update(Math.min(n, raw)) });
    progress.stop();
    return {
      file: to,
      engine: 'pglite',
      bytes,
      created: manifest.created,
      schema: schemaName(manifest.migrations),
      tables: manifest.tables.length,
      rows: totalRows(manifest.tables),
      paused_ms: snapshot.pausedMs,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    progress.stop();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores into DATA_DIR, which must be empty (or not exist) unless `replace`: then the database
 * in it is moved aside to `<DATA_DIR>.replaced-<time>`, never deleted. Everything is unpacked
 * and checked in a directory beside it first (every file's SHA-256, then every table's rows and
 * checksum, then the migrations of an older schema); DATA_DIR is touched only when all of that
 * succeeded. A running server holds DATA_DIR: the restore is refused until it stops.
 */
export async function restoreEmbedded(config: Config, from: string, replace: boolean, progress: Progress): Promise<RestoreResult> {
  const began = performance.now();
  const dataDir = config.dataDir;
  const existed = fs.existsSync(dataDir);
  let release: () => void;
  let done = false;
  try {
    release = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError)
      throw new BackupRefused(
        `${err.message.replace(/; stop it first.*$/, '')}: stop the server before restoring (a restore replaces its database)`,
      );
    throw err;
  }
  const staging = `${dataDir}.restoring-${process.pid}`;
  try {
    const holdsDatabase = fs.readdirSync(dataDir).some((f) => !NOT_DATABASE.has(f));
    if (holdsDatabase && !replace)
      throw new BackupRefused(`${dataDir} is not empty (DATA_DIR holds a database): add --replace to restore over it (it is kept aside)`);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { mode: 0o700 });
    let migrate: string[] = [];
    progress.phase('reading the backup', 0);
    const manifest = await readArchive(
      from,
      staging,
      (m) => {
        migrate = checkRestorable(m, 'pglite', from);
      },
      (done, total) => progress.update(done, total),
    );
    const pgdata = path.join(staging, 'pgdata');
    progress.phase('checking every table');
    const restored = await describeCopy(pgdata);
    const wrong = differences(manifest.tables, restored.tables);
    if (wrong.length) throw new BackupRefused(`${from} did not restore as it was backed up: ${wrong.slice(0, 5).join(', ')}`);
    if (migrate.length) {
      progress.phase(`migrating (${migrate.length})`);
      const database = await openDatabase({ databaseUrl: undefined, dataDir: pgdata }, { migrate: false });
      try {
        await migrateToLatest(database.db);
      } finally {
        await database.close();
      }
    }
    progress.phase('moving it into place');
    const replaced = holdsDatabase ? `${dataDir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}` : null;
    if (replaced) {
      await move(dataDir, replaced);
      fs.rmSync(path.join(replaced, 'freight-exchange.lock'), { force: true });
    } else fs.rmSync(dataDir, { recursive: true, force: true });
    await move(pgdata, dataDir);
    progress.stop();
    done = true;
    return {
      file: from,
      engine: 'pglite',
      created: manifest.created,
      schema: schemaName(manifest.migrations),
      tables: manifest.tables.length,
      rows: totalRows(manifest.tables),
      table_rows: rowsByTable(manifest.tables),
      migrated: migrate,
      replaced,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    progress.stop();
    fs.rmSync(staging, { recursive: true, force: true });
    release();
    // Refused: a DATA_DIR this restore created (the lock creates it) goes again, so nothing changed.
    if (!done && !existed) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Renames a directory; across file systems (DATA_DIR a mount point) copies it and removes the original. */
async function move(from: string, to: string): Promise<void> {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EBUSY') throw err;
    fs.mkdirSync(to, { recursive: true, mode: 0o700 });
    for (const e of fs.readdirSync(from)) {
      await fs.promises.cp(path.join(from, e), path.join(to, e), { recursive: true });
      fs.rmSync(path.join(from, e), { recursive: true, force: true });
    }
  }
}
