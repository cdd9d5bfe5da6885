import { isCompany } from '../accounts/companies.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import type { FreightValues } from './fields.ts';
import { VISIBILITY } from './tables.ts';

/** Bidding window when a freight opens without a deadline (api.md, Limits). */
export const DEFAULT_WINDOW_MS = 24 * 3600_000;

/**
 * Values of a new freight: the parsed body plus `winner_direct` (api.md: status open,
 * visibility -2, whitelist [id]). An id that names no company is ignored with a warning.
 */
export async function newFreightValues(
  ctx: Ctx,
  values: FreightValues,
  winnerDirect: unknown,
  warnings: Warning[],
): Promise<FreightValues> {
  const out = { ...values };
  if (winnerDirect === undefined || winnerDirect === null || winnerDirect === '') return out;
  const id = readId(winnerDirect);
  if (!id || !(await isCompany(ctx.db, id))) {
    warnings.push({ field: 'winner_direct', reason: 'not the id of a company' });
    return out;
  }
  out.status = 'open';
  out.visibility = VISIBILITY.whitelist;
  out.whitelist = [id];
  // Open without a deadline would never expire: the publish default applies (decided).
  if (!out.deadline) out.deadline = new Date(ctx.clock.now().getTime() + DEFAULT_WINDOW_MS);
  return out;
}

/** Adds server keys (pricing_search_id, entity, obj_id) to refs, keeping the sent keys and their order. */
export function addRefs(values: FreightValues, extra: Record<string, unknown>): void {
  if (!Object.keys(extra).length) return;
  const current = typeof values.refs === 'string' ? (JSON.parse(values.refs) as Record<string, unknown>) : {};
  values.refs = JSON.stringify({ ...current, ...extra });
}
