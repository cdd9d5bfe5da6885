import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { type Clock, secondsSince } from '../kernel/time.ts';
import type { AlertSubject } from './tables.ts';

/**
 * Alerts after the commit (docs/choices.md, Alerts after the commit). Publishing a freight or
 * a vehicle offer only writes one `alert_jobs` row in its own transaction; the alert itself
 * (which saved searches, offers or freights fit, their notifications and events) is computed
 * after the commit by the worker below, in a transaction of its own that also deletes the row.
 * So the publishing request never waits for the matching, and an alert is written exactly
 * once: a process stopped in between leaves the row, and the next sweep (of any process) runs it.
 *
 * Every server process runs one worker; they share the rows through the database only: a job
 * is claimed with `for update skip locked`, so two processes never run the same one, and a
 * claim lasts exactly as long as the transaction that writes the alert.
 */

/** What one subject's alert does, inside the job's transaction; the clock is frozen at the job's start. */
export type AlertHandler = (trx: Transaction<DB>, clock: Clock, subjectId: number) => Promise<unknown>;

type LogFn = (obj: object, msg: string) => void;

export interface AlertWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  handlers: Record<AlertSubject, ReadonlyArray<AlertHandler>>;
  log?: { error: LogFn; warn?: LogFn };
}

/** An alert committed: what entered the market, and how long after its publish (wall clock). */
export interface AlertWritten {
  subject: AlertSubject;
  subjectId: number;
  delayMs: number;
}

/** How often a listening process looks for jobs another process left (stopped, or failed and due again). */
const SWEEP_MS = 1000;
/** A job failing this many times is dropped (and logged): an alert must not block the queue for ever. */
const MAX_ATTEMPTS = 5;
/** The wait before the next attempt: 2, 4, 8, 16 s. */
const retryDelayMs = (attempts: number) => 1000 * 2 ** attempts;

/** Called in the publishing transaction: the alert of `subject` is due once it commits. */
export async function enqueueAlert(trx: Transaction<DB>, subject: AlertSubject, subjectId: number, at: Date): Promise<void> {
  await trx.insertInto('alert_jobs').values({ subject, subject_id: subjectId, created: at, due: at }).execute();
}

/** `enqueueAlert` for many subjects at once, in one statement (a sweep's batch). */
export async function enqueueAlerts(trx: Transaction<DB>, subject: AlertSubject, subjectIds: readonly number[], at: Date): Promise<void> {
  if (!subjectIds.length) return;
  await trx
    .insertInto('alert_jobs')
    .values(subjectIds.map((id) => ({ subject, subject_id: id, created: at, due: at })))
    .execute();
}

/**
 * The queue as the operator's metrics read it: jobs waiting, how long the oldest has waited since
 * its publish, and how long the job due longest has waited past its time (the workers' lag).
 */
export async function alertQueueStats(
  db: Kysely<DB>,
  now: Date,
): Promise<{ pending: number; oldestAgeSeconds: number | null; dueLagSeconds: number }> {
  const row = await db
    .selectFrom('alert_jobs')
    .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created').as('oldest'), eb.fn.min('due').as('due')])
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending),
    oldestAgeSeconds: secondsSince(row.oldest as Date | null, now),
    dueLagSeconds: secondsSince(row.due as Date | null, now) ?? 0,
  };
}

export class AlertWorker {
  private draining: Promise<void> | null = null;
  /** A poke arrived while draining: look once more before stopping. */
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly observers = new Set<(written: AlertWritten) => void>();

  constructor(private readonly deps: AlertWorkerDeps) {}

  /** After a commit that enqueued a job: drain on the next turn (the answer leaves first). */
  poke(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((err) => this.deps.log?.error({ err }, 'alert queue failed'))
      .finally(() => {
        this.draining = null;
      });
  }

  /** While the server listens: sweep for jobs left by other processes or due again after a failure. */
  start(): void {
    if (this.timer) return;
    this.poke();
    this.timer = setInterval(() => this.poke(), SWEEP_MS);
    this.timer.unref();
  }

  /** Stops sweeping and waits for the job under way (closing the server, before the database closes). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Told of every alert written by this worker, after its commit (benchmarks: the delay a user sees). */
  observe(observer: (written: AlertWritten) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Resolves when no drain is under way (tests read alerts after it). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Runs due jobs one after another until none is left. */
  private async drain(): Promise<void> {
    for (;;) {
      this.again = false;
      while (await this.runOne());
      if (!this.again) return;
    }
  }

  /** Claims one due job and writes its alert; answers whether there was one. */
  async runOne(): Promise<boolean> {
    const { db, clock, handlers } = this.deps;
    const now = clock.now();
    let claimed: { id: number; subject: AlertSubject; subject_id: number; attempts: number; created: Date } | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        claimed = await trx
          .selectFrom('alert_jobs')
          .select(['id', 'subject', 'subject_id', 'attempts', 'created'])
          .where('due', '<=', now)
          .orderBy('due')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!claimed) return;
        const at = clock.at(now);
        for (const handle of handlers[claimed.subject] ?? []) await handle(trx, at, claimed.subject_id);
        await trx.deleteFrom('alert_jobs').where('id', '=', claimed.id).execute();
      });
    } catch (err) {
      if (!claimed) throw err;
      await this.failed(claimed, err);
      return true;
    }
    if (claimed && this.observers.size) {
      const written = { subject: claimed.subject, subjectId: claimed.subject_id, delayMs: Date.now() - claimed.created.getTime() };
      for (const observer of this.observers) observer(written);
    }
    return Boolean(claimed);
  }

  /** The job's transaction rolled back: try again later, or give up after MAX_ATTEMPTS. */
  private async failed(job: { id: number; subject: AlertSubject; subject_id: number; attempts: number }, err: unknown) {
    const attempts = job.attempts + 1;
    const { db, clock, log } = this.deps;
    if (attempts >= MAX_ATTEMPTS) {
      log?.error({ err, job }, 'alert dropped after repeated failures');
      await db.deleteFrom('alert_jobs').where('id', '=', job.id).execute();
      return;
    }
    log?.warn?.({ err, job }, 'alert failed; retried later');
    await db
      .updateTable('alert_jobs')
      .set({ attempts, due: new Date(clock.now().getTime() + retryDelayMs(attempts)) })
      .where('id', '=', job.id)
      .execute();
  }
}
