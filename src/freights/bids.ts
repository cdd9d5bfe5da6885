import type { Selectable } from 'kysely';
import type { BidsTable } from './tables.ts';
import { field, presenter } from '../kernel/fields.ts';
import type { Clock } from '../kernel/time.ts';

/**
 * Bids as rows and as api.md's Bid: the freights module owns the `bids` table, since a freight's
 * visibility, its lists and its view are read from its bids (decisions.md §4); the quotes module
 * runs the bid state machine through the functions of bids-store.ts.
 */
export type BidRow = Selectable<BidsTable>;

export const BID_STATUSES = ['open', 'pending', 'accepted', 'revoked'] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

/** A bid as api.md's Bid table shows it (in `data.bid` and in a freight's `_bids`). */
export const BID = presenter<BidRow>()('Bid', 'A bid (quote) on one freight (api.md, Bid)', {
  id: field.id('id'),
  route: field.id('freight_id', 'the freight bid on'),
  company: field.id('company_id', 'the bidder company (set by the server)'),
  user: field.id('user_id', 'the bidding user (set by the server)'),
  display_company_id: field.idOrNull('display_company_id', 'the company shown as bidder: always the bidder company'),
  amount: field.decimal('amount', 'the offered price'),
  currency_code: field.textOrNull('currency_code', 'three letters, e.g. EUR'),
  rate_base: field.decimal('rate_base', 'component of the amount'),
  rate_fsc: field.decimal('rate_fsc', 'fuel surcharge component'),
  rate_ssc: field.decimal('rate_ssc', 'security surcharge component'),
  note: field.textOrNull('note'),
  status: field.choice('status', BID_STATUSES, 'open on creation; pending when one side confirmed; accepted: the winning bid'),
  type: field.choice('type', ['buying', 'selling'] as const, 'selling when the freight’s own company bids'),
  // Additions (old clients ignore them): which side has confirmed so far.
  owner_confirmed: field.boolean('owner_confirmed', 'the freight’s owner has confirmed (addition to api.md)'),
  bidder_confirmed: field.boolean('bidder_confirmed', 'the bidder has confirmed (addition to api.md)'),
  deadline: field.timeOrNull('deadline', 'the freight’s bidding deadline when the bid was made'),
  created: field.time('created'),
  modified: field.time('modified'),
});

export function presentBid(bid: BidRow, clock: Clock) {
  return BID.present(bid, { clock });
}

export type BidView = ReturnType<typeof presentBid>;

