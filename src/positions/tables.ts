import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Decimal } from '../db/columns.ts';

/**
 * Tracking by permission (docs/reference.md#tracking): the positions of a freight's truck, the freight's
 * tracking state and the log of who of the owner's company read them. Personal data of the
 * driver: only the freight's two parties ever read it, and the sweeper deletes it 30 days after
 * delivery. This file imports nothing of the module's behaviour, so db/schema.ts can join it.
 */

/** Where a position came from: a telematics system through the API, or the driver's phone through the link. */
export type PositionSource = 'api' | 'link';

export const MILESTONE_TYPES = ['arrived_pickup', 'departed_pickup', 'arrived_delivery'] as const;
export type MilestoneType = (typeof MILESTONE_TYPES)[number];

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface FreightPositionsTable {
  id: Generated<string>;
  freight_id: number;
  at: Date;
  latitude: number;
  longitude: number;
  /** km/h as sent, or null */
  speed: number | null;
  source: PositionSource;
  received: Date;
}

export interface FreightTrackingTable {
  freight_id: number;
  arrived_pickup: Nullable<Date>;
  departed_pickup: Nullable<Date>;
  arrived_delivery: Nullable<Date>;
  /** the latest position by `at` (the ETA's start) */
  last_at: Nullable<Date>;
  last_latitude: Nullable<number>;
  last_longitude: Nullable<number>;
  /** the ETA from the latest position (eta.ts), null without a destination's coordinates */
  eta_at: Nullable<Date>;
  km_left: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** when `freight.late` was told (once a freight) */
  late: Nullable<Date>;
  /** when the sweeper saw the freight delivered: retention counts from here */
  delivered: Nullable<Date>;
  created: Date;
}

export interface FreightPositionReadsTable {
  id: Generated<string>;
  freight_id: number;
  company_id: number;
  user_id: number | null;
  /** the reader's name as it was then (the log outlives a renamed or deleted user) */
  user_name: string;
  at: Date;
}

export interface PositionTables {
  freight_positions: FreightPositionsTable;
  freight_tracking: FreightTrackingTable;
  freight_position_reads: FreightPositionReadsTable;
}

export type TrackingRow = Selectable<FreightTrackingTable>;
export type { Decimal };
