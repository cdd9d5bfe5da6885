import { isCompany } from '../accounts/companies.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import type { FreightValues } from './fields.ts';

/**
 * `winner_direct` of a new freight (api.md: open at once for that company alone): its company id,
 * or undefined when none was sent. An id that names no company is ignored with a warning.
 */
export async function readWinnerDirect(ctx: Ctx, raw: unknown, warnings: Warning[]): Promise<number | undefined> {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const id = readId(raw);
  if (!id || !(await isCompany(ctx.db, id))) {
    warnings.push({ field: 'winner_direct', reason: 'not the id of a company' });
    return undefined;
  }
  return id;
}

/** Adds server keys (pricing_search_id, entity, obj_id) to refs, keeping the sent keys and their order. */
export function addRefs(values: FreightValues, extra: Record<string, unknown>): void {
  if (!Object.keys(extra).length) return;
  const current = typeof values.refs === 'string' ? (JSON.parse(values.refs) as Record<string, unknown>) : {};
  values.refs = JSON.stringify({ ...current, ...extra });
}
