import { sql, type Kysely } from 'kysely';

/**
 * Fair webhook claims (webhooks/dispatcher.ts claimDue): `in_flight` marks a delivery whose
 * attempt is claimed and not yet recorded (its lease ends at `next_attempt`), so the attempts in
 * flight of a company can be counted in the database, whichever process runs them; a claim
 * reads each webhook's due deliveries in order from the second index, which replaces the one
 * over every due delivery (a claim no longer takes the oldest due of all webhooks together).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_deliveries add column in_flight boolean not null default false`.execute(db);
  await sql`create index webhook_deliveries_in_flight_idx on webhook_deliveries (webhook_id) where in_flight`.execute(db);
  await sql`create index webhook_deliveries_pending_idx on webhook_deliveries (webhook_id, next_attempt, id) where state = 'pending'`.execute(
    db,
  );
  await sql`drop index webhook_deliveries_due_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt) where state = 'pending'`.execute(db);
  await sql`drop index webhook_deliveries_pending_idx`.execute(db);
  await sql`drop index webhook_deliveries_in_flight_idx`.execute(db);
  await sql`alter table webhook_deliveries drop column in_flight`.execute(db);
}
