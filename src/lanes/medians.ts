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
  // Each pattern read once: a thousand lanes name a few dozen places (reading one looks its country up by name too).
  const ends = new Map<string, ReturnType<typeof endOf>>();
  const end = (text: string) => {
    if (!ends.has(text)) ends.set(text, endOf(text));
    return ends.get(text);
  };
  for (const l of lanes) {
    const key = `${l.from}>${l.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const [from, to] = [end(l.from), end(l.to)];
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
        select *, concat_ws(chr(31), fc, tc, fp, tp, fk, tk) collate "C" as key
        from unnest(${cols.fc}::text[], ${cols.fp}::boolean[], ${cols.fk}::text[], ${cols.tc}::text[], ${cols.tp}::boolean[],
                    ${cols.tk}::text[]) with ordinality as l(fc, fp, fk, tc, tp, tk, i)),
      -- Each lane's cells of the window, with how many the lane has that month and whether a batch may wait in
      -- the cell. The cells of the lanes' country pairs are read once (the cell index's way in), each keyed as a lane
      -- of each shape reads it (shape: postal or not, the prefix's length; a postal end by its key's first
      -- characters, which is starts_with as an equality, a country end by ''), and joined to the lanes on one
      -- key's equality (the lane's key, made alike; byte order, "C", for the join's sort). Joined on the countries and filtered by starts_with, a thousand lanes of one country
      -- pair met every cell of the pair (20 million pairs: seconds); the month's count joined back to the cells
      -- made a nested loop of 12,000 × 12,000 (an estimate of one row).
      cell as materialized (
        select l.i as lane, k.id, k.month, k.rel, k.rel_owners, k.median, k.waits, count(*) over (partition by l.i, k.month) as cells
        from (select c.id, c.month,
                     concat_ws(chr(31), c.from_country, c.to_country, s.fp, s.tp, case when s.fp then left(c.from_key, s.fn) else '' end,
                               case when s.tp then left(c.to_key, s.tn) else '' end) collate "C" as key,
                     c.released as rel, c.owners_released as rel_owners, c.released_median as median, ${batchMayWait(rule)} as waits
              from (select distinct fc, tc from lane) p
              join lane_price_cells c
                on c.zone = ${zone} and c.currency = ${cur} and c.from_country = p.fc and c.to_country = p.tc and c.month = any(${window}::text[])
              join (select distinct fp, length(fk) as fn, tp, length(tk) as tn from lane) s
                on (not s.fp or (not c.from_airport and length(c.from_key) >= s.fn))
               and (not s.tp or (not c.to_airport and length(c.to_key) >= s.tn))
              -- offset 0: read as written (the planner would join the lanes on the countries first).
              offset 0) k
        join lane l on k.key = l.key),
      -- A month of several cells: their released prices merged (lanePrices' award and by_month); of one cell, its kept figures.
      merged as (
        select s.lane, s.month, count(*)::int as n, count(distinct p.owner)::int as owners, array_agg(p.price order by p.price) as prices
        from cell s join lane_price_cells c on c.id = s.id and s.cells > 1
        cross join lateral unnest(c.prices[1:s.rel], c.owners[1:s.rel]) as p(price, owner)
        group by s.lane, s.month),
      by_month as (
        select lane, month, n, owners, ${quantile(sql`prices`, sql`n`, '0.5')} as median from merged
        union all
        select s.lane, s.month, s.rel, s.rel_owners, s.median from cell s where s.cells = 1),
      last as (
        select distinct on (lane) lane, round(median)::text as median from by_month
        where ${disclosed(sql`n`, sql`owners`)} order by lane, month desc)
      select (select json_agg(json_build_array(lane, median))::text from last) as medians,
             (select array_agg(distinct id)::text[] from cell where waits) as waiting`;
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
