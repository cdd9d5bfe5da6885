import { sql, type Kysely } from 'kysely';

/**
 * Lane prices kept per lane cell (docs/reference.md#lane-prices, src/lanes/cells.ts): one row per origin cell,
 * destination cell, month (in the zone the row was written for) and currency, holding that cell's
 * award prices, their owners and their per-km prices in award order, and how many of each are
 * released (the disclosure rule, docs/choices.md "Lane prices"). A cell is a postal area
 * (country and the postal code's first two characters), an airport, or a country alone (a place
 * without a postal code). The award's transaction appends to it; a lane query reads a handful of
 * rows instead of every awarded freight, so the freights' lane index of 0090 is no longer read.
 *
 * `lane_price_state` holds the zone the cells were built for: when APP_TIMEZONE changes, the
 * months move, and the cells are rebuilt from the awards at the next start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table lane_price_cells (
    id bigserial primary key,
    zone text not null,
    currency text not null,
    month text not null,
    from_country text not null,
    from_key text not null,
    from_airport boolean not null,
    to_country text not null,
    to_key text not null,
    to_airport boolean not null,
    prices numeric[] not null default '{}',
    owners int[] not null default '{}',
    km_prices numeric[] not null default '{}',
    km_owners int[] not null default '{}',
    released int not null default 0,
    km_released int not null default 0,
    owners_released int not null default 0,
    km_owners_released int not null default 0
  )`.execute(db);
  // The cell's identity (the award's upsert), and the lane query's way in: currency, the two
  // countries, the month; the keys narrow inside. Airports are found by their codes.
  await sql`create unique index lane_price_cells_cell_idx on lane_price_cells
    (currency, from_country, to_country, month, from_key, from_airport, to_key, to_airport, zone)`.execute(db);
  await sql`create index lane_price_cells_keys_idx on lane_price_cells (currency, from_key, to_key, month)`.execute(db);
  await sql`create table lane_price_state (id int primary key check (id = 1), zone text not null)`.execute(db);
  await sql`drop index if exists freights_awarded_lane_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists lane_price_state`.execute(db);
  await sql`drop table if exists lane_price_cells`.execute(db);
}
