/**
 * The pricing module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { rateCommands } from './cli.ts';
export { rateLineForBooking, searchForFreight } from './handover.ts';
export { checkRateSheet, storeRateSheet } from './import.ts';
export { PRICING_ERRORS, PRICING_MESSAGES } from './messages.ts';
export { PRICING_SECTION, pricingEndpoints } from './routes.tsx';
