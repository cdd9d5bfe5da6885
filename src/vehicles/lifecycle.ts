import type { Kysely, Transaction } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import { blockedIds, blockersAmong, mayReach, existingCompanies } from '../accounts/index.ts';
import { admitToWhitelist, emitEvent, fromFreights, inMarket, lockFreight, VISIBILITY } from '../freights/index.ts';
import type { Caller } from '../kernel/context.ts';
import type { FailureCode } from '../kernel/errors.ts';
import type { Clock } from '../kernel/time.ts';
import { freightsToldOfVehicle, insertVehicleNotifications } from '../searches/index.ts';
import { emitVehicleEvent, type MatchedFreight } from './events.ts';
import { presentVehicle, type OfferValues, type VehicleRead } from './fields.ts';
import { fitsOfOffer } from './matching.ts';
import { offerInMarket, seesOffer } from './policy.ts';
import { readOffer } from './store.ts';

/**
 * Every transition of a vehicle offer, in one place, each in one transaction with its events
 * (docs/reference.md#vehicles): created open, edited by its company while open, withdrawn by its company;
 * expiry is read, never written (policy.ts). The invitation of an offer's company into a freight
 * is here too: it changes the freight (its whitelist) through the freights module.
 */

export type Result = { kind: 'ok'; offer: VehicleRead } | { kind: 'not_found' } | { kind: 'refused'; reason: FailureCode };

/** The offer locked for the rest of the transaction, with its company's name. */
async function lockOffer(trx: Transaction<DB>, id: number): Promise<VehicleRead | undefined> {
  const locked = await trx.selectFrom('vehicle_offers').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  return locked ? readOffer(trx, id) : undefined;
}

/**
 * What a new offer entering the market sets off in its transaction (app.ts passes the alerts
 * module's queue: its alert is computed after the commit).
 */
export type OfferPublished = (trx: Transaction<DB>, clock: Clock, offerId: number) => Promise<unknown>;

/**
 * Creates an open offer of the caller's company; `vehicle.published` to its company, and what
 * `published` does, in the same transaction.
 */
export async function createOffer(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  values: OfferValues,
  published: OfferPublished,
): Promise<VehicleRead> {
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const whitelist = await knownCompanies(trx, values.whitelist);
    const { id } = await trx
      .insertInto('vehicle_offers')
      .values({ ...values, whitelist, company_id: caller.companyId, user_id: caller.userId, status: 'open', created: now, modified: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const offer = (await readOffer(trx, id))!;
    await emitVehicleEvent(trx, clock, 'vehicle.published', offer);
    await published(trx, clock, id);
    return offer;
  });
}

/**
 * The whitelist's ids that name a company: one that names none is dropped (the answer warns of it,
 * routes.tsx), as for a freight's whitelist (freights/lifecycle.ts).
 */
async function knownCompanies(trx: Transaction<DB>, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [...ids];
  const known = await existingCompanies(trx, ids);
  return ids.filter((id) => known.has(id));
}

/** Changes an offer: its company only (another company: 404), while it is open (not withdrawn, not expired). */
export async function editOffer(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  id: number,
  read: (existing: VehicleRead) => { ok: true; values: OfferValues } | { ok: false; errors: Record<string, string> },
): Promise<Result | { kind: 'invalid'; errors: Record<string, string> }> {
  return db.transaction().execute(async (trx) => {
    const offer = await lockOffer(trx, id);
    if (!offer || offer.company_id !== caller.companyId) return { kind: 'not_found' };
    if (!offerInMarket(offer, clock.now())) return { kind: 'refused', reason: 'vehicle.edit.not_open' };
    const parsed = read(offer);
    if (!parsed.ok) return { kind: 'invalid', errors: parsed.errors };
    await trx
      .updateTable('vehicle_offers')
      .set({ ...parsed.values, whitelist: await knownCompanies(trx, parsed.values.whitelist), modified: clock.now() })
      .where('id', '=', id)
      .execute();
    return { kind: 'ok', offer: (await readOffer(trx, id))! };
  });
}

/** The most freights a withdrawal names from the offer's past matches (each told once, by an alert). */
export const MAX_TOLD = 10_000;

/**
 * The freights to name in `vehicle.withdrawn`: those fitting now (a page of MAX_FITS, nearest
 * first) and every freight whose owner was told of a match with the offer before (its
 * notifications: the offer's alert reached up to 500, each freight published later one more),
 * as long as the owner may still see the offer and neither company blocked the other. A freight
 * told of but no longer fitting has no distance.
 */
async function matchedSoFar(trx: Transaction<DB>, offer: VehicleRead, now: Date, maxTold: number): Promise<MatchedFreight[]> {
  const fitting = await fitsOfOffer(trx, offer, now);
  const known = new Set(fitting.map((f) => f.id));
  const told = (await freightOwners(trx, await freightsToldOfVehicle(trx, offer.id, maxTold))).filter((f) => !known.has(f.id));
  if (!told.length) return fitting;
  const owners = [...new Set(told.map((f) => f.company_id))];
  const [blockedByOffer, blockingOffer] = await Promise.all([
    blockedIds(trx, offer.company_id),
    blockersAmong(trx, offer.company_id, owners),
  ]);
  const reachable = (company: number) =>
    company !== offer.company_id && seesOffer(offer, company) && !blockedByOffer.has(company) && !blockingOffer.has(company);
  return [...fitting, ...told.filter((f) => reachable(f.company_id)).map((f) => ({ ...f, distance_km: null }))];
}

/**
 * open -> withdrawn, by its company (another company: 404); an expired or withdrawn offer is
 * refused. `vehicle.withdrawn` to its company and to the owners of the freights it fits or was
 * matched with (matchedSoFar).
 */
export async function withdrawOffer(db: Kysely<DB>, clock: Clock, caller: Caller, id: number, maxTold = MAX_TOLD): Promise<Result> {
  return db.transaction().execute(async (trx) => {
    const offer = await lockOffer(trx, id);
    if (!offer || offer.company_id !== caller.companyId) return { kind: 'not_found' };
    const now = clock.now();
    if (!offerInMarket(offer, now)) return { kind: 'refused', reason: 'vehicle.withdraw.not_open' };
    const matched = await matchedSoFar(trx, offer, now, maxTold);
    await trx.updateTable('vehicle_offers').set({ status: 'withdrawn', modified: now }).where('id', '=', id).execute();
    const withdrawn = (await readOffer(trx, id))!;
    await emitVehicleEvent(trx, clock, 'vehicle.withdrawn', withdrawn, matched);
    return { kind: 'ok', offer: withdrawn };
  });
}

export type InviteResult =
  | { kind: 'ok'; offer: VehicleRead; freightId: number; whitelisted: boolean }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: FailureCode };

/**
 * The freight's owner invites the offer's company (docs/reference.md#vehicles): the freight must be the
 * caller's own and in the market; a whitelisted freight (visibility -2) gets the company added to
 * its whitelist, a freight of the own company only is refused (the company could not see it).
 * The offer's creating user is notified (`freight.invited`) and its company gets the event, the
 * freight as it may now see it; then it bids as usual. An offer the caller may not see, or a
 * freight that is not the caller's own: 404.
 */
export async function inviteToFreight(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  offerId: number,
  freightId: number,
): Promise<InviteResult> {
  return db.transaction().execute(async (trx) => {
    const offer = await readOffer(trx, offerId);
    if (!offer || !seesOffer(offer, caller.companyId)) return { kind: 'not_found' };
    const freight = await lockFreight(trx, freightId, clock);
    if (!freight || freight.company_id !== caller.companyId) return { kind: 'not_found' };
    const now = clock.now();
    if (offer.company_id === caller.companyId) return { kind: 'refused', reason: 'vehicle.invite.own_offer' };
    if (!offerInMarket(offer, now)) return { kind: 'refused', reason: 'vehicle.invite.offer_closed' };
    if (!inMarket(freight, now)) return { kind: 'refused', reason: 'vehicle.invite.not_in_market' };
    if (freight.visibility === VISIBILITY.ownCompany) return { kind: 'refused', reason: 'vehicle.invite.own_company_only' };
    // The offer's company blocked the inviter's: it takes no invitation from it (docs/reference.md#trust,
    // the rule every push asks), whatever the freight's whitelist; nothing changes.
    if (!(await mayReach(trx, caller.companyId, offer.company_id))) return { kind: 'refused', reason: 'vehicle.invite.blocked' };
    let whitelisted = false;
    if (freight.visibility === VISIBILITY.whitelist) {
      whitelisted = true;
      await admitToWhitelist(trx, freight, offer.company_id, now);
    }
    // One invitation per offer and freight: the notification's unique index decides (the freight's
    // lock above makes parallel invitations wait for each other), and only the first one that wrote
    // it sends the event; inviting again answers the same and sends nothing.
    const told = await insertVehicleNotifications(trx, [
      { userId: offer.user_id, type: 'freight.invited', freightId, vehicleId: offer.id, created: now },
    ]);
    if (told.length)
      await emitEvent(trx, clock, {
        type: 'freight.invited',
        freightId,
        companyId: offer.company_id,
        vehicle: presentVehicle(offer, clock, offer.company_id),
      });
    return { kind: 'ok', offer, freightId, whitelisted };
  });
}

/** The owners of freights by id (an offer tells the owners of the freights it was matched to), through the freights' read model. */
async function freightOwners(db: Db, ids: readonly number[]): Promise<Array<{ id: number; company_id: number }>> {
  if (!ids.length) return [];
  return fromFreights(db)
    .select(['id', 'company_id'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}
