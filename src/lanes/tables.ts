import type { ColumnType, Generated } from 'kysely';

/**
 * The lanes module's tables (migrations 0100, 0200, 0210, 0240): the lane cells, the compact aggregate of awards per
 * origin cell, destination cell, month and currency (cells.ts), and the zone and release rule they
 * were built for.
 */

export interface LanePriceCellsTable {
  id: Generated<string>;
  /** APP_TIMEZONE when the row was written: the month is that zone's */
  zone: string;
  /** three letters, upper case: prices of other currencies are another market */
  currency: string;
  /** `YYYY-MM` of the award in `zone` */
  month: string;
  /** upper case; '' for a place without a country */
  from_country: string;
  /** a postal code's first two characters (letters and digits, upper case), an airport's code, or '' */
  from_key: string;
  from_airport: boolean;
  to_country: string;
  to_key: string;
  to_airport: boolean;
  /** the accepted bids' amounts: the released ones sorted, then the waiting ones in award order */
  prices: Generated<string[]>;
  /** each price's owner company */
  owners: Generated<number[]>;
  /** each price's winner (the accepted bid's company; migration 0200): the release rule counts both parties */
  winners: Generated<number[]>;
  /** price ÷ great-circle km of the awards with both ends' coordinates, in award order */
  km_prices: Generated<string[]>;
  km_owners: Generated<number[]>;
  km_winners: Generated<number[]>;
  /** how many of `prices` (from the first) the figures may use */
  released: Generated<number>;
  /** how many of `km_prices` the per-km median may use */
  km_released: Generated<number>;
  /** the distinct owners of the released prices (counted at the release, which sorts the released prefix) */
  owners_released: Generated<number>;
  km_owners_released: Generated<number>;
  /** kept by PostgreSQL (migration 0240): cardinality(prices), cardinality(km_prices) */
  awards: ColumnType<number, never, never>;
  km_awards: ColumnType<number, never, never>;
  /** kept by PostgreSQL (migration 0240): the quartiles of the released (sorted) prices, null before any release */
  released_median: ColumnType<string | null, never, never>;
  released_p25: ColumnType<string | null, never, never>;
  released_p75: ColumnType<string | null, never, never>;
  /** the median of the released per-km prices */
  km_released_median: ColumnType<string | null, never, never>;
}

export interface LanePriceStateTable {
  id: number;
  zone: string;
  /** LANE_PRICES_RELEASE the cells were built under (migration 0210; null before: rebuilt at start) */
  rule: string | null;
}

export interface LaneTables {
  lane_price_cells: LanePriceCellsTable;
  lane_price_state: LanePriceStateTable;
}
