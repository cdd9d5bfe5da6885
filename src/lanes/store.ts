import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import { awardsSql } from '../freights/index.ts';
import { MIN_AWARDS, MIN_OWNERS, monthWindow, type LaneQuery } from './lane.ts';

/**
 * The lane prices' one statement (decisions.md §14): the lane's awards in the window (the
 * freights module's piece, freights/awards.ts), by month in APP_TIMEZONE, each month's count and,
 * only where the disclosure rule of lane.ts holds, its quartiles and per-km median. Figures of a
 * month below the rule are never computed, so they cannot leave the database.
 *
 * Quartiles are exact on the decimal prices (linear interpolation between the two nearest
 * prices, as percentile_cont, but over numeric: percentile_cont works in float8 and could round
 * a .5 the wrong way), then rounded to whole units (median, p25, p75) and cents (per km): a
 * figure is a market price, not a deal's (docs/decisions.md, "Lane prices").
 *
 * Generated SQL (PostgreSQL), for DE-60 -> FR-75, 12 months, EUR:
 *   with award as (
 *     select to_char(timezone($1, a.awarded), 'YYYY-MM') as month, a.owner, a.price,
 *            case when a.km >= 1 then a.price / a.km::numeric end as per_km
 *     from (select b.modified as awarded, f.company_id as owner, b.amount as price, <great circle> as km
 *           from freights f join bids b on b.freight_id = f.id and b.status = 'accepted'
 *           where f.status in ('taken', 'closed', 'archived') and f.class <> 'air' and f.winner_id <> f.company_id
 *             and (upper(f.from_country) = $2 and <from key> >= $3 and <from key> < $4 and not <airport>)
 *             and (upper(f.to_country) = $5 and <to key> >= $6 and <to key> < $7 and not <airport>)
 *             and upper(b.currency_code) = $8 and b.modified >= $9 and b.modified < $10) a),
 *   by_month as (select month, count(*) as n, count(distinct owner) as owners, array_agg(price order by price) as prices,
 *            count(per_km) as km_n, count(distinct owner) filter (where per_km is not null) as km_owners,
 *            array_agg(per_km order by per_km) filter (where per_km is not null) as per_km
 *     from award group by month)
 *   select coalesce(json_agg(json_build_object('month', month, 'count', n,
 *            'median', case when n >= 5 and owners >= 3 then round(<quantile 0.5 of prices>) end, 'p25', …, 'p75', …,
 *            'median_per_km', case when km_n >= 5 and km_owners >= 3 then round(<quantile 0.5 of per_km>, 2) end)), '[]')::text
 *   from by_month
 * Plan at 100,000 freights: freights_awarded_lane_idx (0090) for the origin and destination
 * country, the postal range inside it, then bids_one_accepted_idx per freight.
 */

/** One month of the answer; figures null where the disclosure rule does not hold. */
export interface LaneMonth {
  month: string;
  count: number;
  median: number | null;
  p25: number | null;
  p75: number | null;
  median_per_km: number | null;
}

/** The p-quantile of a sorted numeric array of n values, interpolated linearly, exact (numeric). */
function quantile(values: RawBuilder<unknown>, n: RawBuilder<unknown>, p: '0.25' | '0.5' | '0.75') {
  const h = sql`((${n} - 1) * ${sql.raw(p)})`;
  const lo = sql`(floor(${h})::int + 1)`;
  const hi = sql`(ceil(${h})::int + 1)`;
  return sql`(${values}[${lo}] + (${h} - floor(${h})) * (${values}[${hi}] - ${values}[${lo}]))`;
}

const disclosed = (n: RawBuilder<unknown>, owners: RawBuilder<unknown>) =>
  sql`(${n} >= ${sql.lit(MIN_AWARDS)} and ${owners} >= ${sql.lit(MIN_OWNERS)})`;

/** The lane's months, oldest first, every month of the window (count 0 for a month without awards). */
export async function lanePrices(db: Kysely<DB>, q: LaneQuery, now: Date, zone: string): Promise<LaneMonth[]> {
  const window = monthWindow(now, zone, q.months);
  const awards = awardsSql({ from: q.from, to: q.to, currency: q.currency, start: window.start, end: window.end });
  const prices = sql`prices`;
  const perKm = sql`per_km`;
  const n = sql`n`;
  const kmN = sql`km_n`;
  const { rows } = await sql<{ months: string }>`with award as (
      select to_char(timezone(${zone}, a.awarded), 'YYYY-MM') as month, a.owner, a.price,
             case when a.km >= 1 then a.price / a.km::numeric end as per_km
      from ${awards} as a),
    by_month as (
      select month, count(*)::int as n, count(distinct owner)::int as owners, array_agg(price order by price) as prices,
             count(per_km)::int as km_n, (count(distinct owner) filter (where per_km is not null))::int as km_owners,
             array_agg(per_km order by per_km) filter (where per_km is not null) as per_km
      from award group by month)
    select coalesce(json_agg(json_build_object(
        'month', month, 'count', n,
        'median', case when ${disclosed(n, sql`owners`)} then round(${quantile(prices, n, '0.5')}) end,
        'p25', case when ${disclosed(n, sql`owners`)} then round(${quantile(prices, n, '0.25')}) end,
        'p75', case when ${disclosed(n, sql`owners`)} then round(${quantile(prices, n, '0.75')}) end,
        'median_per_km', case when ${disclosed(kmN, sql`km_owners`)} then round(${quantile(perKm, kmN, '0.5')}, 2) end)), '[]')::text as months
    from by_month`.execute(db);
  const found = new Map((JSON.parse(rows[0]?.months ?? '[]') as LaneMonth[]).map((m) => [m.month, m]));
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return window.months.map((month) => {
    const m = found.get(month);
    return m
      ? { month, count: Number(m.count), median: num(m.median), p25: num(m.p25), p75: num(m.p75), median_per_km: num(m.median_per_km) }
      : { month, count: 0, median: null, p25: null, p75: null, median_per_km: null };
  });
}
