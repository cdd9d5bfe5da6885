import { sql, type Kysely } from 'kysely';

/**
 * E-mail (docs/reference.md#mail, src/mail). Mails are derived from the outbox of events (webhooks'
 * `events`): a statement trigger on `events` writes, in the very transaction that writes an
 * event, one `mail_events` row for each event whose type is mailed (`mail_routes`, filled at
 * start from the mail module's table while SMTP_URL is set, empty otherwise: then nothing is
 * queued). So a mail exists exactly when its event committed, goes to exactly the companies the
 * event goes to (the recipients, masking and blocks of the event's planning), and no module that
 * writes events knows of mail. The mail module fans each row out to the company's users by their
 * settings (`mail_messages` to send at once, `mail_digest_items` for the 07:00 digest) and sends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table mail_settings (
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      mode text not null check (mode in ('instant', 'daily', 'off')),
      modified timestamptz not null,
      primary key (user_id, kind)
    )`.execute(db);
  await sql`create table mail_routes (type text primary key, kind text not null)`.execute(db);
  await sql`
    create table mail_events (
      event_seq bigint primary key,
      kind text not null,
      company_id integer not null,
      created timestamptz not null,
      failed text
    )`.execute(db);
  await sql`
    create table mail_messages (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      event_seq bigint,
      digest_day date,
      state text not null default 'pending' check (state in ('pending', 'sent', 'failed', 'dropped')),
      attempts integer not null default 0,
      next_attempt timestamptz,
      in_flight boolean not null default false,
      last_error text,
      created timestamptz not null,
      finished timestamptz,
      check ((event_seq is null) <> (digest_day is null))
    )`.execute(db);
  // One digest per user, kind and day, however often (and by however many processes) the sweep runs.
  await sql`create unique index mail_messages_digest_idx on mail_messages (user_id, kind, digest_day) where digest_day is not null`.execute(
    db,
  );
  await sql`create index mail_messages_due_idx on mail_messages (next_attempt, id) where state = 'pending'`.execute(db);
  await sql`create index mail_messages_event_idx on mail_messages (event_seq) where event_seq is not null`.execute(db);
  await sql`create index mail_messages_finished_idx on mail_messages (finished) where state <> 'pending'`.execute(db);
  await sql`create index mail_messages_failed_idx on mail_messages (finished) where state = 'failed'`.execute(db);
  await sql`
    create table mail_digest_items (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      event_seq bigint not null,
      created timestamptz not null,
      digest_id bigint references mail_messages(id) on delete cascade
    )`.execute(db);
  await sql`create index mail_digest_items_waiting_idx on mail_digest_items (created) where digest_id is null`.execute(db);
  await sql`create index mail_digest_items_digest_idx on mail_digest_items (digest_id, created, id)`.execute(db);
  await sql`create index mail_digest_items_event_idx on mail_digest_items (event_seq)`.execute(db);
  // A statement trigger reads the statement's new rows at once (one insert however many events, none when nothing is routed).
  await sql`
    create function mail_events_of_events() returns trigger language plpgsql as $$
    begin
      insert into mail_events (event_seq, kind, company_id, created)
      select n.seq, r.kind, n.company_id, n.created
        from new_events n join mail_routes r on r.type = n.type
       where n.company_id is not null;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger events_mail after insert on events
      referencing new table as new_events
      for each statement execute function mail_events_of_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists events_mail on events`.execute(db);
  await sql`drop function if exists mail_events_of_events()`.execute(db);
  await sql`drop table if exists mail_digest_items`.execute(db);
  await sql`drop table if exists mail_messages`.execute(db);
  await sql`drop table if exists mail_events`.execute(db);
  await sql`drop table if exists mail_routes`.execute(db);
  await sql`drop table if exists mail_settings`.execute(db);
}
