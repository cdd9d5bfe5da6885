/**
 * The onerecord module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { ONE_RECORD_PREFIX, registerOneRecordRoutes, sendFailure } from './routes.ts';
