import { sql, type Kysely } from 'kysely';

/**
 * The two ways of a radius search on the market read their index alone (freights/lists/read.ts,
 * market/sql.ts nearWays; docs/benchmarks.md, stop 67):
 * - by coordinates: the GiST index of the points also carries the latitude and longitude, which
 *   the exact great circle reads after the box. Without them every point in the box was read from
 *   the table: 556 table pages, 2.5 ms for the 677 market freights within 100 km of Frankfurt at a
 *   million freights;
 * - by airport: the index of the airport codes is ordered by creation within each code, so the
 *   newest first (the market's default order) of each airport in the circle is read by a range
 *   and stops at the page, where all of them (5,000 from Frankfurt alone) were read and sorted.
 * Same predicates as migration 0150's indexes, which these replace.
 */
const COVERED = 'id, created, company_id, market_until, visibility, whitelist';
const key = (side: string) => `(upper(regexp_replace(${side}_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`;
const SIDES = ['from', 'to'] as const;

const rebuild = async (db: Kysely<any>, name: string, definition: string) => {
  await sql.raw(`drop index if exists ${name}`).execute(db);
  await sql.raw(`create index ${name} on freights ${definition}`).execute(db);
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const side of SIDES) {
    await rebuild(
      db,
      `freights_market_${side}_point_idx`,
      `using gist (point(${side}_longitude, ${side}_latitude)) include (${COVERED}, ${side}_latitude, ${side}_longitude)
       where market_until is not null and ${side}_latitude is not null`,
    );
    await rebuild(
      db,
      `freights_market_${side}_airport_idx`,
      `(${key(side)}, created desc, id desc) include (${side}_code, ${COVERED}) where market_until is not null and ${side}_latitude is null`,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const side of SIDES) {
    await rebuild(
      db,
      `freights_market_${side}_point_idx`,
      `using gist (point(${side}_longitude, ${side}_latitude)) include (${COVERED}) where market_until is not null and ${side}_latitude is not null`,
    );
    await rebuild(
      db,
      `freights_market_${side}_airport_idx`,
      `(${key(side)}) include (${side}_code, ${COVERED}) where market_until is not null and ${side}_latitude is null`,
    );
  }
}
