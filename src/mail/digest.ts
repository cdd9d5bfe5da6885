import { sql, type Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';

/**
 * The daily digest (docs/reference.md#mail): at 07:00 in APP_TIMEZONE, the items of each user and kind
 * gathered before then become one mail. Any process may sweep, as often as it likes: one
 * statement writes the day's digests (one per user, kind and day: a unique index, so a second
 * sweep, in this process or another, writes none) and hands each its items. An item that arrives
 * after its user's digest of the day was written (a transaction that committed late) waits for
 * the next day's: nothing is lost, nothing told twice.
 */

/** The hour of the digest, in APP_TIMEZONE. */
export const DIGEST_HOUR = 7;

/** The last 07:00 at or before `now` in the zone, and its day (`YYYY-MM-DD`). */
export function digestCut(clock: Clock, now: Date): { cut: Date; day: string } {
  const local = DateTime.fromJSDate(now, { zone: clock.zone });
  let cut = local.set({ hour: DIGEST_HOUR, minute: 0, second: 0, millisecond: 0 });
  if (cut > local) cut = cut.minus({ days: 1 }).set({ hour: DIGEST_HOUR, minute: 0, second: 0, millisecond: 0 });
  return { cut: cut.toJSDate(), day: cut.toISODate()! };
}

/**
 * Writes the digests due at `now`; answers how many were written. It waits (writes nothing) while
 * events from before the cut are still to be fanned out, so a digest carries the whole day.
 */
export async function sweepDigests(db: Kysely<DB>, clock: Clock, now: Date): Promise<number> {
  const { cut, day } = digestCut(clock, now);
  const due = await db
    .selectFrom('mail_digest_items')
    .select('id')
    .where('digest_id', 'is', null)
    .where('created', '<', cut)
    .limit(1)
    .executeTakeFirst();
  if (!due) return 0;
  const behind = await db
    .selectFrom('mail_events')
    .select('event_seq')
    .where('failed', 'is', null)
    .where('created', '<', cut)
    .limit(1)
    .executeTakeFirst();
  if (behind) return 0;
  const result = await sql<{ n: string }>`
    with groups as (
      select user_id, kind from mail_digest_items
       where digest_id is null and created < ${cut}
       group by user_id, kind
    ), written as (
      insert into mail_messages (user_id, kind, digest_day, state, next_attempt, created)
      select user_id, kind, ${day}::date, 'pending', ${now}, ${now} from groups
      on conflict (user_id, kind, digest_day) where digest_day is not null do nothing
      returning id, user_id, kind
    ), gathered as (
      update mail_digest_items i set digest_id = w.id
        from written w
       where i.user_id = w.user_id and i.kind = w.kind and i.digest_id is null and i.created < ${cut}
      returning i.id
    )
    select (select count(*) from written) as n, (select count(*) from gathered) as items`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
