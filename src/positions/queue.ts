import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { MILESTONE_TYPES, type MilestoneType } from './tables.ts';

/**
 * What the dispatcher's work queue (src/desk) reads of tracking: of the company's freights
 * underway (the freights module names them), which are late and which reached a milestone.
 */
export interface TrackingState {
  freightId: number;
  /** `freight.late` was told and the truck has not arrived */
  late: boolean;
  eta: Date | null;
  milestones: Array<{ type: MilestoneType; at: Date }>;
}

export async function trackingStates(db: Kysely<DB>, freightIds: readonly number[]): Promise<TrackingState[]> {
  if (!freightIds.length) return [];
  const rows = await db
    .selectFrom('freight_tracking')
    .selectAll()
    .where('freight_id', 'in', [...freightIds])
    .execute();
  return rows.map((r) => ({
    freightId: r.freight_id,
    late: r.late !== null && r.arrived_delivery === null,
    eta: r.eta_at,
    milestones: MILESTONE_TYPES.flatMap((type) => (r[type] ? [{ type, at: r[type]! }] : [])),
  }));
}
