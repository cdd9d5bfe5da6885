import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { parseLocation, type Location, type SearchParams } from './fields.ts';
import { chargeableWeight, showWeight } from './formula.ts';
import type { CombinationOut, RateOut } from './schema.ts';
import { searchCombinations, searchDirect, type CombinationRow, type RateRow, type SearchRecord, type SearchScope } from './store.ts';

export type { CombinationOut, RateOut } from './schema.ts';

export interface SearchResult {
  rates: RateOut[];
  combinations: CombinationOut[];
}

/** Runs a (validated) search against the current rates: direct rates and, if asked, combinations. */
export async function runSearch(db: Kysely<DB>, clock: Clock, params: SearchParams, scope: SearchScope): Promise<SearchResult> {
  const origin = parseLocation(params.origin) as Location;
  const destination = parseLocation(params.destination) as Location;
  const cw = chargeableWeight(params);
  const today = DateTime.fromJSDate(clock.now(), { zone: clock.zone }).toISODate()!;
  const input = { params, origin, destination, cw, scope, today };
  const [direct, combos] = await Promise.all([
    searchDirect(db, input),
    params.allow_combinations === 1 ? searchCombinations(db, input) : Promise.resolve([] as CombinationRow[]),
  ]);
  const weight = showWeight(cw);
  const rate = (r: RateRow): RateOut => ({
    id: r.id,
    sheet_id: r.sheet_id,
    company: { id: r.company_id, name: r.company_name },
    origin: r.origin,
    destination: r.destination,
    transit_days: r.transit_days,
    chargeable_weight: weight,
    currency: r.currency,
    rate_base: Number(r.rate_base),
    rate_fsc: Number(r.rate_fsc),
    rate_ssc: Number(r.rate_ssc),
    amount: Number(r.amount),
  });
  return {
    rates: direct.map(rate),
    combinations: combos.map((c) => {
      const [a, b] = c.legs;
      return {
        via: c.via,
        legs: [rate(a), rate(b)],
        currency: a.currency,
        amount: Number(c.amount),
        transit_days: a.transit_days === null || b.transit_days === null ? null : a.transit_days + b.transit_days,
      };
    }),
  };
}

/** `data.searchEntity` and an element of `data.searches`: id, the request parameters, created, result_count. */
export function presentSearch(record: SearchRecord, clock: Clock, resultCount = record.result_count) {
  return { id: record.id, ...record.params, created: clock.format(record.created), result_count: resultCount };
}

export type SearchView = ReturnType<typeof presentSearch>;
