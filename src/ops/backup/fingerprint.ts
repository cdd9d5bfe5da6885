import type { TableFingerprint } from './archive.ts';

/** Runs one statement and answers its rows (a pg client, a PGlite instance, a transaction of either). */
export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/**
 * Settings under which a row's text is the same wherever it is read (time zone, date and
 * interval styles, float digits, bytea as hex): set for the transaction before fingerprinting.
 */
export const STABLE_TEXT = [
  "set local timezone to 'UTC'",
  "set local datestyle to 'ISO, YMD'",
  "set local intervalstyle to 'postgres'",
  'set local extra_float_digits to 1',
  "set local bytea_output to 'hex'",
];

/** Kysely's own bookkeeping: the migrations applied (the schema's version), and its lock. */
export const MIGRATION_TABLE = 'kysely_migration';
const MIGRATION_LOCK_TABLE = 'kysely_migration_lock';

/**
 * Every table of the schema with its row count and a checksum of its rows: the sum of the first
 * 64 bits of each row's md5 (its text under STABLE_TEXT), so it does not depend on the order in
 * which rows are stored; two tables with the same rows have the same checksum, on either engine.
 * Read inside a transaction that set STABLE_TEXT (and, for a backup, in the dump's snapshot).
 */
export async function fingerprintTables(query: Query): Promise<TableFingerprint[]> {
  const tables = await query(
    `select tablename::text as name from pg_tables where schemaname = 'public' and tablename <> '${MIGRATION_LOCK_TABLE}' order by tablename`,
  );
  const out: TableFingerprint[] = [];
  for (const { name } of tables as Array<{ name: string }>) {
    const ident = `"${name.replaceAll('"', '""')}"`;
    const [row] = await query(
      `select count(*)::text as rows, coalesce(sum(('x' || left(md5(t::text), 16))::bit(64)::bigint), 0)::text as checksum from public.${ident} t`,
    );
    out.push({ name, rows: Number(row!.rows), checksum: String(row!.checksum) });
  }
  return out;
}

/** The migrations applied, in the order of their names (none: not an exchange's database). */
export async function appliedMigrations(query: Query): Promise<string[]> {
  const [exists] = await query(`select to_regclass('public.${MIGRATION_TABLE}') is not null as present`);
  if (!exists?.present) return [];
  const rows = await query(`select name from public.${MIGRATION_TABLE} order by name`);
  return rows.map((r) => String(r.name));
}

/** The tables whose rows or checksums differ between two fingerprints (names, for a message). */
export function differences(expected: readonly TableFingerprint[], found: readonly TableFingerprint[]): string[] {
  const byName = new Map(found.map((t) => [t.name, t]));
  const out: string[] = [];
  for (const t of expected) {
    const f = byName.get(t.name);
    if (!f) out.push(`${t.name} (missing)`);
    else if (f.rows !== t.rows) out.push(`${t.name} (${f.rows} rows, the backup has ${t.rows})`);
    else if (f.checksum !== t.checksum) out.push(`${t.name} (rows differ)`);
  }
  for (const f of found) if (!expected.some((t) => t.name === f.name)) out.push(`${f.name} (not in the backup)`);
  return out;
}
