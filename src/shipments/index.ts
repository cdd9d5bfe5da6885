/**
 * The shipments module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { SHIPMENT_ERRORS, SHIPMENT_MESSAGES } from './messages.ts';
export { type Shipment, wholeUp } from './present.ts';
export { shipmentEndpoints, type ShipmentList } from './routes.ts';
export { PAGING_INPUT, SHIPMENT_SCHEMA } from './schema.ts';
export { visibleShipments } from './store.ts';
