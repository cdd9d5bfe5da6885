import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { emitEvent } from '../freights/index.ts';
import { marketFreight } from './nearest.ts';
import type { Clock } from '../kernel/time.ts';
import { insertVehicleNotifications, mergeMatchNotifications } from '../searches/index.ts';
import { emitFreightMatches, emitVehicleEvent } from './events.ts';
import { presentVehicle } from './fields.ts';
import { fitsOfOffer } from './matching.ts';
import { offerInMarket } from './policy.ts';
import { fittingOffers, readOffer } from './store.ts';

/**
 * The alerts of matching (docs/reference.md#vehicles), computed after the commit that publishes (the
 * alerts module's queue runs them, each in the transaction that removes its job), so they never
 * slow the publishing request:
 * - an offer published: the creating user of every fitting freight gets a `vehicle.matched`
 *   notification; `vehicle.matched` goes to the offer's company (every match) and to the owners
 *   of the fitting freights (their own), with `vehicle.published` to those owners;
 * - a freight published: the creating user of every fitting open offer gets a `freight.matched`
 *   notification naming the offer (`vehicle` instead of `search`); its company gets
 *   `freight.matched` and both sides `vehicle.matched`.
 */

/** The most matches one alert writes (nearest first). */
const MAX_ALERTS = 500;

/** Answers the number of notifications written. */
export async function alertOffer(trx: Transaction<DB>, clock: Clock, offerId: number): Promise<number> {
  const now = clock.now();
  const offer = await readOffer(trx, offerId);
  if (!offer || !offerInMarket(offer, now)) return 0;
  const fits = await fitsOfOffer(trx, offer, now, { limit: MAX_ALERTS, offset: 0 });
  if (!fits.length) return 0;
  const written = await insertVehicleNotifications(
    trx,
    fits.map((f) => ({ userId: f.user_id, type: 'vehicle.matched' as const, freightId: f.id, vehicleId: offer.id, created: now })),
  );
  await emitVehicleEvent(trx, clock, 'vehicle.published', offer, fits, false);
  await emitVehicleEvent(trx, clock, 'vehicle.matched', offer, fits);
  return written.length;
}

/** Answers the number of notifications written. */
export async function alertFreight(trx: Transaction<DB>, clock: Clock, freightId: number): Promise<number> {
  const now = clock.now();
  const freight = await marketFreight(trx, freightId, now);
  if (freight?.class !== 'rfs') return 0;
  const fits = await fittingOffers(trx, freight, now, { limit: MAX_ALERTS, offset: 0 });
  if (!fits.length) return 0;
  const written = await insertVehicleNotifications(
    trx,
    fits.map((f) => ({ userId: f.offer.user_id, type: 'freight.matched' as const, freightId, vehicleId: f.offer.id, created: now })),
  );
  // One alert per load per user: its further offers and its saved search are reasons of one notification.
  await mergeMatchNotifications(trx, freightId);
  await emitEvent(trx, clock, {
    type: 'freight.matched',
    freightId,
    matches: fits.map(({ offer }) => ({ companyId: offer.company_id, vehicle: presentVehicle(offer, clock, offer.company_id) })),
  });
  await emitFreightMatches(trx, clock, { id: freightId, company_id: freight.company_id }, fits);
  return written.length;
}
