import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createPglite, openDatabase, type Database } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CACHE = path.join(ROOT, '.test-cache');

/** Which engine this run tests: PGlite by default, PostgreSQL with TEST_DB=postgres. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated database for one test app. PGlite: a clone of a migrated snapshot
 * (initdb and migrations once per change of the migrations, ~0.5 s a clone after that).
 * PostgreSQL: a new database on TEST_DATABASE_URL's server, dropped on close.
 */
export async function freshDatabase(): Promise<Database> {
  return TEST_DB === 'postgres' ? freshPostgres() : freshPglite();
}

function migrationsHash(): string {
  const dir = path.join(ROOT, 'src/db/migrations');
  const h = createHash('sha256');
  for (const f of fs.readdirSync(dir).sort()) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  return h.digest('hex').slice(0, 16);
}

export async function pgliteSnapshot(): Promise<Blob> {
  const file = path.join(CACHE, `pglite-${migrationsHash()}.tar`);
  if (!fs.existsSync(file)) {
    const client = await createPglite();
    const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
    await migrateToLatest(database.db);
    const dump = await client.dumpDataDir('none');
    await database.close();
    fs.mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // atomic: parallel test files never read half a snapshot
  }
  return new Blob([fs.readFileSync(file)]);
}

async function freshPglite(): Promise<Database> {
  const client = await createPglite({ loadDataDir: await pgliteSnapshot() });
  return openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  return url;
}

/** A new empty database on the test server; its URL and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = serverUrl();
  const name = `fx_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
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
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
