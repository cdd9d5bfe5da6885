import type { Selectable } from 'kysely';
import type { Clock } from '../kernel/time.ts';
import { wholeUp, type Shipment } from '../shipments/index.ts';
import type { MilkrunShipmentsTable } from './tables.ts';

export type MilkrunRow = Selectable<MilkrunShipmentsTable>;

/** A milk-run shipment as the lists and moves answer it. */
export type MilkrunView = ReturnType<typeof presentMilkrun>;

/**
 * docs/reference.md#preview shipment", plus (additions old clients ignore) `state`, `pieces`,
 * `location` (airport of arrival), `carrier` (the trucker's company id) and `delivered`.
 */
export function presentMilkrun(row: MilkrunRow, clock: Clock) {
  return {
    id: row.id,
    awb: row.awb,
    weight: wholeUp(row.weight),
    awd_received: clock.format(row.awd_received),
    nfd_received: clock.format(row.nfd_received),
    special_handling_codes: row.special_handling_codes,
    warehouse_location: row.warehouse_location,
    flight_number: row.flight_number,
    ata: clock.format(row.ata),
    state: row.state,
    pieces: row.pieces,
    location: row.location,
    carrier: row.carrier_id,
    delivered: clock.format(row.delivered),
  };
}

/** The same shipment in the Shipment shape of the routes list: from the airport of arrival. */
export function milkrunAsShipment(row: MilkrunRow): Shipment {
  return { id: row.id, from: row.location, to: null, weight: wholeUp(row.weight), capacity: null };
}
