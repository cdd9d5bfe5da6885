import { sql, type Kysely } from 'kysely';

/**
 * The outbox's position in the order of commits (docs/reference.md#live-board, webhooks/feed.ts): `seq` is
 * drawn when a row is written, so a transaction that wrote a lower `seq` can commit after one
 * that wrote a higher, and a replay reading "after the last event received" would skip it. `pos`
 * is drawn at commit instead: a deferred constraint trigger, the last work of the writing
 * transaction, takes a transaction lock of its own (released when the commit is done and visible)
 * and numbers the transaction's rows from a sequence. A transaction that numbers after another
 * therefore becomes visible after it: whoever sees position p sees every position below it that
 * will ever exist (an aborted transaction leaves a gap, which no reader needs filled).
 *
 * Readers of the order (the replay, and the id a client sends back) use `pos`; `seq` stays the
 * row's identity (webhook deliveries, notifications). Rows already written are committed: their
 * `seq` serves as their position. The replay's indexes move from `seq` to `pos`.
 */
export const POSITION_LOCK = [0x45565431, 0] as const; // "EVT1"

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column pos bigint`.execute(db);
  await sql`update events set pos = seq`.execute(db);
  await sql`create sequence events_pos_seq`.execute(db);
  await sql`select setval('events_pos_seq', coalesce((select max(seq) from events), 0) + 1, false)`.execute(db);
  await sql
    .raw(`
    create function events_position() returns trigger language plpgsql as $$
    begin
      -- Held until the commit is visible: the next transaction numbers its rows after this one is seen.
      perform pg_advisory_xact_lock(${POSITION_LOCK[0]}, ${POSITION_LOCK[1]});
      update events set pos = nextval('events_pos_seq') where seq = new.seq and pos is null;
      return null;
    end $$`)
    .execute(db);
  // Deferred: fires at commit, in the order the rows were written (so a transaction's own rows keep their order).
  await sql`create constraint trigger events_position after insert on events
              deferrable initially deferred for each row execute function events_position()`.execute(db);
  await sql`drop index if exists events_company_idx`.execute(db);
  await sql`create index events_company_idx on events (company_id, pos)`.execute(db);
  await sql`drop index if exists events_market_idx`.execute(db);
  await sql`create index events_market_idx on events (pos) where company_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists events_position on events`.execute(db);
  await sql`drop function if exists events_position()`.execute(db);
  await sql`drop index if exists events_market_idx`.execute(db);
  await sql`create index events_market_idx on events (seq) where company_id is null`.execute(db);
  await sql`drop index if exists events_company_idx`.execute(db);
  await sql`create index events_company_idx on events (company_id, seq desc)`.execute(db);
  await sql`alter table events drop column pos`.execute(db);
  await sql`drop sequence if exists events_pos_seq`.execute(db);
}
