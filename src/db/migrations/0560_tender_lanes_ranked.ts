import { sql, type Kysely } from 'kysely';

/**
 * Each lane's bids ranked at the close (tenders `rankLanes`, docs/choices.md "Lane tenders": the
 * evaluation's speed): the bids are sealed and frozen from the deadline on, so the ranking the
 * owner reads (price, then company; each bid `company:price:capacity`) is written once when the
 * tender closes (the sweeper, or an award that comes first) instead of being sorted at every read.
 * Null until then (a read computes the same ranking while it is null). The tenders closed before
 * this migration are ranked here, with the statement `rankLanes` runs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tender_lanes add column bids_ranked text[]`.execute(db);
  await sql`
    update tender_lanes as l
       set bids_ranked = (select coalesce(array_agg(b.company_id || ':' || b.price || ':' || b.capacity order by b.price, b.company_id), '{}')
                            from tender_bids as b where b.tender_id = l.tender_id and b.lane_id = l.id)
     where l.tender_id in (select id from tenders where status in ('closed', 'awarded'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tender_lanes drop column bids_ranked`.execute(db);
}
