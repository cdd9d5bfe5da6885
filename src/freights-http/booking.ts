import { isCompany } from '../accounts/index.ts';
import { flightForBooking } from '../flights/index.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Warning } from '../kernel/outcome.ts';
import { rateLineForBooking } from '../pricing/index.ts';
import { addRefs } from './create.ts';
import type { FreightValues } from '../freights/index.ts';
import { parseFreight } from './parse.ts';
import { createFreight } from '../freights/index.ts';
import type { FreightRow } from '../freights/index.ts';

/** The exact places of a rate search (the HTML Book button's, not the API's: see routes.tsx). */
export interface ExactPlaces {
  from?: string;
  to?: string;
}

/**
 * A rate line covers a zone (`city:DE-60`) or an airport; a search's exact place inside it
 * (`city:DE-60311`) is where the goods really are, so the request takes that. Anything else
 * keeps the line's own value.
 */
function within(zone: string, exact: string | undefined): string {
  if (!exact) return zone;
  const z = /^city:([A-Z]{2})-([A-Z0-9]+)$/i.exec(zone);
  const e = /^city:([A-Z]{2})-([A-Z0-9]+)$/i.exec(exact);
  if (z && e && z[1]!.toUpperCase() === e[1]!.toUpperCase() && e[2]!.toUpperCase().startsWith(z[2]!.toUpperCase())) return exact;
  return zone;
}

/**
 * POST /freights/request/{rate|flight|direct}/{objId}: a booking request (type FFR, class air,
 * draft) addressed to the provider alone (lifecycle.ts createFreight, `booking`). From, to, etd
 * and eta come from the object; the body may add weight, pieces and other freight fields.
 * Null when the entity or object does not exist for the caller (a 404).
 */
export async function bookingRequest(
  ctx: Ctx,
  entity: string,
  objId: number | undefined,
  warnings: Warning[],
  refine?: ExactPlaces,
): Promise<FreightRow | null> {
  if (!objId) return null;
  const params = { ...ctx.params };
  let provider: number;
  const fixed: FreightValues = {};
  if (entity === 'flight') {
    const flight = await flightForBooking(ctx.db, objId);
    if (!flight) return null;
    provider = flight.provider;
    Object.assign(params, { from: flight.from, to: flight.to });
    Object.assign(fixed, { etd: flight.etd, eta: flight.eta });
  } else if (entity === 'rate') {
    const rate = await rateLineForBooking(ctx.db, ctx.caller.companyId, objId);
    if (!rate) return null;
    provider = rate.company;
    Object.assign(params, { from: within(rate.origin, refine?.from), to: within(rate.destination, refine?.to) });
  } else if (entity === 'direct') {
    if (!(await isCompany(ctx.db, objId))) return null;
    provider = objId;
  } else {
    return null;
  }
  for (const key of ['from', 'to'] as const) {
    if (entity !== 'direct' && key in ctx.params) warnings.push({ field: key, reason: `taken from the ${entity}` });
  }
  const parsed = parseFreight(params, { clock: ctx.clock, handled: ['type', 'class'] });
  warnings.push(...parsed.warnings);
  const values: FreightValues = { ...parsed.values, ...fixed };
  // A rate has a transit time but no schedule: eta follows a given etd.
  if (entity === 'rate' && values.etd instanceof Date && !('eta' in parsed.values)) {
    const rate = await rateLineForBooking(ctx.db, ctx.caller.companyId, objId);
    if (rate?.transitDays) values.eta = new Date(values.etd.getTime() + rate.transitDays * 86400_000);
  }
  addRefs(values, { entity, obj_id: objId });
  // A draft addressed to the provider alone; a flight's provider is its winner at once (lifecycle.ts).
  const creation = { kind: 'booking', provider, providerWins: entity === 'flight' } as const;
  return createFreight(ctx.db, ctx.clock, ctx.caller, { values, pieces: parsed.pieces }, creation);
}
