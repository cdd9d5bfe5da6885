import type { ColumnType, Generated } from 'kysely';

export interface WebhooksTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  url: string;
  /** Event types, or ['*'] for every type. */
  events: ColumnType<string[], string[], string[]>;
  /** `whsec_` + base64 of 32 random bytes; needed in clear to sign (HMAC). */
  secret: string;
  created: Date;
}

/** A delivery's state: queued or retrying, delivered (2xx), or given up after the last retry. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_seq: number;
  state: ColumnType<DeliveryState, DeliveryState | undefined, DeliveryState>;
  attempts: Generated<number>;
  /** While an attempt runs, the end of its lease; else when the next attempt is due (null: done). */
  next_attempt: Date | null;
  /** An attempt is claimed and its outcome not recorded yet (counted while its lease lasts). */
  in_flight: Generated<boolean>;
  last_status: number | null;
  last_error: string | null;
  created: Date;
  finished: Date | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  webhook_id: number;
  attempt: number;
  started: Date;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  next_retry: Date | null;
}

/**
 * The outbox (outbox.ts): one row per event and recipient company, with the exact body delivered,
 * recorded whether or not a webhook subscribes (the live board's streams read it too, feed.ts);
 * and market rows (`company_id` null), one per freight entering the market, for every company
 * that may see it there (decided when a stream reads the row).
 */
export interface EventsTable {
  /** The row's identity, drawn when it is written (internal); `id` is the public, unguessable event id. */
  seq: Generated<number>;
  /**
   * Its position in the order of commits, set at the writing transaction's commit (migration
   * 0190; null only inside that transaction): what a replay reads after (webhooks/feed.ts).
   */
  pos: ColumnType<number | null, never, never>;
  id: string;
  type: string;
  /** The recipient: the company whose view `body` renders; null: a market row (its body's `company` is null). */
  company_id: number | null;
  freight_id: number | null;
  /** A market row: the companies that got a row of their own for the same change (never this one too). */
  except_companies: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  /** The exact JSON delivered: {id, type, created, company, data}. */
  body: string;
  created: Date;
}

export interface WebhookTables {
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
