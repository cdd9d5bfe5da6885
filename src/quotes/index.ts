/**
 * The quotes module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { QUOTE_ERRORS, QUOTE_MESSAGES } from './messages.ts';
export { quoteEndpoints } from './routes.tsx';
export { oneStepEndpoints } from './one-step.tsx';
export { ONE_STEP_ERRORS, ONE_STEP_MESSAGES } from './one-step-messages.ts';
