import { setMaxListeners } from 'node:events';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { Nap } from '../kernel/sweeper.ts';
import { postWebhook, type SendResult } from './send.ts';
import type { WebhookSettings } from '../config/webhooks.ts';
import { signedHeaders } from './signing.ts';
import { REPLAY_MS } from './feed.ts';

/**
 * Delivers due webhook deliveries (docs/reference.md#events). Every server process runs one; they share
 * the work through the database only:
 * - a claim is a short transaction that counts the attempt and pushes `next_attempt` to the end
 *   of a lease (`in_flight` until its outcome is written), so no other process takes the same
 *   attempt; the HTTP request runs after the commit, holding no lock;
 * - claims are fair between companies: at most MAX_IN_FLIGHT_PER_COMPANY attempts of one
 *   company run at once, counted in the database whichever process runs them, and a claim goes
 *   round-robin (every company's next delivery before any company's one after it, and within a
 *   company its webhooks in turn), so a slow or hanging receiver delays only its own company;
 * - slow companies use slots of their own: a company with an attempt in flight longer than
 *   SLOW_MS (in any process), or whose attempts took that long lately (in this one), is claimed
 *   for only into the process's MAX_SLOW_IN_FLIGHT slots, and an attempt in flight longer than
 *   SLOW_MS leaves the MAX_IN_FLIGHT slots; so any number of hanging receivers leaves the
 *   MAX_IN_FLIGHT slots to the others, and a healthy company's delivery waits one poll;
 * - the outcome is written only if the row is still at that attempt; a process killed mid-way
 *   leaves the lease to expire and the next claim retries, with the same `webhook-id`;
 * - a 2xx ends a delivery; anything else schedules the next retry (growing delays, jitter),
 *   after the last one the delivery is `failed`.
 */

type LogFn = (obj: object, msg: string) => void;

export interface DispatcherDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** Schedule, timeout, and which receiver addresses may be reached (checked again at delivery). */
  settings: WebhookSettings;
  log?: { error: LogFn; info?: LogFn; debug?: LogFn };
  /** Events another module still needs (mail not sent yet, src/mail): kept by pruneOld whatever their age. */
  keeps?: EventsKept;
}

/** SQL: whether the event whose `seq` is given is still needed by a module above (passed in by app.ts). */
export type EventsKept = (seq: RawBuilder<number>) => RawBuilder<SqlBool>;

export interface Job {
  id: number;
  attempts: number;
  webhook_id: number;
  company_id: number;
  /** claimed for a slow company (into the process's slow slots) */
  slow: boolean;
  url: string;
  secret: string;
  event_id: string;
  body: string;
}

/** Requests in flight per process that started less than SLOW_MS ago (the others are slow). */
const MAX_IN_FLIGHT = 16;
/** Requests in flight per process for slow companies, and those past SLOW_MS: a hanging receiver's. */
export const MAX_SLOW_IN_FLIGHT = 64;
/**
 * An attempt in flight longer than this is slow, and so is its company: it is claimed for in
 * the slow slots until one of its attempts ends sooner (or SLOW_FOR_MS have passed).
 */
export const SLOW_MS = 1000;
const SLOW_FOR_MS = 10 * 60_000;
/**
 * Attempts in flight per company, across every process: a company's hanging receivers hold at
 * most this many slots, and a healthy one still delivers this many at a time.
 */
export const MAX_IN_FLIGHT_PER_COMPANY = 4;
/** Key space of the claim's transaction-scoped advisory locks, one per company ("WHK1"). */
const CLAIM_LOCKS = 0x57484b31;
/** Kept this long after their last delivery ended (the delivery log's horizon). */
const RETENTION_MS = 30 * 86400_000;
const PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 5000;
/** At most this many batches a run (an hour's events of a very busy exchange); the rest waits for the next. */
const PRUNE_ROUNDS = 40;

/** An attempt claimed and not recorded whose lease has not run out (delivery `d`). */
const leaseRunning = (now: Date) => sql<boolean>`d.in_flight and d.next_attempt > ${now}`;
/** A delivery whose next attempt is due (delivery `d`); an attempt whose lease ran out is due again. */
const dueNow = (now: Date) => sql<boolean>`d.state = 'pending' and d.next_attempt <= ${now}`;

export interface ClaimOptions {
  /** How many deliveries of slow companies to claim at most (default: `limit`). */
  slowLimit?: number;
  /** Companies this process found slow lately (their attempts took SLOW_MS or more). */
  slowCompanies?: readonly number[];
}

/**
 * Claims up to `limit` due deliveries of companies that are not slow and up to `slowLimit` of
 * slow ones, fairly between companies; each claimed row's attempt is this process's alone. A
 * company is slow when it is in `slowCompanies` or has an attempt in flight claimed more than
 * SLOW_MS ago (by any process: the lease says when).
 *
 * First the companies to serve are locked for the transaction (an advisory lock per company,
 * skipped when another process holds it: that one is claiming for the company right now), so
 * the attempts in flight that the second statement counts cannot grow meanwhile: the cap holds
 * across processes. The first statement leaves out companies already at their cap and prefers
 * those with the fewest attempts in flight, then those waiting longest; `limit` companies that
 * are not slow and `slowLimit` slow ones are enough, each gets at least one turn.
 */
export async function claimDue(db: Kysely<DB>, now: Date, leaseMs: number, limit: number, options: ClaimOptions = {}): Promise<Job[]> {
  const slowLimit = options.slowLimit ?? limit;
  if (limit <= 0 && slowLimit <= 0) return [];
  // A lease ending before this began more than SLOW_MS ago.
  const slowSince = new Date(now.getTime() + leaseMs - SLOW_MS);
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ company_id: number; slow: boolean }>`
      with busy as (
        select w.company_id, count(*) as n, bool_or(d.next_attempt < ${slowSince}) as stalled
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id
         where ${leaseRunning(now)}
         group by w.company_id
      ), waiting as materialized (
        select w.company_id, coalesce(max(b.n), 0) as running, min(oldest.next_attempt) as since,
               (w.company_id = any(${[...(options.slowCompanies ?? [])]}::int[]) or coalesce(bool_or(b.stalled), false)) as slow
          from webhooks w
          cross join lateral (
            select d.next_attempt from webhook_deliveries d
             where d.webhook_id = w.id and ${dueNow(now)}
             order by d.next_attempt limit 1) oldest
          left join busy b on b.company_id = w.company_id
         where coalesce(b.n, 0) < ${MAX_IN_FLIGHT_PER_COMPANY}
         group by w.company_id
      ), ranked as (
        select company_id, slow, running, since,
               row_number() over (partition by slow order by running, since, company_id) as place
          from waiting
      )
      select company_id, slow from ranked
       where place <= (case when slow then ${slowLimit}::int else ${limit}::int end)
         and pg_try_advisory_xact_lock(${CLAIM_LOCKS}, company_id)
       order by slow, running, since, company_id`.execute(trx);
    if (!locked.rows.length) return [];
    const companies = sql.join(locked.rows.map((r) => r.company_id));
    const slow = locked.rows.filter((r) => r.slow).map((r) => r.company_id);
    // A turn counts the attempts already in flight: the company (or webhook) with fewer goes first.
    const claimed = await sql<Job>`
      with busy as (
        select w.id, w.company_id,
               (select count(*) from webhook_deliveries d where d.webhook_id = w.id and ${leaseRunning(now)}) as n
          from webhooks w
         where w.company_id in (${companies})
      ), hooks as (
        -- Summed over every webhook of the company, those with nothing due included.
        select id, company_id, n as busy, sum(n) over (partition by company_id) as company_busy from busy
      ), queue as (
        select h.company_id, h.company_busy, q.id, q.next_attempt,
               h.busy + row_number() over (partition by h.id order by q.next_attempt, q.id) as webhook_turn
          from hooks h
          cross join lateral (
            select d.id, d.next_attempt from webhook_deliveries d
             where d.webhook_id = h.id and ${dueNow(now)}
             order by d.next_attempt, d.id limit ${MAX_IN_FLIGHT_PER_COMPANY}) q
      ), turns as (
        select id, next_attempt, company_id = any(${slow}::int[]) as slow,
               company_busy + row_number() over (partition by company_id order by webhook_turn, next_attempt, id) as turn
          from queue
      ), placed as (
        select id, slow, row_number() over (partition by slow order by turn, next_attempt, id) as place
          from turns
         where turn <= ${MAX_IN_FLIGHT_PER_COMPANY}
      ), picked as (
        select id from placed where place <= (case when slow then ${slowLimit}::int else ${limit}::int end)
      ), claimed as (
        update webhook_deliveries d
           set attempts = d.attempts + 1, next_attempt = ${new Date(now.getTime() + leaseMs)}, in_flight = true
          from picked p
         where d.id = p.id and ${dueNow(now)}
        returning d.id, d.attempts, d.webhook_id, d.event_seq
      )
      select c.id, c.attempts, c.webhook_id, w.company_id, w.company_id = any(${slow}::int[]) as slow,
             w.url, w.secret, e.id as event_id, e.body
        from claimed c
        join webhooks w on w.id = c.webhook_id
        join events e on e.seq = c.event_seq
       order by c.id`.execute(trx);
    return claimed.rows;
  });
}

/** The delay before the retry after failed attempt `attempt` (1-based), with up to 10 % jitter; null: no retry left. */
export function retryDelayMs(settings: WebhookSettings, attempt: number): number | null {
  const seconds = settings.retryDelays[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 + Math.random() * 0.1));
}

/** What became of an attempt's outcome: written, written to the log only (its row moved on), or nowhere (webhook deleted). */
export type Recorded = 'recorded' | 'late' | 'gone';

/** Records an attempt's outcome, unless the row moved on (its lease expired and it was claimed again). */
export async function recordAttempt(
  db: Kysely<DB>,
  settings: WebhookSettings,
  job: Job,
  started: Date,
  result: SendResult,
  now: Date,
): Promise<Recorded> {
  const success = result.status !== null && result.status >= 200 && result.status < 300;
  const delay = success ? null : retryDelayMs(settings, job.attempts);
  const nextRetry = delay === null ? null : new Date(now.getTime() + delay);
  return db.transaction().execute(async (trx) => {
    // Locked first: a webhook deleted while its attempt ran took the delivery with it (nothing
    // left to record), and one deleted from now on waits until the log entry is written.
    const row = await trx
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'state'])
      .where('id', '=', job.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return 'gone';
    const current = row.attempts === job.attempts && row.state === 'pending';
    if (current) {
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state: success ? 'delivered' : nextRetry ? 'pending' : 'failed',
          next_attempt: nextRetry,
          in_flight: false,
          last_status: result.status,
          last_error: result.error,
          finished: success || !nextRetry ? now : null,
        })
        .where('id', '=', job.id)
        .execute();
    }
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: job.id,
        webhook_id: job.webhook_id,
        attempt: job.attempts,
        started,
        http_status: result.status,
        error: current ? result.error : (result.error ?? 'outcome arrived after the lease ended'),
        duration_ms: result.durationMs,
        next_retry: current ? nextRetry : null,
      })
      .execute();
    return current ? 'recorded' : 'late';
  });
}

/**
 * Deletes what no one needs any more, in batches (a busy day's events are many): events with a
 * delivery (and their deliveries and log) RETENTION_MS after the change unless a delivery still
 * waits; events no webhook received, once the live board's replay no longer reaches them
 * (feed.ts REPLAY_MS, and an hour to spare); never an event `keeps` says another module still
 * needs. Answers how many events were deleted.
 */
export async function pruneOld(db: Kysely<DB>, now: Date, keeps?: EventsKept): Promise<number> {
  const delivered = new Date(now.getTime() - RETENTION_MS);
  const replayed = new Date(now.getTime() - REPLAY_MS - 3600_000);
  let deleted = 0;
  for (let round = 0; round < PRUNE_ROUNDS; round++) {
    const result = await sql`
      delete from events where seq in (
        select e.seq from events e
         where e.created < ${replayed}
           and not ${keeps ? keeps(sql<number>`e.seq`) : sql<SqlBool>`false`}
           and (not exists (select 1 from webhook_deliveries d where d.event_seq = e.seq)
                or (e.created < ${delivered}
                    and not exists (select 1 from webhook_deliveries d where d.event_seq = e.seq and d.state = 'pending')))
         limit ${PRUNE_BATCH})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    deleted += n;
    if (n < PRUNE_BATCH) break;
  }
  return deleted;
}

/** An attempt this process runs: whose, since when (real time), and whether it counts among the slow slots. */
interface Running {
  company: number;
  started: number;
  slow: boolean;
}

export class WebhookDispatcher {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Map<Promise<void>, Running>();
  /** Companies whose attempts took SLOW_MS or more lately, until when they count as slow. */
  private readonly slowUntil = new Map<number, number>();
  private readonly abort = new AbortController();
  private readonly nap = new Nap();
  private lastPrune = 0;

  constructor(private readonly deps: DispatcherDeps) {
    // Every request in flight listens on this one signal (up to MAX_IN_FLIGHT + MAX_SLOW_IN_FLIGHT,
    // more through deliverDue's limit): not a leak, so no warning past Node's default of 10.
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    if (this.loop || this.stopping) return;
    this.loop = this.run();
  }

  /** Stops claiming, aborts requests in flight (their attempts are recorded) and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.nap.wake();
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight.keys()]);
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
      const { fresh, slow } = this.countSlots(Date.now());
      const free = MAX_IN_FLIGHT - fresh;
      const slowFree = MAX_SLOW_IN_FLIGHT - slow;
      let more = false;
      try {
        if (free > 0 || slowFree > 0) {
          const jobs = await claimDue(this.deps.db, this.deps.clock.now(), this.leaseMs(), Math.max(free, 0), {
            slowLimit: Math.max(slowFree, 0),
            slowCompanies: this.slowCompanies(Date.now()),
          });
          for (const job of jobs) this.launch(job);
          // A kind of slot filled up by this claim means more may be due: go on at once.
          const slowClaimed = jobs.filter((j) => j.slow).length;
          more = (free > 0 && jobs.length - slowClaimed >= free) || (slowFree > 0 && slowClaimed >= slowFree);
        }
        if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await pruneOld(this.deps.db, this.deps.clock.now(), this.deps.keeps);
        }
      } catch (err) {
        if (!this.stopping) this.deps.log?.error({ err }, 'webhook dispatcher: claiming failed');
      }
      if (this.stopping) break;
      if (!more) await this.nap.sleep(this.deps.settings.pollMs);
    }
  }

  /** Runs a claimed attempt; when it ends, its company's speed is noted and the loop woken. */
  private launch(job: Job): void {
    const running: Running = { company: job.company_id, started: Date.now(), slow: job.slow };
    const p: Promise<void> = this.attempt(job).finally(() => {
      this.inFlight.delete(p);
      const ended = Date.now();
      if (ended - running.started >= SLOW_MS) this.slowUntil.set(running.company, ended + SLOW_FOR_MS);
      else this.slowUntil.delete(running.company);
      this.nap.wake();
    });
    this.inFlight.set(p, running);
  }

  /**
   * The slots in use: an attempt past SLOW_MS moves to the slow slots (its company is slow from
   * now on), so a hanging receiver holds one of the MAX_IN_FLIGHT slots for SLOW_MS at most.
   */
  private countSlots(now: number): { fresh: number; slow: number } {
    let fresh = 0;
    let slow = 0;
    for (const running of this.inFlight.values()) {
      if (!running.slow && now - running.started >= SLOW_MS) {
        running.slow = true;
        this.slowUntil.set(running.company, now + SLOW_FOR_MS);
      }
      if (running.slow) slow++;
      else fresh++;
    }
    return { fresh, slow };
  }

  /** Companies slow lately (the marks that ran out are dropped). */
  private slowCompanies(now: number): number[] {
    for (const [company, until] of this.slowUntil) if (until <= now) this.slowUntil.delete(company);
    return [...this.slowUntil.keys()];
  }

  private async attempt(job: Job): Promise<void> {
    const { db, clock, settings } = this.deps;
    const started = clock.now();
    try {
      const headers = signedHeaders(job.secret, job.event_id, started, job.body);
      const result = await postWebhook(job.url, job.body, headers, {
        timeoutMs: settings.timeoutMs,
        addresses: settings.addresses,
        signal: this.abort.signal,
      });
      // The delivery log says only that no answer came (send.ts NO_ANSWER); the reason is the operator's.
      if (result.status === null && result.detail)
        this.deps.log?.info?.(
          { delivery: job.id, webhook: job.webhook_id, attempt: job.attempts, reason: result.detail },
          'webhook attempt got no answer',
        );
      const recorded = await recordAttempt(db, settings, job, started, result, clock.now());
      // Deleting a webhook does not wait for its attempts: expected, not an error.
      if (recorded === 'gone')
        this.deps.log?.debug?.({ delivery: job.id, webhook: job.webhook_id }, 'webhook dispatcher: webhook deleted during an attempt');
    } catch (err) {
      // Recording failed (database gone while stopping): the lease expires and the attempt is retried.
      this.deps.log?.error({ err, delivery: job.id }, 'webhook dispatcher: could not record an attempt');
    }
  }
}
