import type { Db } from '../db/schema.ts';
import { nearestMarketFreights, type NearFreight } from './nearest.ts';
import type { LoadSearch } from '../market/index.ts';
import { patternsOf } from './fields.ts';
import { availabilityOf } from './policy.ts';
import type { VehicleRow } from './tables.ts';

/**
 * Matching from the offer's side (docs/reference.md#vehicles): a freight fits an offer when it is a road
 * freight in the market visible to the offer's company, its origin within the offer's radius of
 * the offer's origin, its destination among the offer's patterns (or the offer goes anywhere),
 * its loading window overlapping the availability window and its weight at most the capacity.
 * The offer is the load search it amounts to; the freights module runs it as one statement over
 * its table, with its own rules of visibility and the market (freights/search.ts
 * nearestMarketFreights: a class of freights in the market near a point).
 */

/** A fitting freight: its id, owner and creating user, and the distance of its origin from the offer's. */
export type Fit = NearFreight;

/** The freights a truck can carry: road freights (class `rfs`). */
const ROAD = 'rfs';

/** The load search an offer amounts to. */
export function offerSearch(offer: VehicleRow): LoadSearch {
  const search: LoadSearch = {
    fromNear: { center: { latitude: offer.from_latitude, longitude: offer.from_longitude }, km: offer.from_radius },
    pickup: availabilityOf(offer),
    weightMax: offer.capacity,
    // What the truck carries (docs/choices.md, "Loads described as trucks are"): body, loading metres, ADR.
    truck: { body: offer.body, loadingMeters: offer.loading_meters, adr: offer.adr === 1 },
  };
  const to = patternsOf(offer.to_patterns);
  if (to.length) search.to = to;
  return search;
}

/** The most freights one match reads at once (an offer's page, an alert reads MAX_ALERTS). */
export const MAX_FITS = 100;

/** A page of fits: how many, after how many. */
export interface FitWindow {
  limit: number;
  offset: number;
}

/**
 * The freights fitting the offer, nearest origin first (each with its distance in km, however its
 * origin is placed: measured and sorted in the statement), a page of them.
 */
export async function fitsOfOffer(
  db: Db,
  offer: VehicleRow,
  now: Date,
  window: FitWindow = { limit: MAX_FITS, offset: 0 },
): Promise<Fit[]> {
  return nearestMarketFreights(db, {
    companyId: offer.company_id,
    owners: offer.whitelist,
    class: ROAD,
    search: offerSearch(offer),
    now,
    limit: window.limit,
    offset: window.offset,
  });
}
