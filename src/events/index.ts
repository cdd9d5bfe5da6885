/**
 * The events module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export {
  type BidEventType,
  type DeliveredEventType,
  EVENT_TYPES,
  type EventDoc,
  eventsByAwb,
  type EventType,
  type FreightEventType,
  isEventType,
  type StatusEvent,
  TEST_EVENT,
} from './types.ts';
