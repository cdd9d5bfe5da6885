import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Clock } from '../kernel/time.ts';
import { lockBid } from './bids.ts';
import { emitEvent, emitEvents, type EmitInput } from './events.ts';
import { BIDS_IN_PLAY, inMarket } from './in-market.ts';
import { awardTo, lockFreight } from './lifecycle.ts';
import type { BidConfirmerColumn, BidRow, FreightRow } from './tables.ts';

/**
 * The one award path: every way a freight is won goes through `AwardPath.award`, in the
 * transaction of the way that wins it, and what else an award does (the deal room's transport
 * order, the award in its lane cell, a consignment note) is an `AwardStep` that app.ts lists, in
 * order, when it builds the path. The freights module names no module above it: it runs the
 * steps it is given. A step that fails rolls the award back with it.
 *
 * The ways of winning:
 * - `confirmed`: both sides confirmed a bid (bidding.ts confirmBid, docs/reference.md#freights);
 * - `own_order`: a freight created taken by its own company, its carrier (from a template:
 *   lifecycle.ts createFreight, `ownOrder`); no bid, no other party;
 * - `book_now`, `auto_award`, `counter_accepted`: deals in one step (one-step.ts, docs/reference.md#one-step):
 *   a carrier takes the freight at its Book Now price, a bid at or below the owner's walk-away
 *   price, the bidder accepts the owner's counter-offer.
 */
export type WayOfWinning = 'confirmed' | 'own_order' | 'book_now' | 'auto_award' | 'counter_accepted';

/** An award as its steps see it: the freight as taken, the accepted bid (none for an own order), and how it was won. */
export interface Won {
  freight: FreightRow;
  bid: BidRow | null;
  way: WayOfWinning;
}

/**
 * What else happens in the award's transaction, after the freight is taken and `freight.awarded`
 * is announced; registered in app.ts, run in the order registered.
 */
export type AwardStep = (trx: Transaction<DB>, clock: Clock, won: Won) => Promise<void>;

/** Who confirmed on each side, and when: written on the accepted bid (the transport order names them). */
export type Confirmation = Partial<Pick<BidRow, BidConfirmerColumn>>;

/** What is awarded, and how. */
export type AwardInput =
  /** A freight created taken by its own company (already written so); its award is announced and its steps run. */
  | { way: 'own_order'; freightId: number }
  | {
      way: Exclude<WayOfWinning, 'own_order'>;
      freightId: number;
      bidId: number;
      /** Who confirmed on each side, and when (`confirmed`: the confirmation that completes the pair). */
      confirmation?: Confirmation;
      /** The way's own events, announced after the award is written and before `freight.awarded`. */
      announce?: readonly EmitInput[];
      /**
       * The freight and the bid as the caller already holds them in this transaction (the freight
       * locked by `lockFreight`, the bid locked or inserted by it): not read again. The checks
       * below are the same.
       */
      held?: { freight: FreightRow; bid: BidRow };
    };

export type AwardResult =
  | { kind: 'awarded'; freight: FreightRow; bid: BidRow | null }
  /** The freight or bid is not there, the bid is not the freight's or not in play, or the freight is out of the market: nothing written. */
  | { kind: 'not_awardable' };

export class AwardPath {
  private readonly steps: readonly AwardStep[];
  /**
   * The Book Now bookings this app (one path per app) has under way, by freight: a second booking
   * of the same freight waits for the first in memory, holding no connection (one-step.ts bookNow).
   * Ordering only: the row's lock decides the winner, across processes too.
   */
  readonly bookings = new Map<number, Promise<unknown>>();
  /**
   * Per freight: whether a booking of this app holding its lock passed every check and is writing
   * the award (`taken`), and the signal that wakes the bookings waiting in line for it (one-step.ts
   * `Bookings`). Answering only: the row's lock still decides the winner.
   */
  readonly deciding = new Map<number, { taken: boolean; woken: Promise<void>; wake: () => void }>();

  constructor(steps: readonly AwardStep[] = []) {
    this.steps = [...steps];
  }

  /**
   * Awards a freight in `trx`. The freight is locked first, then the bid (lock order freights →
   * bids; a caller that holds both locks already is not held up, and one that passes them as
   * `held` has them not read again). A bid wins in one statement (lifecycle.ts awardTo): the bid
   * accepted with both sides confirmed, every other pending bid of the freight back to open, the
   * freight taken by the bid's company at the bid's amount. The unique index of one accepted bid
   * per freight stops a second award (the transaction then rolls back). Then the way's own events
   * and `freight.awarded`, planned from one read and written together, and the steps.
   */
  async award(trx: Transaction<DB>, clock: Clock, input: AwardInput): Promise<AwardResult> {
    const now = clock.now();
    const held = input.way === 'own_order' ? undefined : input.held;
    const freight = held && held.freight.id === input.freightId ? held.freight : await lockFreight(trx, input.freightId, clock.at(now));
    if (!freight) return { kind: 'not_awardable' };
    if (input.way === 'own_order') {
      if (freight.status !== 'taken' || freight.winner_id !== freight.company_id) return { kind: 'not_awardable' };
      await emitEvent(trx, clock, { type: 'freight.awarded', freightId: freight.id });
      return this.finish(trx, clock, { freight, bid: null, way: input.way });
    }
    const bid = held && held.bid.id === input.bidId ? held.bid : await lockBid(trx, input.bidId);
    if (!bid || bid.freight_id !== freight.id || !(BIDS_IN_PLAY as readonly string[]).includes(bid.status) || !inMarket(freight, now))
      return { kind: 'not_awardable' };
    // One statement: should another bid of this freight be accepted already (impossible under the
    // lock), the unique index stops it.
    const { freight: taken, bid: accepted } = await awardTo(
      trx,
      freight,
      bid,
      { owner_confirmed: true, bidder_confirmed: true, ...input.confirmation, status: 'accepted', modified: now },
      now,
    );
    // The way's events and `freight.awarded` render the freight as just written, all at once.
    await emitEvents(
      trx,
      clock,
      [...(input.announce ?? []), { type: 'freight.awarded', freightId: freight.id }],
      new Map([[taken.id, taken]]),
    );
    return this.finish(trx, clock, { freight: taken, bid: accepted, way: input.way });
  }

  private async finish(trx: Transaction<DB>, clock: Clock, won: Won): Promise<AwardResult> {
    for (const step of this.steps) await step(trx, clock, won);
    return { kind: 'awarded', freight: won.freight, bid: won.bid };
  }
}
