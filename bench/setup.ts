// What every database benchmark starts with: a fresh database (a PostgreSQL server's when
// DATABASE_URL or BENCH_DATABASE_URL names one, dropped afterwards unless BENCH_KEEP=1; else PGlite in memory), the
// app on it, and the companies with one user each that ask.
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
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
export function buildBenchApp(database: Database, options: Pick<AppOptions, 'recordLaneAwards' | 'issueCmrs'> = {}) {
  // METRICS_TOKEN from the environment: the same benchmark with GET /metrics and its request hook on.
  const metrics = process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {};
  const config = readConfig({ APP_ENV: 'demo', TOKEN_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'silent', ...metrics });
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

/**
 * The market of bench:freights (and bench:backup): `count` freights of the companies `users` in
 * every status (40 % open, 10 % pending, 10 % draft, 15 % taken, 10 % expired, 10 % archived,
 * 5 % revoked), a piece each, bids from two other companies on every third, places and windows
 * spread over Europe. Statistics are not gathered here (the caller runs `vacuum analyze`).
 */
export async function seedMarket(db: Kysely<DB>, users: BenchUser[], count: number): Promise<void> {
  const c0 = users[0]!.company;
  const u0 = users[0]!.user;
  const companies = users.length;
  // Status mix: 40 % open, 10 % pending, 10 % draft, 15 % taken, 10 % expired, 10 % archived, 5 % revoked.
  await sql`
    insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, etd, deadline,
                          visibility, whitelist, company_id, user_id, winner_id, refs, created, modified)
    select case when i % 3 = 0 then 'air' else 'rfs' end,
           case when i % 17 = 0 then 'FFR' else 'AHR' end,
           -- s = (i / companies) % 20: every company gets every status (company is i % companies).
           case when s < 8 then 'open' when s < 10 then 'pending' when s < 12 then 'draft'
                when s < 15 then 'taken' when s < 17 then 'expired' when s < 19 then 'archived' else 'revoked' end,
           'FRA', 'DE', lpad((i % 99999)::text, 5, '0'), 'DE', (i % 5000) + 0.5,
           now() + (i % 30) * interval '1 day', now() + interval '30 days',
           case when i % 25 = 0 then -2 else 0 end,
           case when i % 25 = 0 then array[${c0}::int + ((i + 1) % ${companies})] else '{}'::int[] end,
           ${c0}::int + (i % ${companies}), ${u0}::int + (i % ${companies}),
           case when s between 12 and 18 then ${c0}::int + ((i + 3) % ${companies}) end,
           ('{"customer":"B-' || i || '"}')::json,
           now() - i * interval '1 minute', now() - i * interval '1 minute'
    from generate_series(1, ${count}) as i, lateral (select (i / ${companies}) % 20 as s) as mix`.execute(db);
  await sql`
    insert into freight_pieces (freight_id, position, pieces, depth, width, height, weight)
    select id, 0, 1 + id % 5, 120, 80, 100, 50 from freights`.execute(db);
  // Bids from two other companies on every third freight.
  await sql`
    insert into bids (freight_id, company_id, user_id, amount, currency_code, status, created, modified)
    select f.id, ${c0}::int + ((f.company_id - ${c0}::int + k) % ${companies}), ${u0}::int + ((f.company_id - ${c0}::int + k) % ${companies}),
           100 + f.id % 900, 'EUR', case when f.id % 7 = 0 then 'revoked' else 'open' end, now(), now()
    from freights f cross join (values (1), (2)) as k(k) where f.id % 3 = 0`.execute(db);
  // Load search (issue 12): origins and destinations spread over ten countries each, postal codes,
  // coordinates across Europe (5 % airport-only freights without coordinates), loading windows of
  // up to three days and delivery one to four days later.
  await sql`
    update freights set
      from_country = case when id % 20 = 0 then null else (array['DE','FR','IT','ES','NL','BE','PL','AT','CZ','DK'])[1 + id % 10] end,
      from_code = case when id % 20 = 0 then (array['FRA','MUC','AMS','CDG','MXP','MAD','WAW','VIE','PRG','CPH'])[1 + (id / 20) % 10] else lpad(((id::bigint * 7919) % 100000)::text, 5, '0') end,
      from_latitude = case when id % 20 = 0 then null else round(36 + ((id::bigint * 104729) % 2400) / 100.0, 6) end,
      from_longitude = case when id % 20 = 0 then null else round(-9 + ((id::bigint * 1299709) % 3300) / 100.0, 6) end,
      to_country = (array['IT','DE','FR','PL','ES','NL','AT','CH','HU','SE'])[1 + (id / 7) % 10],
      to_code = lpad(((id::bigint * 6007) % 100000)::text, 5, '0'),
      to_latitude = round(36 + ((id::bigint * 15485863) % 2400) / 100.0, 6),
      to_longitude = round(-9 + ((id::bigint * 32452843) % 3300) / 100.0, 6),
      etd_end = etd + (id % 3) * interval '1 day',
      eta = etd + (1 + id % 4) * interval '1 day'`.execute(db);
}
