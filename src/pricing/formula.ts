import { Decimal } from 'decimal.js';
import { sql, type RawBuilder } from 'kysely';
import type { SearchParams } from './fields.ts';

/**
 * The rate formula of docs/reference.md#rate-search, in one place. Weights are computed exactly with
 * decimal.js, prices in SQL `numeric` (exact); no binary floating point touches money.
 *
 * Rounding (docs/choices.md, Rate search): each of rate_base, rate_fsc, rate_ssc is rounded
 * to cents half-up (PostgreSQL `round(numeric, 2)`; all values are non-negative), rate_fsc is
 * computed from the rounded rate_base, and amount is the sum of the three rounded components,
 * so the components shown always add up to the amount. The chargeable weight is used exactly
 * (not rounded) and shown to 3 decimals.
 */

/** §5: volume weight = cm³ / 6000. */
const VOLUME_DIVISOR = new Decimal(6000);
/** §5: `unitOfLength` `in`: one inch is 2.54 cm, so one cubic inch is 2.54³ cm³. */
const CUBIC_INCH_CM3 = new Decimal('2.54').pow(3);

/**
 * §5: cw = max(weight, Σ pieces·depth·width·height / 6000) with cm; without `weight`, the
 * piece lines' weights add up. A piece line without `pieces` counts once; a line missing a
 * dimension adds no volume. No weight and no pieces: cw = 0 (the minimum charge applies).
 */
export function chargeableWeight(params: Pick<SearchParams, 'weight' | 'pieces_json' | 'unitOfLength'>): Decimal {
  let volume = new Decimal(0);
  let pieceWeight = new Decimal(0);
  for (const p of params.pieces_json) {
    const count = new Decimal(p.pieces ?? 1);
    if (p.depth !== undefined && p.width !== undefined && p.height !== undefined) {
      volume = volume.plus(count.times(p.depth).times(p.width).times(p.height));
    }
    if (p.weight !== undefined) pieceWeight = pieceWeight.plus(p.weight);
  }
  if (params.unitOfLength === 'in') volume = volume.times(CUBIC_INCH_CM3);
  const actual = params.weight !== null ? new Decimal(params.weight) : pieceWeight;
  return Decimal.max(actual, volume.div(VOLUME_DIVISOR));
}

/** How the chargeable weight is shown: kg to 3 decimals (grams), half-up. */
export function showWeight(cw: Decimal): number {
  return cw.toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toNumber();
}

export interface PriceSql {
  /** The price per kg of the band cw falls in, or null (§5: empty cell, or above the largest break). */
  pricePerKg: RawBuilder<unknown>;
  rateBase: RawBuilder<unknown>;
  applies: RawBuilder<unknown>;
}

/**
 * The price of a rate line `l` of sheet `s` as SQL (used by store.ts inside one statement):
 * - band: the first break N (ascending) with cw <= N; the line's price of that band. Empty
 *   cell: no price for that band; cw above the largest break: no band. Either way the line
 *   does not apply (§5).
 * - standard: rate_base = round(max(min_charge, cw · price per kg), 2)
 * - uld: rate_base = round(uld_count · uld_price, 2); lines without uld_price do not apply.
 * The surcharges (`rate_fsc`, `rate_ssc`) and amount are in `surchargeSql`.
 */
export function priceSql(cw: Decimal, params: Pick<SearchParams, 'search_type' | 'uld_count'>): PriceSql {
  const cwText = cw.toFixed();
  const pricePerKg = sql`l.prices[(select min(b.i) from unnest(s.breaks) with ordinality as b(kg, i) where b.kg >= ${cwText}::numeric)]`;
  if (params.search_type === 'uld') {
    return {
      pricePerKg: sql`null::numeric`,
      rateBase: sql`round(${params.uld_count ?? 1}::numeric * l.uld_price, 2)`,
      applies: sql`l.uld_price is not null`,
    };
  }
  return {
    pricePerKg,
    rateBase: sql`round(greatest(coalesce(l.min_charge, 0), ${cwText}::numeric * p.price_per_kg), 2)`,
    applies: sql`p.price_per_kg is not null`,
  };
}

/** §5: rate_fsc = rate_base · fsc_pct / 100; rate_ssc = cw · ssc_per_kg; each to cents. */
export function surchargeSql(cw: Decimal): { rateFsc: RawBuilder<unknown>; rateSsc: RawBuilder<unknown> } {
  return {
    rateFsc: sql`round(b.rate_base * l.fsc_pct / 100, 2)`,
    rateSsc: sql`round(${cw.toFixed()}::numeric * l.ssc_per_kg, 2)`,
  };
}
