/**
 * Vehicle space (docs/reference.md#vehicles): carriers' free capacity as offers of their own, the offers
 * list with the load search, matching both ways (one statement each), the alerts of a match
 * after the publishing commit, and the invitation into a freight. Above freights (it reads
 * freights through the freights module's exported functions) and searches (it writes
 * notifications through the searches module). The module's public surface.
 */
import type { Caller, Ctx } from '../kernel/context.ts';
import { isMarketStatus, type FreightView } from '../freights/index.ts';
import { FIRST_PAGE, fittingVehiclesOf } from './routes.tsx';
import { fittingSection } from './views.tsx';

export { alertFreight, alertOffer } from './alerts.ts';
export { offerUsers } from './store.ts';
export { vehicleEndpoints, vehicleViews } from './routes.tsx';
export { VEHICLE_ERRORS, VEHICLE_MESSAGES } from './messages.ts';
export { VEHICLE_EVENT_DOCS } from './schema.ts';
export { BODIES } from './tables.ts';

/** The vehicles' place in the menu. */
export const VEHICLES_SECTION = { prefix: '/vehicles', href: '/vehicles/index', label: 'nav.vehicles' } as const;

/**
 * The fitting trucks on the page of an own road freight in the market, each with an Invite
 * button, the first page with a link to more (the freight page's sections, passed in by app.ts);
 * nothing for anyone else.
 */
export async function fittingTrucksSection(ctx: Ctx, route: FreightView) {
  if (!ctx.caller || route.company !== ctx.caller.companyId || route.class !== 'rfs' || !isMarketStatus(route.status)) return undefined;
  const vehicles = await fittingVehiclesOf(ctx as Ctx<Caller>, route.id, FIRST_PAGE);
  return vehicles ? fittingSection(ctx as Ctx<Caller>, route.id, vehicles) : undefined;
}
