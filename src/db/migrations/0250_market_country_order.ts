import { sql, type Kysely } from 'kysely';

/**
 * The market by origin or destination country in the orders a load search asks most (newest first,
 * the default; heaviest first by origin): a country search of the market walks its country's rows in
 * the list's order and stops at the page, instead of reading every row of the country from the
 * place index (0150) and sorting them. At a million freights (bench:market) `from=FR&to=DE` read
 * 2,500 market rows for 20, and `from=PL` by weight sorted its 5,000. Partial on the market (6 % of
 * the freights), like the market's other indexes.
 */
const INDEXES: [string, string][] = [
  ['freights_market_from_country_created_idx', '(upper(from_country), created desc, id desc)'],
  ['freights_market_to_country_created_idx', '(upper(to_country), created desc, id desc)'],
  ['freights_market_from_country_weight_idx', '(upper(from_country), weight desc nulls last, id desc)'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) {
    await sql.raw(`create index if not exists ${name} on freights ${columns} where market_until is not null`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
