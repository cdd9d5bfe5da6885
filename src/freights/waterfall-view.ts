import { sql } from 'kysely';
import type { Clock } from '../kernel/time.ts';
import type { Role } from './policy.ts';
import type { WaterfallState, WaterfallThen } from './tables.ts';

/**
 * A freight's waterfall as its view shows it (docs/reference.md#one-step; the rules are waterfall.ts's): read
 * in the view's one statement (store.ts), presented by the caller's part in it.
 */

/** A waterfall as the view shows it (docs/reference.md#one-step): all of it to the owner; `step_until` to the carrier whose turn it is. */
export interface WaterfallView {
  carriers: number[] | null;
  prices: number[] | null;
  currency: string | null;
  minutes: number | null;
  step: number | null;
  step_until: string | null;
  then: WaterfallThen | null;
  state: WaterfallState | null;
  guide: boolean | null;
}

/** The waterfall as the view's statement reads it (JSON: prices as exact text, times as ISO text). */
export interface WaterfallJson {
  carriers: number[];
  prices: string[];
  currency: string;
  minutes: number;
  step: number;
  step_until: string | null;
  then: WaterfallThen;
  state: WaterfallState;
  guide: boolean;
}

/** SQL: the freight's waterfall as JSON, or null (the view statement, store.ts). */
export const waterfallJsonSql = sql<WaterfallJson | null>`(select json_build_object('carriers', w.carriers, 'prices', w.prices::text[],
  'currency', w.currency, 'minutes', w.minutes, 'step', w.step, 'step_until', w.step_until, 'then', w.afterwards, 'state', w.state,
  'guide', w.guide) from freight_waterfalls as w where w.freight_id = freights.id)`;

/** What of a waterfall the company sees (null: nothing). A turn whose end has passed shows as over. */
export function presentWaterfall(fall: WaterfallJson | null, role: Role, companyId: number, clock: Clock): WaterfallView | null {
  if (!fall) return null;
  const until = fall.step_until ? new Date(fall.step_until) : null;
  if (role === 'owner')
    return {
      carriers: fall.carriers,
      prices: fall.prices.map(Number),
      currency: fall.currency,
      minutes: fall.minutes,
      step: fall.step,
      step_until: clock.format(until),
      // biome-ignore lint/suspicious/noThenProperty: docs/reference.md#one-step names the field `then`
      then: fall.then,
      state: fall.state,
      guide: fall.guide,
    };
  if (fall.state === 'running' && fall.carriers[fall.step] === companyId && until && until > clock.now())
    return {
      carriers: null,
      prices: null,
      currency: null,
      minutes: null,
      step: null,
      step_until: clock.format(until),
      // biome-ignore lint/suspicious/noThenProperty: docs/reference.md#one-step names the field `then`
      then: null,
      state: null,
      guide: null,
    };
  return null;
}
