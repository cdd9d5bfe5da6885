/**
 * Flights (docs/reference.md#freights): a company's scheduled flights, public on the exchange, and the
 * `flight` objects of booking requests. The module's public surface.
 */
export { FLIGHTS_SECTION, flightEndpoints, flightForBooking } from './routes.ts';
export type { FlightView } from './present.ts';
export { FLIGHT_ERRORS, FLIGHT_MESSAGES } from './messages.ts';
