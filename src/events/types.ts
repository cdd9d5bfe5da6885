import type { TSchema } from '@sinclair/typebox';

/** The event types of docs/reference.md#events (in the order a freight's life produces them), then those of deals in one step (§16), vehicle offers (§11), ratings (§12), the deal room (§13), tracking (§18), the e-CMR (§19) and lane tenders (§17). */
export const EVENT_TYPES = [
  'freight.published',
  'freight.updated',
  'freight.revoked',
  'freight.expired',
  'freight.awarded',
  'freight.delivery_status',
  'bid.created',
  'bid.updated',
  'bid.confirmed',
  'bid.revoked',
  'booking.requested',
  'shipment.status',
  'freight.matched',
  'freight.invited',
  'bid.countered',
  'freight.offered',
  'vehicle.published',
  'vehicle.withdrawn',
  'vehicle.matched',
  'rating.received',
  'message.created',
  'document.added',
  'freight.milestone',
  'freight.late',
  'cmr.signed',
  'tender.published',
  'tender.awarded',
  'tender.lost',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by the "send test event" action to one webhook only; no subscription needed. */
export const TEST_EVENT = 'webhook.test';

/** Every event type a webhook may receive: the subscribable ones and the test event. */
export type DeliveredEventType = EventType | typeof TEST_EVENT;

/**
 * What the API description says of an event type (GET /openapi.json, `webhooks`): the module that
 * plans the event writes it beside the code (freights, searches, webhooks), and app.ts collects
 * them in a table that must name every DeliveredEventType, so a new type without one fails the
 * typecheck. `data` is the JSON Schema of the event's `data`, as each recipient receives it.
 */
export interface EventDoc {
  summary: string;
  /** Who receives it, and as whom (docs/reference.md#events). */
  recipients: string;
  data: TSchema;
}

export const FREIGHT_EVENTS = [
  'freight.published',
  'freight.updated',
  'freight.revoked',
  'freight.expired',
  'freight.awarded',
  'freight.delivery_status',
  'booking.requested',
] as const;
export type FreightEventType = (typeof FREIGHT_EVENTS)[number];

export const BID_EVENTS = ['bid.created', 'bid.updated', 'bid.confirmed', 'bid.revoked', 'bid.countered'] as const;
export type BidEventType = (typeof BID_EVENTS)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * One status event of an air waybill (RCF, NFD, DLV, …) as file push reads it (src/files): the
 * tracking module stores it, the milk-run module folds it into shipments and `shipment.status`
 * events carry it.
 */
export interface StatusEvent {
  awb: string;
  code: string;
  time: Date;
  location: string | null;
  flight_number: string | null;
  pieces: number | null;
  /** exact decimal text, kg */
  weight: string | null;
  special_handling_codes: string | null;
  warehouse_location: string | null;
}

/** Status events by AWB: AWBs and each AWB's events in the order given. */
export function eventsByAwb(events: readonly StatusEvent[]): Map<string, StatusEvent[]> {
  const byAwb = new Map<string, StatusEvent[]>();
  for (const e of events) {
    const list = byAwb.get(e.awb);
    if (list) list.push(e);
    else byAwb.set(e.awb, [e]);
  }
  return byAwb;
}
