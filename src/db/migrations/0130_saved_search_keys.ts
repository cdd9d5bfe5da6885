import { sql, type Kysely } from 'kysely';

/**
 * Alerting saved searches found by the places of a freight (searches/store.ts alertingSearches):
 * each search's `from` and `to` patterns as arrays of their normalised texts (`DE`, `DE-60`,
 * `airport:FRA`; null for a search without patterns on that side), kept by PostgreSQL itself
 * from `params`. A freight entering the market asks for the searches whose patterns overlap the
 * patterns its places match (market placeKeys) or that have none, through GIN indexes, instead
 * of reading every alerting search of the exchange; the exact match follows on those alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const side of ['from', 'to'] as const) {
    await sql
      .raw(
        `alter table saved_searches add column ${side}_keys text[] generated always as (string_to_array(nullif(params->>'${side}', ''), ',')) stored`,
      )
      .execute(db);
    await sql.raw(`create index saved_searches_alert_${side}_keys_idx on saved_searches using gin (${side}_keys) where alert`).execute(db);
    await sql
      .raw(`create index saved_searches_alert_${side}_any_idx on saved_searches (id) where alert and ${side}_keys is null`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const side of ['from', 'to'] as const) await sql.raw(`alter table saved_searches drop column if exists ${side}_keys`).execute(db);
}
