import type { ColumnType, Generated } from 'kysely';

/** numeric columns: read as exact decimal strings, written as strings or numbers. */
type Decimal = ColumnType<string, string | number, string | number>;
/** numeric[]: node-postgres parses its elements as JS numbers (PGlite as text); select `::text[]` for exact values. */
type DecimalArray = ColumnType<(string | number | null)[], string, string>;
type Json = ColumnType<unknown, string, string>;

/** Rate sheet visibility (docs/reference.md#rate-search). */
export const VISIBILITIES = ['private', 'exchange', 'public_search'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * Line kinds: which side is the postal zone. Direction `export` takes only CITY_TO_AIRPORT,
 * `import` only AIRPORT_TO_CITY (docs/reference.md#rate-search).
 */
export const KIND = { CITY_TO_AIRPORT: 1, AIRPORT_TO_CITY: 2, AIRPORT_TO_AIRPORT: 3 } as const;

export interface RateSheetsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** ISO 4217, upper case */
  currency: string;
  visibility: Visibility;
  /** `YYYY-MM-DD`, inclusive; null = open */
  valid_from: string | null;
  valid_to: string | null;
  /** The `kg_<N>` breaks of the CSV, ascending; each line's `prices` is aligned with them. */
  breaks: DecimalArray;
  line_count: number;
  created: Date;
}

export interface RateLinesTable {
  id: Generated<number>;
  sheet_id: number;
  /** Line number in the imported CSV. */
  line_no: number;
  kind: number;
  /** As normalised at import: `city:DE-60`, `airport:FRA`. */
  origin: string;
  destination: string;
  /** The airport of a city line; the origin airport of an airport-to-airport line. */
  airport: string;
  /** The destination airport of an airport-to-airport line, else null. */
  other_airport: string | null;
  /** The postal zone of a city line (`DE`, `60`), else null. */
  zone_country: string | null;
  zone_prefix: string | null;
  transit_days: number | null;
  min_charge: Decimal | null;
  /** Price per kg for each break of the sheet; null = no price for that band. */
  prices: DecimalArray;
  fsc_pct: Decimal;
  ssc_per_kg: Decimal;
  uld_price: Decimal | null;
}

export interface PricingSearchesTable {
  id: Generated<number>;
  /** The searching company; null for a public search. */
  company_id: number | null;
  user_id: number | null;
  /** For a public search: the company whose public sheets were searched. */
  public_company_id: number | null;
  /** The normalised request parameters (see fields.ts `SearchParams`). */
  params: Json;
  result_count: number;
  created: Date;
}

export interface PricingFeedbackTable {
  id: Generated<number>;
  search_id: number;
  company_id: number;
  user_id: number;
  rating: number;
  rate_id: number | null;
  created: Date;
}

export interface PricingTables {
  rate_sheets: RateSheetsTable;
  rate_lines: RateLinesTable;
  pricing_searches: PricingSearchesTable;
  pricing_feedback: PricingFeedbackTable;
}
