import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/config.ts';
import { EmbeddedDialect } from './embedded.ts';
import { lockDataDir } from './lock.ts';
import { migrateToLatest } from './migrate.ts';
import { nameRepeatedStatements, registerProtocolPool } from './prepared.ts';
import type { DB } from './schema.ts';

export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** Listens for notifications on a channel (NOTIFY), on one connection of its own (see Listen). */
  listen: Listen;
  close(): Promise<void>;
  /** PostgreSQL: the connection pool (the metrics read its use). */
  pool?: pg.Pool;
  /** The embedded database: its PGlite instance and data directory ('' when in memory); a backup copies it (ops/backup). */
  embedded?: { client: PGlite; dataDir: string };
}

/**
 * Listens on `channel`: `message` gets each notification's payload, delivered at the commit of
 * the transaction that sent it, from any process on the database. PostgreSQL: one connection of
 * its own, outside the pool; when it breaks, `lost` is called (notifications sent meanwhile are
 * missed) and it reconnects, with growing pauses. The embedded database has one process and one
 * connection, on which PGlite delivers its own notifications. Answers how to stop listening.
 */
export type Listen = (channel: string, message: (payload: string) => void, lost?: () => void) => Promise<() => Promise<void>>;

// One shape of values from both engines: bigint counts as numbers, dates as 'YYYY-MM-DD'
// strings (never a Date shifted by the process time zone), numeric stays a string (exact money).
const INT8 = 20;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);
const BYTEA = 17;
const pgliteParsers = {
  [INT8]: (v: string) => Number(v),
  [DATE]: (v: string) => v,
  // A Buffer, as pg gives: PGlite's own parser builds a substring and a parseInt per byte
  // (a part of 1 MiB of an uploaded file, files/store.ts: 88 ms; Buffer's hex: 17 ms).
  [BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex'),
};

/**
 * Settings of every server connection (primary and replicas; docs/choices.md, Scale). No JIT:
 * compiling a plan costs 10-50 ms, more than any statement of ours runs. No parallel workers:
 * starting them costs a short statement more than they save, and under concurrent requests they
 * take the cores the other requests need (the counts of a company: 25 ms alone, 60-65 ms with two
 * workers on two cores).
 */
export const SESSION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0';

export interface OpenOptions {
  /** Use this PGlite instance (tests load a migrated snapshot into one). */
  pglite?: PGlite;
  migrate?: boolean;
}

/** Opens PostgreSQL when DATABASE_URL is set, otherwise the embedded database in DATA_DIR. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'logLevel'>>,
  options: OpenOptions = {},
): Promise<Database> {
  let database: Database;
  if (options.pglite) {
    database = pgliteDatabase(options.pglite, '', () => {});
  } else if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10, options: SESSION_OPTIONS });
    // An idle connection the server ends (restart, failover, terminate) must not crash the
    // process: the pool replaces it; the next query reconnects.
    pool.on('error', (err) => {
      if (config.logLevel !== 'silent') reportIdleError(err);
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    registerProtocolPool(db, pool);
    nameRepeatedStatements(pool);
    database = { db, kind: 'postgres', listen: postgresListen(config.databaseUrl), close: () => db.destroy(), pool };
  } else {
    const release = await lockDataDir(config.dataDir);
    try {
      const client = await PGlite.create({ dataDir: config.dataDir, parsers: pgliteParsers });
      database = pgliteDatabase(client, config.dataDir, release);
    } catch (err) {
      release();
      throw err;
    }
  }
  if (options.migrate !== false) {
    try {
      await migrateToLatest(database.db);
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  return database;
}

/** Before the app's logger exists (the pool is opened first), a line in the logger's format on stderr. */
function reportIdleError(err: Error): void {
  process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), msg: 'idle database connection lost', err: err.message })}\n`);
}

export function createPglite(options: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create({ parsers: pgliteParsers, ...options });
}

/** LISTEN on a connection of its own, reconnecting after a loss (Listen). */
function postgresListen(url: string): Listen {
  return async (channel, message, lost) => {
    let current: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('notification', (n) => {
        if (n.channel === channel && n.payload !== undefined) message(n.payload);
      });
      // A broken connection ends: 'end' below reconnects; the error itself needs no handling.
      client.on('error', () => {});
      client.on('end', () => {
        if (current !== client || stopped) return;
        current = null;
        lost?.();
        again(500);
      });
      try {
        await client.connect();
        await client.query(`listen ${client.escapeIdentifier(channel)}`);
      } catch (err) {
        await client.end().catch(() => {});
        throw err;
      }
      if (stopped) await client.end().catch(() => {});
      else current = client;
    };
    const again = (delay: number) => {
      retry = setTimeout(() => {
        if (!stopped) connect().catch(() => again(Math.min(delay * 2, 30_000)));
      }, delay);
      retry.unref();
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    };
  };
}

function pgliteDatabase(client: PGlite, dataDir: string, release: () => void): Database {
  const db = new Kysely<DB>({ dialect: new EmbeddedDialect(client) });
  return {
    db,
    kind: 'pglite',
    embedded: { client, dataDir },
    // LISTEN and UNLISTEN hold the connection (db/embedded.ts): a transaction lets other work
    // run between its statements, and one of them sent inside it would be undone by its rollback.
    listen: async (channel, message) => {
      const unlisten = await db.connection().execute(() => client.listen(channel, message));
      return async () => {
        // Closed with the database already (the app stops before it): nothing left to end.
        if (!client.closed) await db.connection().execute(() => unlisten());
      };
    },
    close: async () => {
      await db.destroy(); // closes the PGlite client too
      release();
    },
  };
}
