// bench:hot's floors, shared by bench/hot.ts (over sockets) and bench/hot-cpu.ts (injected): bare
// Fastify (no hooks, no plugins) answering the caller's `/users/me.json` as it was read once, and a
// freight as one stored `jsonb` document by primary key (`floor_docs`, seeded by seedFloorDocs).
import type { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';

/** The jsonb floor's documents: freights as JSON of a view's size (as bench/market.ts's). */
export async function seedFloorDocs(db: Kysely<any>): Promise<void> {
  await sql`create table floor_docs as select id, to_jsonb(f) || jsonb_build_object('bids', '[]'::jsonb) as doc from freights f`.execute(
    db,
  );
  await sql`alter table floor_docs add primary key (id)`.execute(db);
  await sql`vacuum analyze`.execute(db);
}

/** The floors' server: GET /me answers `me`, GET /floor/:id a freight's stored document; `close` ends it and its pool. */
export function floorServer(
  me: object,
  pgUrl: string | undefined,
  pglite: PGlite | undefined,
): { bare: FastifyInstance; close: () => Promise<void> } {
  const bare = Fastify({ logger: false });
  bare.get('/me', async () => JSON.parse(JSON.stringify(me)));
  const pool = pgUrl ? new pg.Pool({ connectionString: pgUrl, max: 10 }) : undefined;
  pool?.on('error', () => {});
  const docById = async (id: number): Promise<string | undefined> => {
    const text = 'select doc::text as doc from floor_docs where id = $1';
    const rows = pool ? (await pool.query<{ doc: string }>(text, [id])).rows : (await pglite!.query<{ doc: string }>(text, [id])).rows;
    return rows[0]?.doc;
  };
  bare.get<{ Params: { id: string } }>('/floor/:id', async (req, reply) => {
    const doc = await docById(Number(req.params.id) || 0);
    if (doc === undefined) return reply.code(404).send({ status: 'error' });
    return reply.type('application/json').send(`{"status":"success","data":${doc}}`);
  });
  return {
    bare,
    close: async () => {
      await bare.close();
      await pool?.end();
    },
  };
}
