import type { Db } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { announce, type PlannedEvent } from '../webhooks/index.ts';
import { presentVehicle, type VehicleRead } from './fields.ts';

/**
 * The events of a vehicle offer (docs/reference.md#events, #vehicles), written to the webhooks module's outbox
 * in the transaction of what they announce: `vehicle.published`, `vehicle.withdrawn` and
 * `vehicle.matched`, to the offer's company and to the owners of the freights it fits (each
 * names its own freights only: a match reveals nothing the lists would not). The offer is shown
 * as the API shows it (every company that receives it may see it: matching requires that).
 */

export type VehicleEventType = 'vehicle.published' | 'vehicle.withdrawn' | 'vehicle.matched';

/** A freight the offer fits: its owner and its id (and how far its origin is, for the offer's company). */
export interface MatchedFreight {
  id: number;
  company_id: number;
  distance_km: number | null;
}

/**
 * Writes the event for the offer's company (`matches`: every freight named, nearest first) and
 * for each owner of a matched freight (its own freights only); answers how many were written.
 */
export async function emitVehicleEvent(
  db: Db,
  clock: Clock,
  type: VehicleEventType,
  offer: VehicleRead,
  matched: readonly MatchedFreight[] = [],
  /** false: only to the owners of the matched freights (the offer's company had it already) */
  toOfferCompany = true,
): Promise<number> {
  return announce(db, clock, type, planned(clock, offer, matched, toOfferCompany, [offer.company_id]));
}

/**
 * `vehicle.matched` of a freight that fits several offers, written at once (one statement, not
 * one per offer): for each offer, to its company and to the freight's owner, as emitVehicleEvent
 * would write them one by one.
 */
export async function emitFreightMatches(
  db: Db,
  clock: Clock,
  freight: { id: number; company_id: number },
  fits: ReadonlyArray<{ offer: VehicleRead; distance_km: number | null }>,
): Promise<number> {
  return announce(
    db,
    clock,
    'vehicle.matched',
    fits.flatMap(({ offer, distance_km }) => planned(clock, offer, [{ ...freight, distance_km }], true, [freight.company_id])),
  );
}

/**
 * The events of one offer. Whose doing each is (webhooks/outbox.ts `from`: a recipient that blocked
 * it hears nothing): what the freights' owners receive is the offer's, its company's; what the
 * offer's company receives is `toOfferFrom`'s: its own when it published or withdrew the offer, the
 * freight's owner when a published freight matched it.
 */
function planned(
  clock: Clock,
  offer: VehicleRead,
  matched: readonly MatchedFreight[],
  toOfferCompany: boolean,
  toOfferFrom: readonly number[],
): PlannedEvent[] {
  // Its whitelist for the offer's company only (the freights' owners see null).
  const vehicle = presentVehicle(offer, clock, offer.company_id);
  const seen = presentVehicle(offer, clock, -1);
  const round = (km: number | null) => (km === null ? null : Math.round(km * 10) / 10);
  const events: PlannedEvent[] = [];
  if (toOfferCompany)
    events.push({
      companyId: offer.company_id,
      freightId: matched[0]?.id ?? null,
      from: toOfferFrom,
      data: () => ({ vehicle, matches: matched.map((m) => ({ route_id: m.id, distance_km: round(m.distance_km) })) }),
    });
  const byOwner = new Map<number, MatchedFreight[]>();
  for (const m of matched) if (m.company_id !== offer.company_id) byOwner.set(m.company_id, [...(byOwner.get(m.company_id) ?? []), m]);
  for (const [companyId, own] of byOwner) {
    events.push({
      companyId,
      freightId: own[0]!.id,
      from: [offer.company_id],
      data: () => ({ vehicle: seen, matches: own.map((m) => ({ route_id: m.id, distance_km: round(m.distance_km) })) }),
    });
  }
  return events;
}
