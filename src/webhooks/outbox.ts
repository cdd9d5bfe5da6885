import { randomFillSync } from 'node:crypto';
import { sql } from 'kysely';
import { pushRule } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { LIVE_CHANNEL } from './feed.ts';

/**
 * The outbox (docs/reference.md#events, #live-board): the `events` table holds each event's exact delivery body,
 * written in the transaction of the change the event announces. What an event says and to whom
 * is the announcing module's (freights/events.ts plans freight, bid, match and status events).
 *
 * Every planned event is recorded, subscribed or not: the live board's streams receive it and
 * replay it after a reconnect (feed.ts). Deliveries are queued only for the webhooks that
 * subscribe to the type and still exist, read locked by the statement that queues them
 * (writeEvents): a webhook deleted meanwhile never fails the write. A
 * market row (`companyId` null) stands for every company that may see the freight in the market:
 * one row however large the market, its audience decided when a stream reads it, never a row
 * per company. The transaction notifies the event positions on the live channel; PostgreSQL
 * delivers the notification at commit (never for a rollback), to every server process listening.
 *
 * Who an event may reach is decided here, once for every kind of event (accounts/blocks.ts
 * pushRule, docs/reference.md#trust): each planned event names the companies whose doing it is (`from`),
 * and a recipient that does not exist, or that blocked one of them (its own doing excepted), gets
 * no row, so no webhook delivery, no stream event, no replay, nor anything a later channel reads
 * from the outbox. A market row's audience is the market list's rule, which honours the same
 * blocks when the row is streamed (live/audience.ts).
 */

/** An event for one recipient company (or the market); `data` is rendered once, when the event is written. */
export interface PlannedEvent {
  /** The recipient; null: the market (every company that may see `freightId` there, read when streamed). */
  companyId: number | null;
  freightId: number | null;
  /**
   * The companies whose doing the event reports (the acting company; for a change of a freight or
   * an offer, its owner too where the change is the exchange's on its behalf): a recipient that
   * blocked one of them does not receive it, unless it is one of them. Empty: the exchange's own.
   */
  from: readonly number[];
  /** A market event: the companies planned a row of their own for the same change (they never get this one too). */
  except?: readonly number[];
  data: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

export interface NewEvent {
  companyId: number | null;
  freightId: number | null;
  except?: readonly number[];
  data: Record<string, unknown>;
}

const BATCH = 500;

/**
 * Writes the planned events (the announcing module plans them: what it says and to whom),
 * queues their deliveries to subscribed webhooks and notifies the live channel (at commit).
 * Answers how many events were written.
 */
export async function announce(db: Db, clock: Clock, type: string, events: readonly PlannedEvent[]): Promise<number> {
  return announceAll(db, clock, [{ type, events }]);
}

/**
 * Events of several types announcing one change (an award's `bid.created` and `freight.awarded`),
 * written in the order given as `announce` writes each type's, with one recipient check, one
 * insert, one statement queueing their deliveries and one notification for all of them.
 */
export async function announceAll(
  db: Db,
  clock: Clock,
  batches: ReadonlyArray<{ type: string; events: readonly PlannedEvent[] }>,
): Promise<number> {
  const all = batches.flatMap((b) => b.events.map((event) => ({ type: b.type, event })));
  const kept = new Set(
    await reachable(
      db,
      all.map((a) => a.event),
    ),
  );
  const rows: Array<NewEvent & { type: string }> = [];
  for (const { type, event: p } of all)
    if (kept.has(p)) rows.push({ type, companyId: p.companyId, freightId: p.freightId, except: p.except, data: await p.data() });
  if (!rows.length) return 0;
  // One statement per batch writes the events, queues their deliveries and notifies the live
  // channel (writeEvents): an award announces twice, and every write of the exchange at least once.
  const written = await writeEvents(db, clock, rows);
  return written.length;
}

/** The planned events whose recipient may receive them (pushRule); market rows stay (their audience is read when streamed). */
async function reachable(db: Db, planned: readonly PlannedEvent[]): Promise<readonly PlannedEvent[]> {
  // Events to their own makers only (an award to its two parties) need no question.
  const addressed = planned.filter((p) => p.companyId !== null && !p.from.includes(p.companyId));
  if (!addressed.length) return planned;
  const may = await pushRule(
    db,
    addressed.flatMap((p) => p.from),
    addressed.map((p) => p.companyId!),
  );
  return planned.filter((p) => p.companyId === null || p.from.includes(p.companyId) || may(p.companyId, p.from));
}

/**
 * Random bytes for event ids, drawn from the system's generator 4 KB at a time (256 ids), as Node
 * draws its own for randomUUID: `randomBytes(16)` per id cost ~6 µs, a sweep's 10,000 events 60 ms
 * of the process's time; a slice of the pool costs ~0.2 µs. Each byte serves one id only.
 */
const idBytes = { pool: Buffer.alloc(4096), at: 4096 };

/** `evt_` + 128 random bits (base64url): unguessable, no `.` (Standard Webhooks signs id.timestamp.body). */
export function newEventId(): string {
  if (idBytes.at + 16 > idBytes.pool.length) {
    randomFillSync(idBytes.pool);
    idBytes.at = 0;
  }
  const id = `evt_${idBytes.pool.toString('base64url', idBytes.at, idBytes.at + 16)}`;
  idBytes.at += 16;
  return id;
}

/** Stores events with their exact delivery body {id, type, created, company, data}. */
export function insertEvents(
  db: Db,
  clock: Clock,
  type: string,
  events: readonly NewEvent[],
): Promise<Array<{ seq: number; id: string; company_id: number | null; type: string }>> {
  return insertTypedEvents(
    db,
    clock,
    events.map((e) => ({ ...e, type })),
  );
}

type WrittenEvent = { seq: number; id: string; company_id: number | null; type: string };

/** An event as written at `now` (`created`: it as the body shows it, formatted once for all): its public id and exact delivery body. */
function eventRow(now: Date, created: string | null, e: NewEvent & { type: string }) {
  const id = newEventId();
  const body = JSON.stringify({ id, type: e.type, created, company: e.companyId, data: e.data });
  const except = e.companyId === null && e.except?.length ? [...e.except] : null;
  return { id, type: e.type, company_id: e.companyId, freight_id: e.freightId, except_companies: except, body, created: now };
}

/** Stores events, each of its own type, in the order given (their `seq`); nothing queued or notified. */
async function insertTypedEvents(db: Db, clock: Clock, events: ReadonlyArray<NewEvent & { type: string }>): Promise<WrittenEvent[]> {
  const now = clock.now();
  const created = clock.format(now);
  const out: WrittenEvent[] = [];
  for (let i = 0; i < events.length; i += BATCH) {
    const rows = events.slice(i, i + BATCH).map((e) => eventRow(now, created, e));
    out.push(...(await db.insertInto('events').values(rows).returning(['seq', 'id', 'company_id', 'type']).execute()));
  }
  return out;
}

/**
 * Positions per notification: 300 numbers of up to 19 digits and their commas stay below 7,000
 * bytes, under PostgreSQL's 8,000 for a payload.
 */
const POSITIONS_PER_NOTIFICATION = 300;

/**
 * Stores events in the order given (their `seq`), queues their deliveries and notifies the live
 * channel of their positions: one statement, so one round trip, per BATCH events, where these were
 * three (docs/benchmarks.md, "An award's round trips"):
 *
 *     with written as (insert into events (…) values (…), (…) returning seq, id, company_id, type),
 *     queued as (insert into webhook_deliveries (…) select w.id, e.seq, … from webhooks w join written e …
 *                for key share of w returning 1),
 *     notified as (select pg_notify('fx_events', string_agg(seq::text, ',' order by seq)) … group by part)
 *     select seq, id, company_id, type from written cross join (select count(*) from notified) n order by seq
 *
 * - Deliveries: one pending, due now, for each addressed event and each webhook of its recipient
 *   that subscribes to the type, the webhooks read locked `FOR KEY SHARE` (docs/choices.md,
 *   Reliability: "No event bookkeeping fails the write it describes"). A webhook deleted by a
 *   transaction still open is waited for and then skipped (read committed reads the row again and
 *   finds it gone); a delete that comes later waits for this transaction, then removes its
 *   deliveries with it (cascade). So no delivery names a webhook that is gone, and the foreign key
 *   never fails the write that announced the event. A data-modifying part runs whether read or not.
 * - The notification: PostgreSQL delivers it at commit (never for a rollback) to every process
 *   listening (feed.ts). `notified` is read by the final select: a `with` select that nothing
 *   reads is not run.
 */
async function writeEvents(db: Db, clock: Clock, events: ReadonlyArray<NewEvent & { type: string }>): Promise<WrittenEvent[]> {
  const now = clock.now();
  const created = clock.format(now);
  const out: WrittenEvent[] = [];
  for (let i = 0; i < events.length; i += BATCH) {
    const rows = events.slice(i, i + BATCH).map((e) => eventRow(now, created, e));
    const recipients = [...new Set(rows.flatMap((r) => (r.company_id === null ? [] : [r.company_id])))];
    const values = sql.join(
      rows.map(
        (r) =>
          sql`(${r.id}, ${r.type}, ${r.company_id}::int, ${r.freight_id}::int, ${r.except_companies}::int[], ${r.body}, ${now}::timestamptz)`,
      ),
    );
    const written = await sql<WrittenEvent>`
      with written as (
        insert into events (id, type, company_id, freight_id, except_companies, body, created)
        values ${values}
        returning seq, id, company_id, type),
      queued as (
        insert into webhook_deliveries (webhook_id, event_seq, state, next_attempt, created)
        select w.id, e.seq, 'pending', ${now}, ${now}
          from webhooks w join written e on e.company_id = w.company_id
         where w.company_id = any(${recipients}::int[]) and w.events && array[e.type, '*']::text[]
         order by e.seq, w.id
           for key share of w
        returning 1),
      notified as (
        select pg_notify(${LIVE_CHANNEL}, string_agg(seq::text, ',' order by seq))
          from (select seq, (row_number() over (order by seq) - 1) / ${POSITIONS_PER_NOTIFICATION} as part from written) p
         group by part)
      select seq, id, company_id, type from written cross join (select count(*) from notified) n
      order by seq`.execute(db);
    out.push(...written.rows);
  }
  return out;
}
