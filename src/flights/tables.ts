import type { Generated, Selectable } from 'kysely';

/** The flights module's table: scheduled flights, the `flight` objects of booking requests. */
export interface FlightsTable {
  id: Generated<number>;
  company_id: number;
  from_code: string;
  to_code: string;
  etd: Date | null;
  eta: Date | null;
  flight_number: string | null;
  created: Date;
}

/** A flight as its row is read back. */
export type FlightRow = Selectable<FlightsTable>;

export interface FlightTables {
  flights: FlightsTable;
}
