/**
 * The files module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { awbCheckDigitValid, normaliseAwb } from './awb.ts';
export { FILE_ERRORS, FILE_MESSAGES } from './messages.ts';
export { fileEndpoints } from './routes.ts';
export { type EventRow, eventsOfCompanies, firstPusher, shipmentEvents, shipmentTotals } from './status-events.ts';
export { freightsOfAwbParties } from './shipment-status.ts';
