import { sql, type Kysely } from 'kysely';

/**
 * The owner's evaluation page reads each lane's cheapest bids and their count (tenders shownBids,
 * docs/choices.md "Lane tenders": the evaluation's speed): a tender's bids in the page's order
 * (lane, price, company) with the capacity beside them, so 50,000 bids are read in order from the
 * index instead of sorted (a sort that spilled to disk).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index tender_bids_ranked_idx on tender_bids (tender_id, lane_id, price, company_id) include (capacity)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index tender_bids_ranked_idx`.execute(db);
}
