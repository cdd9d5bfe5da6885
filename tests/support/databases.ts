import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { Parser as TarParser } from 'tar';
import { createPglite, openDatabase, type Database } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CACHE = path.join(ROOT, '.test-cache');

/** Which engine this run tests: PGlite by default, PostgreSQL with TEST_DB=postgres. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated database for one test app. PGlite: a clone of a migrated snapshot
 * (initdb and migrations once per change of the migrations, ~0.3 s of CPU a clone after that).
 * PostgreSQL: a new database on TEST_DATABASE_URL's server, copied from a migrated template
 * (`CREATE DATABASE … TEMPLATE`, built once per change of the migrations), dropped on close.
 */
export async function freshDatabase(): Promise<Database> {
  return TEST_DB === 'postgres' ? freshPostgres() : freshPglite();
}

export function migrationsHash(): string {
  const dir = path.join(ROOT, 'src/db/migrations');
  const h = createHash('sha256');
  for (const f of fs.readdirSync(dir).sort()) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  return h.digest('hex').slice(0, 16);
}

export async function pgliteSnapshot(): Promise<Blob> {
  const file = path.join(CACHE, `pglite-${migrationsHash()}-without-templates-wal1mb.tar`);
  if (!fs.existsSync(file)) {
    // WAL in segments of 1 MB instead of 16: the snapshot holds the current segment whole, and every
    // test app unpacked and wrote those 16 MB of zeros again (29 MB of the snapshot's 29 MB were 13 MB
    // of tables and the segment). Nothing a test looks at depends on the segment's size.
    const client = await createPglite({ initDbStartParams: ['--wal-segsize=1'] });
    const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
    await migrateToLatest(database.db);
    // Without template0 and template1 (nothing embedded creates a database): 600 of the 1,500 files
    // and 15 MB fewer for every test app to unpack (~0.4 s of CPU each).
    await client.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
    for (const statement of ['drop database template0', 'drop database template1', 'checkpoint']) await client.exec(statement);
    const dump = await client.dumpDataDir('none');
    await database.close();
    fs.mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // atomic: parallel test files never read half a snapshot
  }
  return new Blob([fs.readFileSync(file)]);
}

/**
 * What every PGlite of this process shares: the compiled WebAssembly module (10 MB, compiled once
 * instead of once per test app), the file-system bundle, read once and handed to each PGlite as
 * bytes (PGlite reads it with `arrayBuffer()`, which Node 20 answers for a Blob by joining its chunks
 * again every time; here it is a copy of the bytes), and the snapshot's files (snapshotShared).
 */
let shared: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob; snapshotFiles: SnapshotFile[] }> | undefined;
function pgliteShared() {
  shared ??= (async () => {
    const dist = path.join(ROOT, 'node_modules/@electric-sql/pglite/dist');
    const [files, pgliteWasmModule, bundle] = await Promise.all([
      snapshotShared(),
      fs.promises.readFile(path.join(dist, 'pglite.wasm')).then((wasm) => WebAssembly.compile(wasm)),
      fs.promises.readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule, fsBundle: bytesBlob(bundle), snapshotFiles: files };
  })();
  return shared;
}

/** The snapshot's files, read from its tar once per process (without compiling PGlite: migratedDataDir needs none). */
let snapshotRead: Promise<SnapshotFile[]> | undefined;
function snapshotShared() {
  snapshotRead ??= pgliteSnapshot()
    .then((blob) => blob.arrayBuffer())
    .then((tar) => snapshotFiles(new Uint8Array(tar)));
  return snapshotRead;
}

/** A directory (`data` null) or a file of the snapshot, its path inside the data directory ('/base/5/1259'). */
interface SnapshotFile {
  path: string;
  data: Uint8Array | null;
}

/** The snapshot's directories and files, read from its tar once per process (directories before what they hold). */
function snapshotFiles(tar: Uint8Array): SnapshotFile[] {
  const files: SnapshotFile[] = [];
  let entries = 0;
  const parser = new TarParser({
    onReadEntry: (entry) => {
      entries++;
      const name = `/${entry.path.replace(/^\/+|\/+$/g, '')}`;
      if (entry.type === 'Directory') {
        files.push({ path: name, data: null });
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A plain Uint8Array, never a Buffer: MEMFS copies a file's bytes with `slice`, which on a
      // Buffer is a view, and every clone would then write into these shared bytes (seen: PGlite
      // aborting at the start of a later clone).
      entry.on('end', () => files.push({ path: name, data: new Uint8Array(Buffer.concat(chunks)) }));
    },
  });
  parser.end(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength));
  // The parser hands every entry and its bytes over while it is given the tar: a file still
  // unread here would be missing from every clone, so it is said at once.
  if (!entries || files.length !== entries) throw new Error(`the PGlite snapshot's tar: ${files.length} of ${entries} entries read`);
  return files;
}

/** Where PGlite keeps its data directory in its in-memory file system (its PGDATA). */
const PGDATA = '/pglite/data';

/**
 * An in-memory file system that starts with the snapshot's files in the data directory: PGlite finds
 * a database there and starts it, instead of loading the snapshot's tar (`loadDataDir`), which looks
 * up every ancestor directory of each of its 800 files twice through Emscripten's path functions
 * (a third of a clone's CPU). Each file's bytes are copied into the clone's own memory (MEMFS copies
 * what it is given), so that no clone sees another's writes.
 */
class SnapshotMemoryFS extends MemoryFS {
  constructor(private readonly files: readonly SnapshotFile[]) {
    super();
  }

  /** Called by PGlite once its module exists, before it looks for a database in PGDATA. */
  override async initialSyncFs(): Promise<void> {
    const FS = (this.pg as unknown as { Module: { FS: EmscriptenFS } }).Module.FS;
    const made = new Set<string>();
    const mkdir = (dir: string) => {
      if (made.has(dir)) return;
      mkdir(dir.slice(0, dir.lastIndexOf('/')) || '/');
      if (!FS.analyzePath(dir).exists) FS.mkdir(dir);
      made.add(dir);
    };
    made.add('/');
    for (const file of this.files) {
      const at = `${PGDATA}${file.path}`;
      if (file.data === null) mkdir(at);
      else {
        mkdir(at.slice(0, at.lastIndexOf('/')));
        FS.writeFile(at, file.data);
      }
    }
  }
}

/** The part of Emscripten's file system the snapshot's loading uses. */
interface EmscriptenFS {
  analyzePath(path: string): { exists: boolean };
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}

/** What PGlite reads of a Blob (`type`, `arrayBuffer()`), answered from bytes in memory: a fresh copy each time. */
function bytesBlob(bytes: ArrayBuffer | Uint8Array): Blob {
  const kept = bytes instanceof Uint8Array ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes;
  return { type: '', size: kept.byteLength, arrayBuffer: async () => kept.slice(0) } as unknown as Blob;
}

/**
 * A test app's database is a few megabytes: 16 MB of shared buffers instead of PostgreSQL's 128
 * MB, whose set-up at every start was half of a clone's time (1.2 s -> 0.65 s a clone, measured).
 * And less work per statement that no test looks at (a clone lives in memory and is thrown away):
 * no full pages in the WAL after a checkpoint, the minimal WAL, no statistics counted (no test on
 * the embedded database reads pg_stat_*; those that do run on PostgreSQL). The API suites of
 * freights and quotes: 42-44 s of CPU before, 39-40 s after (README, Test).
 * Only the clones in memory; a data directory a test opens as the server would keeps the defaults.
 */
const TEST_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...[
    'shared_buffers=16MB',
    'full_page_writes=off',
    'wal_level=minimal',
    'max_wal_senders=0',
    'track_counts=off',
    'track_activities=off',
  ].flatMap((setting) => ['-c', setting]),
];

async function freshPglite(): Promise<Database> {
  const client = idleClones.pop() ?? (await newClone());
  if (idleClones.length === 0) clearTimeout(idleTimer);
  return openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: lent(client), migrate: false });
}

async function newClone(): Promise<PGlite> {
  const { pgliteWasmModule, fsBundle, snapshotFiles } = await pgliteShared();
  const client = await createPglite({
    pgliteWasmModule,
    fsBundle,
    fs: new SnapshotMemoryFS(snapshotFiles),
    startParams: TEST_START_PARAMS,
  });
  // The first clone of the process is the snapshot as it is: what a clone given back must equal.
  pristine ??= await readPristine(client);
  return client;
}

/**
 * Clones given back by closed test apps, reset to the snapshot's state, for the next test app of
 * this process: a new clone costs ~0.24 s of CPU (WebAssembly's instantiation and linking,
 * PostgreSQL's start), a reset a few milliseconds. The embedded run starts ~180 test apps.
 * At most two wait (a file's tests hold one or two apps at a time); the others are closed.
 * TEST_IDLE_CLONES=0 starts every test app on a clone of its own, as before stop 69.
 */
const idleClones: PGlite[] = [];
const IDLE_CLONES = Number(process.env.TEST_IDLE_CLONES ?? 2);
/**
 * Idle clones are closed after a second without a new test app: an open PGlite keeps its process
 * alive, and a process whose files have all ended must exit (scripts/test.mjs stops one that does
 * not, as a handle left open).
 */
let idleTimer: NodeJS.Timeout | undefined;
function closeIdleSoon(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    for (const client of idleClones.splice(0)) void client.close().catch(() => {});
  }, 1000).unref();
}

/**
 * What a clone fresh from the snapshot holds, read from the first: its catalogue's fingerprint
 * (any table, column, function, trigger, type, role or statistic added, dropped or changed by a
 * test shows in it), its tables and its sequences (none of them used yet).
 */
interface Pristine {
  catalogue: string;
  /** One statement: the fingerprint, the tables holding rows, and a `setval` that sets each sequence used back. */
  check: string;
}
let pristine: Pristine | undefined;

const CATALOGUE = `select md5(string_agg(part, ',')) from (
  select 'class ' || count(*) || ' ' || max(oid) as part from pg_class
  union all select 'proc ' || count(*) || ' ' || max(oid) from pg_proc
  union all select 'trigger ' || count(*) || ' ' || coalesce(max(oid), 0) || ' ' || coalesce(string_agg(tgenabled::text, '' order by oid), '') from pg_trigger
  union all select 'attribute ' || count(*) from pg_attribute
  union all select 'type ' || count(*) || ' ' || max(oid) from pg_type
  union all select 'namespace ' || count(*) || ' ' || max(oid) from pg_namespace
  union all select 'constraint ' || count(*) || ' ' || max(oid) from pg_constraint
  union all select 'rewrite ' || count(*) || ' ' || max(oid) from pg_rewrite
  union all select 'role ' || count(*) from pg_authid
  union all select 'setting ' || count(*) from pg_db_role_setting
  union all select 'statistic ' || count(*) from pg_statistic
  union all select 'extension ' || count(*) from pg_extension
  union all select 'migration ' || count(*) || ' ' || max(xmin::text) from kysely_migration
  union all select 'lock ' || count(*) || ' ' || max(xmin::text) || ' ' || sum(is_locked) from kysely_migration_lock
) parts`;

async function readPristine(client: PGlite): Promise<Pristine> {
  const tables = (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_class c where c.relkind in ('r', 'p') and c.relnamespace = 'public'::regnamespace
         and c.relname not in ('kysely_migration', 'kysely_migration_lock') order by 1`,
    )
  ).rows.map((r) => r.name);
  const dirty = tables.map((t) => `case when exists (select from ${pg.escapeIdentifier(t)}) then ${pg.escapeLiteral(t)} end`);
  const check = `select (${CATALOGUE}) as catalogue,
      array_remove(array[${dirty.join(', ')}]::text[], null) as dirty,
      (select coalesce(array_agg(format('select setval(%L, %s, false)', format('%I.%I', schemaname, sequencename), start_value)), '{}')
         from pg_sequences where last_value is not null) as used`;
  const catalogue = (await client.query<{ catalogue: string }>(check)).rows[0]!.catalogue;
  return { catalogue, check };
}

/**
 * The clone as the test app sees it: the same PGlite, except that closing it gives it back for
 * reuse (giveBack) instead of ending it, and that it answers as closed from then on (another app
 * may hold the clone by then).
 */
function lent(client: PGlite): PGlite {
  let returned = false;
  const channels = new Set<string>();
  const close = async () => {
    if (returned) return;
    returned = true;
    await giveBack(client, channels);
  };
  const listen = async (channel: string, ...rest: unknown[]) => {
    channels.add(channel);
    return (client.listen as (...a: unknown[]) => Promise<unknown>)(channel, ...rest);
  };
  return new Proxy(client, {
    get(target, key) {
      if (key === 'closed') return returned || target.closed;
      if (key === 'close') return close;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (returned) return () => Promise.reject(new Error('PGlite is closed'));
      if (key === 'listen') return listen;
      return value.bind(target);
    },
  });
}

/**
 * Resets a clone a test app closed to the snapshot's state and keeps it for the next app: its
 * listeners ended, its session reset (DISCARD ALL: settings, prepared statements, LISTEN, advisory
 * locks, temporary tables), the tables that hold rows truncated (as the snapshot's files, with their
 * sequences) and every sequence used set back. A clone whose catalogue differs from the snapshot's
 * (a test created a table or a function, disabled a trigger, analysed a table), or that fails any
 * step, is closed instead.
 */
async function giveBack(client: PGlite, channels: Set<string>): Promise<void> {
  if (client.closed) return;
  try {
    if (idleClones.length >= IDLE_CLONES || !pristine) throw new Error('not kept');
    for (const channel of channels) await client.unlisten(channel);
    // Each alone: DISCARD ALL refuses to run inside the implicit transaction of several statements.
    await client.exec('rollback');
    await client.exec('discard all');
    const state = (await client.query<{ catalogue: string; dirty: string[]; used: string[] }>(pristine.check)).rows[0]!;
    if (state.catalogue !== pristine.catalogue) throw new Error('the catalogue changed');
    const reset = [...state.used];
    if (state.dirty.length) reset.unshift(`truncate ${state.dirty.map(pg.escapeIdentifier).join(', ')} restart identity cascade`);
    if (reset.length) await client.exec(reset.join(';\n'));
    idleClones.push(client);
    closeIdleSoon();
  } catch {
    await client.close().catch(() => {});
  }
}

/**
 * Fills the empty data directory `dir` with the migrated snapshot (as freshDatabase's clones, on
 * disk): a DATA_DIR a test opens as the server would (openDatabase finds every migration applied),
 * instead of initdb and all the migrations on it (~20 s of CPU). The snapshot's files are written
 * as they are, as PGlite's own `loadDataDir` would unpack them; the first start then recovers
 * from the snapshot's checkpoint, as every clone does. Until stop 65 a whole PGlite started and
 * stopped here only to unpack them (~1 s of CPU a use).
 */
export async function migratedDataDir(dir: string): Promise<void> {
  const files = await snapshotShared();
  for (const file of files) {
    const at = path.join(dir, file.path);
    fs.mkdirSync(file.data === null ? at : path.dirname(at), { recursive: true });
    if (file.data !== null) fs.writeFileSync(at, file.data);
  }
}

/**
 * A migrated database of the engine under test for code that opens it as the server would (a
 * command, a server process), named as the server reads it: on PostgreSQL a copy of the migrated
 * template (`DATABASE_URL`), on PGlite the data directory `dataDir` filled with the migrated
 * snapshot (`DATA_DIR`; `DATABASE_URL` empty, which the configuration reads as unset). Its first
 * start finds every migration applied: the first start's migrations are platform/serve's to test.
 * `drop` drops the PostgreSQL database; the caller removes its directory.
 */
export async function migratedDeployment(
  dataDir: string,
): Promise<{ env: { DATABASE_URL: string; DATA_DIR: string }; drop: () => Promise<void> }> {
  if (TEST_DB === 'postgres') {
    const created = await createPostgresDatabase({ migrated: true });
    return { env: { DATABASE_URL: created.url, DATA_DIR: dataDir }, drop: created.drop };
  }
  await migratedDataDir(dataDir);
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, drop: async () => {} };
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  return url;
}

/** The migrated template database of the current migrations (its name carries their hash). */
export const postgresTemplateName = (): string => `fx_template_${migrationsHash()}`;

/**
 * Builds the migrated template database on the test server once per change of the migrations
 * (scripts/test.mjs does it before the files run; a file run alone builds it on first use). It is
 * migrated under a name of its own and renamed when complete, so a copy is never taken of half a
 * migration; concurrent builders are serialised by an advisory lock.
 */
export async function postgresTemplate(): Promise<string> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(serverUrl());
      url.pathname = `/${building}`;
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      await database.close();
      await admin.query(`alter database ${building} rename to ${name}`);
      // Only a copy's source from now on: nobody connects to it.
      await admin.query(`alter database ${name} with is_template true allow_connections false`);
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await admin.end();
  }
}

/**
 * A new database on the test server, empty (the default: for tests of migrating) or a copy of the
 * migrated template; its URL and a function that drops it.
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = serverUrl();
  const template = options.migrated ? await postgresTemplate() : null;
  const name = `fx_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
        break;
      } catch (err) {
        // 55006: the template is being copied by another session's CREATE DATABASE at this instant.
        if ((err as { code?: string }).code !== '55006' || attempt === 20) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
    // A test database's commits do not wait for the WAL to reach the disk (~2 ms a commit here, of
    // thousands a run). Everything a commit does is unchanged — visibility, NOTIFY, triggers, the
    // deferred event numbering, locks between connections — only a crash of the server could lose
    // the last of them, and a test database is dropped anyway.
    await client.query(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function freshPostgres(): Promise<Database> {
  const { url, drop } = await createPostgresDatabase({ migrated: true });
  // A copy of the migrated template: the migrator finds every migration applied (its check is kept).
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
