/**
 * The searches module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { alertSavedSearches } from './alerts.ts';
export { countLists } from './counts.ts';
export { SEARCH_ERRORS, SEARCH_MESSAGES } from './messages.ts';
export { searchEndpoints } from './routes.tsx';
export type { TenderReader } from './notifications.ts';
export { SEARCH_EVENT_DOCS } from './schema.ts';
export {
  freightsToldOfVehicle,
  insertTenderNotifications,
  insertVehicleNotifications,
  matchKey,
  matchReasonsOf,
  mergedMatchKeys,
  mergeMatchNotifications,
  searchUsers,
} from './store.ts';
