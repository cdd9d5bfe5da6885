import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { listFreights, visibleFreights } from '../freights/index.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { Paging } from '../kernel/paging.ts';
import { presentShipment, type Shipment } from './present.ts';

/**
 * A page of a freight list as Shipments, or null for an id that is no freight list: the freights
 * module's own list query (membership, order, visibility and masking).
 */
export async function freightListShipments(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  filterId: number,
  paging: Paging,
): Promise<Shipment[] | null> {
  const items = await listFreights({ db, clock, caller }, filterId, paging);
  return items ? items.map(({ row, role }) => presentShipment(row, role)) : null;
}

/**
 * The Shipments among `ids` the caller may see now (docs/reference.md#freights), by id. Freights that are
 * missing or not visible are absent from the map. One query whatever the number of ids.
 */
export async function visibleShipments(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  ids: readonly number[],
): Promise<Map<number, Shipment>> {
  const out = new Map<number, Shipment>();
  if (ids.length === 0) return out;
  // Effective statuses (expiry computed from the deadline, lifecycle.ts), one statement.
  for (const { row, role } of await visibleFreights(db, clock.now(), caller.companyId, ids)) out.set(row.id, presentShipment(row, role));
  return out;
}
