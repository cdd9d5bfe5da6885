import type { Db } from '../db/schema.ts';
import { DELIVERY, fromFreights, type FreightRow, type FreightStatus } from '../freights/index.ts';

/** What tracking by permission (docs/reference.md#tracking, src/positions) reads of a freight: its parties, state, ends and delivery window. */
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

/** The columns of a freight tracking reads (trackedFreights, and store.ts's freight with its tracking row). */
export const TRACKED_COLUMNS = [
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
] as const;

/** A freight's row of TRACKED_COLUMNS as tracking reads it. */
export function trackedOf(r: Pick<FreightRow, (typeof TRACKED_COLUMNS)[number]>): TrackedFreight {
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
}

/** The freights by id as tracking reads them (unknown ids are left out), in one statement. */
export async function trackedFreights(db: Db, ids: readonly number[]): Promise<TrackedFreight[]> {
  if (!ids.length) return [];
  const rows = await fromFreights(db)
    .select(TRACKED_COLUMNS)
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .execute();
  return rows.map(trackedOf);
}
