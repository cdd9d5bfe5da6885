import { sql, type Kysely } from 'kysely';

/**
 * Load search on the market (list 8, src/freights/search.ts): a radius search starts from the
 * market's own freights near the centre, not from every freight ever published there (about half
 * of them are drafts, awarded or archived, which the market list would read and drop). The same
 * expressions as migration 0020_load_search, limited to open and pending freights: coordinates,
 * and for freights without coordinates their airport code. Each carries what the market list
 * tests and its default order, so the two ways of a radius search (search.ts nearWays) find a
 * page's ids without reading the table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const market = 'id, created, company_id, deadline, visibility, whitelist';
  for (const side of ['from', 'to']) {
    const key = `(upper(regexp_replace(${side}_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`;
    await sql
      .raw(
        `create index freights_market_${side}_point_idx on freights (${side}_latitude, ${side}_longitude) include (${market}) where status in ('open', 'pending') and ${side}_latitude is not null`,
      )
      .execute(db);
    await sql
      .raw(
        `create index freights_market_${side}_airport_idx on freights (${key}) include (${side}_code, ${market}) where status in ('open', 'pending') and ${side}_latitude is null`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['from_point', 'from_airport', 'to_point', 'to_airport'])
    await sql.raw(`drop index if exists freights_market_${name}_idx`).execute(db);
}
