import { sql, type Kysely, type Selectable } from 'kysely';
import { companyNameSql, companyVerifiedSql } from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import { nextTurn } from '../kernel/pace.ts';
import type { DealDocumentsTable, DealMessagesTable } from './tables.ts';

/** The deal room's SQL: messages with their companies' names, read marks, unread counts, documents. */

/** A message as the API shows it: with the names and verified marks of both companies (accounts/mark.tsx). */
export interface MessageRead extends Selectable<DealMessagesTable> {
  from_name: string;
  to_name: string;
  from_verified: boolean;
  to_verified: boolean;
}

const messageColumns = [
  'deal_messages.id',
  'deal_messages.freight_id',
  'deal_messages.partner_id',
  'deal_messages.from_company_id',
  'deal_messages.to_company_id',
  'deal_messages.user_id',
  'deal_messages.text',
  'deal_messages.created',
  'deal_messages.read_at',
  companyNameSql(sql`deal_messages.from_company_id`).as('from_name'),
  companyNameSql(sql`deal_messages.to_company_id`).as('to_name'),
  companyVerifiedSql(sql`deal_messages.from_company_id`).as('from_verified'),
  companyVerifiedSql(sql`deal_messages.to_company_id`).as('to_verified'),
] as const;

export async function insertMessage(
  db: Db,
  values: { freightId: number; partner: number; from: number; to: number; userId: number; text: string; created: Date },
): Promise<number> {
  const row = await db
    .insertInto('deal_messages')
    .values({
      freight_id: values.freightId,
      partner_id: values.partner,
      from_company_id: values.from,
      to_company_id: values.to,
      user_id: values.userId,
      text: values.text,
      created: values.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function messageById(db: Db, id: number): Promise<MessageRead | undefined> {
  return db.selectFrom('deal_messages').select(messageColumns).where('deal_messages.id', '=', id).executeTakeFirst();
}

/**
 * The messages of a freight's conversations, oldest first per conversation: every conversation
 * (the owner), or the one with `partner` (any other company).
 */
export async function messagesOf(db: Db, freightId: number, partner?: number): Promise<MessageRead[]> {
  let q = db.selectFrom('deal_messages').select(messageColumns).where('deal_messages.freight_id', '=', freightId);
  if (partner !== undefined) q = q.where('deal_messages.partner_id', '=', partner);
  return q.orderBy('deal_messages.partner_id').orderBy('deal_messages.id').execute();
}

/** Marks read what the company received on the freight (of one conversation when `partner` is given). */
export async function markRead(db: Db, freightId: number, companyId: number, now: Date, partner?: number): Promise<void> {
  let q = db
    .updateTable('deal_messages')
    .set({ read_at: now })
    .where('freight_id', '=', freightId)
    .where('to_company_id', '=', companyId)
    .where('read_at', 'is', null);
  if (partner !== undefined) q = q.where('partner_id', '=', partner);
  await q.execute();
}

/** The company's unread messages per freight (partial index deal_messages_unread_idx). */
export async function unreadByFreight(db: Db, companyId: number): Promise<Array<{ freight: number; count: number }>> {
  const rows = await db
    .selectFrom('deal_messages')
    .select(['freight_id', sql<string>`count(*)`.as('count')])
    .where('to_company_id', '=', companyId)
    .where('read_at', 'is', null)
    .groupBy('freight_id')
    .orderBy('freight_id', 'desc')
    .execute();
  return rows.map((r) => ({ freight: r.freight_id, count: Number(r.count) }));
}

/** A document without its bytes, with the uploading company's name and verified mark (null: the exchange). */
export type DocumentRead = Omit<Selectable<DealDocumentsTable>, 'content'> & { company_name: string | null; company_verified: boolean };

const documentColumns = [
  'deal_documents.id',
  'deal_documents.freight_id',
  'deal_documents.company_id',
  'deal_documents.user_id',
  'deal_documents.kind',
  'deal_documents.name',
  'deal_documents.media_type',
  'deal_documents.size',
  'deal_documents.sha256',
  'deal_documents.created',
  companyNameSql(sql`deal_documents.company_id`).as('company_name'),
  companyVerifiedSql(sql`deal_documents.company_id`).as('company_verified'),
] as const;

export type NewDocument = Omit<Selectable<DealDocumentsTable>, 'id'> & { id?: number };

/**
 * The bytes as SQL: base64 text decoded by the database. The embedded database turns a bytea
 * parameter into hex text in JavaScript, in the server's thread, five times slower than it reads
 * base64 (2.1 s against 0.4 s for 10 MB, docs/benchmarks.md); PostgreSQL is sent a shorter text.
 */
const bytesSql = (bytes: Uint8Array) =>
  sql<Uint8Array>`decode(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}, 'base64')`;

/** Writes a document; answers its id. */
export async function insertDocument(db: Db, values: NewDocument): Promise<number> {
  const row = await db
    .insertInto('deal_documents')
    .values({ ...values, content: values.content === null ? null : bytesSql(values.content) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A version of a transport order written with its PDF, in one statement (the award sends it, so it
 * is one round trip where it was two): the document, then the version naming it; answers the
 * document as `documentById` reads it.
 */
export function insertOrderVersion(
  db: Db,
  document: NewDocument,
  order: { freight_id: number; version: number; content: string; created: Date },
): Promise<DocumentRead> {
  return db
    .with('document', (w) =>
      w
        .insertInto('deal_documents')
        .values({ ...document, content: document.content === null ? null : bytesSql(document.content) })
        .returning(documentColumns),
    )
    .with('version', (w) =>
      w
        .insertInto('deal_orders')
        .columns(['freight_id', 'version', 'document_id', 'content', 'created'])
        .expression((eb) =>
          eb
            .selectFrom('document')
            .select((v) => [
              v.val(order.freight_id).as('freight_id'),
              v.val(order.version).as('version'),
              'document.id',
              v.val(order.content).as('content'),
              v.val(order.created).as('created'),
            ]),
        ),
    )
    .selectFrom('document')
    .selectAll()
    .executeTakeFirstOrThrow();
}

/** Bytes per part of a party's document (migration 0160). */
export const PART_BYTES = 256 * 1024;
/**
 * An upload whose row is not written this long after it began was abandoned (its process was
 * killed): no upload runs longer, since the server ends any request not received whole within
 * 120 s (kernel/http.tsx `requestTimeout`), whichever process serves it.
 */
export const ABANDONED_MS = 10 * 60_000;

/**
 * A party's document's bytes are stored before its row (deals/upload.ts DocumentUpload): an
 * upload draws the document's id and is noted (deal_uploads), then its parts are written as they
 * arrive, each one short statement outside any transaction (one 10 MB statement held the
 * embedded database, and every other request, for a third of a second); the row follows with
 * finishUpload in one transaction, or dropUpload removes the parts.
 */
export async function beginUpload(db: Kysely<DB>, now: Date): Promise<number> {
  const drawn = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('deal_documents', 'id'))::int as id`.execute(db);
  const id = drawn.rows[0]!.id;
  await db.insertInto('deal_uploads').values({ document_id: id, started: now }).execute();
  return id;
}

/**
 * Parts of an upload's bytes (PART_BYTES each, the last one shorter), numbered from `first`, in
 * one statement: a few parts at once, so that an upload beside busy clients queues for the
 * embedded database's one connection a few times, not once per part (deals/upload.ts WRITE_BYTES).
 */
export async function insertParts(db: Kysely<DB>, id: number, first: number, parts: readonly Uint8Array[]): Promise<void> {
  if (!parts.length) return;
  await db
    .insertInto('deal_document_parts')
    .values(parts.map((bytes, k) => ({ document_id: id, part: first + k, bytes: bytesSql(bytes) })))
    .execute();
}

/** The upload's row is written (in the caller's transaction): it is a document now. */
export async function finishUpload(db: Db, id: number): Promise<void> {
  await db.deleteFrom('deal_uploads').where('document_id', '=', id).execute();
}

/** An upload whose row will not be written (refused, failed): its parts go. */
export async function dropUpload(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('deal_document_parts').where('document_id', '=', id).execute();
  await db.deleteFrom('deal_uploads').where('document_id', '=', id).execute();
}

/**
 * Removes what killed uploads left (docs/choices.md, Reliability: "Leftovers of killed uploads are
 * swept"): the uploads begun more than ABANDONED_MS ago whose row was never written, with their
 * parts, in one statement (so no part outlives its upload's note; dropUpload removes the parts
 * before the note, so a process killed between the two leaves the note, swept here). Safe on every
 * process at once: an upload still running is younger, a row is deleted once. Answers what went.
 */
export async function sweepAbandonedUploads(db: Kysely<DB>, now: Date): Promise<{ uploads: number; parts: number; bytes: number }> {
  const before = new Date(now.getTime() - ABANDONED_MS);
  const r = await sql<{ uploads: number; parts: number; bytes: number }>`
    with gone as (
      delete from deal_uploads where started < ${before} returning document_id
    ), parts as (
      delete from deal_document_parts p where p.document_id in (select document_id from gone)
      returning octet_length(p.bytes) as n
    )
    select (select count(*) from gone)::int as uploads, (select count(*) from parts)::int as parts,
           (select coalesce(sum(n), 0) from parts)::bigint as bytes`.execute(db);
  return r.rows[0]!;
}

/** Uploads under way and left by killed ones (older than ABANDONED_MS), with their parts' bytes: for /healthz. */
export async function uploadsStatus(db: Kysely<DB>, now: Date) {
  const before = new Date(now.getTime() - ABANDONED_MS);
  const r = await sql<{ running: number; abandoned: number; abandoned_parts: number; abandoned_bytes: number }>`
    select count(*) filter (where u.started >= ${before})::int as running,
           count(*) filter (where u.started < ${before})::int as abandoned,
           coalesce(sum(p.n) filter (where u.started < ${before}), 0)::int as abandoned_parts,
           coalesce(sum(p.bytes) filter (where u.started < ${before}), 0)::bigint as abandoned_bytes
      from deal_uploads u
      left join lateral (select count(*) as n, sum(octet_length(bytes)) as bytes
                           from deal_document_parts where document_id = u.document_id) p on true`.execute(db);
  return r.rows[0]!;
}

export async function documentsOf(db: Db, freightId: number): Promise<DocumentRead[]> {
  return db
    .selectFrom('deal_documents')
    .select(documentColumns)
    .where('deal_documents.freight_id', '=', freightId)
    .orderBy('deal_documents.id')
    .execute();
}

export async function documentById(db: Db, id: number): Promise<DocumentRead | undefined> {
  return db.selectFrom('deal_documents').select(documentColumns).where('deal_documents.id', '=', id).executeTakeFirst();
}

/**
 * A document's bytes, part by part as they are stored (read as base64, as they are written:
 * bytesSql): the content column (the transport order) in one piece, else its parts, one
 * statement each with a turn of the event loop between them, so a download holds neither the
 * whole document nor the server's thread. Nothing when there is no such document.
 */
export async function* documentContent(db: Kysely<DB>, id: number): AsyncGenerator<Buffer> {
  const row = await db
    .selectFrom('deal_documents')
    .select(sql<string | null>`encode(content, 'base64')`.as('content'))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return;
  if (row.content !== null) {
    yield Buffer.from(row.content, 'base64');
    return;
  }
  for (let part = 0; ; part++) {
    const found = await db
      .selectFrom('deal_document_parts')
      .select(sql<string>`encode(bytes, 'base64')`.as('bytes'))
      .where('document_id', '=', id)
      .where('part', '=', part)
      .executeTakeFirst();
    if (!found) return;
    yield Buffer.from(found.bytes, 'base64');
    await nextTurn();
  }
}

/** A version of a freight's transport order: its JSON text as issued and its PDF (without the bytes). */
export interface OrderVersion {
  version: number;
  content: string;
  document: DocumentRead;
}

/** A freight's transport order in its latest version; undefined when it has none. */
export async function orderOf(db: Db, freightId: number): Promise<OrderVersion | undefined> {
  const row = await db
    .selectFrom('deal_orders')
    .select(['version', 'content', 'document_id'])
    .where('freight_id', '=', freightId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const document = await documentById(db, row.document_id);
  return document ? { version: row.version, content: row.content, document } : undefined;
}

/** Every version of a freight's transport order, newest first, with its PDF's metadata (no content). */
export async function orderVersionsOf(db: Db, freightId: number): Promise<Array<{ version: number; document: DocumentRead }>> {
  const rows = await db
    .selectFrom('deal_orders')
    .select(['version', 'document_id'])
    .where('freight_id', '=', freightId)
    .orderBy('version', 'desc')
    .execute();
  const documents = new Map((await documentsOf(db, freightId)).map((d) => [d.id, d]));
  return rows.flatMap((r) => {
    const document = documents.get(r.document_id);
    return document ? [{ version: r.version, document }] : [];
  });
}
