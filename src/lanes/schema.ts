import { Type } from '@sinclair/typebox';
import {
  DEFAULT_CURRENCY,
  DEFAULT_MONTHS,
  MAX_MONTHS,
  MIN_AWARDS,
  MIN_MONTHS,
  MIN_OWNERS,
  COALITION_MAX,
  OTHERS_MIN_AWARDS,
  OTHERS_MIN_PARTIES,
} from './lane.ts';

/** The lane prices' API description (docs/reference.md#lane-prices). */

const figure = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const rule = `null unless the month has at least ${MIN_AWARDS} awards by at least ${MIN_OWNERS} different owner companies`;
const places = (side: string) =>
  Type.String({
    description: `${side}: comma-separated patterns as in the load search (decisions.md §7): DE (country), DE-60 (country and postal prefix), airport:FRA`,
    examples: [side === 'origin' ? 'DE-60' : 'FR-75'],
  });

export const LANE_MONTH = Type.Object(
  {
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM in the application time zone: the month of the award' }),
    count: Type.Integer({ minimum: 0, description: 'awarded road freights on the lane in the month' }),
    median: figure(`median price of the accepted bids, rounded to whole units of the currency; ${rule}`),
    p25: figure(`25th percentile (linear interpolation), rounded to whole units; ${rule}`),
    p75: figure(`75th percentile (linear interpolation), rounded to whole units; ${rule}`),
    median_per_km: figure(
      `median of price ÷ great-circle km between origin and destination coordinates, to the cent; over the awards with both ends' coordinates, ${rule.replace('the month has', 'these are')}`,
    ),
    released: Type.Integer({
      minimum: 0,
      description:
        'how many of the month’s awards median, p25 and p75 rest on: awards join the figures in whole batches (see the summary), so this can be less than count; 0 while the figures are null',
    }),
    released_per_km: Type.Integer({
      minimum: 0,
      description: 'how many awards median_per_km rests on (released, with both ends’ coordinates); 0 while it is null',
    }),
  },
  { description: 'One month of a lane (decisions.md §14)' },
);

export const LANE_DOCS = {
  prices: {
    summary: `The market price of a lane by month (decisions.md §14): the accepted prices of awarded road freights whose origin and destination match, oldest month first, every month of the window (empty months with count 0). from and to are required (else status error, prices.lane_required); months ${MIN_MONTHS}–${MAX_MONTHS} (default ${DEFAULT_MONTHS}) and currency (default ${DEFAULT_CURRENCY}) outside their values are ignored with a warning. Prices are kept per lane cell (postal area of two characters, airport, or country): a longer postal prefix is read as its area, with a warning. Figures come from at least ${MIN_AWARDS} awards by ${MIN_OWNERS} owner companies, and awards join them in whole batches of at least ${MIN_AWARDS} awards by ${MIN_OWNERS} owners, so that no two answers differ by one deal. A server may be set to a stricter release (LANE_PRICES_RELEASE=strict): then a batch also needs every coalition of up to ${COALITION_MAX} companies in it, owners or winners, to have taken no part in at least ${OTHERS_MIN_AWARDS} of its awards, of at least ${OTHERS_MIN_PARTIES} other owners and ${OTHERS_MIN_PARTIES} other winners, so that neither a company nor ${COALITION_MAX} acting together can place prices of their own around the others' to read them all. count is always the month's number of awards; released the number the figures rest on.`,
    tag: 'market',
    input: Type.Object({
      from: places('origin'),
      to: places('destination'),
      months: Type.Optional(Type.Integer({ minimum: MIN_MONTHS, maximum: MAX_MONTHS, default: DEFAULT_MONTHS })),
      currency: Type.Optional(
        Type.String({ pattern: '^[A-Za-z]{3}$', default: DEFAULT_CURRENCY, description: 'only prices in this currency count' }),
      ),
    }),
    data: Type.Object({
      lane: Type.Object({
        from: Type.String({ description: 'the origin patterns read, normalised' }),
        to: Type.String({ description: 'the destination patterns read, normalised' }),
        currency: Type.String({ description: 'three letters' }),
      }),
      months: Type.Array(LANE_MONTH),
      needed: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: `only while the current month shows no figures: how many more awards it needs at least (${MIN_AWARDS} less its count, at least 1: ${MIN_AWARDS} awards of fewer than ${MIN_OWNERS} owners need another owner's)`,
        }),
      ),
      wider: Type.Optional(
        Type.Object(
          {
            lane: Type.Object({
              from: Type.String({ description: 'the origin patterns widened: a postal area read as its country' }),
              to: Type.String({ description: 'the destination patterns widened' }),
              currency: Type.String({ description: 'three letters' }),
            }),
            months: Type.Array(LANE_MONTH),
          },
          {
            description:
              'only while the current month of the lane shows no figures and the lane names a postal area: the country pair around it (DE-80 → PL-00: DE → PL), the same window and currency, when one of its months shows figures. Exactly the answer for that lane asked directly.',
          },
        ),
      ),
    }),
  },
};

type LaneAnswer = { lane: { from: string; to: string; currency: string }; months: import('./store.ts').LaneMonth[] };
export type LanePricesData = LaneAnswer & { needed?: number; wider?: LaneAnswer };
