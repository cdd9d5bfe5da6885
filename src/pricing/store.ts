import type { Decimal } from 'decimal.js';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { companyNameSql } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { airportText } from '../places/index.ts';
import { postalPrefixes, type Location, type SearchParams } from './fields.ts';
import { priceSql, surchargeSql } from './formula.ts';
import { KIND } from './tables.ts';

/** Whose sheets a search sees (docs/reference.md#rate-search). */
export type SearchScope =
  /** An authenticated company: its own sheets, and `exchange` / `public_search` sheets of everyone. */
  | { kind: 'company'; companyId: number }
  /** The public search of one company: only its `public_search` sheets. */
  | { kind: 'public'; companyId: number };

export const MAX_RATES = 200;
export const MAX_COMBINATIONS = 50;
/** Legs kept per via airport and currency before pairing (enough for the 50 cheapest pairs). */
const LEGS_PER_VIA = MAX_COMBINATIONS;

export interface RateRow {
  id: number;
  sheet_id: number;
  company_id: number;
  company_name: string;
  origin: string;
  destination: string;
  transit_days: number | null;
  currency: string;
  rate_base: string;
  rate_fsc: string;
  rate_ssc: string;
  amount: string;
}

export interface CombinationRow {
  via: string;
  legs: [RateRow, RateRow];
  amount: string;
}

interface SearchInput {
  params: SearchParams;
  origin: Location;
  destination: Location;
  cw: Decimal;
  scope: SearchScope;
  /** Today in APP_TIMEZONE, `YYYY-MM-DD`: sheets are valid from/to inclusive. */
  today: string;
}

function visibleSql(scope: SearchScope): RawBuilder<unknown> {
  return scope.kind === 'company'
    ? sql`(s.company_id = ${scope.companyId} or s.visibility in ('exchange', 'public_search'))`
    : sql`(s.company_id = ${scope.companyId} and s.visibility = 'public_search')`;
}

/** City lines of one kind whose zone is a prefix of the location's postal code (any length). */
function zoneMatch(loc: Extract<Location, { kind: 'city' }>, kind: number): RawBuilder<unknown> {
  return sql`l.zone_country = ${loc.country} and l.zone_prefix = any(${postalPrefixes(loc.postal)}::text[]) and l.kind = ${kind}`;
}

const pairLines = sql`l.other_airport is not null and l.kind = ${KIND.AIRPORT_TO_AIRPORT}`;

/**
 * The priced lines matching `match`, with the longest matching prefix per sheet, airport and
 * kind (§5) and only from sheets the scope sees and valid today. `via` is the hub airport of a
 * combination leg (unused for direct rates). One SQL statement fragment; the formula is in
 * formula.ts.
 */
function pricedLines(input: SearchInput, match: RawBuilder<unknown>, via: RawBuilder<unknown>): RawBuilder<unknown> {
  const price = priceSql(input.cw, input.params);
  const surcharge = surchargeSql(input.cw);
  return sql`
    select l.id, l.sheet_id, s.company_id, ${companyNameSql(sql`s.company_id`)} as company_name, l.origin, l.destination, l.transit_days, s.currency,
           b.rate_base, f.rate_fsc, f.rate_ssc, b.rate_base + f.rate_fsc + f.rate_ssc as amount, ${via} as via
    from (
      select distinct on (l.sheet_id, l.kind, l.airport, l.other_airport) l.*
      from rate_lines l
      where ${match}
      order by l.sheet_id, l.kind, l.airport, l.other_airport, length(l.zone_prefix) desc nulls last
    ) l
    join rate_sheets s on s.id = l.sheet_id
    -- offset 0: each step is computed once per row, not re-expanded into every later expression
    cross join lateral (select ${price.pricePerKg} as price_per_kg offset 0) p
    cross join lateral (select ${price.rateBase} as rate_base offset 0) b
    cross join lateral (select ${surcharge.rateFsc} as rate_fsc, ${surcharge.rateSsc} as rate_ssc) f
    where ${visibleSql(input.scope)}
      and (s.valid_from is null or s.valid_from <= ${input.today}::date)
      and (s.valid_to is null or s.valid_to >= ${input.today}::date)
      and ${price.applies}`;
}

/**
 * Direction (§5): `export` takes only city→airport lines, `import` only airport→city; `auto`
 * every line that fits. For combinations the same rule applies to the search's ends: `export`
 * needs a city origin, `import` a city destination (docs/choices.md).
 */
function directMatch(o: Location, d: Location, direction: SearchParams['direction']): RawBuilder<unknown> | null {
  if (o.kind === 'city' && d.kind === 'airport')
    return direction === 'import' ? null : sql`${zoneMatch(o, KIND.CITY_TO_AIRPORT)} and l.airport = ${d.code}`;
  if (o.kind === 'airport' && d.kind === 'city')
    return direction === 'export' ? null : sql`${zoneMatch(d, KIND.AIRPORT_TO_CITY)} and l.airport = ${o.code}`;
  if (o.kind === 'airport' && d.kind === 'airport')
    return direction === 'auto' ? sql`${pairLines} and l.airport = ${o.code} and l.other_airport = ${d.code}` : null;
  return null; // city to city: no line has two postal sides
}

export async function searchDirect(db: Kysely<DB>, input: SearchInput): Promise<RateRow[]> {
  const match = directMatch(input.origin, input.destination, input.params.direction);
  if (!match) return [];
  const { rows } = await sql<RateRow>`
    with r as materialized (${pricedLines(input, match, sql`null::text`)})
    select * from r
    order by r.amount, r.transit_days nulls last, r.id
    limit ${MAX_RATES}`.execute(db);
  return rows;
}

const LEG_COLUMNS = [
  'id',
  'sheet_id',
  'company_id',
  'company_name',
  'origin',
  'destination',
  'transit_days',
  'currency',
  'rate_base',
  'rate_fsc',
  'rate_ssc',
  'amount',
] as const;

/** Two legs origin → via → destination, same currency, via neither end (§5); cheapest 50. */
export async function searchCombinations(db: Kysely<DB>, input: SearchInput): Promise<CombinationRow[]> {
  const { origin: o, destination: d, params } = input;
  if (params.direction === 'export' && o.kind !== 'city') return [];
  if (params.direction === 'import' && d.kind !== 'city') return [];
  const ends = [o, d].filter((x) => x.kind === 'airport').map((x) => (x as { code: string }).code);
  const notEnd = (via: RawBuilder<unknown>) => (ends.length ? sql`and ${via} <> all(${ends}::text[])` : sql``);

  const leg1Via = o.kind === 'city' ? sql`l.airport` : sql`l.other_airport`;
  const leg1 =
    o.kind === 'city'
      ? sql`${zoneMatch(o, KIND.CITY_TO_AIRPORT)} ${notEnd(leg1Via)}`
      : sql`${pairLines} and l.airport = ${o.code} ${notEnd(leg1Via)}`;
  const leg2Via = sql`l.airport`;
  const leg2 =
    d.kind === 'city'
      ? sql`${zoneMatch(d, KIND.AIRPORT_TO_CITY)} ${notEnd(leg2Via)}`
      : sql`${pairLines} and l.other_airport = ${d.code} ${notEnd(leg2Via)}`;

  const cols = (alias: string, prefix: string) => sql.raw(LEG_COLUMNS.map((c) => `${alias}.${c} as ${prefix}${c}`).join(', '));
  const { rows } = await sql<Record<string, unknown>>`
    with a as materialized (${pricedLines(input, leg1, leg1Via)}),
         b as materialized (${pricedLines(input, leg2, leg2Via)}),
         ra as materialized (select a.*, row_number() over (partition by a.via, a.currency order by a.amount, a.transit_days nulls last, a.id) as rn from a),
         rb as materialized (select b.*, row_number() over (partition by b.via, b.currency order by b.amount, b.transit_days nulls last, b.id) as rn from b)
    select ra.via, ra.amount + rb.amount as total, ${cols('ra', 'a_')}, ${cols('rb', 'b_')}
    from ra join rb on rb.via = ra.via and rb.currency = ra.currency
    where ra.rn <= ${LEGS_PER_VIA} and rb.rn <= ${LEGS_PER_VIA}
    order by total, ra.transit_days + rb.transit_days nulls last, ra.id, rb.id
    limit ${MAX_COMBINATIONS}`.execute(db);
  const leg = (row: Record<string, unknown>, prefix: string) =>
    Object.fromEntries(LEG_COLUMNS.map((c) => [c, row[prefix + c]])) as unknown as RateRow;
  return rows.map((r) => ({ via: airportText(r.via as string), legs: [leg(r, 'a_'), leg(r, 'b_')], amount: String(r.total) }));
}

// ---- search records ----

export interface SearchRecord {
  id: number;
  company_id: number | null;
  params: SearchParams;
  result_count: number;
  created: Date;
}

export async function insertSearch(
  db: Kysely<DB>,
  row: {
    companyId: number | null;
    userId: number | null;
    publicCompanyId: number | null;
    params: SearchParams;
    resultCount: number;
    created: Date;
  },
): Promise<SearchRecord> {
  const inserted = await db
    .insertInto('pricing_searches')
    .values({
      company_id: row.companyId,
      user_id: row.userId,
      public_company_id: row.publicCompanyId,
      params: JSON.stringify(row.params),
      result_count: row.resultCount,
      created: row.created,
    })
    .returning(['id', 'company_id', 'params', 'result_count', 'created'])
    .executeTakeFirstOrThrow();
  return inserted as SearchRecord;
}

/** A search of that company, or undefined (missing, another company's, or public). */
export async function findSearch(db: Kysely<DB>, companyId: number, searchId: number): Promise<SearchRecord | undefined> {
  const row = await db
    .selectFrom('pricing_searches')
    .select(['id', 'company_id', 'params', 'result_count', 'created'])
    .where('id', '=', searchId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row as SearchRecord | undefined;
}

export async function searchHistory(db: Kysely<DB>, companyId: number, limit: number, offset: number): Promise<SearchRecord[]> {
  const rows = await db
    .selectFrom('pricing_searches')
    .select(['id', 'company_id', 'params', 'result_count', 'created'])
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows as SearchRecord[];
}

export async function insertFeedback(
  db: Kysely<DB>,
  row: { searchId: number; companyId: number; userId: number; rating: number; rateId: number | null; created: Date },
) {
  return db
    .insertInto('pricing_feedback')
    .values({
      search_id: row.searchId,
      company_id: row.companyId,
      user_id: row.userId,
      rating: row.rating,
      rate_id: row.rateId,
      created: row.created,
    })
    .returning(['id', 'search_id', 'rating', 'rate_id', 'created'])
    .executeTakeFirstOrThrow();
}

/**
 * Postal areas known to the exchange (zones of sheets the company may see) for autocomplete:
 * zones starting with the query, and zones the query's postal code falls in (its prefixes).
 */
export async function knownZones(
  db: Kysely<DB>,
  companyId: number,
  country: string | null,
  postal: string,
  limit: number,
): Promise<{ country: string; prefix: string }[]> {
  const prefixes = postalPrefixes(postal);
  const like = `${postal.replace(/[\\%_]/g, '\\$&')}%`;
  const { rows } = await sql<{ country: string; prefix: string }>`
    select l.zone_country as country, l.zone_prefix as prefix
    from rate_lines l join rate_sheets s on s.id = l.sheet_id
    where l.zone_country is not null
      ${country ? sql`and l.zone_country = ${country}` : sql``}
      and (l.zone_prefix like ${like} or l.zone_prefix = any(${prefixes}::text[]))
      and (s.company_id = ${companyId} or s.visibility in ('exchange', 'public_search'))
    group by 1, 2
    order by length(l.zone_prefix), 1, 2
    limit ${limit}`.execute(db);
  return rows;
}
