import type { Ctx } from '../kernel/context.ts';
import { fail, ok, type Outcome, type Warning } from '../kernel/outcome.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { laneAreaOfText } from '../places/index.ts';
import { awardsNeeded, countryLane, laneOfFreight, laneText, readLaneQuery, type LaneQuery } from './lane.ts';
import { LANE_DOCS, type LanePricesData } from './schema.ts';
import { lanePrices } from './store.ts';
import { pricesPage } from './views.tsx';

/** GET /market/prices (docs/reference.md#lane-prices): the lane's prices by month, as JSON and as a page with its chart. */

interface Read {
  query: LaneQuery | undefined;
  warnings: Warning[];
}

const readQuery = async (ctx: Ctx): Promise<Read> => {
  const warnings: Warning[] = [];
  // The page's form takes places as people type them ("München", "Polen"; docs/choices.md,
  // Typed places); the JSON API reads its own forms only.
  const params = ctx.format === 'html' ? await typedPlaces(ctx.params, ctx.language) : ctx.params;
  return { query: readLaneQuery(params, ctx.clock.zone, warnings), warnings };
};

async function typedPlaces(params: Ctx['params'], language: string): Promise<Ctx['params']> {
  const out = { ...params };
  for (const side of ['from', 'to'] as const) {
    const raw = params[side];
    if (typeof raw !== 'string' || !raw.trim() || raw.length > 500) continue;
    out[side] = (
      await Promise.all(
        raw
          .split(',')
          .slice(0, 20)
          .map((p) => laneAreaOfText(p, language)),
      )
    ).join(',');
  }
  return out;
}

async function prices(ctx: Ctx, { query, warnings }: Read): Promise<Outcome<LanePricesData>> {
  if (!query) return fail(ctx.t, 'prices.lane_required', undefined, warnings.length ? { warnings } : undefined);
  const months = await monthsOf(ctx, query);
  const data: LanePricesData = { lane: { from: laneText(query.from), to: laneText(query.to), currency: query.currency }, months };
  // Too few awards this month (issue 47, item 10): how many more, and the country pair around the lane.
  const current = months.at(-1);
  if (current && current.median === null) {
    data.needed = awardsNeeded(current.count);
    const wide = countryLane(query);
    const wideMonths = wide ? await monthsOf(ctx, wide) : [];
    if (wide && wideMonths.some((m) => m.median !== null))
      data.wider = { lane: { from: laneText(wide.from), to: laneText(wide.to), currency: wide.currency }, months: wideMonths };
  }
  return ok(data, warnings.length ? warnings : undefined);
}

/**
 * The lane's months as the request's database has them: on a replica (db/replicas.ts) the figures
 * released so far, unless a batch waits: then from the primary, which releases it.
 */
async function monthsOf(ctx: Ctx, query: LaneQuery) {
  const onReplica = ctx.db !== ctx.services.db;
  const rule = ctx.services.config.lanePricesRelease;
  const read = await lanePrices(ctx.db, query, ctx.clock.now(), ctx.clock.zone, { rule, release: !onReplica });
  if (onReplica && read.waiting) return (await lanePrices(ctx.services.db, query, ctx.clock.now(), ctx.clock.zone, { rule })).months;
  return read.months;
}

/** The lane prices' place in the menu. */
export const PRICES_SECTION = { prefix: '/market', href: '/market/prices', label: 'nav.prices' } as const;

export function laneEndpoints(): Endpoint[] {
  return [
    userEndpoint<LanePricesData, Read>({
      method: 'GET',
      path: '/market/prices',
      doc: LANE_DOCS.prices,
      reads: 'replica',
      read: readQuery,
      handle: prices,
      page: (outcome, ctx, input) => pricesPage(ctx, outcome, input.query, input.warnings),
    }),
  ];
}

/**
 * The lane's last median for the freight form and page (the freights module asks through app.ts):
 * the newest month of the default window that shows figures, in the freight's target currency
 * (EUR without one), with the number of awards it rests on (`released`, not the month's count: "median,
 * 24 awards" reads as the median of 24). One statement over the lane's awards; undefined when no
 * month shows figures.
 */
export async function lastMedianOf(
  ctx: Ctx,
  freight: { from?: string | null; from_country?: string | null; to?: string | null; to_country?: string | null; currency?: unknown },
): Promise<{ median: number; count: number; currency: string; month: string; from: string; to: string } | undefined> {
  const lane = laneOfFreight(freight);
  if (!lane) return undefined;
  const currency = typeof freight.currency === 'string' && /^[A-Za-z]{3}$/.test(freight.currency) ? freight.currency.toUpperCase() : 'EUR';
  const months = await monthsOf(ctx, { ...lane, months: 12, currency });
  const last = [...months].reverse().find((m) => m.median !== null);
  return last && last.median !== null
    ? { median: last.median, count: last.released, currency, month: last.month, from: laneText(lane.from), to: laneText(lane.to) }
    : undefined;
}
