import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { FreightRow } from '../freights/lifecycle.ts';
import { listFreights } from '../freights/lists.ts';
import { hadBidSql, roleOf, type Role } from '../freights/policy.ts';
import { freightSelection } from '../freights/store.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { Paging } from '../kernel/paging.ts';
import { presentShipment, type Shipment } from './present.ts';

/**
 * A page of a freight list as Shipments, or null for an id that is no freight list: the freights
 * module's own list query (membership, order, visibility and masking).
 */
export async function freightListShipments(db: Kysely<DB>, clock: Clock, caller: Caller, filterId: number, paging: Paging): Promise<Shipment[] | null> {
  const items = await listFreights({ db, clock, caller }, filterId, paging);
  return items ? items.map(({ row, role }) => presentShipment(row, role)) : null;
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
  // Effective statuses (expiry computed from the deadline, lifecycle.ts), one statement.
  const rows = await db
    .selectFrom('freights')
    .select(freightSelection(clock.now()))
    .select((eb) => hadBidSql(eb, caller.companyId).as('had_bid'))
    .where('freights.id', 'in', [...new Set(ids)])
    .execute();
  for (const { row, role } of withRoles(rows, caller.companyId)) out.set(row.id, presentShipment(row, role));
  return out;
}
