import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { expireDueFreights, type FreightRow } from '../freights/lifecycle.ts';
import { FILTERS } from '../freights/lists.ts';
import { hadBidSql, roleOf, type Role } from '../freights/policy.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { offsetOf, type Paging } from './paging.ts';
import { presentShipment, type Shipment } from './present.ts';

/** Ids of the freight lists (decisions.md §4) whose membership the freights module defines. */
export const isFreightFilter = (filterId: number) => Object.hasOwn(FILTERS, filterId);

/**
 * A page of a freight list as Shipments, or null for an id that is no freight list. The
 * membership is the freights module's own (FILTERS of GET /freights/enlist); every row still
 * passes through its roleOf, which decides visibility and masking.
 */
export async function freightListShipments(db: Kysely<DB>, clock: Clock, caller: Caller, filterId: number, paging: Paging): Promise<Shipment[] | null> {
  if (!isFreightFilter(filterId)) return null;
  await expireDueFreights(db, clock.now());
  const c = caller.companyId;
  const rows = await db
    .selectFrom('freights')
    .selectAll('freights')
    .select((eb) => hadBidSql(eb, c).as('had_bid'))
    .where((eb) => FILTERS[filterId]!(eb, c))
    .orderBy(`freights.${paging.sort}`, (ob) => (paging.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
    .orderBy('freights.id', paging.direction)
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute();
  return withRoles(rows, c).map(({ row, role }) => presentShipment(row, role));
}

function withRoles(rows: Array<FreightRow & { had_bid: unknown }>, companyId: number): Array<{ row: FreightRow; role: Role }> {
  const out: Array<{ row: FreightRow; role: Role }> = [];
  for (const { had_bid, ...row } of rows) {
    const role = roleOf(row as FreightRow, companyId, Boolean(had_bid));
    if (role) out.push({ row: row as FreightRow, role });
  }
  return out;
}

/**
 * The Shipments among `ids` the caller may see now (decisions.md §4), by id. Freights that are
 * missing or not visible are absent from the map. One query whatever the number of ids.
 */
export async function visibleShipments(db: Kysely<DB>, clock: Clock, caller: Caller, ids: readonly number[]): Promise<Map<number, Shipment>> {
  const out = new Map<number, Shipment>();
  if (ids.length === 0) return out;
  await expireDueFreights(db, clock.now());
  const rows = await db
    .selectFrom('freights')
    .selectAll('freights')
    .select((eb) => hadBidSql(eb, caller.companyId).as('had_bid'))
    .where('freights.id', 'in', [...new Set(ids)])
    .execute();
  for (const { row, role } of withRoles(rows, caller.companyId)) out.set(row.id, presentShipment(row, role));
  return out;
}
