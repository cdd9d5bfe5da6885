import { isMarketStatus } from '../in-market.ts';
import { type FreightStatus, VISIBILITY } from '../tables.ts';

/**
 * Whose move it is on a freight, read from its live bids: the freight page states it in its
 * next-step line, the list rows mark it ("your move") and the dispatcher's start page counts it.
 * The page leads one confirmation order (docs/choices.md, "Whose move it is"): the owner
 * confirms a bid first, then the bidder; a bid the bidder confirmed first waits for the owner.
 */

/** The two confirmations of a live (open or pending) bid, and whether the owner's counter-offer stands on it. */
export interface Confirmations {
  owner_confirmed: boolean;
  bidder_confirmed: boolean;
  /** the owner answered the bid with its own price (docs/reference.md#one-step); absent: not read, none */
  countered?: boolean;
}

/**
 * The owner's next move on its freight in the market: `confirm` a bid its bidder confirmed,
 * `waiting` for the bidder of a bid it accepted, `choose` among the bids, or `none` (no bid yet).
 */
export type OwnerMove = 'confirm' | 'waiting' | 'choose' | 'none';

export function ownerMoveOf(liveBids: readonly Confirmations[]): OwnerMove {
  if (liveBids.some((b) => b.bidder_confirmed && !b.owner_confirmed)) return 'confirm';
  if (liveBids.some((b) => b.owner_confirmed && !b.bidder_confirmed)) return 'waiting';
  return liveBids.length ? 'choose' : 'none';
}

/** A bidder's move on its live bid: confirm it once the owner accepted it; otherwise the owner's. */
export const bidderMustConfirm = (bid: Confirmations): boolean => bid.owner_confirmed && !bid.bidder_confirmed;

/**
 * A bidder's move on its live bid, all of it: confirm it once the owner accepted it, or answer the
 * owner's standing counter-offer (accept it, or change the amount, which ends it).
 */
const bidderMustAnswer = (bid: Confirmations): boolean => bidderMustConfirm(bid) || bid.countered === true;

/** What a list row needs to say whose move it is. */
export interface RowForMove {
  status: FreightStatus;
  company: number;
  winner: number | null;
  type?: unknown;
  /** the stored whitelist (the desk's rows), or null as another company is shown it (presented rows) */
  whitelist?: unknown;
  visibility?: unknown;
}

/**
 * Whether the row waits for the caller's company: its draft (complete or publish it), its tender
 * with a bid to confirm or bids to choose from, its own live bid the owner accepted (confirm it) or
 * answered with a counter-offer (accept it, or change the bid),
 * a booking request addressed to it that it has not answered, an order it won whose delivery it
 * reports. `ownerBids` are the live bids of the caller's own freight, `myBid` its own live bid on
 * another company's freight (freights-http/pages/page-data.ts reads both for the page's rows).
 */
export function isCallersMove(
  row: RowForMove,
  company: number,
  ownerBids: readonly Confirmations[] | undefined,
  myBid: Confirmations | undefined,
): boolean {
  if (row.company === company) {
    if (row.status === 'draft') return true;
    if (row.status === 'taken') return row.winner === company;
    if (!isMarketStatus(row.status)) return false;
    const move = ownerMoveOf(ownerBids ?? []);
    return move === 'confirm' || move === 'choose';
  }
  if (row.status === 'taken') return row.winner === company;
  if (!isMarketStatus(row.status)) return false;
  if (myBid) return bidderMustAnswer(myBid);
  // A booking request (or a direct request or order) addressed to this company waits for its answer.
  // A presented row shows another company no whitelist (the owner's alone): one addressed to a
  // whitelist that this company sees in the market names it, or it could not see it.
  const named = Array.isArray(row.whitelist) ? row.whitelist.includes(company) : row.visibility === VISIBILITY.whitelist;
  const addressed = row.winner === company || named;
  return row.type !== 'AHR' && addressed;
}

/** A field a freight needs before it is published. */
export type PublishGap = 'from' | 'to' | 'etd' | 'weight';

/**
 * The freight's publish requirements that are not met (the HTML side's rule, docs/choices.md
 * "What publishing needs"): origin, destination, pick-up time and a weight. Drafts with gaps wait
 * for their owner (the freight page lists them, the desk counts them).
 */
export function publishGaps(route: { from?: unknown; to?: unknown; etd?: unknown; weight?: unknown }): PublishGap[] {
  const gaps: PublishGap[] = [];
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(route.from)) gaps.push('from');
  if (empty(route.to)) gaps.push('to');
  if (empty(route.etd)) gaps.push('etd');
  if (empty(route.weight) || Number(route.weight) <= 0) gaps.push('weight');
  return gaps;
}

/**
 * A side's place as publishing needs it (publishGaps' `from`/`to`): its postal code, or a town
 * without one given by its country and coordinates (docs/choices.md, Typed places: the freight
 * form stores a typed town so, and the API publishes such a draft as any other). The freight page
 * and the desk's drafts ask this one rule.
 */
export function placeGiven(side: { code: unknown; country: unknown; latitude: unknown; longitude: unknown }): unknown {
  const given = (v: unknown) => v !== null && v !== undefined && v !== '';
  if (given(side.code)) return side.code;
  return given(side.country) && given(side.latitude) && given(side.longitude) ? 'town' : side.code;
}
