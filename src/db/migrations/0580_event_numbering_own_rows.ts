import { sql, type Kysely } from 'kysely';
import { eventsPositionFunction } from './0530_event_numbering.ts';

/**
 * The outbox's numbering at commit reads the committing transaction's rows only (stop 65). 0530
 * found "the rows without `pos`" through the partial index events_unnumbered_idx and took it to
 * hold only the rows of transactions in progress. It also holds the entries of every row numbered
 * since the table was last vacuumed: numbering writes a new version of each row, and the old
 * version's entry stays in the index until VACUUM removes it (a bitmap scan never marks it dead).
 * So every commit that wrote an event read the history since the last vacuum: at a million
 * freights, after bench:market's alerts, 186,000 entries and 47,000 heap pages, ~500 ms a commit;
 * with autovacuum at its defaults a table's 20 % may wait for it.
 *
 * The first firing of a commit is for the transaction's first row (deferred triggers fire in the
 * order their rows were written), and a transaction draws its `seq` values in increasing order, so
 * every row it must number has `seq` >= that row's: the scan starts there, on the same index, and
 * reads the transaction's rows and the few entries written since by others. A later firing after
 * constraints were set immediate is for the first row written since, and starts at its own `seq`.
 * Same positions, same lock, same order as 0530.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(eventsPositionFunction(' and seq >= new.seq')).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(eventsPositionFunction('')).execute(db);
}
