/**
 * The milkrun module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { MILKRUN_ERRORS, MILKRUN_MESSAGES } from './messages.ts';
export type { MilkrunRow } from './present.ts';
export { milkrunEndpoints, milkrunShipmentList } from './routes.ts';
export { applyStatusEvents, shipmentOfParty, shipmentsOfParty } from './store.ts';
export { MILKRUN_SECTION } from './views.tsx';
