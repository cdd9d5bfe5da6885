/**
 * The live module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { LiveHub } from './hub.ts';
export { LIVE_ERRORS, LIVE_MESSAGES } from './messages.ts';
export { attachLiveHub, LIVE_PATH, registerLiveRoutes } from './routes.ts';
