import { type Kysely, sql } from 'kysely';

/**
 * The planner's statistics where no autovacuum daemon keeps them: the embedded database has none,
 * and an operator may turn it off. A plan made while a table was small (a sequential scan of a
 * few rows) is wrong once it is large, and a prepared statement keeps its generic plan until the
 * table's statistics change; so the module that fills a table refreshes them as it grows.
 */
const daemonOf = new WeakMap<object, boolean>();

/** Whether an autovacuum daemon runs for this database (asked once per Kysely instance). */
export async function autovacuumRuns(db: Kysely<any>): Promise<boolean> {
  let running = daemonOf.get(db);
  if (running === undefined) {
    const { rows } = await sql<{
      running: boolean;
    }>`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as running`.execute(db);
    running = rows[0]?.running === true;
    daemonOf.set(db, running);
  }
  return running;
}

/** The rows the planner last counted in `table` (0 before its first ANALYZE). */
export async function plannedRows(db: Kysely<any>, table: string): Promise<number> {
  const { rows } = await sql<{ tuples: number }>`select reltuples::float8 as tuples from pg_class where oid = ${table}::regclass`.execute(
    db,
  );
  return Math.max(Number(rows[0]?.tuples ?? 0), 0);
}
