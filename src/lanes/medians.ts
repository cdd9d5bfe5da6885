import { sql } from 'kysely';
import type { Ctx } from '../kernel/context.ts';
import { parsePlacePattern } from '../market/index.ts';
import { approves, approveStrict, batchMayWait, releaseSet, releaseWaits } from './cells.ts';
import { CELL_PREFIX, DEFAULT_MONTHS, monthWindow } from './lane.ts';
import { disclosed, quantile } from './store.ts';

/**
 * The last median of many lanes at once (docs/reference.md#lane-prices): what lastMedianOf answers for one
 * lane, for every lane of a list (a tender's thousand lanes beside their bids), in one statement
 * over the lanes as arrays instead of a statement per lane. Each lane is two load-search patterns
 * (a country, or a country's postal prefix: read as its area, as the prices page reads it); an
 * airport end has no figure here. The figures are those of the prices page: the newest month of
 * the default window (12 months) whose released awards meet the disclosure rule, its median
 * rounded to whole units, in `currency`.
 *
 * Release as lanePrices does it: the lanes are read without it; where a batch waits in one of
 * their cells (the read names those cells) and the request may write, the waiting cells are
 * released (under `strict`, those whose batch resists the coalitions) and the lanes read again.
 * So one to three statements (four under `strict`), whatever the number of lanes.
 */

export interface LaneEnds {
  from: string;
  to: string;
}

/** One end as the cells' columns read it: the country, and for a postal pattern its prefix (at most an area's two characters). */
function endOf(text: string): { country: string; postal: boolean; prefix: string } | undefined {
  const p = parsePlacePattern(text);
  if (typeof p === 'string' || p.kind === 'airport') return undefined;
  return p.kind === 'country'
    ? { country: p.country, postal: false, prefix: '' }
    : { country: p.country, postal: true, prefix: p.prefix.slice(0, CELL_PREFIX) };
}

/** The lanes' last medians by `from>to` (the patterns' text as given); a lane without figures, or with an airport end, is absent. */
export async function lastMediansOf(ctx: Ctx, lanes: readonly LaneEnds[], currency: string): Promise<Map<string, number>> {
  const keys: string[] = [];
  const cols = { fc: [] as string[], fp: [] as boolean[], fk: [] as string[], tc: [] as string[], tp: [] as boolean[], tk: [] as string[] };
  const seen = new Set<string>();
  for (const l of lanes) {
    const key = `${l.from}>${l.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const [from, to] = [endOf(l.from), endOf(l.to)];
    if (!from || !to) continue;
    keys.push(key);
    cols.fc.push(from.country);
    cols.fp.push(from.postal);
    cols.fk.push(from.prefix);
    cols.tc.push(to.country);
    cols.tp.push(to.postal);
    cols.tk.push(to.prefix);
  }
  const out = new Map<string, number>();
  if (!keys.length) return out;
  const { zone } = ctx.clock;
  const rule = ctx.services.config.lanePricesRelease;
  const window = monthWindow(ctx.clock.now(), zone, DEFAULT_MONTHS);
  const cur = /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : 'EUR';
  const read = async () => {
    const statement = sql<{ medians: string | null; waiting: string[] | null }>`with lane as (
        select * from unnest(${cols.fc}::text[], ${cols.fp}::boolean[], ${cols.fk}::text[], ${cols.tc}::text[], ${cols.tp}::boolean[],
                             ${cols.tk}::text[]) with ordinality as l(fc, fp, fk, tc, tp, tk, i)),
      -- Each lane's cells of the window: the cell index's way in (currency, the two countries, the month), the keys inside.
      cell as materialized (
        select l.i as lane, c.id, c.month, c.released as rel, c.owners_released as rel_owners, c.released_median as median
        from lane l join lane_price_cells c
          on c.zone = ${zone} and c.currency = ${cur} and c.from_country = l.fc and c.to_country = l.tc and c.month = any(${window}::text[])
         and (not l.fp or (not c.from_airport and starts_with(c.from_key, l.fk)))
         and (not l.tp or (not c.to_airport and starts_with(c.to_key, l.tk)))),
      counted as materialized (select lane, month, count(*)::int as cells from cell group by lane, month),
      -- A month of several cells: their released prices merged (lanePrices' award and by_month); of one cell, its kept figures.
      merged as (
        select s.lane, s.month, count(*)::int as n, count(distinct p.owner)::int as owners, array_agg(p.price order by p.price) as prices
        from cell s join counted m on m.lane = s.lane and m.month = s.month and m.cells > 1
        join lane_price_cells c on c.id = s.id
        cross join lateral unnest(c.prices[1:s.rel], c.owners[1:s.rel]) as p(price, owner)
        group by s.lane, s.month),
      by_month as (
        select lane, month, n, owners, ${quantile(sql`prices`, sql`n`, '0.5')} as median from merged
        union all
        select s.lane, s.month, s.rel, s.rel_owners, s.median from cell s join counted m on m.lane = s.lane and m.month = s.month and m.cells = 1),
      last as (
        select distinct on (lane) lane, round(median)::text as median from by_month
        where ${disclosed(sql`n`, sql`owners`)} order by lane, month desc)
      select (select json_agg(json_build_array(lane, median))::text from last) as medians,
             (select array_agg(c.id)::text[] from lane_price_cells c where c.id in (select id from cell) and ${batchMayWait(rule)}) as waiting`;
    const [row] = (await statement.execute(ctx.db)).rows;
    return { medians: JSON.parse(row?.medians ?? '[]') as Array<[number, string]>, waiting: row?.waiting ?? [] };
  };
  let found = await read();
  // A batch waits in some cell: released on the primary (a replica reads the figures released so far).
  if (found.waiting.length && ctx.db === ctx.services.db) {
    const ids = sql`c.id = any(${found.waiting}::bigint[])`;
    const approval = rule === 'strict' ? await approveStrict(ctx.db, sql`${ids}`) : undefined;
    if (!approval || approves(approval)) {
      await sql`update lane_price_cells as c set ${releaseSet(rule, approval)} where ${ids} and ${releaseWaits(rule, approval)}`.execute(
        ctx.db,
      );
      found = await read();
    }
  }
  for (const [lane, median] of found.medians) out.set(keys[Number(lane) - 1]!, Number(median));
  return out;
}
