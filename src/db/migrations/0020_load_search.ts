import { sql, type Kysely } from 'kysely';

/**
 * Load search (src/freights/search.ts, docs/reference.md#load-search): indexes on the expressions the search
 * uses, written the same way there, so that a list narrowed by place, radius or dates starts from
 * an index. No extensions: btree and GiST on core types behave alike on PGlite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const side of ['from', 'to']) {
    const key = `(upper(regexp_replace(${side}_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`;
    // Country, and country + postal prefix (a LIKE 'prefix%' is a range in the "C" collation).
    await sql.raw(`create index freights_${side}_place_idx on freights (upper(${side}_country), ${key})`).execute(db);
    // Airport codes (any country), and the airports of freights without coordinates in a radius search.
    await sql.raw(`create index freights_${side}_code_idx on freights (${key})`).execute(db);
    // Radius: the bounding box of the circle on latitude, then longitude inside the index.
    await sql
      .raw(`create index freights_${side}_point_idx on freights (${side}_latitude, ${side}_longitude) where ${side}_latitude is not null`)
      .execute(db);
  }
  for (const col of ['etd', 'eta']) {
    // Loading (etd) and delivery (eta) windows as ranges, for "overlaps these days".
    const range =
      `(case when ${col} is null then null when ${col}_end is null or ${col}_end < ${col} ` +
      `then tstzrange(${col}, ${col}, '[]') else tstzrange(${col}, ${col}_end, '[]') end)`;
    await sql.raw(`create index freights_${col}_window_idx on freights using gist (${range})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['from_place', 'from_code', 'from_point', 'to_place', 'to_code', 'to_point', 'etd_window', 'eta_window']) {
    await sql.raw(`drop index if exists freights_${name}_idx`).execute(db);
  }
}
