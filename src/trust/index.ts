/**
 * The trust module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { TRUST_ERRORS, TRUST_MESSAGES } from './messages.ts';
export { notRatedBySql, ratingsToAnswer } from './queue.ts';
export { bidderFigures, type BidderFigure } from './store.ts';
export { TRUST_SECTION, trustEndpoints } from './routes.tsx';
export { TRUST_EVENT_DOCS } from './schema.ts';
export { ratingSummaries, type RatingSummary } from './store.ts';
