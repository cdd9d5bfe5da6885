import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema.ts';
import { completedSql as completed, DELIVERY, FREIGHTS, fromFreights, type FreightStatus } from '../freights/index.ts';

/**
 * What the trust module (docs/reference.md#trust) reads of freights, through the freights' read model
 * (freights/read-model.ts): the parties of a delivered freight (who may rate whom), how many
 * freights a company completed, and a freight's display id as a company may see it.
 */

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
  const row = await fromFreights(db)
    .select(['id', 'company_id', 'winner_id', 'status', 'delivery_status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const delivered = row.delivery_status === DELIVERY.delivered && (row.status === 'closed' || row.status === 'archived');
  return { id: row.id, owner: row.company_id, winner: row.winner_id, status: row.status, delivered };
}

/**
 * SQL: `{as_owner, as_carrier}`, how many freights the company `id` (an SQL expression or a
 * value) completed as the freight's owner and as its carrier (awarded and closed), each from a
 * partial index (migration 0070).
 */
export function completedJsonSql(id: RawBuilder<unknown> | number) {
  return sql<{ as_owner: number; as_carrier: number }>`json_build_object(
    'as_owner', (select count(*) from ${FREIGHTS} as co where co.company_id = ${id} and ${completed('co')}),
    'as_carrier', (select count(*) from ${FREIGHTS} as cw where cw.winner_id = ${id} and ${completed('cw')}))`;
}

/**
 * SQL: the display id of the freight `freightId` (an SQL expression) as the company `viewer` sees
 * it: `refs.customer` for its owner and winner, who see the references, the id for anyone else
 * (references are masked for them, docs/reference.md#freights).
 */
export function displayIdSql(freightId: RawBuilder<unknown>, viewer: number) {
  return sql<string>`(select case when (df.company_id = ${viewer} or df.winner_id = ${viewer})
        and json_typeof(df.refs) = 'object' and coalesce(df.refs->>'customer', '') <> ''
      then df.refs->>'customer' else df.id::text end
    from ${FREIGHTS} as df where df.id = ${freightId})`;
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
  return fromFreights(db)
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
