import { sql, type Kysely } from 'kysely';

/**
 * A party's document in parts of 256 KiB (deals/upload.ts DocumentUpload): a 10 MB value
 * written in one statement holds the embedded database, and with it every other request, for a
 * third of a second; parts are written one short statement at a time with a turn of the event
 * loop between them. The parts are written before the document's row (its id drawn from the
 * sequence first), so a document is listed only once all of it is stored; `deal_uploads` names
 * the uploads under way, so that parts of one that never finished (the process stopped) are
 * removed later. `deal_documents.content` stays for the transport order (written whole in the
 * award's transaction) and for documents stored before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table deal_document_parts (
    document_id int not null,
    part int not null,
    bytes bytea not null,
    primary key (document_id, part)
  )`.execute(db);
  await sql`create table deal_uploads (document_id int primary key, started timestamptz not null)`.execute(db);
  await sql`alter table deal_documents alter column content drop not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists deal_uploads`.execute(db);
  await sql`drop table if exists deal_document_parts`.execute(db);
}
