// What every database benchmark starts with: a fresh database (a PostgreSQL server's when
// DATABASE_URL or BENCH_DATABASE_URL names one, dropped afterwards unless BENCH_KEEP=1; else PGlite in memory), the
// app on it, and the companies with one user each that ask.
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createCompany, createUser } from '../src/accounts/commands.ts';
import type { TokenIssuer } from '../src/accounts/tokens.ts';
import { buildApp, type AppOptions } from '../src/app.ts';
import { readConfig } from '../src/config/config.ts';
import { createPglite, openDatabase, type Database } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { DB } from '../src/db/schema.ts';
import { createPostgresDatabase } from '../tests/support/databases.ts';
import { pgFloorQuery, pgliteFloorQuery, startFloor } from './floor.ts';

export interface BenchDatabase {
  database: Database;
  label: 'postgres' | 'pglite';
  /** the fresh PostgreSQL database's URL (the floor's own pool connects to it) */
  pgUrl?: string;
  /** the embedded database's client (the floor queries it directly) */
  pglite?: PGlite;
  drop?: () => Promise<void>;
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (server) {
    process.env.TEST_DATABASE_URL = server;
    const { url, drop } = await createPostgresDatabase();
    // BENCH_KEEP=1 keeps the database for a look at its plans afterwards (EXPLAIN), and says where.
    const keep = process.env.BENCH_KEEP === '1';
    if (keep) console.log(`keeping the database: ${url}`);
    return {
      database: await openDatabase({ databaseUrl: url, dataDir: '' }),
      label: 'postgres',
      pgUrl: url,
      drop: keep ? undefined : drop,
    };
  }
  const client = await createPglite();
  const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client, migrate: false });
  await migrateToLatest(database.db);
  return { database, label: 'pglite', pglite: client };
}

/** The app as the benchmarks run it: demo settings, silent logs (`options`: a benchmark's A/B switch). */
export function buildBenchApp(database: Database, options: Pick<AppOptions, 'recordLaneAwards'> = {}) {
  const config = readConfig({ APP_ENV: 'demo', TOKEN_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'silent' });
  return buildApp({ config, database, ...options });
}

export interface BenchUser {
  company: number;
  user: number;
  token: string;
}

/** `count` companies `Bench 0…` with one user each (password hashing is slow on purpose: keep it small). */
export async function benchCompanies(db: Kysely<DB>, tokens: TokenIssuer, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const company = await createCompany(db, `Bench ${i}`);
    const u = await createUser(db, tokens, { company: company.id, email: `bench${i}@example.test`, password: 'bench-password' });
    users.push({ company: company.id, user: u.id, token: u.token });
  }
  return users;
}

/** Listens on a free loopback port; answers the base URL. */
export async function listenLocal(http: FastifyInstance): Promise<string> {
  await http.listen({ port: 0, host: '127.0.0.1' });
  const address = http.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * The floor (bench/floor.ts) on the benchmark's own database: one primary-key select of a freight
 * through a `pg` pool like the app's, or through the PGlite client. `close` ends both.
 */
export async function startBenchFloor(
  bench: Pick<BenchDatabase, 'pgUrl' | 'pglite'>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = bench.pgUrl ? new pg.Pool({ connectionString: bench.pgUrl, max: 10 }) : undefined;
  // Dropping the benchmark database ends its connections: not an error here.
  pool?.on('error', () => {});
  const floor = await startFloor(pool ? pgFloorQuery(pool) : pgliteFloorQuery(bench.pglite!));
  return {
    url: floor.url,
    close: async () => {
      await floor.close();
      await pool?.end();
    },
  };
}
