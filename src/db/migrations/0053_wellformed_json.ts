import { sql, type Kysely } from 'kysely';

/**
 * Repairs lone UTF-16 surrogates stored before requests were cleaned at the boundary
 * (kernel/params.ts cleanInput). A `json` column keeps such a character as its escape
 * (`"\udc00"`); PostgreSQL accepts the text but fails every function that reads the value out
 * (`json_each_text` in the load search's `q`), so one company's freight broke other companies'
 * searches. Each affected value is read, its lone surrogates become U+FFFD, and it is written
 * back; values without one are left byte for byte as they were sent.
 */

/** Columns of type json that hold what callers sent. */
const COLUMNS: ReadonlyArray<[table: string, key: string, column: string]> = [
  ['freights', 'id', 'refs'],
  ['freight_pieces', 'id', 'refs'],
  ['templates', 'id', 'fields'],
  ['saved_searches', 'id', 'params'],
  ['pricing_searches', 'id', 'params'],
];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function repair(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(repair);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[repair(k) as string] = repair(v);
    return out;
  }
  return value;
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, key, column] of COLUMNS) {
    // Candidates only: an escape of the surrogate range (\ud800-\udfff) anywhere in the text.
    const { rows } = await sql<{ id: number; text: string }>`
      select ${sql.ref(key)} as id, ${sql.ref(column)}::text as text from ${sql.table(table)}
       where ${sql.ref(column)}::text ~* ${'\\\\ud[89a-f]'}`.execute(db);
    for (const row of rows) {
      let value: unknown;
      try {
        value = JSON.parse(row.text);
      } catch {
        continue;
      }
      const text = JSON.stringify(repair(value));
      if (text === JSON.stringify(value)) continue;
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${text}::json where ${sql.ref(key)} = ${row.id}`.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  // The repaired characters cannot be told from a U+FFFD that was sent: nothing to undo.
}
