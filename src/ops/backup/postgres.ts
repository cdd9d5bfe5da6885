import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Config } from '../../config/config.ts';
import { openDatabase } from '../../db/connection.ts';
import { BackupRefused, FORMAT, FORMAT_VERSION, hashFile, type Manifest, readArchive, writeArchive } from './archive.ts';
import { appVersion, type BackupResult, checkRestorable, type RestoreResult, rowsByTable, schemaName, totalRows } from './common.ts';
import { appliedMigrations, differences, fingerprintTables, type Query, STABLE_TEXT } from './fingerprint.ts';
import type { Progress } from './progress.ts';

/**
 * Backups of PostgreSQL (DATABASE_URL), the documented way: pg_dump's custom format, restored by
 * pg_restore, both run by this command where their binaries are installed (of the server's major
 * version or later: /usr/lib/postgresql/<version>/bin, then PATH). The dump is taken in a
 * snapshot this command exported (`pg_dump --snapshot`), and the manifest's row counts and
 * checksums are read in the same snapshot, while the servers go on working (pg_dump reads at
 * one moment; nobody waits for it). A restore runs pg_restore in one transaction, so a dump
 * that fails half-way leaves the database as it was.
 */

const DUMP_NAME = 'database.pgdump';

interface Tool {
  file: string;
  major: number;
}

/** The server's major version (PostgreSQL 15.4: 15). */
async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ v: string }>(`select current_setting('server_version_num') as v`);
  return Math.floor(Number(rows[0]!.v) / 10000);
}

/** The newest `name` (pg_dump, pg_restore) of the server's major version or later, or why there is none. */
function findTool(name: 'pg_dump' | 'pg_restore', major: number): Tool | string {
  const dirs: string[] = [];
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) for (const v of fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))) dirs.push(path.join(root, v, 'bin'));
  dirs.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  const found: Tool[] = [];
  for (const dir of dirs) {
    const link = path.join(dir, name);
    if (!fs.existsSync(link)) continue;
    const file = fs.realpathSync(link);
    if (found.some((t) => t.file === file)) continue;
    const out = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const m = /\(PostgreSQL\) (\d+)/.exec(out.stdout ?? '');
    if (m) found.push({ file, major: Number(m[1]) });
  }
  const fit = found.filter((t) => t.major >= major).sort((a, b) => b.major - a.major)[0];
  if (fit) return fit;
  const seen = found.length ? ` (found ${found.map((t) => `${t.major} at ${t.file}`).join(', ')})` : '';
  return `${name} of PostgreSQL ${major} or later is not installed here${seen}: install the PostgreSQL ${major} client (e.g. apt-get install postgresql-client-${major})`;
}

/** The URL without its password (on the command line every local user could read it), and the password for PGPASSWORD. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return {
    dbname: u.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGAPPNAME: 'freight-exchange backup' },
  };
}

/** Runs a PostgreSQL tool; `line` sees each line it writes to stderr (its --verbose progress). Rejects with its last lines. */
function run(tool: Tool, args: string[], env: NodeJS.ProcessEnv, line: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const tail: string[] = [];
    let rest = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const l of lines) {
        line(l);
        if (
          !/: (processing|dumping|creating|reading|saving|identifying|finding|flagging|last built-in|executing|launching|implied data-only|connecting|setting owner|restoring)/.test(
            l,
          )
        )
          tail.push(l);
        if (tail.length > 5) tail.shift();
      }
    });
    child.once('error', (err) => reject(new BackupRefused(`${tool.file} could not be started: ${err.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(tool.file)} failed (exit ${code}): ${tail.join(' ').trim() || 'no message'}`));
    });
  });
}

const clientQuery =
  (client: pg.Client): Query =>
  async (text) =>
    (await client.query(text)).rows;

export async function backupPostgres(config: Config, to: string, progress: Progress): Promise<BackupResult> {
  const began = performance.now();
  const url = config.databaseUrl!;
  const client = new pg.Client({ connectionString: url, application_name: 'freight-exchange backup' });
  await client.connect();
  const staging = fs.mkdtempSync(path.join(path.dirname(to), '.fx-backup-'));
  try {
    const major = await serverMajor(client);
    const pgDump = findTool('pg_dump', major);
    if (typeof pgDump === 'string')
      throw new BackupRefused(
        `${pgDump}; or back up by hand: pg_dump --format=custom --no-owner --no-privileges --file=FILE "$DATABASE_URL" ` +
          '(pg_restore --no-owner --single-transaction restores that file, without the checks of this command)',
      );
    // The snapshot the dump and the manifest both read: the database at one moment.
    const query = clientQuery(client);
    await query('begin isolation level repeatable read read only');
    const [{ snapshot } = {}] = await query('select pg_export_snapshot() as snapshot');
    for (const s of STABLE_TEXT) await query(s);
    const migrations = await appliedMigrations(query);
    if (!migrations.length) throw new BackupRefused('the database of DATABASE_URL holds no freight-exchange schema: nothing to back up');
    const [{ tables: tableCount } = {}] = await query(`select count(*)::int as tables from pg_tables where schemaname = 'public'`);
    const [{ server_version } = {}] = await query('show server_version');
    const dumpFile = path.join(staging, DUMP_NAME);
    const { dbname, env } = connection(url);
    progress.phase('pg_dump', Number(tableCount));
    let dumped = 0;
    const dump = run(
      pgDump,
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshot}`,
        '--verbose',
        `--file=${dumpFile}`,
        `--dbname=${dbname}`,
      ],
      env,
      (l) => {
        if (l.includes('dumping contents of table')) progress.update(++dumped);
      },
    );
    // Counted while pg_dump writes (two processes, two cores), in the same snapshot.
    const [tables] = await Promise.all([fingerprintTables(query), dump]);
    await query('commit');
    progress.phase('hashing');
    const { size, sha256 } = await hashFile(dumpFile);
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      engine: 'postgres',
      created: new Date().toISOString(),
      app_version: appVersion(),
      server_version: `PostgreSQL ${server_version}`,
      migrations,
      tables,
      payload: [{ name: DUMP_NAME, size, sha256 }],
    };
    progress.phase('writing the backup', size);
    const bytes = await writeArchive(to, staging, manifest, [DUMP_NAME], {
      gzip: false,
      progress: (n) => progress.update(Math.min(n, size)),
    });
    return {
      file: to,
      engine: 'postgres',
      bytes,
      created: manifest.created,
      schema: schemaName(migrations),
      tables: tables.length,
      rows: totalRows(tables),
      paused_ms: 0,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    progress.stop();
    await client.end().catch(() => {});
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores into DATABASE_URL's database, which must hold no tables unless `replace`: then its
 * schema `public` is renamed to `replaced_<time>` (kept, never dropped) and restored afresh, and
 * renamed back should pg_restore fail. Refused while other sessions use the database: the
 * servers must be stopped, or they would write into the restore.
 */
export async function restorePostgres(config: Config, from: string, replace: boolean, progress: Progress): Promise<RestoreResult> {
  const began = performance.now();
  const url = config.databaseUrl!;
  const client = new pg.Client({ connectionString: url, application_name: 'freight-exchange restore' });
  await client.connect();
  let staging: string | undefined;
  try {
    const major = await serverMajor(client);
    const pgRestore = findTool('pg_restore', major);
    if (typeof pgRestore === 'string') throw new BackupRefused(pgRestore);
    const query = clientQuery(client);
    const base = writable(path.dirname(path.resolve(from))) ? path.dirname(path.resolve(from)) : os.tmpdir();
    staging = fs.mkdtempSync(path.join(base, '.fx-restore-'));
    let migrate: string[] = [];
    progress.phase('reading the backup', 0);
    const manifest = await readArchive(
      from,
      staging,
      (m) => {
        migrate = checkRestorable(m, 'postgres', from);
      },
      (done, total) => progress.update(done, total),
    );
    const [{ others } = {}] = await query(
      'select count(*)::int as others from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    if (Number(others) > 0)
      throw new BackupRefused(`${others} other sessions use the database of DATABASE_URL: stop the servers before restoring`);
    const [{ tables: present } = {}] = await query(`select count(*)::int as tables from pg_tables where schemaname = 'public'`);
    const holdsDatabase = Number(present) > 0;
    if (holdsDatabase && !replace)
      throw new BackupRefused('the database of DATABASE_URL is not empty: add --replace to restore over it (its tables are kept aside)');
    const replaced = holdsDatabase ? `replaced_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}` : null;
    if (replaced) await query(`begin; alter schema public rename to ${replaced}; create schema public; commit`);
    const { dbname, env } = connection(url);
    progress.phase('pg_restore', manifest.tables.length);
    let restored = 0;
    try {
      await run(
        pgRestore,
        [
          '--single-transaction',
          '--exit-on-error',
          '--no-owner',
          '--no-privileges',
          '--verbose',
          `--dbname=${dbname}`,
          path.join(staging, DUMP_NAME),
        ],
        env,
        (l) => {
          if (l.includes('processing data for table')) progress.update(++restored);
        },
      );
    } catch (err) {
      if (replaced) await query(`begin; drop schema public cascade; alter schema ${replaced} rename to public; commit`);
      throw err;
    }
    progress.phase('checking every table');
    await query('begin isolation level repeatable read read only');
    for (const s of STABLE_TEXT) await query(s);
    const found = await fingerprintTables(query);
    await query('commit');
    const wrong = differences(manifest.tables, found);
    if (wrong.length) throw new Error(`the restored database differs from ${from}: ${wrong.slice(0, 5).join(', ')}`);
    if (migrate.length) {
      progress.phase(`migrating (${migrate.length})`);
      const database = await openDatabase(config);
      await database.close();
    }
    return {
      file: from,
      engine: 'postgres',
      created: manifest.created,
      schema: schemaName(manifest.migrations),
      tables: manifest.tables.length,
      rows: totalRows(manifest.tables),
      table_rows: rowsByTable(manifest.tables),
      migrated: migrate,
      replaced: replaced ? `schema ${replaced}` : null,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    progress.stop();
    await client.end().catch(() => {});
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
  }
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
