/**
 * Lane prices (docs/reference.md#lane-prices): what awarded road freights on a lane cost, by month, shown so
 * that no single deal can be read (lane.ts: the request and the disclosure rule; store.ts: the one
 * statement; views.tsx and chart.tsx: the page and its SVG chart). Above freights, whose awards it
 * reads through the freights' read model (awards.ts), and market, whose load-search patterns name the lane. The
 * module's public surface.
 */
import type { ComponentChildren } from 'preact';
import type { Ctx } from '../kernel/context.ts';
import { lastMedianOf } from './routes.tsx';
import { marketHint } from './views.tsx';

export { LANE_ERRORS, LANE_MESSAGES } from './messages.ts';
export { laneEndpoints, PRICES_SECTION } from './routes.tsx';
export { enterLaneCell, ensureLaneCells, rebuildLaneCells, recordLaneAward } from './cells.ts';
export { lastMedianOf as laneMedian } from './routes.tsx';
export { lastMediansOf } from './medians.ts';

/**
 * The lane's last median beside a freight's price field (the freight form and page; passed in by
 * app.ts): nothing for an air freight or a lane without figures.
 */
export async function marketPriceHint(
  ctx: Ctx,
  freight: {
    class?: string | null;
    from?: string | null;
    from_country?: string | null;
    to?: string | null;
    to_country?: string | null;
    currency?: unknown;
  },
): Promise<ComponentChildren> {
  if (freight.class === 'air') return undefined;
  const hint = await lastMedianOf(ctx, freight);
  return hint ? marketHint(ctx, hint) : undefined;
}
