import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { anySubscriber, enqueueDeliveries, subscribedWebhooks } from './store.ts';

/**
 * The outbox (decisions.md §8): the `events` table holds each event's exact delivery body, and
 * one delivery per subscribed webhook is queued beside it, in the transaction of the change the
 * event announces. What an event says and to whom is the announcing module's (freights/events.ts
 * plans freight, bid, match and status events); nothing is planned, rendered or written when no
 * webhook subscribes to the type (one probe on the small webhooks table).
 */

type Db = Kysely<DB> | Transaction<DB>;

/** An event for one recipient company; `data` is rendered only when the company subscribes. */
export interface PlannedEvent {
  companyId: number;
  freightId: number | null;
  data: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

export interface NewEvent {
  companyId: number;
  freightId: number | null;
  data: Record<string, unknown>;
}

const BATCH = 500;

/**
 * Writes the planned events of every subscribed recipient and queues their deliveries; `plan`
 * runs only when some webhook subscribes to the type. Answers how many events were written.
 */
export async function announce(db: Db, clock: Clock, type: string, plan: () => Promise<PlannedEvent[]>): Promise<number> {
  if (!(await anySubscriber(db, type))) return 0;
  const planned = await plan();
  if (!planned.length) return 0;
  const hooks = await subscribedWebhooks(db, type, [...new Set(planned.map((p) => p.companyId))]);
  const wanted: NewEvent[] = [];
  for (const p of planned) {
    if (hooks.has(p.companyId)) wanted.push({ companyId: p.companyId, freightId: p.freightId, data: await p.data() });
  }
  const written = await insertEvents(db, clock, type, wanted);
  await enqueueDeliveries(
    db,
    clock.now(),
    written.flatMap((e) => (hooks.get(e.company_id) ?? []).map((webhookId) => ({ webhookId, eventSeq: e.seq }))),
  );
  return written.length;
}

/** `evt_` + 128 random bits (base64url): unguessable, no `.` (Standard Webhooks signs id.timestamp.body). */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

/** Stores events with their exact delivery body {id, type, created, company, data}. */
export async function insertEvents(
  db: Db,
  clock: Clock,
  type: string,
  events: readonly NewEvent[],
): Promise<Array<{ seq: number; id: string; company_id: number }>> {
  const now = clock.now();
  const created = clock.format(now);
  const out: Array<{ seq: number; id: string; company_id: number }> = [];
  for (let i = 0; i < events.length; i += BATCH) {
    const rows = events.slice(i, i + BATCH).map((e) => {
      const id = newEventId();
      const body = JSON.stringify({ id, type, created, company: e.companyId, data: e.data });
      return { id, type, company_id: e.companyId, freight_id: e.freightId, body, created: now };
    });
    out.push(...(await db.insertInto('events').values(rows).returning(['seq', 'id', 'company_id']).execute()));
  }
  return out;
}
