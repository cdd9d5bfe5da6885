import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { secondsSince } from '../kernel/time.ts';
import { mailRoutes } from './kinds.ts';
import type { MailKind } from './tables.ts';

/**
 * The mail outbox (docs/reference.md#mail): `mail_messages` are claimed like webhook deliveries. A
 * claim is one statement (`for update skip locked`) that counts the attempt and pushes
 * `next_attempt` to the end of a lease, so no other process takes the same mail while it is
 * sent; the SMTP conversation runs after the commit, holding no lock; its outcome is written only
 * if the row is still at that attempt. A mail the server took is `sent` and never sent again; one
 * it did not take is retried with growing delays (the server down, refusing for now: nothing is
 * lost) until it is three days old, then `failed`, which the operator sees (/healthz,
 * `freight-exchange mail status`) and may queue again (`mail retry`). A recipient the server
 * refuses for good (5xx to RCPT TO, or to the message) fails at once.
 */

/** A claimed mail. */
export interface ClaimedMail {
  id: number;
  user_id: number;
  kind: MailKind;
  event_seq: number | null;
  digest_day: string | null;
  attempts: number;
  created: Date;
}

/** Seconds before the retry after failed attempt n (the last one repeats) and the age after which a mail fails. */
export const RETRY_DELAYS = [30, 60, 120, 300, 600, 1800, 3600];
export const GIVE_UP_MS = 3 * 86400_000;
/** Sent, failed and dropped mails are kept this long (the operator's view), then deleted. */
const RETENTION_MS = 14 * 86400_000;

export function retryDelayMs(attempt: number): number {
  const seconds = RETRY_DELAYS[Math.min(Math.max(attempt, 1), RETRY_DELAYS.length) - 1]!;
  return Math.round(seconds * 1000 * (1 + Math.random() * 0.1));
}

/** Claims up to `limit` due mails for a lease of `leaseMs`. */
export async function claimMails(db: Kysely<DB>, now: Date, leaseMs: number, limit: number): Promise<ClaimedMail[]> {
  if (limit <= 0) return [];
  const result = await sql<ClaimedMail>`
    with picked as (
      select id from mail_messages
       where state = 'pending' and next_attempt <= ${now}
       order by next_attempt, id
       limit ${limit}
       for update skip locked
    )
    update mail_messages m
       set attempts = m.attempts + 1, next_attempt = ${new Date(now.getTime() + leaseMs)}, in_flight = true
      from picked p
     where m.id = p.id
    returning m.id, m.user_id, m.kind, m.event_seq, m.digest_day::text as digest_day, m.attempts, m.created`.execute(db);
  return result.rows.map((r) => ({ ...r, id: Number(r.id), event_seq: r.event_seq === null ? null : Number(r.event_seq) }));
}

/** What became of an attempt. */
export type MailOutcome =
  | { kind: 'sent' }
  | { kind: 'dropped'; reason: string }
  /** `permanent`: the server refused it for good (no retry) */
  | { kind: 'failed'; error: string; permanent: boolean };

/**
 * Records outcomes of attempts (the sent ones in one statement); rows that moved on (their lease
 * ran out and they were claimed again) are left alone.
 */
export async function recordMails(
  db: Kysely<DB>,
  now: Date,
  results: ReadonlyArray<{ mail: ClaimedMail; outcome: MailOutcome }>,
): Promise<void> {
  const current = (list: typeof results) =>
    sql`(select unnest(${list.map((r) => r.mail.id)}::bigint[]) as id, unnest(${list.map((r) => r.mail.attempts)}::int[]) as attempts)`;
  const sent = results.filter((r) => r.outcome.kind === 'sent');
  if (sent.length)
    await sql`update mail_messages m set state = 'sent', in_flight = false, next_attempt = null, last_error = null, finished = ${now}
                from ${current(sent)} r
               where m.id = r.id and m.attempts = r.attempts and m.state = 'pending'`.execute(db);
  for (const r of results) {
    const o = r.outcome;
    const at = sql`m.id = ${r.mail.id} and m.attempts = ${r.mail.attempts} and m.state = 'pending'`;
    if (o.kind === 'dropped') {
      await sql`update mail_messages m set state = 'dropped', in_flight = false, next_attempt = null, last_error = ${o.reason}, finished = ${now}
                 where ${at}`.execute(db);
    } else if (o.kind === 'failed') {
      const giveUp = o.permanent || now.getTime() - r.mail.created.getTime() >= GIVE_UP_MS;
      const next = giveUp ? null : new Date(now.getTime() + retryDelayMs(r.mail.attempts));
      await sql`update mail_messages m
                   set state = ${giveUp ? 'failed' : 'pending'}, in_flight = false, next_attempt = ${next},
                       last_error = ${o.error.slice(0, 500)}, finished = ${giveUp ? now : null}
                 where ${at}`.execute(db);
    }
  }
}

/** Writes which event types are mailed (at start): the kinds table's while sending, none otherwise (the trigger then queues nothing). */
export async function routeEvents(db: Kysely<DB>, sending: boolean): Promise<void> {
  const routes = sending ? mailRoutes() : [];
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mail_routes').execute();
    if (routes.length) await trx.insertInto('mail_routes').values(routes).execute();
  });
}

/** SQL: the event (its `seq`) still has mail to send: the outbox of events keeps it (webhooks/dispatcher.ts pruneOld). */
export function mailKeepsEvent(seq: RawBuilder<number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(exists (select 1 from mail_events me where me.event_seq = ${seq})
    or exists (select 1 from mail_messages mm where mm.event_seq = ${seq} and mm.state = 'pending')
    or exists (select 1 from mail_digest_items mi where mi.event_seq = ${seq}
                and (mi.digest_id is null or exists (select 1 from mail_messages md where md.id = mi.digest_id and md.state = 'pending'))))`;
}

/** Deletes mails done for RETENTION_MS (their digest items with them); answers how many. */
export async function pruneMail(db: Kysely<DB>, now: Date): Promise<number> {
  const result = await sql`delete from mail_messages where id in (
      select id from mail_messages where state <> 'pending' and finished < ${new Date(now.getTime() - RETENTION_MS)} limit 5000)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** The outbox as the operator sees it (/healthz, `mail status`). */
export interface MailStatus {
  sending: boolean;
  /** mails waiting to be sent (retries included), at most 100,000 counted */
  queued: number;
  /** of those, tried and not taken yet */
  retrying: number;
  /** the oldest waiting mail's creation, null when none waits */
  oldest_queued: string | null;
  /** digest items waiting for 07:00 */
  digest_items: number;
  /** mails failed for good in the last 24 hours */
  failed_24h: number;
  /** events that could not be turned into mails */
  unfanned: number;
  /** the last failure's error, null when none waits */
  last_error: string | null;
}

const COUNT_CAP = 100_000;

/**
 * The outbox as the operator's metrics read it (ops/metrics.ts, `queue="mail"`): mails waiting
 * (up to COUNT_CAP counted), how long the oldest has waited since it was queued, and how long
 * the mail due longest has waited past its time without being sent (the workers' lag).
 */
export async function mailQueueStats(
  db: Kysely<DB>,
  now: Date,
): Promise<{ pending: number; oldestAgeSeconds: number | null; dueLagSeconds: number }> {
  const { rows } = await sql<{ pending: string; oldest: Date | null; due: Date | null }>`
    select (select count(*) from (select 1 from mail_messages where state = 'pending' limit ${COUNT_CAP}) q) as pending,
           (select min(created) from mail_messages where state = 'pending') as oldest,
           (select min(next_attempt) from mail_messages where state = 'pending' and not in_flight and next_attempt <= ${now}) as due`.execute(
    db,
  );
  const r = rows[0]!;
  return { pending: Number(r.pending), oldestAgeSeconds: secondsSince(r.oldest, now), dueLagSeconds: secondsSince(r.due, now) ?? 0 };
}

export async function mailStatus(
  db: Kysely<DB>,
  now: Date,
  sending: boolean,
  format: (d: Date | null) => string | null,
): Promise<MailStatus> {
  const row = await sql<{
    queued: string;
    retrying: string;
    oldest: Date | null;
    items: string;
    failed: string;
    unfanned: string;
    last_error: string | null;
  }>`
    select
      (select count(*) from (select 1 from mail_messages where state = 'pending' limit ${COUNT_CAP}) q) as queued,
      (select count(*) from (select 1 from mail_messages where state = 'pending' and attempts > 0 limit ${COUNT_CAP}) r) as retrying,
      (select min(created) from mail_messages where state = 'pending') as oldest,
      (select count(*) from (select 1 from mail_digest_items where digest_id is null limit ${COUNT_CAP}) i) as items,
      (select count(*) from mail_messages where state = 'failed' and finished > ${new Date(now.getTime() - 86400_000)}) as failed,
      (select count(*) from mail_events where failed is not null) as unfanned,
      (select last_error from mail_messages where last_error is not null and (state = 'pending' or state = 'failed')
        order by coalesce(finished, next_attempt) desc limit 1) as last_error`.execute(db);
  const r = row.rows[0]!;
  return {
    sending,
    queued: Number(r.queued),
    retrying: Number(r.retrying),
    oldest_queued: format(r.oldest),
    digest_items: Number(r.items),
    failed_24h: Number(r.failed),
    unfanned: Number(r.unfanned),
    last_error: r.last_error,
  };
}

/** Queues failed mails again, due now (the operator's `mail retry`); answers how many. */
export async function retryFailed(db: Kysely<DB>, now: Date): Promise<number> {
  const result = await db
    .updateTable('mail_messages')
    .set({ state: 'pending', next_attempt: now, finished: null, in_flight: false })
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}
