import { sql, type Kysely } from 'kysely';

/**
 * A freight's notifications by their freight (searches/store.ts): the alert's merge of a user's
 * `freight.matched` reasons (mergeMatchNotifications, in every alert's transaction), the mail's
 * merged reasons (mergedMatchKeys) and the cascade when a freight is deleted all ask for one
 * freight's rows without a user. Without this index each of them read the whole table: at a
 * million freights with 190,000 notifications the merge took ~100 ms an alert and grew with every
 * alert written, and bench:market's alert worker fell to 2 alerts a second (docs/benchmarks.md,
 * stop 65). With it the merge reads the freight's few hundred rows (0.2 ms).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index notifications_freight_idx on notifications (freight_id) where freight_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists notifications_freight_idx`.execute(db);
}
