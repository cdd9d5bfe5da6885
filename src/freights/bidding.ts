import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { blocksEither, isBlocked } from '../accounts/index.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import type { AwardPath } from './award.ts';
import { bidParties, lockBid, NO_CONFIRMATION, ownBid, ownBidFreight, updateBid } from './bids.ts';
import { emitEvent } from './events.ts';
import { BIDS_IN_PLAY, inMarket } from './in-market.ts';
import { bidConfirmed, bidWithdrawn, inTransition, lockFreight } from './lifecycle.ts';
import { autoAward, insertBidWithOffer, NO_COUNTER, recordOffer } from './one-step.ts';
import { loadVisibleFreight } from './store.ts';
import type { BidRow, BidStatus, FreightRow } from './tables.ts';

/**
 * The bid state machine, in one place beside its table (docs/reference.md#bids status" and "Freight status";
 * docs/reference.md#freights); the award itself is award.ts's, the one path every way of winning takes.
 * Every transition runs in one transaction that locks the freight row first
 * (`select … for update`), then the bid, and re-reads both after the lock: so submissions,
 * confirmations and revocations on one freight serialize, on one server process or on many
 * sharing one PostgreSQL. The unique partial index `bids_one_accepted_idx` (one accepted bid
 * per freight) is the last line of defence: should it ever fire, the transaction rolls back
 * and the caller is refused, never a 500 and never half a write.
 *
 * Invariants kept here:
 * - bid `open` ⇔ no side confirmed; `pending` ⇔ exactly one side; `accepted` ⇔ both.
 * - freight `pending` ⇔ at least one of its bids is pending (several may be at once).
 * - freight `taken` ⇔ exactly one accepted bid; winner, transport company and price are its.
 * Lock order is always freights → bids, so two transitions never wait on each other in a cycle.
 */

/** Bid states that can still take part in an award (in-market.ts). */
const LIVE: readonly BidStatus[] = BIDS_IN_PLAY;

/** What POST /quotes/add.json may set (the quotes module parses it); everything else about a bid is set by the server. */
export interface BidInput {
  /** Present: update that bid (the caller's company's, while open). */
  id?: number;
  route?: number;
  amount: string;
  currency_code: string;
  rate_base?: string | null;
  rate_fsc?: string | null;
  rate_ssc?: string | null;
  note?: string | null;
}

/** Why a submitted bid is refused (`status` = `error`, with the reason as its code). */
export type SubmitRefusal = 'quotes.route_mismatch' | 'quotes.freight_not_biddable' | 'quotes.bid_not_open' | 'quotes.bidder_blocked';
/** Why a revocation is refused (`status` = `error`, with the reason as its code). */
export type RevokeRefusal = 'quotes.bid_not_revocable';
/** Why a confirmation is refused: a 302 back to the freight page with the message (docs/reference.md#the-api). */
export type ConfirmRefusal = 'quotes.not_confirmable' | 'quotes.already_confirmed' | 'quotes.party_blocked';
export type Refusal = SubmitRefusal | RevokeRefusal | ConfirmRefusal;

export type Transition<R extends Refusal = Refusal> =
  | { kind: 'done'; bid: BidRow; freight: FreightRow; awarded: boolean }
  /** Missing, or not visible to the caller (indistinguishable, docs/reference.md#errors). */
  | { kind: 'not_found' }
  /** A party asked for a transition the state machine does not allow; nothing changed. */
  | { kind: 'refused'; reason: R; freightId: number };

const notFound = { kind: 'not_found' } as const;
const refused = <R extends Refusal>(reason: R, freightId: number) => ({ kind: 'refused', reason, freightId }) as const;

/** Bids may be submitted, changed, confirmed and revoked while the freight is in the market (freights' one rule). */
const isOpenForBids = (f: FreightRow, now: Date): boolean => inMarket(f, now);

/** Runs a transition; a concurrent transition that won is the caller's refusal (`inTransition`). */
function transition<R extends Refusal>(
  db: Kysely<DB>,
  freightId: number,
  refusal: R,
  work: (trx: Transaction<DB>) => Promise<Transition<R>>,
): Promise<Transition<R>> {
  return inTransition(db, work, () => refused(refusal, freightId));
}

/**
 * POST /quotes/add.json. Create (status open) on a freight the caller can see that is open or
 * pending, or update the caller's company's own bid while it is open. Company, user, display
 * company, type (selling when the freight's own company bids) and deadline (the freight's
 * bidding deadline) are the server's.
 */
export async function submitBid(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  input: BidInput,
  award?: AwardPath,
): Promise<Transition<SubmitRefusal>> {
  const now = clock.now();
  let existing: BidRow | undefined;
  if (input.id !== undefined) {
    // Another company's bid is not visible to the caller: a 404, like a missing one.
    existing = await ownBid(db, input.id, caller.companyId);
    if (!existing) return notFound;
    if (input.route !== undefined && input.route !== existing.freight_id) return refused('quotes.route_mismatch', existing.freight_id);
  }
  const freightId = existing?.freight_id ?? input.route!;
  const visible = await loadVisibleFreight(db, clock, caller, freightId);
  if (!visible) return notFound;
  if (!isOpenForBids(visible, now)) return refused('quotes.freight_not_biddable', freightId);

  const values = {
    amount: input.amount,
    currency_code: input.currency_code,
    ...(input.rate_base !== undefined && { rate_base: input.rate_base }),
    ...(input.rate_fsc !== undefined && { rate_fsc: input.rate_fsc }),
    ...(input.rate_ssc !== undefined && { rate_ssc: input.rate_ssc }),
    ...(input.note !== undefined && { note: input.note }),
    modified: now,
  };
  return transition<SubmitRefusal>(db, freightId, 'quotes.freight_not_biddable', async (trx) => {
    const freight = await lockFreight(trx, freightId, clock.at(now));
    if (!freight) return notFound;
    // Re-checked under the lock: an award or expiry may have happened since the read above.
    if (!isOpenForBids(freight, now)) return refused('quotes.freight_not_biddable', freightId);
    // The freight's company blocked the bidder's (docs/reference.md#trust): its bids are refused, read
    // under the freight's lock like a confirmation's (confirmBid).
    if (freight.company_id !== caller.companyId && (await isBlocked(trx, freight.company_id, caller.companyId)))
      return refused('quotes.bidder_blocked', freightId);
    if (existing) {
      const bid = await lockBid(trx, existing.id);
      if (!bid) return notFound;
      // Only an open bid changes: once a side has confirmed, the offer is what was confirmed.
      if (bid.status !== 'open') return refused('quotes.bid_not_open', freightId);
      // A new amount ends the owner's standing counter (docs/reference.md#one-step) and joins the bid's history.
      const newAmount = Number(bid.amount) !== Number(values.amount) || bid.currency_code !== values.currency_code;
      const updated = await updateBid(trx, bid.id, newAmount ? { ...values, ...NO_COUNTER } : values);
      if (newAmount)
        await recordOffer(
          trx,
          updated,
          'bidder',
          caller.userId,
          { amount: values.amount, currency: values.currency_code, note: updated.note },
          now,
        );
      await emitEvent(trx, clock, { type: 'bid.updated', freightId, bidId: bid.id });
      return oneStep(trx, freight, updated);
    }
    const created = await insertBidWithOffer(trx, {
      ...values,
      freight_id: freightId,
      company_id: caller.companyId,
      user_id: caller.userId,
      display_company_id: caller.companyId,
      status: 'open',
      type: freight.company_id === caller.companyId ? 'selling' : 'buying',
      deadline: freight.deadline,
      created: now,
    });
    await emitEvent(trx, clock, { type: 'bid.created', freightId, bidId: created.id });
    return oneStep(trx, freight, created);
  });

  /** A bid at or below the freight's walk-away price is awarded at once (docs/reference.md#one-step). */
  async function oneStep(trx: Transaction<DB>, freight: FreightRow, bid: BidRow): Promise<Transition<SubmitRefusal>> {
    const won = award ? await autoAward(trx, clock.at(now), freight, bid, award) : null;
    return won ? { kind: 'done', bid: won.bid, freight: won.freight, awarded: true } : { kind: 'done', bid, freight, awarded: false };
  }
}

/**
 * POST /quotes/confirm/{bidId}.json. The two sides are the freight's owner and the bidder's
 * company. The first side's confirmation makes bid and freight pending; the second side's
 * awards the freight: taken, winner and transport company = the bidder, price = the amount,
 * the bid accepted, every other pending bid back to open. When the owner bids on its own freight
 * (a `selling` bid) it holds both sides and confirms twice, like two parties would.
 * A company that is neither side cannot see the bid: not found.
 */
export async function confirmBid(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  bidId: number,
  award: AwardPath,
): Promise<Transition<ConfirmRefusal>> {
  const now = clock.now();
  const probe = await bidParties(db, bidId);
  if (!probe || (probe.owner !== caller.companyId && probe.bidder !== caller.companyId)) return notFound;

  return transition<ConfirmRefusal>(db, probe.freight_id, 'quotes.not_confirmable', async (trx) => {
    const freight = await lockFreight(trx, probe.freight_id, clock.at(now));
    const bid = await lockBid(trx, bidId);
    if (!freight || !bid) return notFound;
    const isOwner = freight.company_id === caller.companyId;
    const isBidder = bid.company_id === caller.companyId;
    if (!isOwner && !isBidder) return notFound;
    if (!LIVE.includes(bid.status) || !isOpenForBids(freight, now)) return refused('quotes.not_confirmable', freight.id);
    // A block between the two companies (docs/reference.md#trust, either way) stops a bid placed before
    // it: neither side confirms it any more. Read here, under the freight's lock, so a block
    // committed before this transaction took the lock is seen, whatever was read before.
    if (bid.company_id !== freight.company_id && (await blocksEither(trx, freight.company_id, bid.company_id)))
      return refused('quotes.party_blocked', freight.id);

    // Which side this confirmation is. A company holding both sides fills the owner's first.
    let side: 'owner_confirmed' | 'bidder_confirmed';
    if (isOwner && isBidder) side = bid.owner_confirmed ? 'bidder_confirmed' : 'owner_confirmed';
    else side = isOwner ? 'owner_confirmed' : 'bidder_confirmed';
    if (bid[side]) return refused('quotes.already_confirmed', freight.id);

    const both = side === 'owner_confirmed' ? bid.bidder_confirmed : bid.owner_confirmed;
    // Who gave this confirmation, and when: the transport order names both (deals).
    const by =
      side === 'owner_confirmed'
        ? { owner_confirmed_by: caller.userId, owner_confirmed_at: now }
        : { bidder_confirmed_by: caller.userId, bidder_confirmed_at: now };
    if (!both) {
      const pending = await updateBid(trx, bid.id, { [side]: true, ...by, status: 'pending', modified: now });
      const f = await bidConfirmed(trx, freight, now);
      await emitEvent(trx, clock, { type: 'bid.confirmed', freightId: freight.id, bidId: bid.id, by: caller.companyId });
      return { kind: 'done', bid: pending, freight: f, awarded: false };
    }

    // The award (award.ts): the bid accepted with this confirmation, the freight taken, then this
    // confirmation's event before `freight.awarded`, and the award's steps.
    const won = await award.award(trx, clock, {
      way: 'confirmed',
      freightId: freight.id,
      bidId: bid.id,
      confirmation: by,
      announce: [{ type: 'bid.confirmed', freightId: freight.id, bidId: bid.id, by: caller.companyId }],
    });
    if (won.kind !== 'awarded') return refused('quotes.not_confirmable', freight.id);
    return { kind: 'done', bid: won.bid!, freight: won.freight, awarded: true };
  });
}

/**
 * POST /quotes/revoke/{bidId}.json. Only the bidder's company revokes its bid, while the bid is
 * open or pending (a confirmation binds only once both sides have given it) and the freight is
 * still open or pending. A freight left without pending bids returns from pending to open.
 * Anyone else cannot revoke, so for them the bid does not exist.
 */
export async function revokeBid(db: Kysely<DB>, clock: Clock, caller: Caller, bidId: number): Promise<Transition<RevokeRefusal>> {
  const now = clock.now();
  const probe = await ownBidFreight(db, bidId, caller.companyId);
  if (!probe) return notFound;

  return transition<RevokeRefusal>(db, probe.freight_id, 'quotes.bid_not_revocable', async (trx) => {
    const freight = await lockFreight(trx, probe.freight_id, clock.at(now));
    const bid = await lockBid(trx, bidId);
    if (!freight || !bid || bid.company_id !== caller.companyId) return notFound;
    if (!LIVE.includes(bid.status) || !isOpenForBids(freight, now)) return refused('quotes.bid_not_revocable', freight.id);

    const revoked = await updateBid(trx, bid.id, { status: 'revoked', ...NO_CONFIRMATION, modified: now });
    const f = await bidWithdrawn(trx, freight, now);
    await emitEvent(trx, clock, { type: 'bid.revoked', freightId: freight.id, bidId: bid.id });
    return { kind: 'done', bid: revoked, freight: f, awarded: false };
  });
}
