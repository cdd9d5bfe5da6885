import { EVENT_TYPES, isEventType } from '../events/index.ts';
import { readList, readString, type Params } from '../kernel/params.ts';
import type { Clock } from '../kernel/time.ts';
import { maskSecret } from './signing.ts';
import type { DeliveryLogEntry, WebhookRow } from './store.ts';
import type { FailureCode } from '../kernel/errors.ts';

/** The webhook's field table: reading add bodies, presenting webhooks and delivery attempts. */

const MAX_EVENTS = EVENT_TYPES.length + 1;

export type WebhookInput =
  | { kind: 'ok'; url: string; events: string[] }
  | { kind: 'invalid'; key: FailureCode; vars?: Record<string, string> };

/**
 * `url` (text) and `events`: an array of types or `["*"]`; forms send checkboxes (one value or
 * several) and a comma list is accepted too. Bounded before any work; an unknown type is an
 * error (a webhook that silently never fires helps nobody); `*` stands for every type.
 */
export function readWebhookInput(params: Params): WebhookInput {
  const url = readString(params.url)?.trim();
  if (!url) return { kind: 'invalid', key: 'webhooks.url_required' };
  // The kernel's list reading (array, form checkboxes, comma list), counted before it is split.
  const list = readList(params.events, MAX_EVENTS);
  if (!list.ok)
    return list.reason === 'too_many'
      ? { kind: 'invalid', key: 'webhooks.events_too_many', vars: { max: String(MAX_EVENTS) } }
      : { kind: 'invalid', key: 'webhooks.events_required' };
  const events: string[] = [];
  for (const item of list.items) {
    const type = typeof item === 'string' ? item.trim() : undefined;
    if (type === undefined || type.length > 50)
      return { kind: 'invalid', key: 'webhooks.event_unknown', vars: { type: String(item).slice(0, 50) } };
    if (type === '') continue;
    if (type !== '*' && !isEventType(type)) return { kind: 'invalid', key: 'webhooks.event_unknown', vars: { type } };
    if (!events.includes(type)) events.push(type);
  }
  if (!events.length) return { kind: 'invalid', key: 'webhooks.events_required' };
  return { kind: 'ok', url, events: events.includes('*') ? ['*'] : events };
}

/** `data.webhook` / an element of `data.webhooks`: the secret in full only right after creation. */
export function presentWebhook(row: WebhookRow, clock: Clock, revealSecret = false) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    secret: revealSecret ? row.secret : maskSecret(row.secret),
    created: clock.format(row.created),
  };
}

/** An element of `data.deliveries`: one attempt (attempt 0: queued, not tried yet). */
export function presentAttempt(entry: DeliveryLogEntry, clock: Clock) {
  return {
    event_id: entry.event_id,
    type: entry.type,
    // HTTP status of the receiver's answer (null: no answer); `http_status` says the same.
    status: entry.http_status,
    http_status: entry.http_status,
    attempt: entry.attempt,
    next_retry: clock.format(entry.next_retry),
    state: entry.state,
    error: entry.error,
    started: clock.format(entry.started),
    // Without an answer, how long the attempt took would tell a closed port (at once) from a
    // filtered one (the timeout): shown only with an answer, like the status.
    duration_ms: entry.http_status === null ? null : entry.duration_ms,
    delivery_id: Number(entry.delivery_id),
  };
}
