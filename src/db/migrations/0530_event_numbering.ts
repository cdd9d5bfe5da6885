import { sql, type Kysely } from 'kysely';
import { POSITION_LOCK } from './0190_event_positions.ts';

/**
 * The trigger function of the set-based numbering; `range` narrows the rows it looks for beyond
 * `pos is null` (migration 0580 starts them at the firing row's `seq`).
 */
export const eventsPositionFunction = (range: string) => `
    create or replace function events_position() returns trigger language plpgsql as $$
    declare
      done bigint := coalesce(nullif(current_setting('fx.events_numbered', true), ''), '0')::bigint;
      n bigint;
      top bigint;
      first bigint;
    begin
      if new.seq <= done then
        return null;
      end if;
      -- Held until the commit is visible: the next transaction numbers its rows after this one is seen.
      perform pg_advisory_xact_lock(${POSITION_LOCK[0]}, ${POSITION_LOCK[1]});
      select count(*), max(seq) into n, top from events where pos is null${range};
      if n > 0 then
        first := nextval('events_pos_seq');
        if n > 1 then
          perform setval('events_pos_seq', first + n - 1);
        end if;
        update events as e set pos = first + m.k - 1
          from (select seq, row_number() over (order by seq) as k from events where pos is null${range}) as m
          where e.seq = m.seq;
      end if;
      perform set_config('fx.events_numbered', greatest(coalesce(top, 0), new.seq)::text, true);
      return null;
    end $$`;

/**
 * The outbox's positions drawn at commit, set-based (docs/choices.md, "Replay in the order of
 * commits"; issue 42: a sweeper pass writes 10,000 events in one transaction). 0190's deferred
 * trigger fires once per row at commit and numbered its own row with one UPDATE each: 10,000
 * statements for a pass. Now the first firing of a commit numbers every row the transaction wrote
 * (its rows still without `pos`: rows of other transactions in progress are invisible to it, rows
 * committed are numbered) in one statement, in the order they were written (`seq`), from a block
 * of the sequence reserved under the same transaction lock as before (the lock is the only way to
 * that sequence, so the block is the transaction's alone). It notes the last `seq` it numbered in
 * a transaction-local setting; every later firing for a row at or below it returns at once,
 * without a statement. A row written after an earlier numbering (constraints set immediate in
 * between) is above it and numbers itself and whatever else is new the same way.
 *
 * The unnumbered rows are found through a partial index holding only them (a transaction's rows
 * until its commit), so the statement never reads the outbox's history (not so: the index keeps
 * numbered rows' entries until VACUUM; migration 0580 starts the scan at the transaction's own
 * rows). Same positions, same lock, same order as 0190: nothing a reader sees changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists events_unnumbered_idx on events (seq) where pos is null`.execute(db);
  await sql.raw(eventsPositionFunction('')).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    create or replace function events_position() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${POSITION_LOCK[0]}, ${POSITION_LOCK[1]});
      update events set pos = nextval('events_pos_seq') where seq = new.seq and pos is null;
      return null;
    end $$`)
    .execute(db);
  await sql`drop index if exists events_unnumbered_idx`.execute(db);
}
