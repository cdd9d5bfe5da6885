import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import type { PieceRow, PieceValues } from './fields.ts';

/**
 * A freight's piece lines (table freight_pieces, in `position` order): written with the freight
 * (store.ts) and read with it, by the view and list statements (piecesJsonSql) or for several
 * freights at once (loadPieces: events, lists without their pieces).
 */

/** Adds the piece lines of a freight (positions from 0, in the order given). */
export async function insertPieces(trx: Db, freightId: number, pieces: PieceValues[]) {
  if (!pieces.length) return;
  await trx
    .insertInto('freight_pieces')
    .values(pieces.map((p, position) => ({ ...p, freight_id: freightId, position })))
    .execute();
}

/** The piece lines of a freight, all replaced (edit sends the whole list, docs/reference.md#conventions item 9). */
export async function replacePieces(trx: Db, freightId: number, pieces: PieceValues[]) {
  await trx.deleteFrom('freight_pieces').where('freight_id', '=', freightId).execute();
  await insertPieces(trx, freightId, pieces);
}

/** Piece lines of several freights in one query, by freight id. */
export async function loadPieces(db: Db, freightIds: number[]): Promise<Map<number, PieceRow[]>> {
  const map = new Map<number, PieceRow[]>();
  if (!freightIds.length) return map;
  const rows = await db
    .selectFrom('freight_pieces')
    .select(['freight_id', 'position', 'pieces', 'depth', 'width', 'height', 'weight', 'stackable', 'weight_per_piece', 'refs'])
    .where('freight_id', 'in', freightIds)
    .orderBy('freight_id')
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = map.get(r.freight_id) ?? [];
    list.push(r as PieceRow);
    map.set(r.freight_id, list);
  }
  return map;
}

/** SQL: the freight's piece lines as a JSON array in position order (numerics as exact text). */
export const piecesJsonSql = sql<PieceRow[]>`(select coalesce(json_agg(json_build_object(
    'freight_id', p.freight_id, 'position', p.position, 'pieces', p.pieces, 'depth', p.depth::text, 'width', p.width::text,
    'height', p.height::text, 'weight', p.weight::text, 'stackable', p.stackable, 'weight_per_piece', p.weight_per_piece, 'refs', p.refs
  ) order by p.position), '[]'::json) from freight_pieces as p where p.freight_id = freights.id)`;
