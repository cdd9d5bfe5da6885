// The floor a benchmark compares against, measured in the same run on the same machine:
// a bare Fastify route doing one primary-key SELECT of a freight row, through `pg` (PostgreSQL)
// or one in-process PGlite query (embedded). Nothing the app does per request is cheaper than this.
// Imported by bench/freights.ts; run as a script by bench/login.ts (a process of its own, like the
// server it is compared with): prints `port <n>` once listening, stops on SIGTERM.
import type { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';

export type FloorQuery = (id: number) => Promise<unknown>;

const FREIGHT_BY_ID = 'select * from freights where id = $1';

export function pgFloorQuery(pool: pg.Pool): FloorQuery {
  return async (id) => (await pool.query(FREIGHT_BY_ID, [id])).rows[0];
}

export function pgliteFloorQuery(client: PGlite): FloorQuery {
  return async (id) => (await client.query(FREIGHT_BY_ID, [id])).rows[0];
}

/** Listens on a free loopback port; `GET /floor/:id` answers the row as JSON (404 when missing). */
export async function startFloor(query: FloorQuery): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/floor/:id', async (req, reply) => {
    const row = await query(Number(req.params.id) || 0);
    if (!row) return reply.code(404).send({ status: 'error' });
    return { status: 'success', data: row };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** 1,000 freights of the first company (the login benchmark's database has none). */
export const SEED_FLOOR_FREIGHTS = `
  insert into freights (status, from_code, to_code, weight, deadline, company_id, user_id, refs, created, modified)
  select 'open', 'FRA', lpad(i::text, 5, '0'), i + 0.5, now() + interval '30 days', c.id, u.id, '{"customer":"floor"}', now(), now()
  from generate_series(1, 1000) as i, (select min(id) as id from companies) as c, (select min(id) as id from users) as u
  where not exists (select 1 from freights)`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.FLOOR_DATABASE_URL;
  let query: FloorQuery;
  let closeDb: () => Promise<void>;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {});
    await pool.query(SEED_FLOOR_FREIGHTS);
    query = pgFloorQuery(pool);
    closeDb = () => pool.end();
  } else {
    // The embedded floor: an in-memory PGlite with the app's schema and 1,000 freights.
    const { createPglite, openDatabase } = await import('../src/db/connection.ts');
    const { createCompany, createUser } = await import('../src/accounts/commands.ts');
    const { TokenIssuer } = await import('../src/accounts/tokens.ts');
    const client = await createPglite();
    const database = await openDatabase({ databaseUrl: undefined, dataDir: '' }, { pglite: client });
    const company = await createCompany(database.db, 'Floor');
    await createUser(database.db, new TokenIssuer('floor-secret', 'demo'), {
      company: company.id,
      email: 'floor@example.test',
      password: 'floor-password',
    });
    await client.query(SEED_FLOOR_FREIGHTS);
    query = pgliteFloorQuery(client);
    closeDb = () => database.close();
  }
  const floor = await startFloor(query);
  process.stdout.write(`port ${new URL(floor.url).port}\n`);
  process.once(
    'SIGTERM',
    () =>
      void floor
        .close()
        .then(closeDb)
        .then(() => process.exit(0)),
  );
}
