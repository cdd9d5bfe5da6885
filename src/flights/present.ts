import type { Ctx } from '../kernel/context.ts';
import { field, presenter } from '../kernel/fields.ts';
import type { FlightRow } from './tables.ts';

/** A flight as the API answers it (`data.flight`, `data.flights`). */
export const FLIGHT = presenter<FlightRow>()('Flight', 'A scheduled flight; the creating company is its provider', {
  id: field.id('id'),
  company: field.id('company_id', 'the provider'),
  from: field.text('from_code', 'IATA code'),
  to: field.text('to_code', 'IATA code'),
  etd: field.timeOrNull('etd'),
  eta: field.timeOrNull('eta'),
  flight_number: field.textOrNull('flight_number'),
  created: field.time('created'),
});
export const presentFlight = (row: FlightRow, ctx: Ctx) => FLIGHT.present(row, ctx);
export type FlightView = ReturnType<typeof presentFlight>;
