import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { emitEvent } from '../events/emit.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { presentBid } from '../quotes/present.ts';
import { type FreightValues, type PieceRow, type PieceValues, presentFreight } from './fields.ts';
import { EDITABLE_STATUSES, expireDueFreights, type FreightRow } from './lifecycle.ts';
import type { Role } from './policy.ts';
import type { Translate } from '../kernel/i18n.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface NewFreight {
  values: FreightValues;
  pieces?: PieceValues[];
}

/** Inserts a freight and its piece lines in one transaction; company and user are the caller's. */
export async function insertFreight(
  db: Kysely<DB>,
  caller: Caller,
  now: Date,
  freight: NewFreight,
  /** More work in the same transaction (the booking request's event). */
  alsoInTransaction?: (trx: Transaction<DB>, row: FreightRow) => Promise<unknown>,
): Promise<FreightRow> {
  return db.transaction().execute(async (trx) => {
    const values = { ...freight.values } as Record<string, unknown>;
    // Server-set fields come last, so no body value can override them.
    const row = await trx
      .insertInto('freights')
      .values({ ...values, company_id: caller.companyId, user_id: caller.userId, created: now, modified: now } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (freight.pieces?.length) await insertPieces(trx, row.id, freight.pieces);
    await alsoInTransaction?.(trx, row);
    return row;
  });
}

async function insertPieces(trx: Db, freightId: number, pieces: PieceValues[]) {
  if (!pieces.length) return;
  await trx
    .insertInto('freight_pieces')
    .values(pieces.map((p, position) => ({ ...p, freight_id: freightId, position })))
    .execute();
}

export type EditResult = { kind: 'ok'; row: FreightRow } | { kind: 'not_found' } | { kind: 'refused' };

/**
 * Changes only the sent fields of an own freight in draft/open/pending; `pieces`, when sent,
 * replace the list (api.md, Endpoints 9). `parse` sees the locked stored row (airport resolution
 * depends on its addresses).
 */
export async function editFreight(db: Kysely<DB>, clock: Clock, caller: Caller, id: number, parse: (existing: FreightRow) => NewFreight): Promise<EditResult> {
  await expireDueFreights(db, clock.now());
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('freights').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row || row.company_id !== caller.companyId) return { kind: 'not_found' } as const;
    if (!(EDITABLE_STATUSES as readonly string[]).includes(row.status)) return { kind: 'refused' } as const;
    const { values, pieces } = parse(row);
    const updated = await trx
      .updateTable('freights')
      .set({ ...(values as object), modified: clock.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (pieces) {
      await trx.deleteFrom('freight_pieces').where('freight_id', '=', id).execute();
      await insertPieces(trx, id, pieces);
    }
    await emitEvent(trx, clock, { type: 'freight.updated', freightId: id });
    return { kind: 'ok', row: updated } as const;
  });
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

/** Company names by id, one query. */
export async function companyNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('companies').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export interface ReadContext {
  db: Kysely<DB>;
  clock: Clock;
  t: Translate;
  caller: Caller;
}

/**
 * One freight as `data.route`: pieces, `_company`, and `_bids` only while open, pending or
 * taken (absent otherwise, api.md): all bids for the owner, the caller's company's own bids for
 * anyone else.
 */
export async function presentOne(rc: ReadContext, row: FreightRow, role: Role) {
  const [pieces, names] = await Promise.all([loadPieces(rc.db, [row.id]), companyNames(rc.db, [row.company_id])]);
  let bids: unknown[] | undefined;
  if (['open', 'pending', 'taken'].includes(row.status)) {
    let q = rc.db.selectFrom('bids').selectAll().where('freight_id', '=', row.id);
    if (role !== 'owner') q = q.where('company_id', '=', rc.caller.companyId);
    bids = (await q.orderBy('created').orderBy('id').execute()).map((b) => presentBid(b, rc.clock));
  }
  return presentFreight(row, role, { clock: rc.clock, t: rc.t, callerCompany: rc.caller.companyId }, {
    pieces: pieces.get(row.id) ?? [],
    bids,
    company: { id: row.company_id, name: names.get(row.company_id) ?? '' },
  });
}

/** A page of a list: pieces and company names for all rows in one query each (no N+1). */
export async function presentMany(rc: ReadContext, rows: Array<{ row: FreightRow; role: Role; companyName?: string }>) {
  const pieces = await loadPieces(rc.db, rows.map((r) => r.row.id));
  return rows.map(({ row, role, companyName }) =>
    presentFreight(row, role, { clock: rc.clock, t: rc.t, callerCompany: rc.caller.companyId }, {
      pieces: pieces.get(row.id) ?? [],
      company: { id: row.company_id, name: companyName ?? '' },
    }),
  );
}

