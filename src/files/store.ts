import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.ts';
import { nextTurn } from '../kernel/pace.ts';
import type { FilesTable } from './tables.ts';

export type FileRow = Selectable<FilesTable>;
export type NewFile = Omit<Insertable<FilesTable>, 'content'>;

/**
 * Parts of a file's content: written as hex text, one short statement each (a bytea parameter
 * of this size costs the embedded database ~0.5 ms per KiB; hex text a tenth of that).
 */
export const PART_BYTES = 128 * 1024;
const DELETE_BATCH = 5000;

/**
 * Stores a file's record and its content (in parts, a turn of the event loop between them).
 * A file whose action is still to run is stored `importing` and finished by finishFile (or
 * abandonFile): its status events stay hidden until then (tracking/store.ts).
 */
export async function storeFile(db: Kysely<DB>, file: NewFile, bytes: Uint8Array): Promise<FileRow> {
  const row = await db
    .insertInto('files')
    .values({ ...file, content: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (let part = 0; part * PART_BYTES < bytes.length; part++) {
    const slice = Buffer.from(bytes.buffer, bytes.byteOffset + part * PART_BYTES, Math.min(PART_BYTES, bytes.length - part * PART_BYTES));
    await sql`insert into file_parts (file_id, part, bytes) values (${row.id}, ${part}, decode(${slice.toString('hex')}, 'hex'))`.execute(
      db,
    );
    await nextTurn();
  }
  return row;
}

/** The file's content, parts joined (files stored before file_parts: the content column). */
export async function fileContent(db: Kysely<DB>, row: Pick<FileRow, 'id' | 'content'>): Promise<Buffer> {
  if (row.content) return Buffer.from(row.content);
  const parts = await db.selectFrom('file_parts').select('bytes').where('file_id', '=', row.id).orderBy('part').execute();
  return Buffer.concat(parts.map((p) => Buffer.from(p.bytes)));
}

/** The import is complete: the file's events become visible, with its outcome (`ignored`: no action ran). */
export function finishFile(
  db: Kysely<DB>,
  id: number,
  outcome: { records: number; message: string; sheet_id?: number | null; status?: 'processed' | 'ignored' },
): Promise<FileRow> {
  return db
    .updateTable('files')
    .set({ status: outcome.status ?? 'processed', records: outcome.records, message: outcome.message, sheet_id: outcome.sheet_id ?? null })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The import failed part-way (the database, not the file): its events are removed in batches
 * and the record says so. Milk-run shipments already updated keep the update; pushing the same
 * file again gives the same milk-run result (events are folded idempotently).
 */
export async function abandonFile(db: Kysely<DB>, id: number, message: string): Promise<void> {
  for (;;) {
    const gone =
      await sql`delete from awb_events where id in (select id from awb_events where file_id = ${id} limit ${DELETE_BATCH})`.execute(db);
    await nextTurn();
    if (Number(gone.numAffectedRows ?? 0) < DELETE_BATCH) break;
  }
  await db.deleteFrom('file_parts').where('file_id', '=', id).execute();
  await db
    .updateTable('files')
    .set({ status: 'failed', records: 0, message: message.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}
