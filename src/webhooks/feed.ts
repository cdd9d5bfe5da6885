import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { TEST_EVENT } from '../events/index.ts';

/**
 * The outbox read as a feed (docs/reference.md#live-board, src/live): the live board's streams are told the
 * rows (`seq`) of new events by a notification on LIVE_CHANNEL, sent in the transaction that
 * wrote them (PostgreSQL delivers it at commit, to every process listening), and read them by
 * those numbers; a stream that reconnects with the id of the last event it received reads what
 * followed it, up to REPLAY_MS back. "Followed" is the order of commits, `pos` (set at commit,
 * migration 0190), not `seq` (drawn when a row is written, before a commit that may come after a
 * later row's): whoever sees a position sees every lower one there will ever be, so a replay after
 * the client's last event misses nothing. Rows are read as written: the body is the exact JSON a
 * webhook receives. The test event of one webhook (`webhook.test`) is no event of the feed.
 */

/** The channel of NOTIFY/LISTEN: its payload is event positions, comma-separated. */
export const LIVE_CHANNEL = 'fx_events';
/** How far back a reconnecting stream is given what it missed. */
export const REPLAY_MS = 24 * 3600_000;

/** An event as the feed reads it. */
export interface FeedRow {
  seq: number;
  /** The position in the order of commits (what a replay reads after). */
  pos: number;
  id: string;
  type: string;
  /** The recipient company; null: a market row (every company that may see `freight_id` in the market). */
  company_id: number | null;
  freight_id: number | null;
  /** A market row: companies that got a row of their own for the same change. */
  except_companies: number[] | null;
  /** {id, type, created, company, data}; a market row's `company` is null. */
  body: string;
}

/** The positions a notification carries (anything else in it is ignored). */
export function positionsOf(payload: string): number[] {
  return payload
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

const COLUMNS = ['seq', 'pos', 'id', 'type', 'company_id', 'freight_id', 'except_companies', 'body'] as const;

/** The events of these rows (committed: notified), in order of commits. */
export async function eventsAt(db: Db, seqs: readonly number[]): Promise<FeedRow[]> {
  if (!seqs.length) return [];
  return (await db
    .selectFrom('events')
    .select(COLUMNS)
    .where('seq', '=', sql<number>`any(${[...seqs]}::bigint[])`)
    .where('type', '<>', TEST_EVENT)
    .orderBy('pos')
    .execute()) as FeedRow[];
}

/** The position (order of commits) of the event with this public id, if it is still kept. */
export async function positionOfEvent(db: Db, id: string): Promise<number | undefined> {
  const row = await db.selectFrom('events').select('pos').where('id', '=', id).executeTakeFirst();
  return row?.pos ?? undefined;
}

/**
 * What a company may have missed: its own events and the market rows after position `after`
 * (0: from the start) written at `since` or later, in order of commits, at most `limit`. Each part
 * reads its own index (the company's rows; the market rows), so neither scans the other's.
 */
export async function eventsAfter(db: Db, companyId: number, after: number, since: Date, limit: number): Promise<FeedRow[]> {
  const cols = sql.raw(COLUMNS.join(', '));
  const rows = await sql<FeedRow>`
    select * from (
      (select ${cols} from events
        where company_id = ${companyId} and pos > ${after} and created >= ${since} and type <> ${TEST_EVENT}
        order by pos limit ${limit})
      union all
      (select ${cols} from events
        where company_id is null and pos > ${after} and created >= ${since}
        order by pos limit ${limit})
    ) missed
    order by pos limit ${limit}`.execute(db);
  return rows.rows;
}
