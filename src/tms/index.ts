/**
 * The tms module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { tmsFreightLists, tmsShipmentList } from './lists.ts';
export { TMS_ERRORS, TMS_MESSAGES } from './messages.ts';
export { tmsEndpoints } from './routes.ts';
export { notOnTourSql, plannedOrdersCountSql, toursCountSql } from './store.ts';
export { tourColumns } from './views.tsx';
