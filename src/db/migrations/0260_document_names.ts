import { sql, type Kysely } from 'kysely';

/**
 * Document names lose the characters a name never keeps since issue 39 (deals/content.ts
 * readName): controls and the bidirectional formatting characters (`\u202Egpj.exe` read as
 * `exe.jpg` on a page), in names stored before. A name of nothing else becomes `document`.
 * Downloads clean the name again and give it the recognised type's extension (downloadName).
 */
const UNSAFE = '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update deal_documents
    set name = coalesce(nullif(btrim(regexp_replace(name, ${UNSAFE}, '', 'g')), ''), 'document')
    where name ~ ${UNSAFE}`.execute(db);
}

export async function down(): Promise<void> {
  // The characters removed are not kept: nothing to undo.
}
