import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import type { CmrNotesTable, CmrRole, CmrSignaturesTable } from './tables.ts';

/** The e-CMR's SQL: notes and their signature entries, both only ever inserted (migration 0350). */

export type NoteRow = Selectable<CmrNotesTable>;
export type SignatureRow = Selectable<CmrSignaturesTable>;

/** A new note's id, drawn first: its number is part of the content it is stored with. */
export async function drawNoteId(db: Db): Promise<number> {
  const drawn = await sql<{ id: number }>`select nextval('cmr_notes_id_seq')::int as id`.execute(db);
  return drawn.rows[0]!.id;
}

/** Writes a note; false when the freight has one already (its unique index decides). */
export async function insertNote(db: Db, row: NoteRow): Promise<boolean> {
  const written = await db
    .insertInto('cmr_notes')
    .values(row)
    .onConflict((oc) => oc.column('freight_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}

/** An unsigned note refilled (its content and first link); the trigger refuses it once a signature exists. */
export async function rewriteNote(trx: Transaction<DB>, id: number, content: string, hash: string): Promise<void> {
  await trx.updateTable('cmr_notes').set({ content, hash }).where('id', '=', id).execute();
}

export async function noteOfFreight(db: Db, freightId: number): Promise<NoteRow | undefined> {
  return db.selectFrom('cmr_notes').selectAll().where('freight_id', '=', freightId).executeTakeFirst();
}

/** The note locked for the rest of the transaction (signatures of one note serialize on it). */
export async function lockNote(trx: Transaction<DB>, freightId: number): Promise<NoteRow | undefined> {
  return trx.selectFrom('cmr_notes').selectAll().where('freight_id', '=', freightId).forUpdate().executeTakeFirst();
}

export async function noteByNumber(db: Db, number: string): Promise<NoteRow | undefined> {
  return db.selectFrom('cmr_notes').selectAll().where('number', '=', number).executeTakeFirst();
}

/** A note's signatures in the order they were appended. */
export async function signaturesOf(db: Db, noteId: number): Promise<SignatureRow[]> {
  return db.selectFrom('cmr_signatures').selectAll().where('note_id', '=', noteId).orderBy('seq').execute();
}

/** A signature entry as written: every column, its time the signing's (the app clock, not the database's default). */
export async function insertSignature(db: Db, row: SignatureRow): Promise<void> {
  await db.insertInto('cmr_signatures').values(row).execute();
}

/** For verify: the note and its entries' texts and links in one statement. */
export async function chainOf(
  db: Db,
  number: string,
): Promise<{ note: NoteRow; signatures: Array<Pick<SignatureRow, 'role' | 'entry' | 'hash'>> } | undefined> {
  const row = await db
    .selectFrom('cmr_notes as n')
    .selectAll('n')
    .select(
      sql<
        Array<{ role: CmrRole; entry: string; hash: string }>
      >`coalesce((select json_agg(json_build_object('role', s.role, 'entry', s.entry, 'hash', s.hash) order by s.seq) from cmr_signatures s where s.note_id = n.id), '[]'::json)`.as(
        'signatures',
      ),
    )
    .where('n.number', '=', number)
    .executeTakeFirst();
  if (!row) return undefined;
  const { signatures, ...note } = row;
  return { note, signatures: typeof signatures === 'string' ? JSON.parse(signatures) : signatures };
}
