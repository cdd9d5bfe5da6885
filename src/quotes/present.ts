import type { Selectable } from 'kysely';
import type { BidsTable } from '../freights/tables.ts';
import type { Clock } from '../kernel/time.ts';

export type BidRow = Selectable<BidsTable>;

const money = (v: string | null) => (v === null ? null : Number(v));

/** A bid as api.md's Bid table shows it (in `data.bid` and in a freight's `_bids`). */
export function presentBid(bid: BidRow, clock: Clock) {
  return {
    id: bid.id,
    route: bid.freight_id,
    company: bid.company_id,
    user: bid.user_id,
    display_company_id: bid.display_company_id,
    amount: money(bid.amount),
    currency_code: bid.currency_code,
    rate_base: money(bid.rate_base),
    rate_fsc: money(bid.rate_fsc),
    rate_ssc: money(bid.rate_ssc),
    note: bid.note,
    status: bid.status,
    type: bid.type,
    // Additions (old clients ignore them): which side has confirmed so far.
    owner_confirmed: bid.owner_confirmed,
    bidder_confirmed: bid.bidder_confirmed,
    deadline: clock.format(bid.deadline),
    created: clock.format(bid.created),
    modified: clock.format(bid.modified),
  };
}
