import { droppedIdsWarning, isCompany } from '../accounts/index.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Warning } from '../kernel/outcome.ts';
import { readId, type Params } from '../kernel/params.ts';
import { searchForFreight } from '../pricing/index.ts';
import type { FreightValues } from '../freights/index.ts';
import { parseFreight } from './parse.ts';
import { createFreight, type Creation, type EnteredMarket } from '../freights/index.ts';
import type { FreightRow } from '../freights/index.ts';

/** What POST /freights/add made: the freight, what its input was warned of, and whether it entered the market. */
export interface Added {
  row: FreightRow;
  warnings: Warning[];
  /** created open for one company (winner_direct): the alert of matching searches runs after the commit */
  enteredMarket: boolean;
}

/**
 * POST /freights/add (docs/reference.md#the-api): a draft of the caller's company from the body, over the stored
 * rate search's from, to, weight and pieces when `pricing_search_id` names one; with
 * `winner_direct`, open at once for that company alone, so it enters the market (`enteredMarket`
 * runs in its transaction). Unknown or unreadable fields are warnings, never a refusal.
 */
export async function addFreight(ctx: Ctx, enteredMarket: EnteredMarket): Promise<Added> {
  const warnings: Warning[] = [];
  const search = await fromPricingSearch(ctx, warnings);
  const parsed = parseFreight({ ...search.base, ...ctx.params }, { clock: ctx.clock, handled: ['pricing_search_id', 'winner_direct'] });
  warnings.push(...parsed.warnings);
  const values = { ...parsed.values };
  addRefs(values, search.refs);
  const provider = await readWinnerDirect(ctx, ctx.params.winner_direct, warnings);
  const creation: Creation = provider === undefined ? { kind: 'draft' } : { kind: 'direct', provider, enteredMarket };
  const row = await createFreight(ctx.db, ctx.clock, ctx.caller, { values, pieces: parsed.pieces }, creation);
  // Ids of the whitelist that name no company were dropped (lifecycle.ts): said, as unknown input is.
  const dropped = creation.kind === 'draft' ? droppedIdsWarning('whitelist', values.whitelist, row.whitelist) : undefined;
  if (dropped) warnings.push(dropped);
  return { row, warnings, enteredMarket: creation.kind === 'direct' };
}

/** `pricing_search_id` (docs/reference.md#the-api): the stored search's from, to, weight and pieces, under the body's own values. */
async function fromPricingSearch(ctx: Ctx, warnings: Warning[]): Promise<{ base: Params; refs: Record<string, unknown> }> {
  const raw = ctx.params.pricing_search_id;
  if (raw === undefined || raw === null || raw === '') return { base: {}, refs: {} };
  const id = readId(raw);
  const search = id ? await searchForFreight(ctx.db, ctx.caller.companyId, id) : null;
  if (!id || !search) {
    warnings.push({ field: 'pricing_search_id', reason: 'no stored search of your company with this id' });
    return { base: {}, refs: {} };
  }
  const base: Params = { from: search.origin, to: search.destination, pieces: search.pieces };
  const bodyHasWeight = ['weight', 'weight_actual', 'weight_volume'].some((k) => k in ctx.params);
  if (search.weight !== null && !bodyHasWeight) base.weight = search.weight;
  return { base, refs: { pricing_search_id: id } };
}

/**
 * `winner_direct` of a new freight (docs/reference.md#the-api: open at once for that company alone): its company id,
 * or undefined when none was sent. An id that names no company is ignored with a warning.
 */
async function readWinnerDirect(ctx: Ctx, raw: unknown, warnings: Warning[]): Promise<number | undefined> {
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
