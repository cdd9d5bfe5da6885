import { sql, type Kysely } from 'kysely';

/**
 * The electronic consignment note (docs/reference.md#ecmr, src/cmr): one note per awarded road freight,
 * written in the award's transaction, and its signature entries. Both tables are append-only: a
 * trigger refuses every update and delete, so no field of a note nor a signature changes once
 * written (the hash chain makes any change made around the trigger detectable all the same).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence cmr_notes_id_seq`.execute(db);
  await sql`
    create table cmr_notes (
      id integer primary key,
      freight_id integer not null references freights(id),
      number text not null,
      content text not null,
      hash text not null,
      created timestamptz not null
    )`.execute(db);
  await sql`alter sequence cmr_notes_id_seq owned by cmr_notes.id`.execute(db);
  await sql`create unique index cmr_notes_freight_idx on cmr_notes (freight_id)`.execute(db);
  await sql`create unique index cmr_notes_number_idx on cmr_notes (number)`.execute(db);
  await sql`
    create table cmr_signatures (
      note_id integer not null references cmr_notes(id),
      seq integer not null check (seq between 1 and 3),
      role text not null check (role in ('sender', 'carrier', 'consignee')),
      entry text not null,
      hash text not null,
      company_id integer,
      user_id integer,
      created timestamptz not null default now(),
      primary key (note_id, seq)
    )`.execute(db);
  await sql`create unique index cmr_signatures_role_idx on cmr_signatures (note_id, role)`.execute(db);
  await sql`
    create function cmr_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the e-CMR''s % is append-only', tg_table_name using errcode = '55000';
    end $$`.execute(db);
  await sql`create trigger cmr_notes_append_only before update or delete on cmr_notes for each row execute function cmr_append_only()`.execute(
    db,
  );
  await sql`create trigger cmr_signatures_append_only before update or delete on cmr_signatures for each row execute function cmr_append_only()`.execute(
    db,
  );
}
