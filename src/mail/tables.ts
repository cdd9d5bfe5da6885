import type { ColumnType, Generated } from 'kysely';

/**
 * The mail module's tables (migration 0300; docs/reference.md#mail). Kinds and modes are named here
 * (kinds.ts decides which event is which kind).
 */

/** What a user may choose per kind: every mail at once, one digest a day at 07:00, or none. */
export const MAIL_MODES = ['instant', 'daily', 'off'] as const;
export type MailMode = (typeof MAIL_MODES)[number];

/** The kinds of mail (docs/reference.md#mail), in the order the settings page shows them. */
export const MAIL_KINDS = ['alerts', 'bids', 'messages', 'offers', 'documents'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A mail's state: waiting (or retrying), sent (the SMTP server took it), failed for good, or dropped (its kind was switched off meanwhile). */
export const MAIL_STATES = ['pending', 'sent', 'failed', 'dropped'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** A user's choice for one kind; a kind without a row has its default (kinds.ts). */
export interface MailSettingsTable {
  user_id: number;
  kind: MailKind;
  mode: MailMode;
  modified: Date;
}

/** Which event types are mailed and as which kind: written at start from kinds.ts while SMTP_URL is set; empty without it. */
export interface MailRoutesTable {
  type: string;
  kind: MailKind;
}

/** An event to mail, written by the trigger on `events` in the event's transaction; deleted once fanned out to users. */
export interface MailEventsTable {
  event_seq: number;
  kind: MailKind;
  /** the event's recipient company */
  company_id: number;
  /** the event's time */
  created: Date;
  /** why fanning it out failed (kept for the operator; it is not tried again) */
  failed: string | null;
}

/** One mail to one user: an instant mail of one event, or the digest of one kind and day. */
export interface MailMessagesTable {
  id: Generated<number>;
  user_id: number;
  kind: MailKind;
  /** an instant mail's event (webhooks' `events.seq`) */
  event_seq: number | null;
  /** a digest's day (`YYYY-MM-DD` in APP_TIMEZONE, the day of its 07:00) */
  digest_day: ColumnType<string | null, string | null | undefined, never>;
  state: ColumnType<MailState, MailState | undefined, MailState>;
  attempts: Generated<number>;
  /** pending: when the next attempt is due; while an attempt runs, the end of its lease */
  next_attempt: Date | null;
  in_flight: Generated<boolean>;
  last_error: string | null;
  created: Date;
  finished: Date | null;
}

/** An event waiting for a user's daily digest of its kind, then the digest that carries it. */
export interface MailDigestItemsTable {
  id: Generated<number>;
  user_id: number;
  kind: MailKind;
  event_seq: number;
  created: Date;
  digest_id: number | null;
}

export interface MailTables {
  mail_settings: MailSettingsTable;
  mail_routes: MailRoutesTable;
  mail_events: MailEventsTable;
  mail_messages: MailMessagesTable;
  mail_digest_items: MailDigestItemsTable;
}
