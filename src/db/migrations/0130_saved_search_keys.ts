import { sql, type Kysely } from 'kysely';

/**
 * Alerting saved searches found by the places of a freight (searches/store.ts alertingSearches):
 * each search's `from` and `to` patterns as arrays of their normalised texts (`DE`, `DE-60`,
 * `airport:FRA`; null for a search without patterns on that side), kept by PostgreSQL itself
 * from `params`. A freight entering the market asks for the searches whose patterns overlap the
 * patterns its places match (market placeKeys) or that have none, through GIN indexes, instead
 * of reading every alerting search of the exchange; the exact match follows on those alone.
 * A search by radius around a point (`from_near` as `lat,lon`) keeps its centre and radius as
 * numbers, so that a freight with coordinates asks only for the circles around it.
 */
const NUMBER = `'^-?[0-9]+(\\.[0-9]+)?$'`;
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
  const near = (part: 1 | 2) =>
    `case when split_part(params->>'from_near', ',', ${part}) ~ ${NUMBER} and split_part(params->>'from_near', ',', ${3 - part}) ~ ${NUMBER}
      then split_part(params->>'from_near', ',', ${part})::float8 end`;
  await sql.raw(`alter table saved_searches add column from_near_lat float8 generated always as (${near(1)}) stored`).execute(db);
  await sql.raw(`alter table saved_searches add column from_near_lon float8 generated always as (${near(2)}) stored`).execute(db);
  await sql
    .raw(
      `alter table saved_searches add column from_near_km float8 generated always as
        (case when params->>'from_radius' ~ ${NUMBER} then (params->>'from_radius')::float8 end) stored`,
    )
    .execute(db);
  await sql
    .raw(
      'create index saved_searches_alert_from_near_idx on saved_searches (from_near_lat) where alert and from_keys is null and from_near_lat is not null',
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['from_near_lat', 'from_near_lon', 'from_near_km'])
    await sql.raw(`alter table saved_searches drop column if exists ${column}`).execute(db);
  for (const side of ['from', 'to'] as const) await sql.raw(`alter table saved_searches drop column if exists ${side}_keys`).execute(db);
}
