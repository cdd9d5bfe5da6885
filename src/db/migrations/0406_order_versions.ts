import { sql, type Kysely } from 'kysely';

/**
 * The transport order in versions (issue 47, item 8; docs/choices.md, "The transport order in
 * versions"): the carrier's plate and driver re-issue the order as a new version, the earlier
 * ones kept as documents are. `deal_orders` keeps one row per version (`version` 1 on award);
 * the one-order-per-freight index of the documents goes (each version has its PDF), the award
 * writing version 1 once under the freight's lock, the key (freight_id, version) the last line.
 *
 * And the e-CMR's note follows its order's new version until it is signed: a note's row may be
 * rewritten (its content and hash, never its id, freight or number) while it has no signature;
 * from the first signature on, the trigger refuses every change as before. Signatures stay
 * append-only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table deal_orders add column version integer not null default 1`.execute(db);
  await sql`alter table deal_orders drop constraint deal_orders_pkey`.execute(db);
  await sql`alter table deal_orders add primary key (freight_id, version)`.execute(db);
  await sql`drop index deal_documents_order_idx`.execute(db);
  await sql`
    create function cmr_note_frozen() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.id = old.id and new.freight_id = old.freight_id and new.number = old.number
         and not exists (select 1 from cmr_signatures where note_id = old.id) then
        return new;
      end if;
      raise exception 'the e-CMR''s note is frozen at its first signature' using errcode = '55000';
    end $$`.execute(db);
  await sql`drop trigger cmr_notes_append_only on cmr_notes`.execute(db);
  await sql`create trigger cmr_notes_frozen before update or delete on cmr_notes for each row execute function cmr_note_frozen()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger cmr_notes_frozen on cmr_notes`.execute(db);
  await sql`drop function cmr_note_frozen()`.execute(db);
  await sql`create trigger cmr_notes_append_only before update or delete on cmr_notes for each row execute function cmr_append_only()`.execute(
    db,
  );
  await sql`delete from deal_documents d using deal_orders o where o.document_id = d.id and o.version > 1`.execute(db);
  await sql`delete from deal_orders where version > 1`.execute(db);
  await sql`create unique index deal_documents_order_idx on deal_documents (freight_id) where kind = 'order'`.execute(db);
  await sql`alter table deal_orders drop constraint deal_orders_pkey`.execute(db);
  await sql`alter table deal_orders add primary key (freight_id)`.execute(db);
  await sql`alter table deal_orders drop column version`.execute(db);
}
