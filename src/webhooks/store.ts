import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import type { DeliveryState, WebhooksTable } from './tables.ts';

export type WebhookRow = Selectable<WebhooksTable>;

/** One pending delivery per (webhook, event), due now; the webhook is the caller's, read locked (findWebhook `locked`). */
export async function enqueueDeliveries(db: Db, now: Date, items: Array<{ webhookId: number; eventSeq: number }>): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    await db
      .insertInto('webhook_deliveries')
      .values(
        items
          .slice(i, i + 1000)
          .map((d) => ({ webhook_id: d.webhookId, event_seq: d.eventSeq, state: 'pending' as const, next_attempt: now, created: now })),
      )
      .execute();
  }
}

export async function insertWebhook(
  db: Db,
  values: { companyId: number; userId: number; url: string; events: string[]; secret: string; now: Date },
): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values({
      company_id: values.companyId,
      user_id: values.userId,
      url: values.url,
      events: values.events,
      secret: values.secret,
      created: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Key space of registration's transaction-scoped advisory locks, one per company ("WHK2"). */
const REGISTER_LOCKS = 0x57484b32;

/**
 * Serialises the company's registrations until the transaction ends, so the checks before an
 * insert (at most MAX_WEBHOOKS, one webhook per address) hold when two adds race.
 */
export async function lockRegistrations(trx: Transaction<DB>, companyId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${REGISTER_LOCKS}, ${companyId})`.execute(trx);
}

export async function listWebhooks(db: Db, companyId: number): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
}

/**
 * The company's webhook, or undefined (another company's is as missing: a 404). `locked`: read
 * `FOR KEY SHARE` in the caller's transaction, so a delete waits for it to end (or, committed
 * meanwhile, the webhook is not found) and a delivery written for it keeps its foreign key.
 */
export async function findWebhook(db: Db, companyId: number, id: number, locked = false): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .$if(locked, (q) => q.forKeyShare())
    .executeTakeFirst();
}

/** Deletes the webhook with its deliveries and their log (cascade). */
export async function deleteWebhook(db: Db, companyId: number, id: number): Promise<WebhookRow | undefined> {
  return db.deleteFrom('webhooks').where('id', '=', id).where('company_id', '=', companyId).returningAll().executeTakeFirst();
}

export interface DeliveryLogEntry {
  attempt_id: number | null;
  delivery_id: number;
  event_id: string;
  type: string;
  state: DeliveryState;
  attempt: number;
  http_status: number | null;
  error: string | null;
  started: Date | null;
  duration_ms: number | null;
  next_retry: Date | null;
}

/**
 * The webhook's recent attempts, newest first, plus deliveries not attempted yet (attempt 0),
 * so a queued event is visible before its first try.
 */
export async function deliveryLog(db: Db, webhookId: number, page: { limit: number; offset: number }): Promise<DeliveryLogEntry[]> {
  const rows = await sql<DeliveryLogEntry>`
    select * from (
      select a.id as attempt_id, d.id as delivery_id, e.id as event_id, e.type, d.state, a.attempt, a.http_status, a.error,
             a.started, a.duration_ms, a.next_retry, a.id as sort_attempt, d.id as sort_delivery
        from webhook_attempts a
        join webhook_deliveries d on d.id = a.delivery_id
        join events e on e.seq = d.event_seq
       where a.webhook_id = ${webhookId}
      union all
      select null, d.id, e.id, e.type, d.state, 0, null, null, null, null, d.next_attempt, null, d.id
        from webhook_deliveries d
        join events e on e.seq = d.event_seq
       where d.webhook_id = ${webhookId} and d.attempts = 0
    ) log
    order by sort_attempt desc nulls first, sort_delivery desc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.rows;
}
