import { sql, type Kysely } from 'kysely';

/**
 * The release rule the lane cells were built under (LANE_PRICES_RELEASE; lanes/cells.ts,
 * docs/choices.md "Lane prices"), beside their zone: a start under another rule rebuilds them
 * (ensureLaneCells), so that awards released under a looser rule do not stay released under a
 * stricter one. Null on a database built before: rebuilt at the next start, as after 0200.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lane_price_state add column rule text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table lane_price_state drop column rule`.execute(db);
}
