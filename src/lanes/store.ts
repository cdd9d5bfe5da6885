import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { executeShape } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { approves, approveStrict, batchMayWait, cellsMatch, releaseSet, releaseWaits, type Approval } from './cells.ts';
import { MIN_AWARDS, MIN_OWNERS, monthWindow, type LaneQuery, type LaneRelease } from './lane.ts';

/**
 * The lane prices' statement (docs/reference.md#lane-prices): the lane's cells (cells.ts) in the window,
 * released where a whole batch waits under the operator's rule (the statement's update), then by month: the count of every
 * award, and the quartiles and per-km median of the released ones where the disclosure rule of
 * lane.ts holds. Figures of a month below the rule are never computed, so they cannot leave the
 * database.
 *
 * Quartiles are exact on the decimal prices (linear interpolation between the two nearest
 * prices, as percentile_cont, but over numeric: percentile_cont works in float8 and could round
 * a .5 the wrong way), then rounded to whole units (median, p25, p75) and cents (per km): a
 * figure is a market price, not a deal's (docs/choices.md, "Lane prices").
 *
 * Generated SQL (PostgreSQL), for DE-60 -> FR-75, 12 months, EUR:
 *   with cell as (select c.id from lane_price_cells c where c.zone = $1 and c.currency = $2 and c.month = any($3)
 *                   and (c.from_country = $4 and not c.from_airport and left(c.from_key, $5) = $6)
 *                   and (c.to_country = $7 and not c.to_airport and left(c.to_key, $8) = $9)),
 *     released as (update lane_price_cells as c set <cells.ts releaseSet: prices, owners, winners sorted, counted, released>
 *                    from cell where c.id = cell.id and <a batch waits: c.awards - c.released >= 5 and …>
 *                    returning c.id, c.released, c.prices, …, c.released_median, c.released_p25, …),
 *     shown as (select c.id, c.month, c.awards, coalesce(r.released, c.released) as rel, …,
 *                 <r's or c's released_median, _p25, _p75, km_released_median> as median, p25, p75, km_median
 *               from lane_price_cells c join cell using (id) left join released r using (id)),
 *     counted as materialized (select month, count(*) as cells, sum(awards)::int as n from shown group by month),
 *     award as (select s.month, p.price, p.owner from shown s join counted m on m.month = s.month and m.cells > 1
 *               join lane_price_cells c on c.id = s.id left join released r on r.id = s.id
 *               cross join lateral unnest(coalesce(r.prices, c.prices)[1:s.rel], coalesce(r.owners, c.owners)[1:s.rel]) as p(price, owner)),
 *     km_award as (… the same over km_prices, km_owners, km_rel),
 *     by_month as materialized (select month, n, owners, <quantiles 0.5, 0.25, 0.75 of prices> from
 *                 (select month, count(*) as n, count(distinct owner) as owners, array_agg(price order by price) as prices
 *                  from award group by month) as merged
 *               union all select s.month, s.rel, s.rel_owners, s.median, s.p25, s.p75 from shown s join counted m on … and m.cells = 1),
 *     km_month as materialized (… the same over km_award and the one-cell months)
 *   select coalesce(json_agg(json_build_object('month', month, 'count', counted.n,
 *            'median', case when by_month.n >= 5 and owners >= 3 then round(by_month.median) end, 'p25', …, 'p75', …,
 *            'median_per_km', case when km_month.n >= 5 and km_owners >= 3 then round(km_month.km_median, 2) end,
 *            'released', <by_month.n where shown, else 0>, 'released_per_km', <km_month.n likewise>)), '[]')::text
 *   from counted left join by_month using (month) left join km_month using (month)
 * Plan at 100,000 freights: lane_price_cells_cell_idx on currency, countries and month; a dozen
 * rows for a postal lane over 12 months. A cell is read as numbers: whether a batch waits is its
 * `awards` against `released`, and a month of one cell (a postal lane) takes the quartiles of its
 * released prefix that PostgreSQL keeps beside the arrays (migration 0240: generated columns, the
 * same `quantile` over the prefix the release sorted), so the arrays (hundreds of awards a month
 * on a busy lane) are read only to release a batch or to merge a month of several cells. The
 * months' aggregates are MATERIALIZED: the planner guesses one row for each and would otherwise
 * run them again for every month (36 months of 1,000 awards each: 410 ms; materialized 80 ms).
 */

/** One month of the answer; figures null where the disclosure rule does not hold. */
export interface LaneMonth {
  month: string;
  /** every award of the month on the lane */
  count: number;
  median: number | null;
  p25: number | null;
  p75: number | null;
  median_per_km: number | null;
  /** the awards median, p25 and p75 rest on (the released ones; 0 while they are null) */
  released: number;
  /** the awards median_per_km rests on (released, with both ends' coordinates; 0 while it is null) */
  released_per_km: number;
}

/** The p-quantile of a sorted numeric array of n values, interpolated linearly, exact (numeric). */
export function quantile(values: RawBuilder<unknown>, n: RawBuilder<unknown>, p: '0.25' | '0.5' | '0.75') {
  const h = sql`((${n} - 1) * ${sql.raw(p)})`;
  const lo = sql`(floor(${h})::int + 1)`;
  const hi = sql`(ceil(${h})::int + 1)`;
  return sql`(${values}[${lo}] + (${h} - floor(${h})) * (${values}[${hi}] - ${values}[${lo}]))`;
}

export const disclosed = (n: RawBuilder<unknown>, owners: RawBuilder<unknown>) =>
  sql`(${n} >= ${sql.lit(MIN_AWARDS)} and ${owners} >= ${sql.lit(MIN_OWNERS)})`;

/**
 * The lane's months, oldest first, every month of the window (count 0 for a month without
 * awards). `rule`: which batches are released (LANE_PRICES_RELEASE; the cells were built under
 * it at start). `release: false` for a replica, which cannot write: the figures as released so
 * far, and `waiting` says whether a batch waits (the caller then asks the primary, which releases it).
 *
 * On the primary the lane is read first without the release (a read-only statement, a third of the
 * planning of the one with the UPDATE); only where a batch waits, which the read says, does the
 * statement with the release run, and its answer is the one given. So the figures are what the
 * release leaves, as before, and the common read (nothing waiting) writes nothing.
 */
export async function lanePrices(
  db: Kysely<DB>,
  q: LaneQuery,
  now: Date,
  zone: string,
  options: { rule: LaneRelease; release?: boolean },
): Promise<{ months: LaneMonth[]; waiting: boolean }> {
  const read = await laneMonths(db, q, now, zone, options.rule, false);
  if (!read.waiting || options.release === false) return read;
  if (options.rule === 'threshold') return laneMonths(db, q, now, zone, options.rule, true);
  // Under `strict` the read says that a batch may wait: its coalitions are checked over the
  // batch (cells.ts approveStrict), and only the cells that resist them are released.
  const approval = await approveStrict(db, laneCells(q, monthWindow(now, zone, q.months), zone));
  return approves(approval) ? laneMonths(db, q, now, zone, options.rule, approval) : read;
}

/** The lane's cells of the window (over `c`). */
const laneCells = (q: LaneQuery, window: string[], zone: string) =>
  sql<SqlBool>`c.zone = ${zone} and c.currency = ${q.currency} and c.month = any(${window}::text[])
    and ${cellsMatch('from', q.from)} and ${cellsMatch('to', q.to)}`;

/**
 * The statement of lanePrices, with the release (`release`: true, or under `strict` the cells
 * approved) or without it (then `waiting` is read).
 */
async function laneMonths(
  db: Kysely<DB>,
  q: LaneQuery,
  now: Date,
  zone: string,
  rule: LaneRelease,
  release: boolean | Approval,
): Promise<{ months: LaneMonth[]; waiting: boolean }> {
  const approval = typeof release === 'object' ? release : undefined;
  const window = monthWindow(now, zone, q.months);
  const prices = sql`prices`;
  const perKm = sql`per_km`;
  const n = sql`by_month.n`;
  const kmN = sql`km_month.n`;
  const statement = sql<{ months: string; waiting: boolean }>`with cell as (
      select c.id from lane_price_cells c where ${laneCells(q, window, zone)}),
    released as (${
      release
        ? sql`update lane_price_cells as c set ${releaseSet(rule, approval)}
      from cell where c.id = cell.id and ${releaseWaits(rule, approval)}
      returning c.id, c.released, c.km_released, c.prices, c.owners, c.km_prices, c.km_owners, c.owners_released, c.km_owners_released,
        c.released_median, c.released_p25, c.released_p75, c.km_released_median`
        : sql`select null::bigint as id, 0 as released, 0 as km_released, null::numeric[] as prices, null::int[] as owners,
            null::numeric[] as km_prices, null::int[] as km_owners, 0 as owners_released, 0 as km_owners_released,
            null::numeric as released_median, null::numeric as released_p25, null::numeric as released_p75,
            null::numeric as km_released_median where false`
    }),
    -- The cells as numbers (the row as this statement's release left it): no array is read here.
    shown as (
      select c.id, c.month, c.awards,
             coalesce(r.released, c.released) as rel, coalesce(r.km_released, c.km_released) as km_rel,
             coalesce(r.owners_released, c.owners_released) as rel_owners, coalesce(r.km_owners_released, c.km_owners_released) as km_rel_owners,
             case when r.id is null then c.released_median else r.released_median end as median,
             case when r.id is null then c.released_p25 else r.released_p25 end as p25,
             case when r.id is null then c.released_p75 else r.released_p75 end as p75,
             case when r.id is null then c.km_released_median else r.km_released_median end as km_median
      from lane_price_cells c join cell using (id) left join released r using (id)),
    counted as materialized (select month, count(*)::int as cells, sum(awards)::int as n from shown group by month),
    -- A month of several cells: their released prices merged and sorted (the arrays read only here).
    award as (
      select s.month, p.price, p.owner from shown s join counted m on m.month = s.month and m.cells > 1
      join lane_price_cells c on c.id = s.id left join released r on r.id = s.id
      cross join lateral unnest((coalesce(r.prices, c.prices))[1:s.rel], (coalesce(r.owners, c.owners))[1:s.rel]) as p(price, owner)),
    km_award as (
      select s.month, k.per_km, k.owner from shown s join counted m on m.month = s.month and m.cells > 1
      join lane_price_cells c on c.id = s.id left join released r on r.id = s.id
      cross join lateral unnest((coalesce(r.km_prices, c.km_prices))[1:s.km_rel], (coalesce(r.km_owners, c.km_owners))[1:s.km_rel]) as k(per_km, owner)),
    -- A month of one cell: its released figures as PostgreSQL keeps them (migration 0240).
    by_month as materialized (
      select month, n, owners, ${quantile(prices, sql`n`, '0.5')} as median, ${quantile(prices, sql`n`, '0.25')} as p25,
             ${quantile(prices, sql`n`, '0.75')} as p75
      from (select month, count(*)::int as n, count(distinct owner)::int as owners, array_agg(price order by price) as prices
            from award group by month) as merged
      union all
      select s.month, s.rel, s.rel_owners, s.median, s.p25, s.p75 from shown s join counted m on m.month = s.month and m.cells = 1),
    km_month as materialized (
      select month, n, km_owners, ${quantile(perKm, sql`n`, '0.5')} as km_median
      from (select month, count(*)::int as n, count(distinct owner)::int as km_owners, array_agg(per_km order by per_km) as per_km
            from km_award group by month) as merged
      union all
      select s.month, s.km_rel, s.km_rel_owners, s.km_median from shown s join counted m on m.month = s.month and m.cells = 1)
    select (select coalesce(json_agg(json_build_object(
        'month', counted.month, 'count', counted.n,
        'median', case when ${disclosed(n, sql`owners`)} then round(by_month.median) end,
        'p25', case when ${disclosed(n, sql`owners`)} then round(by_month.p25) end,
        'p75', case when ${disclosed(n, sql`owners`)} then round(by_month.p75) end,
        'median_per_km', case when ${disclosed(kmN, sql`km_owners`)} then round(km_month.km_median, 2) end,
        'released', case when ${disclosed(n, sql`owners`)} then ${n} else 0 end,
        'released_per_km', case when ${disclosed(kmN, sql`km_owners`)} then ${kmN} else 0 end)), '[]')::text as months
    from counted left join by_month using (month) left join km_month using (month)) as months,
    ${release ? sql`false` : sql`(select coalesce(bool_or(${batchMayWait(rule)}), false) from lane_price_cells c join cell using (id))`} as waiting`;
  // Prepared by its text (one per lane shape: the kinds and number of patterns) and run on its
  // generic plan: planning these CTEs costs PostgreSQL 2.5 ms, twice what running them costs for a
  // busy postal lane, and PostgreSQL keeps planning a statement whose generic plan it estimates
  // dearer than a custom one (it is not: 0.4 against 1.2-1.4 ms of execution, measured).
  const rows = await executeShape<{ months: string; waiting: boolean }>(db, statement.compile(db), { generic: true });
  const found = new Map((JSON.parse(rows[0]?.months ?? '[]') as LaneMonth[]).map((m) => [m.month, m]));
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  const months = window.map((month) => {
    const m = found.get(month);
    return m
      ? {
          month,
          count: Number(m.count),
          median: num(m.median),
          p25: num(m.p25),
          p75: num(m.p75),
          median_per_km: num(m.median_per_km),
          released: Number(m.released),
          released_per_km: Number(m.released_per_km),
        }
      : { month, count: 0, median: null, p25: null, p75: null, median_per_km: null, released: 0, released_per_km: 0 };
  });
  return { months, waiting: rows[0]?.waiting === true };
}
