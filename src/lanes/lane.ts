import { DateTime } from 'luxon';
import type { LanePricesRelease } from '../config/config.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readInt, readString, type Params } from '../kernel/params.ts';
import { formatPlacePattern, parsePlacePattern, readLoadSearch, type PlacePattern } from '../market/index.ts';
import { isAirportCode, POSTAL_AREA } from '../places/index.ts';

/**
 * What a lane-price request asks (docs/reference.md#lane-prices): the lane as two load-search patterns (§7,
 * read by the market module), the months back from now, the currency. The rules of disclosure are
 * here too, once: the statement (store.ts) applies them before any figure leaves the database.
 */

export const MIN_MONTHS = 1;
export const MAX_MONTHS = 36;
export const DEFAULT_MONTHS = 12;
export const DEFAULT_CURRENCY = 'EUR';

/**
 * A month's figures are shown only when they come from at least MIN_AWARDS awards of at least
 * MIN_OWNERS different owner companies (docs/reference.md#lane-prices); else its count alone. The per-km
 * median is a figure of its own set (the awards with both ends' coordinates) and needs the same.
 * Awards join the figures in batches (cells.ts) that meet the same threshold by themselves.
 */
export const MIN_AWARDS = 5;
export const MIN_OWNERS = 3;

/**
 * Which batches are released (LANE_PRICES_RELEASE, read by config): `threshold`, the contract's
 * (the default), or `strict`, an operator's opt-in against insiders (docs/choices.md, "Lane
 * prices", the bracketing attack).
 */
export type LaneRelease = LanePricesRelease;

/**
 * Under `strict`: a batch is released only when, for every coalition of at most COALITION_MAX
 * companies (owners or winners, any mix), the batch's awards in which no member took part number
 * at least OTHERS_MIN_AWARDS, of at least OTHERS_MIN_PARTIES owners and OTHERS_MIN_PARTIES
 * winners (docs/choices.md, "Lane prices": the math). A coalition knows the prices of every
 * award a member took part in and may have chosen them; the three quartiles give it at most three
 * equations in the prices it does not know: with four or more of them, at least one stays unknown
 * whatever prices it chose, and what it learns is spread over two owners and two carriers at
 * least. COALITION_MAX = 4 resists the review's attack (2 shippers and 2 carriers, 4 fabricated
 * awards around 3 victims); five companies that together took part in all but three awards of a
 * batch would read those three, so such a batch is never released.
 */
export const OTHERS_MIN_AWARDS = 4;
export const OTHERS_MIN_PARTIES = 2;
export const COALITION_MAX = 4;

/**
 * Whether a batch (its awards' owners and winners, position by position) resists every coalition
 * of at most `k` companies (above). Exact, and quick for any batch: a coalition breaks the rule
 * when the awards it took no part in are fewer than OTHERS_MIN_AWARDS (it took part in all but at
 * most three), or all of one owner, or all of one winner (or none). Each is the question whether
 * at most `k` companies can take part in every award of a set but a few, which a search answers
 * by taking the first award nobody chosen took part in: its owner joins, or its winner, or (while
 * a few may stay unknown) it stays unknown. At most 3^(k+3) branches, each a pass over the batch.
 */
export function resistsCoalitions(owners: readonly number[], winners: readonly number[], k = COALITION_MAX): boolean {
  const all = owners.map((_, i) => i);
  // Awards of which no two share a company: each company of a coalition takes part in at most one
  // of them. So k + 4 of them leave every coalition four unknown awards of four owners and four
  // winners, and k + 2 leave it two of two owners and two winners: the searches are then needless.
  const apart = disjointAwards(owners, winners);
  if (apart >= k + OTHERS_MIN_AWARDS) return true;
  if (covers(owners, winners, all, k, OTHERS_MIN_AWARDS - 1)) return false;
  if (apart >= k + OTHERS_MIN_PARTIES) return true;
  // The unknown awards all of one owner (or of one winner): the others covered by at most k companies.
  for (const side of [owners, winners])
    for (const one of new Set(side))
      if (
        covers(
          owners,
          winners,
          all.filter((i) => side[i] !== one),
          k,
          0,
        )
      )
        return false;
  return true;
}

/** How many awards a greedy pass finds of which no two share a company (a maximal matching of the batch). */
function disjointAwards(owners: readonly number[], winners: readonly number[]): number {
  const used = new Set<number>();
  let found = 0;
  owners.forEach((o, i) => {
    const w = winners[i]!;
    if (used.has(o) || used.has(w)) return;
    used.add(o).add(w);
    found++;
  });
  return found;
}

/**
 * Whether at most `k` companies (owners or winners) take part in every award of `awards` but at
 * most `spare` of them: the first award none of the chosen took part in gets its owner, or its
 * winner, or stays unknown (while `spare` allows).
 */
function covers(
  owners: readonly number[],
  winners: readonly number[],
  awards: readonly number[],
  k: number,
  spare: number,
  chosen: ReadonlySet<number> = new Set(),
  from = 0,
): boolean {
  let at = from;
  while (at < awards.length && (chosen.has(owners[awards[at]!]!) || chosen.has(winners[awards[at]!]!))) at++;
  if (at === awards.length) return true;
  const i = awards[at]!;
  if (k > 0) {
    for (const company of [owners[i]!, winners[i]!])
      if (covers(owners, winners, awards, k - 1, spare, new Set([...chosen, company]), at)) return true;
  }
  return spare > 0 && covers(owners, winners, awards, k, spare - 1, chosen, at + 1);
}

export interface LaneQuery {
  from: PlacePattern[];
  to: PlacePattern[];
  months: number;
  currency: string;
}

/** The lane as the answer and the links write it back: the patterns normalised, comma-separated. */
export const laneText = (patterns: readonly PlacePattern[]) => patterns.map(formatPlacePattern).join(',');

/**
 * Reads the request. `from` and `to` are required (a lane has two ends): missing, or without one
 * readable pattern, the answer is `undefined` (the endpoint refuses with `prices.lane_required`).
 * An unreadable pattern among readable ones, `months` outside 1–36 and a currency that is not
 * three letters are ignored with a warning (docs/reference.md#the-api).
 */
export function readLaneQuery(params: Params, zone: string, warnings: Warning[]): LaneQuery | undefined {
  // Only the two place parameters of the load search: its other parameters narrow no lane.
  const search = readLoadSearch({ from: params.from, to: params.to }, zone, warnings);
  const rawMonths = params.months;
  let months = DEFAULT_MONTHS;
  if (rawMonths !== undefined && rawMonths !== null && rawMonths !== '') {
    const n = readInt(rawMonths);
    if (n === undefined || n < MIN_MONTHS || n > MAX_MONTHS)
      warnings.push({ field: 'months', reason: `not a whole number from ${MIN_MONTHS} to ${MAX_MONTHS}: ${DEFAULT_MONTHS} used` });
    else months = n;
  }
  let currency = DEFAULT_CURRENCY;
  const rawCurrency = params.currency;
  if (rawCurrency !== undefined && rawCurrency !== null && rawCurrency !== '') {
    const code = readString(rawCurrency)?.trim();
    if (code && /^[A-Za-z]{3}$/.test(code)) currency = code.toUpperCase();
    else warnings.push({ field: 'currency', reason: `not a three-letter currency code: ${DEFAULT_CURRENCY} used` });
  }
  if (!search.from || !search.to) return undefined;
  return { from: toCells(search.from, 'from', warnings), to: toCells(search.to, 'to', warnings), months, currency };
}

/**
 * The widest lane around a lane that figures can come from (issue 47, item 10): each postal area
 * read as its country (DE-80 → PL-00 widens to DE → PL), an airport kept; undefined when that is
 * the lane itself. Its figures are those of asking the wider lane directly, so showing them beside
 * the lane tells nothing that answer does not (docs/choices.md, "Lane prices").
 */
export function countryLane(query: LaneQuery): LaneQuery | undefined {
  const widen = (patterns: PlacePattern[]) => {
    const out: PlacePattern[] = [];
    for (const p of patterns) {
      const wide: PlacePattern = p.kind === 'postal' ? { kind: 'country', country: p.country } : p;
      if (!out.some((q) => formatPlacePattern(q) === formatPlacePattern(wide))) out.push(wide);
    }
    return out;
  };
  const from = widen(query.from);
  const to = widen(query.to);
  return laneText(from) === laneText(query.from) && laneText(to) === laneText(query.to) ? undefined : { ...query, from, to };
}

/**
 * How many more awards the lane's current month needs at least before it can show figures: the
 * threshold's 5 less its count, at least 1 (5 awards of fewer than 3 shippers need another
 * shipper's); from `count` alone, which every answer shows.
 */
export const awardsNeeded = (count: number): number => Math.max(1, MIN_AWARDS - count);

/** A lane cell's postal area: a country and the postal code's first two characters (cells.ts; places' POSTAL_AREA). */
export const CELL_PREFIX = POSTAL_AREA;

/**
 * Prices are kept per lane cell (a postal area of two characters, an airport, a country), so a
 * longer postal prefix is read as its area, with a warning: DE-603 asks DE-60. Figures for less
 * than an area would let two answers differ by one deal (docs/choices.md, "Lane prices").
 */
function toCells(patterns: PlacePattern[], field: 'from' | 'to', warnings: Warning[]): PlacePattern[] {
  const out: PlacePattern[] = [];
  for (const p of patterns) {
    const cell = p.kind === 'postal' && p.prefix.length > CELL_PREFIX ? { ...p, prefix: p.prefix.slice(0, CELL_PREFIX) } : p;
    if (cell !== p)
      warnings.push({ field, reason: `prices are kept per postal area: ${formatPlacePattern(p)} read as ${formatPlacePattern(cell)}` });
    if (!out.some((q) => formatPlacePattern(q) === formatPlacePattern(cell))) out.push(cell);
  }
  return out;
}

/**
 * The months of the window, oldest first (`YYYY-MM` in the zone). The zone is read once, for the
 * current month; the rest is arithmetic on (year, month) (luxon's `plus` and `toFormat` per month
 * cost about 1 ms a request).
 */
export function monthWindow(now: Date, zone: string, months: number): string[] {
  const current = DateTime.fromJSDate(now, { zone });
  const last = current.year * 12 + (current.month - 1);
  return Array.from({ length: months }, (_, i) => {
    const m = last - (months - 1) + i;
    return `${String(Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

/**
 * The lane a freight is on, as patterns: an airport code is the airport, a postal code its
 * country and first two characters (DE-60, the contract's example), else the country alone.
 * Undefined when an end has none of these.
 */
export function laneOfFreight(f: {
  from?: string | null;
  from_country?: string | null;
  to?: string | null;
  to_country?: string | null;
}): { from: PlacePattern[]; to: PlacePattern[] } | undefined {
  const end = (code: string | null | undefined, country: string | null | undefined): PlacePattern | undefined => {
    const key = (code ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
    const c = (country ?? '').trim().toUpperCase();
    if (isAirportCode(key)) {
      const airport = parsePlacePattern(`airport:${key}`);
      if (typeof airport !== 'string') return airport;
    }
    if (c && key.length >= 2) {
      const postal = parsePlacePattern(`${c}-${key.slice(0, 2)}`);
      if (typeof postal !== 'string') return postal;
    }
    const byCountry = c ? parsePlacePattern(c) : undefined;
    return byCountry && typeof byCountry !== 'string' ? byCountry : undefined;
  };
  const from = end(f.from, f.from_country);
  const to = end(f.to, f.to_country);
  return from && to ? { from: [from], to: [to] } : undefined;
}
