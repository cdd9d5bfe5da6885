import { setMaxListeners } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { postWebhook, type SendResult } from './send.ts';
import type { WebhookSettings } from '../config/webhooks.ts';
import { signedHeaders } from './signing.ts';

/**
 * Delivers due webhook deliveries (decisions.md §8). Every server process runs one; they share
 * the work through the database only:
 * - a claim is a short transaction that picks due rows `FOR UPDATE SKIP LOCKED`, counts the
 *   attempt and pushes `next_attempt` to the end of a lease, so no other process takes the same
 *   attempt; the HTTP request runs after the commit, holding no lock;
 * - the outcome is written only if the row is still at that attempt; a process killed mid-way
 *   leaves the lease to expire and the next claim retries, with the same `webhook-id`;
 * - a 2xx ends a delivery; anything else schedules the next retry (growing delays, jitter),
 *   after the last one the delivery is `failed`.
 */

export interface DispatcherDeps {
  db: Kysely<DB>;
  clock: Clock;
  settings: WebhookSettings;
  /** APP_ENV=production: refuse non-public addresses at delivery. */
  publicOnly: boolean;
  log?: { error(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

interface Job {
  id: number;
  attempts: number;
  webhook_id: number;
  url: string;
  secret: string;
  event_id: string;
  body: string;
}

const MAX_IN_FLIGHT = 16;
/** Kept this long after their last delivery ended (the delivery log's horizon). */
const RETENTION_MS = 30 * 86400_000;
const PRUNE_EVERY_MS = 3600_000;

/** Claims up to `limit` due deliveries; each claimed row's attempt is this process's alone. */
export async function claimDue(db: Kysely<DB>, now: Date, leaseMs: number, limit: number): Promise<Job[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt', '<=', now)
      .orderBy('next_attempt')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (!due.length) return [];
    const ids = due.map((d) => d.id);
    await trx
      .updateTable('webhook_deliveries')
      .set({ attempts: sql`attempts + 1`, next_attempt: new Date(now.getTime() + leaseMs) })
      .where('id', 'in', ids)
      .execute();
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .innerJoin('events as e', 'e.seq', 'd.event_seq')
      .select(['d.id', 'd.attempts', 'd.webhook_id', 'w.url', 'w.secret', 'e.id as event_id', 'e.body'])
      .where('d.id', 'in', ids)
      .orderBy('d.id')
      .execute();
  });
}

/** The delay before the retry after failed attempt `attempt` (1-based), with up to 10 % jitter; null: no retry left. */
export function retryDelayMs(settings: WebhookSettings, attempt: number): number | null {
  const seconds = settings.retryDelays[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 + Math.random() * 0.1));
}

/** Records an attempt's outcome, unless the row moved on (its lease expired and it was claimed again). */
export async function recordAttempt(
  db: Kysely<DB>,
  settings: WebhookSettings,
  job: Job,
  started: Date,
  result: SendResult,
  now: Date,
): Promise<void> {
  const success = result.status !== null && result.status >= 200 && result.status < 300;
  const delay = success ? null : retryDelayMs(settings, job.attempts);
  const nextRetry = delay === null ? null : new Date(now.getTime() + delay);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        state: success ? 'delivered' : nextRetry ? 'pending' : 'failed',
        next_attempt: nextRetry,
        last_status: result.status,
        last_error: result.error,
        finished: success || !nextRetry ? now : null,
      })
      .where('id', '=', job.id)
      .where('attempts', '=', job.attempts)
      .where('state', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: job.id,
        webhook_id: job.webhook_id,
        attempt: job.attempts,
        started,
        http_status: result.status,
        error: updated ? result.error : (result.error ?? 'outcome arrived after the lease ended'),
        duration_ms: result.durationMs,
        next_retry: updated ? nextRetry : null,
      })
      .execute();
  });
}

/** Deletes events (with deliveries and log) older than the retention that nothing waits for. */
export async function pruneOld(db: Kysely<DB>, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - RETENTION_MS);
  await sql`
    delete from events where seq in (
      select e.seq from events e
       where e.created < ${cutoff}
         and not exists (select 1 from webhook_deliveries d where d.event_seq = e.seq and d.state = 'pending')
       limit 5000)`.execute(db);
}

export class WebhookDispatcher {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private wake: (() => void) | null = null;
  private lastPrune = 0;

  constructor(private readonly deps: DispatcherDeps) {
    // Every request in flight listens on this one signal (up to MAX_IN_FLIGHT, more through
    // deliverDue's limit): not a leak, so no warning past Node's default of 10.
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    if (this.loop || this.stopping) return;
    this.loop = this.run();
  }

  /** Stops claiming, aborts requests in flight (their attempts are recorded) and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims what is due now and delivers it; answers how many were claimed (tests drive this). */
  async deliverDue(limit = MAX_IN_FLIGHT): Promise<number> {
    const jobs = await claimDue(this.deps.db, this.deps.clock.now(), this.leaseMs(), limit);
    await Promise.all(jobs.map((job) => this.attempt(job)));
    return jobs.length;
  }

  private leaseMs(): number {
    return this.deps.settings.timeoutMs + 30_000;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      const free = MAX_IN_FLIGHT - this.inFlight.size;
      try {
        if (free > 0) {
          const jobs = await claimDue(this.deps.db, this.deps.clock.now(), this.leaseMs(), free);
          claimed = jobs.length;
          for (const job of jobs) {
            const p: Promise<void> = this.attempt(job).finally(() => {
              this.inFlight.delete(p);
              this.wake?.();
            });
            this.inFlight.add(p);
          }
        }
        if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await pruneOld(this.deps.db, this.deps.clock.now());
        }
      } catch (err) {
        if (!this.stopping) this.deps.log?.error({ err }, 'webhook dispatcher: claiming failed');
      }
      if (this.stopping) break;
      // A full claim means more may be due: go on at once while there is room.
      if (claimed === 0 || claimed < free || this.inFlight.size >= MAX_IN_FLIGHT) await this.idle(this.deps.settings.pollMs);
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  private async attempt(job: Job): Promise<void> {
    const { db, clock, settings } = this.deps;
    const started = clock.now();
    try {
      const headers = signedHeaders(job.secret, job.event_id, started, job.body);
      const result = await postWebhook(job.url, job.body, headers, {
        timeoutMs: settings.timeoutMs,
        publicOnly: this.deps.publicOnly,
        signal: this.abort.signal,
      });
      await recordAttempt(db, settings, job, started, result, clock.now());
    } catch (err) {
      // Recording failed (database gone while stopping): the lease expires and the attempt is retried.
      this.deps.log?.error({ err, delivery: job.id }, 'webhook dispatcher: could not record an attempt');
    }
  }
}
