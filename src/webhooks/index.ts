/**
 * The webhooks module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { eventsAfter, eventsAt, type FeedRow, LIVE_CHANNEL, positionOfEvent, positionsOf, REPLAY_MS } from './feed.ts';
export { WEBHOOK_ERRORS, WEBHOOK_MESSAGES } from './messages.ts';
export { announce, announceAll, type PlannedEvent } from './outbox.ts';
export { SETTINGS_SECTION, webhookEndpoints } from './routes.tsx';
export { WEBHOOK_EVENT_DOCS } from './schema.ts';
export { attachWebhookDispatcher } from './start.ts';
export { outboxStats } from './stats.ts';
