import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Decimal } from '../db/columns.ts';

/**
 * The vehicles module's table (docs/reference.md#vehicles) and the types that explain its rows. Behaviour
 * lives in the other files; this one imports none of them, so db/schema.ts can join it.
 */

/**
 * A vehicle offer's stored status: open until its owner withdraws it. `expired` is what an open
 * offer reads as once `available_to` has passed (policy.ts, computed at read time); it is never
 * written by a request.
 */
export const VEHICLE_STATUSES = ['open', 'withdrawn', 'expired'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

/**
 * The kinds of body a truck may have: a load's too (the market's BODIES, docs/choices.md, "Loads
 * described as trucks are"), written here again because a tables.ts imports nothing; fields.ts
 * checks at compile time that the two lists name the same bodies.
 */
export const BODIES = ['tautliner', 'box', 'reefer', 'flatbed', 'van', 'tank', 'other'] as const;
export type Body = (typeof BODIES)[number];

export interface VehicleOffersTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  status: Generated<VehicleStatus>;
  /** the origin code as freights store it: an IATA code (three letters) or a postal code; null for coordinates only */
  from_code: string | null;
  from_country: string | null;
  /** the origin's point, always known (resolved from the airport or postal code when not sent) */
  from_latitude: number;
  from_longitude: number;
  from_radius: number;
  /** normalised destination patterns (`DE`, `FR-75`, `airport:JFK`); empty: anywhere */
  to_patterns: ColumnType<string[], string[] | undefined, string[]>;
  available_from: Date;
  available_to: Date;
  body: Body;
  capacity: Decimal;
  loading_meters: Decimal | null;
  price_per_km: Decimal | null;
  /** 1: the truck and its driver may carry dangerous goods (ADR); 0 by default (migration 0475) */
  adr: Generated<number>;
  note: Generated<string>;
  whitelist: ColumnType<number[], number[] | undefined, number[]>;
  created: Date;
  modified: Date;
  /**
   * The box around the origin that holds the whole radius, kept by PostgreSQL (migration 0170,
   * the SQL twin of places/geo.ts boundingBox) for the fitting offers of a freight: compared,
   * never read or written.
   */
  reach: ColumnType<string | null, never, never>;
}

export type VehicleRow = Omit<Selectable<VehicleOffersTable>, 'reach'>;

export interface VehicleTables {
  vehicle_offers: VehicleOffersTable;
}
