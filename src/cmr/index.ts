/**
 * The electronic consignment note, e-CMR (docs/reference.md#ecmr): notes and their append-only
 * signature entries with a hash chain, issued on the award of a road freight from its transport
 * order (deals), signed at loading by the sender and the carrier and at delivery by the consignee
 * through a link, verified by anyone holding a copy. Above deals (the order it is filled from,
 * the documents its PDFs join) and freights (the delivery its consignee's signature records). The
 * module's public surface.
 */
import type { FreightView } from '../freights/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { readCmr } from './cmr.ts';
import { cmrLine } from './views.tsx';

export { CMR_ERRORS, CMR_MESSAGES } from './messages.ts';
export { CMR_EVENT_DOCS } from './schema.ts';
export { cmrEndpoints, consigneeEndpoints } from './routes.tsx';
export { followOrder, issueCmr } from './cmr.ts';

/** The freight page's section (passed in by app.ts): the note's number and status for the owner and the winner. */
export async function cmrSection(ctx: Ctx, route: FreightView) {
  if (!ctx.caller) return undefined;
  const cmr = await readCmr(ctx.db, ctx.clock, ctx.caller.companyId, route.id);
  return cmr && cmrLine(ctx as Ctx<Caller>, route.id, cmr);
}
