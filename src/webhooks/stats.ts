import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { secondsSince } from '../kernel/time.ts';

/** The webhook outbox as the operator's metrics read it (ops/metrics.ts QueueStats). */
export interface OutboxStats {
  pending: number;
  oldestAgeSeconds: number | null;
  failingCompanies: number;
  dueLagSeconds: number;
}

/**
 * Deliveries waiting (queued or retrying), how long the oldest has waited since its event, and
 * how many companies have a waiting delivery whose last attempt failed: one statement over the
 * pending deliveries (their partial index), read at each scrape. Also how long the delivery due
 * longest has waited past its time (not in flight): the dispatchers' lag, which a receiver
 * that fails does not raise (its retries wait for their time).
 */
export async function outboxStats(db: Kysely<DB>, now: Date): Promise<OutboxStats> {
  const { rows } = await sql<{ pending: number; oldest: Date | null; failing: number; due: Date | null }>`
    select count(*)::int as pending, min(d.created) as oldest,
           min(d.next_attempt) filter (where not d.in_flight and d.next_attempt <= ${now}) as due,
           count(distinct w.company_id) filter (where d.attempts - d.in_flight::int > 0)::int as failing
      from webhook_deliveries d join webhooks w on w.id = d.webhook_id
     where d.state = 'pending'`.execute(db);
  const row = rows[0]!;
  return {
    pending: Number(row.pending),
    oldestAgeSeconds: secondsSince(row.oldest, now),
    failingCompanies: Number(row.failing),
    dueLagSeconds: secondsSince(row.due, now) ?? 0,
  };
}
