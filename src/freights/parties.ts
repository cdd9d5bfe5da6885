import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { DELIVERY, type FreightStatus } from './tables.ts';

/**
 * What the trust module (decisions.md §12, above freights) reads of freights: the parties of a
 * delivered freight (who may rate whom), how many freights a company completed, and a freight's
 * display id as a company may see it; and the owners of freights (the vehicle offers, §11). The freights module owns the table, so the SQL is here.
 */

type Db = Kysely<DB> | Transaction<DB>;

/** A freight's parties and whether it was delivered (`closed`, or archived after closing). */
export interface FreightParties {
  id: number;
  owner: number;
  winner: number | null;
  status: FreightStatus;
  delivered: boolean;
}

/** The parties of a freight, or undefined for an unknown id. */
export async function freightParties(db: Db, id: number): Promise<FreightParties | undefined> {
  const row = await db
    .selectFrom('freights')
    .select(['id', 'company_id', 'winner_id', 'status', 'delivery_status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const delivered = row.delivery_status === DELIVERY.delivered && (row.status === 'closed' || row.status === 'archived');
  return { id: row.id, owner: row.company_id, winner: row.winner_id, status: row.status, delivered };
}

/** The owners of freights by id (the vehicle offers tell the owners of the freights once matched, src/vehicles). */
export async function freightOwners(db: Db, ids: readonly number[]): Promise<Array<{ id: number; company_id: number }>> {
  if (!ids.length) return [];
  return db
    .selectFrom('freights')
    .select(['id', 'company_id'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

/** The creating users of these freights with their companies (mail: a match's mail goes to whom its notification went). */
export async function freightCreators(db: Db, ids: readonly number[]): Promise<Array<{ id: number; company_id: number; user_id: number }>> {
  if (!ids.length) return [];
  return db
    .selectFrom('freights')
    .select(['id', 'company_id', 'user_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/**
 * SQL: a freight delivered between two companies (awarded to another company, then closed), the
 * predicate of the partial indexes freights_completed_owner_idx and _winner_idx (migration 0180).
 */
export const completed = (alias: string) =>
  sql.raw(`${alias}.delivery_status = ${DELIVERY.delivered} and ${alias}.winner_id is not null and ${alias}.winner_id <> ${alias}.company_id
    and ${alias}.status in ('closed', 'archived')`);

/**
 * SQL: `{as_owner, as_carrier}`, how many freights the company `id` (an SQL expression or a
 * value) completed as the freight's owner and as its carrier (awarded and closed), each from a
 * partial index (migration 0070).
 */
export function completedJsonSql(id: RawBuilder<unknown> | number) {
  return sql<{ as_owner: number; as_carrier: number }>`json_build_object(
    'as_owner', (select count(*) from freights as co where co.company_id = ${id} and ${completed('co')}),
    'as_carrier', (select count(*) from freights as cw where cw.winner_id = ${id} and ${completed('cw')}))`;
}

/**
 * SQL: the display id of the freight `freightId` (an SQL expression) as the company `viewer` sees
 * it: `refs.customer` for its owner and winner, who see the references, the id for anyone else
 * (references are masked for them, decisions.md §4).
 */
export function displayIdSql(freightId: RawBuilder<unknown>, viewer: number) {
  return sql<string>`(select case when (df.company_id = ${viewer} or df.winner_id = ${viewer})
        and json_typeof(df.refs) = 'object' and coalesce(df.refs->>'customer', '') <> ''
      then df.refs->>'customer' else df.id::text end
    from freights as df where df.id = ${freightId})`;
}

/**
 * The freights delivered between two companies (either owning, the other winning), newest
 * first, at most `limit`, each with its display id as `viewer` (one of the two) sees it: what
 * one may rate the other for.
 */
export async function deliveredBetween(
  db: Db,
  viewer: number,
  other: number,
  limit: number,
): Promise<Array<{ id: number; display_id: string }>> {
  return db
    .selectFrom('freights')
    .select(['freights.id', displayIdSql(sql`freights.id`, viewer).as('display_id')])
    .where((eb) =>
      eb.or([
        eb.and([eb('freights.company_id', '=', viewer), eb('freights.winner_id', '=', other)]),
        eb.and([eb('freights.company_id', '=', other), eb('freights.winner_id', '=', viewer)]),
      ]),
    )
    .where(sql<boolean>`${completed('freights')}`)
    .orderBy('freights.modified', 'desc')
    .orderBy('freights.id', 'desc')
    .limit(limit)
    .execute();
}

/** What tracking by permission (decisions.md §18, src/positions) reads of a freight: its parties, state, ends and delivery window. */
export interface TrackedFreight {
  id: number;
  owner: number;
  winner: number | null;
  status: FreightStatus;
  /** awarded and not yet delivered: positions are taken */
  underway: boolean;
  delivered: boolean;
  from: { latitude: number; longitude: number } | null;
  to: { latitude: number; longitude: number } | null;
  /** the end of the delivery window: `eta_end`, else `eta`; null without either */
  windowEnd: Date | null;
}

const point = (lat: string | null, lon: string | null) =>
  lat === null || lon === null ? null : { latitude: Number(lat), longitude: Number(lon) };

/** The freights by id as tracking reads them (unknown ids are left out), in one statement. */
export async function trackedFreights(db: Db, ids: readonly number[]): Promise<TrackedFreight[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('freights')
    .select([
      'id',
      'company_id',
      'winner_id',
      'status',
      'delivery_status',
      'from_latitude',
      'from_longitude',
      'to_latitude',
      'to_longitude',
      'eta',
      'eta_end',
    ])
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const delivered = r.delivery_status === DELIVERY.delivered;
    return {
      id: r.id,
      owner: r.company_id,
      winner: r.winner_id,
      status: r.status,
      underway: r.status === 'taken' && r.winner_id !== null && !delivered,
      delivered,
      from: point(r.from_latitude, r.from_longitude),
      to: point(r.to_latitude, r.to_longitude),
      windowEnd: r.eta_end ?? r.eta,
    };
  });
}
