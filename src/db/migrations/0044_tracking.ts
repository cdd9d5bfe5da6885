import { sql, type Kysely } from 'kysely';

/**
 * Tracking shows only the events of the companies involved in a shipment (docs/choices.md,
 * Tracking): every status event names the company that pushed it, and a freight is found by
 * its AWB whatever separators were typed into the freight's `awb` field.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The push has always set it; an event nobody can be held to would never be shown anyway.
  await sql`delete from awb_events where company_id is null`.execute(db);
  await sql`alter table awb_events alter column company_id set not null`.execute(db);
  // The same expression as src/tracking/policy.ts, so the lookup is an index probe.
  await sql`create index freights_awb_digits_idx on freights ((regexp_replace(awb, '\\D', '', 'g'))) where awb is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index freights_awb_digits_idx`.execute(db);
  await sql`alter table awb_events alter column company_id drop not null`.execute(db);
}
