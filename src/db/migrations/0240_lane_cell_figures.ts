import { sql, type Kysely } from 'kysely';

/**
 * A lane cell's counts and the figures of its released prefix as columns PostgreSQL keeps
 * (lanes/cells.ts, lanes/store.ts): `awards` and `km_awards` (how many prices the arrays hold),
 * and the quartiles of the released prices and the median of the released per-km prices. The
 * release sorts the released prefix, so these are the prefix's elements, interpolated exactly as
 * store.ts `quantile` does. A lane query then tests whether a batch waits, and answers a month of
 * one cell, from a few numbers instead of detoasting arrays of hundreds of awards per cell; the
 * arrays are read only to release a batch or to merge a month of several cells. Adding the columns
 * rewrites the table once (it is small: one row per lane cell and month).
 */
const quantile = (values: string, n: string, p: string) => {
  const h = `((${n} - 1) * ${p})`;
  const lo = `(floor(${h})::int + 1)`;
  const hi = `(ceil(${h})::int + 1)`;
  return `(case when ${n} > 0 then ${values}[${lo}] + (${h} - floor(${h})) * (${values}[${hi}] - ${values}[${lo}]) end)`;
};

const COLUMNS: [string, string][] = [
  ['awards', 'int generated always as (cardinality(prices)) stored'],
  ['km_awards', 'int generated always as (cardinality(km_prices)) stored'],
  ['released_median', `numeric generated always as (${quantile('prices', 'released', '0.5')}) stored`],
  ['released_p25', `numeric generated always as (${quantile('prices', 'released', '0.25')}) stored`],
  ['released_p75', `numeric generated always as (${quantile('prices', 'released', '0.75')}) stored`],
  ['km_released_median', `numeric generated always as (${quantile('km_prices', 'km_released', '0.5')}) stored`],
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`alter table lane_price_cells ${COLUMNS.map(([name, type]) => `add column ${name} ${type}`).join(', ')}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`alter table lane_price_cells ${COLUMNS.map(([name]) => `drop column if exists ${name}`).join(', ')}`).execute(db);
}
