import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import type { AwardStep } from '../freights/index.ts';
import { awardRowsSql } from './awards.ts';
import type { PlacePattern } from '../market/index.ts';
import {
  COALITION_MAX,
  MIN_AWARDS,
  MIN_OWNERS,
  OTHERS_MIN_AWARDS,
  OTHERS_MIN_PARTIES,
  resistsCoalitions,
  type LaneRelease,
} from './lane.ts';
import { isAirportCodeSql } from '../places/index.ts';

/**
 * The lane cells (migrations 0100, 0200): the awards of one origin cell, destination cell, month
 * (in APP_TIMEZONE) and currency, kept as arrays in award order (price, owner, winner; per km the
 * same over the awards with coordinates), and how many of them are released.
 *
 * A cell is a postal area (country and the postal code's first two characters: DE-60), an airport
 * (a three-letter code), or a country alone (a place without a postal code). Every lane query is a
 * union of whole cells, so two answers can differ only by whole cells.
 *
 * Release (docs/choices.md, "Lane prices"): the figures of a cell come from its first `released`
 * awards. They grow only by a whole batch, at the first read that finds one waiting. The batch
 * rule is the operator's (LANE_PRICES_RELEASE, lane.ts): `threshold`, the contract's, at least
 * MIN_AWARDS awards of at least MIN_OWNERS owner companies; `strict` also asks that no company (as
 * owner or as winner) takes part in so many that it could read the others' prices off the
 * quartiles (OTHERS_MIN_AWARDS). Per-km figures the same, over the awards with both ends'
 * coordinates (`km_released`). So two answers of a cell differ by a whole batch, never by one
 * deal. The cells are built under one rule: a start under another rebuilds them (ensureLaneCells).
 */

/** The cell of one end of an award row `a` (awardRowsSql): country, key, airport or not. */
function cellOf(side: 'from' | 'to') {
  const code = sql.ref(`a.${side}_code`);
  const airport = sql<boolean>`coalesce(${isAirportCodeSql(code)}, false)`;
  return {
    country: sql<string>`upper(coalesce(${sql.ref(`a.${side}_country`)}, ''))`,
    airport,
    key: sql<string>`(case when ${airport} then upper(${code})
      else left(upper(regexp_replace(coalesce(${code}, ''), '[^0-9A-Za-z]', '', 'g')), 2) end)`,
  };
}

const from = cellOf('from');
const to = cellOf('to');
const monthOf = (zone: string) => sql<string>`to_char(timezone(${zone}, a.awarded), 'YYYY-MM')`;
/** Price per km of an award whose ends lie at least 1 km apart; null otherwise. */
const perKm = sql`(case when a.km >= 1 then a.price / a.km::numeric end)`;
const CELL = sql.raw('currency, from_country, to_country, month, from_key, from_airport, to_key, to_airport, zone');
const ARRAYS = sql.raw('prices, owners, winners, km_prices, km_owners, km_winners');

/**
 * Adds one award to its cell, in the award's transaction (enterLaneCell, the award path's step):
 * nothing for a freight that is no market award (air, own bid). Not released here: the next read
 * releases when a whole batch waits.
 */
export async function recordLaneAward(db: Db, zone: string, freightId: number): Promise<void> {
  await sql`insert into lane_price_cells (${CELL}, ${ARRAYS})
    select a.currency, ${from.country}, ${to.country}, ${monthOf(zone)}, ${from.key}, ${from.airport}, ${to.key}, ${to.airport}, ${zone},
           array[a.price], array[a.owner], array[a.winner],
           case when ${perKm} is null then '{}'::numeric[] else array[${perKm}] end,
           case when ${perKm} is null then '{}'::int[] else array[a.owner] end,
           case when ${perKm} is null then '{}'::int[] else array[a.winner] end
    from ${awardRowsSql(freightId)} as a
    on conflict (${CELL}) do update set
      prices = lane_price_cells.prices || excluded.prices, owners = lane_price_cells.owners || excluded.owners,
      winners = lane_price_cells.winners || excluded.winners,
      km_prices = lane_price_cells.km_prices || excluded.km_prices, km_owners = lane_price_cells.km_owners || excluded.km_owners,
      km_winners = lane_price_cells.km_winners || excluded.km_winners`.execute(db);
}

/** The award's step of the lane prices (app.ts registers it): a bid won, the award enters its cell; an own order is no market award. */
export const enterLaneCell: AwardStep = async (trx, clock, won) => {
  if (won.bid) await recordLaneAward(trx, clock.zone, won.freight.id);
};

/**
 * The release rule (lane.ts) over the awards from position `after` + 1 on of the `owners` and
 * `winners` arrays, of which there are `count` (the cell's `awards` or `km_awards` column, kept by
 * PostgreSQL: a cell with no batch waiting is told by two numbers, its arrays never read). `threshold` (the contract's): at least MIN_AWARDS awards of MIN_OWNERS
 * owners. `strict`: what SQL tells of it, the rule for a coalition of one company: for every
 * company taking part (owner or winner), the awards it took no part in number OTHERS_MIN_AWARDS,
 * of OTHERS_MIN_PARTIES owners and as many winners; the cheap tests first (evaluated in order, the
 * first false ends it): the size of the batch, its owners and winners, the largest company's part;
 * only then each company's others. Every batch that resists larger coalitions meets it, so under
 * `strict` it says that a batch may be released; the coalitions of up to COALITION_MAX companies
 * are then checked over the batch itself (approveStrict, lane.ts resistsCoalitions) and the
 * release names the cells that passed (`Approval`).
 */
function batchWaits(
  rule: LaneRelease,
  count: RawBuilder<unknown>,
  owners: RawBuilder<unknown>,
  winners: RawBuilder<unknown>,
  after: RawBuilder<unknown>,
) {
  const [o, w] = [sql`${owners}[${after} + 1:]`, sql`${winners}[${after} + 1:]`];
  if (rule === 'threshold')
    return sql<SqlBool>`(${count} - ${after} >= ${sql.lit(MIN_AWARDS)}
      and (select count(distinct b.o) from unnest(${o}) as b(o)) >= ${sql.lit(MIN_OWNERS)})`;
  return sql<SqlBool>`(case when ${count} - ${after} >= ${sql.lit(MIN_AWARDS)} then (
      select count(distinct b.o) >= ${sql.lit(MIN_OWNERS)} and count(distinct b.w) >= ${sql.lit(OTHERS_MIN_PARTIES + 1)}
        and count(*) - (select max(n) from (select count(*) as n from unnest(${o} || ${w}) as p(id) group by p.id) as part)
            >= ${sql.lit(OTHERS_MIN_AWARDS)}
        and not exists (
          select 1 from (select unnest(${o}) union select unnest(${w})) as p(id)
          where (select count(*) >= ${sql.lit(OTHERS_MIN_AWARDS)} and count(distinct r.o) >= ${sql.lit(OTHERS_MIN_PARTIES)}
                        and count(distinct r.w) >= ${sql.lit(OTHERS_MIN_PARTIES)}
                   from unnest(${o}, ${w}) as r(o, w) where r.o <> p.id and r.w <> p.id) is not true)
      from unnest(${o}, ${w}) as b(o, w))
    else false end)`;
}

/**
 * A release (an UPDATE's SET, over table `c`), where a whole batch waits: every award of the cell
 * becomes released, its prices sorted (owners and winners along with them) and its owners counted,
 * so that a month of one cell reads its quartiles from the sorted prefix without sorting
 * (store.ts). The order of released awards no longer matters: a batch is counted after the prefix.
 * Per-km the same.
 */
function release(
  rule: LaneRelease,
  kind: '' | 'km_',
  released: 'released' | 'km_released',
  counted: 'owners_released' | 'km_owners_released',
  approval: Approval | undefined,
) {
  const values = kind === '' ? 'prices' : 'km_prices';
  const [v, o, w] = [sql.ref(`c.${values}`), sql.ref(`c.${kind}owners`), sql.ref(`c.${kind}winners`)];
  const [r, n] = [sql.ref(`c.${released}`), sql.ref(`c.${counted}`)];
  const waits = waitsUnder(rule, kind, approval);
  const sorted = (col: 'v' | 'o' | 'w') =>
    sql`(select array_agg(x.${sql.raw(col)} order by x.v, x.o, x.w) from unnest(${v}, ${o}, ${w}) as x(v, o, w))`;
  return sql`${sql.ref(values)} = case when ${waits} then ${sorted('v')} else ${v} end,
    ${sql.ref(`${kind}owners`)} = case when ${waits} then ${sorted('o')} else ${o} end,
    ${sql.ref(`${kind}winners`)} = case when ${waits} then ${sorted('w')} else ${w} end,
    ${sql.ref(counted)} = case when ${waits} then (select count(distinct x) from unnest(${o}) as x)::int else ${n} end,
    ${sql.ref(released)} = case when ${waits} then cardinality(${v}) else ${r} end`;
}
/**
 * Under `strict`, the cells whose waiting batch resists the coalitions (approveStrict): their ids,
 * each with the `released` (`km_released`) its batch was read after. A cell released meanwhile
 * (another process, another request) is not released again by it: its batch would be another.
 */
export interface Approval {
  prices: { ids: string[]; after: number[] };
  km: { ids: string[]; after: number[] };
}

/** Whether a batch of prices (kind '') or per-km prices ('km_') of cell `c` is released: the rule, or under `strict` the approval. */
function waitsUnder(rule: LaneRelease, kind: '' | 'km_', approval: Approval | undefined) {
  const after = sql.ref(`c.${kind}released`);
  if (rule === 'strict') {
    const approved = kind === '' ? approval?.prices : approval?.km;
    if (!approved?.ids.length) return sql<SqlBool>`false`;
    return sql<SqlBool>`exists (select 1 from unnest(${approved.ids}::bigint[], ${approved.after}::int[]) as a(id, after)
      where a.id = c.id and a.after = ${after})`;
  }
  return batchWaits(rule, sql.ref(`c.${kind}awards`), sql.ref(`c.${kind}owners`), sql.ref(`c.${kind}winners`), after);
}

/** The release of every cell `c` where a batch waits under `rule` (an UPDATE's SET); under `strict`, the approved ones. */
export const releaseSet = (rule: LaneRelease, approval?: Approval) => sql`${release(rule, '', 'released', 'owners_released', approval)},
    ${release(rule, 'km_', 'km_released', 'km_owners_released', approval)}`;
/** Whether a batch is released in cell `c` under `rule` (under `strict`: approved), of prices or of per-km prices. */
export const releaseWaits = (rule: LaneRelease, approval?: Approval) =>
  sql<SqlBool>`(${waitsUnder(rule, '', approval)} or ${waitsUnder(rule, 'km_', approval)})`;
/**
 * Whether a batch may wait in cell `c`: the rule as SQL tells it (batchWaits; under `strict` the
 * coalitions are checked afterwards, approveStrict), of prices or of per-km prices.
 */
export const batchMayWait = (
  rule: LaneRelease,
) => sql<SqlBool>`(${batchWaits(rule, sql`c.awards`, sql`c.owners`, sql`c.winners`, sql`c.released`)}
    or ${batchWaits(rule, sql`c.km_awards`, sql`c.km_owners`, sql`c.km_winners`, sql`c.km_released`)})`;

/**
 * Under `strict`: the cells (`where`, over `c`) in which a batch may wait, their batches read
 * (owners and winners after the released prefix, of prices and of per-km prices) and checked
 * against every coalition of up to COALITION_MAX companies (lane.ts resistsCoalitions); answers
 * those that resist, for the release (releaseSet, releaseWaits). A batch that does not waits for
 * more awards: a larger batch resists whatever a smaller one did (an award added takes no unknown
 * award away from any coalition).
 */
export async function approveStrict(db: Db, where: RawBuilder<SqlBool>): Promise<Approval> {
  const rows = await sql<{
    id: string;
    released: number;
    owners: number[];
    winners: number[];
    km_released: number;
    km_owners: number[];
    km_winners: number[];
  }>`select c.id, c.released, c.owners[c.released + 1:] as owners, c.winners[c.released + 1:] as winners,
      c.km_released, c.km_owners[c.km_released + 1:] as km_owners, c.km_winners[c.km_released + 1:] as km_winners
    from lane_price_cells c where ${where} and ${batchMayWait('strict')}`.execute(db);
  const approval: Approval = { prices: { ids: [], after: [] }, km: { ids: [], after: [] } };
  for (const r of rows.rows) {
    // The SQL test admits a batch of prices or of per-km prices: each is checked if it has one.
    if (r.owners.length >= MIN_AWARDS && resistsCoalitions(r.owners, r.winners)) {
      approval.prices.ids.push(String(r.id));
      approval.prices.after.push(r.released);
    }
    if (r.km_owners.length >= MIN_AWARDS && resistsCoalitions(r.km_owners, r.km_winners)) {
      approval.km.ids.push(String(r.id));
      approval.km.after.push(r.km_released);
    }
  }
  return approval;
}

/** Whether an approval names any cell. */
export const approves = (a: Approval) => a.prices.ids.length > 0 || a.km.ids.length > 0;

/**
 * Rebuilds every cell from the awards, for `zone` and `rule`, when the cells were built for
 * another (a new database, an older one upgraded; APP_TIMEZONE changed: the months move;
 * LANE_PRICES_RELEASE changed: what was released under one rule must not stay released under a
 * stricter one, and a looser one releases what it allows), releasing what meets the rule, in one
 * transaction that holds the state row so that two processes starting together build once.
 * Answers whether it built.
 */
export async function ensureLaneCells(db: Kysely<DB>, zone: string, rule: LaneRelease): Promise<boolean> {
  const name = ruleName(rule);
  const current = (row: { zone: string; rule: string | null } | undefined) => row?.zone === zone && row.rule === name;
  const state = sql<{ zone: string; rule: string | null }>`select zone, rule from lane_price_state where id = 1`;
  if (current((await state.execute(db)).rows[0])) return false;
  return db.transaction().execute(async (trx) => {
    await sql`lock table lane_price_state in exclusive mode`.execute(trx);
    if (current((await state.execute(trx)).rows[0])) return false;
    await rebuildLaneCells(trx, zone, rule);
    await sql`insert into lane_price_state (id, zone, rule) values (1, ${zone}, ${name})
      on conflict (id) do update set zone = excluded.zone, rule = excluded.rule`.execute(trx);
    return true;
  });
}

/**
 * The rule as the cells record it (lane_price_state.rule): `strict` names the coalition size it
 * resists (issue 39: one company before, COALITION_MAX since), so cells released under an older
 * `strict` are rebuilt under the present one.
 */
export const ruleName = (rule: LaneRelease): string => (rule === 'strict' ? `strict/${COALITION_MAX}` : rule);

/** Every cell anew from the awards (in award order), released where `rule` holds. */
export async function rebuildLaneCells(db: Db, zone: string, rule: LaneRelease): Promise<void> {
  await sql`delete from lane_price_cells`.execute(db);
  const order = sql`order by a.awarded, a.freight`;
  await sql`insert into lane_price_cells (${CELL}, ${ARRAYS})
    select a.currency, ${from.country}, ${to.country}, ${monthOf(zone)}, ${from.key}, ${from.airport}, ${to.key}, ${to.airport}, ${zone},
           array_agg(a.price ${order}), array_agg(a.owner ${order}), array_agg(a.winner ${order}),
           coalesce(array_agg(${perKm} ${order}) filter (where ${perKm} is not null), '{}'),
           coalesce(array_agg(a.owner ${order}) filter (where ${perKm} is not null), '{}'),
           coalesce(array_agg(a.winner ${order}) filter (where ${perKm} is not null), '{}')
    from ${awardRowsSql()} as a
    group by 1, 2, 3, 4, 5, 6, 7, 8`.execute(db);
  const approval = rule === 'strict' ? await approveStrict(db, sql<SqlBool>`true`) : undefined;
  await sql`update lane_price_cells as c set ${releaseSet(rule, approval)} where ${releaseWaits(rule, approval)}`.execute(db);
}

/** One end of the lane over the cells' columns: any of the patterns (docs/reference.md#load-search). */
export function cellsMatch(side: 'from' | 'to', patterns: readonly PlacePattern[]): RawBuilder<SqlBool> {
  const country = sql.ref(`c.${side}_country`);
  const key = sql.ref(`c.${side}_key`);
  const airport = sql.ref(`c.${side}_airport`);
  const one = (p: PlacePattern) => {
    if (p.kind === 'country') return sql<SqlBool>`${country} = ${p.country}`;
    if (p.kind === 'airport') return sql<SqlBool>`(${airport} and ${key} = ${p.code})`;
    // A postal prefix is at most a cell's two characters (lane.ts widens a longer one).
    return sql<SqlBool>`(${country} = ${p.country} and not ${airport} and left(${key}, ${p.prefix.length}) = ${p.prefix})`;
  };
  return patterns.length === 1 ? one(patterns[0]!) : sql<SqlBool>`(${sql.join(patterns.map(one), sql` or `)})`;
}
