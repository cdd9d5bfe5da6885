// bench:hot's floors, shared by bench/hot.ts (over sockets) and bench/hot-cpu.ts (injected): bare
// Fastify (no hooks, no plugins) answering the caller's `/users/me.json` as it was read once, and a
// freight as one stored `jsonb` document by primary key (`floor_docs`, seeded by seedFloorDocs).
import { type PGlite, protocol } from '@electric-sql/pglite';
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
  const text = 'select doc::text as doc from floor_docs where id = $1';
  // Embedded: the cheapest way PGlite answers it, as the app's driver asks (src/db/embedded.ts): the
  // statement parsed once under a name, then one call a request, the document's text taken from the
  // data row as it is. Not `pglite.query`: that makes five calls and copies the client's ~380 parsers
  // for every statement (until 2026-11-30 this floor did, and so cost more than the app's own reads).
  let named = false;
  const embeddedDoc = async (id: number): Promise<string | undefined> => {
    const parse = named ? [] : [protocol.serialize.parse({ name: 'floor_doc', text })];
    named = true;
    const messages = await pglite!.execProtocolStream(
      Buffer.concat([
        ...parse,
        protocol.serialize.bind({ statement: 'floor_doc', values: [String(id)] }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    const row = messages.find((m) => m.name === 'dataRow') as { fields: Array<string | null> } | undefined;
    return row?.fields[0] ?? undefined;
  };
  const docById = async (id: number): Promise<string | undefined> =>
    pool ? (await pool.query<{ doc: string }>(text, [id])).rows[0]?.doc : embeddedDoc(id);
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
