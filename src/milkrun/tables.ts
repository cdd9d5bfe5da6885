import type { Generated } from 'kysely';
import type { Decimal } from '../db/columns.ts';

/** A milk-run shipment's state (states.ts moves it; docs/reference.md#preview). */
export const STATES = ['waiting', 'selected', 'deselected', 'follow_up', 'dispatched', 'running', 'delivered'] as const;
export type State = (typeof STATES)[number];

export interface MilkrunShipmentsTable {
  id: Generated<number>;
  /** handler/forwarder: the company whose status file created the shipment */
  company_id: number;
  awb: string;
  /** see states.ts */
  state: Generated<State>;
  /** trucking company assigned by dispatch */
  carrier_id: number | null;
  location: string | null;
  weight: Decimal | null;
  pieces: number | null;
  special_handling_codes: string | null;
  warehouse_location: string | null;
  flight_number: string | null;
  ata: Date | null;
  awd_received: Date | null;
  nfd_received: Date | null;
  delivered: Date | null;
  created: Date;
  modified: Date;
}

export interface MilkrunTables {
  milkrun_shipments: MilkrunShipmentsTable;
}
