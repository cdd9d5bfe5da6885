import type { Transaction, Updateable } from 'kysely';
import type { DB, Db } from '../db/schema.ts';
import { BID_STATUSES, type BidConfirmerColumn, type BidRow, type BidsTable } from './tables.ts';
import { Type } from '@sinclair/typebox';
import { field, presenter, timestamp } from '../kernel/fields.ts';
import type { Clock } from '../kernel/time.ts';

/**
 * Bids as rows and as docs/reference.md#bids: the freights module owns the `bids` table, since a freight's
 * visibility, its lists and its view are read from its bids (docs/reference.md#freights); the quotes module
 * and the bid state machine (bidding.ts, award.ts) runs through the functions below.
 */

/** A bid as docs/reference.md#bids table shows it (in `data.bid` and in a freight's `_bids`). */
/** A bid as it is shown: its row without the freight's creation time copied onto it for the lists' order. */
export type ShownBid = Omit<BidRow, 'freight_created' | BidConfirmerColumn>;

export const BID = presenter<ShownBid>()('Bid', 'A bid (quote) on one freight (api.md, Bid)', {
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
  // docs/reference.md#one-step: seen by the two parties only, as the bid itself (the owner, the bidder).
  counter: field.computed(
    Type.Union(
      [
        Type.Object({
          amount: Type.Number({ description: 'the owner’s price, in the bid’s currency' }),
          currency_code: Type.String(),
          note: Type.Union([Type.String(), Type.Null()]),
          created: timestamp(),
        }),
        Type.Null(),
      ],
      {
        description:
          'the freight owner’s standing counter-offer (decisions.md §16): the bidder accepts it with POST /quotes/accept/{id}.json; a new counter replaces it, a change of the bid’s amount ends it (null)',
      },
    ),
    (row: ShownBid, ctx) =>
      row.counter_amount === null
        ? null
        : {
            amount: Number(row.counter_amount),
            currency_code: row.counter_currency ?? row.currency_code ?? 'EUR',
            note: row.counter_note,
            created: ctx.clock.format(row.counter_created) ?? '',
          },
  ),
});

export function presentBid(bid: ShownBid, clock: Clock) {
  return BID.present(bid, { clock });
}

export type BidView = ReturnType<typeof presentBid>;

// The bid state machine's reads and writes (bidding.ts and award.ts decide; these only touch rows).

/** The bid, locked for the rest of the transaction (after its freight: lock order freights -> bids). */
export function lockBid(trx: Transaction<DB>, id: number): Promise<BidRow | undefined> {
  return trx.selectFrom('bids').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The bid if it is the company's own (another company's is as missing). */
export function ownBid(db: Db, id: number, companyId: number): Promise<BidRow | undefined> {
  return db.selectFrom('bids').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
}

export function updateBid(trx: Transaction<DB>, id: number, set: Updateable<BidsTable>): Promise<BidRow> {
  return trx.updateTable('bids').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The freight of a bid with the bid's company (bidder) and the freight's (owner), read unlocked. */
export function bidParties(db: Db, bidId: number): Promise<{ freight_id: number; bidder: number; owner: number } | undefined> {
  return db
    .selectFrom('bids')
    .innerJoin('freights', 'freights.id', 'bids.freight_id')
    .select(['bids.freight_id', 'bids.company_id as bidder', 'freights.company_id as owner'])
    .where('bids.id', '=', bidId)
    .executeTakeFirst();
}

/** The freight of a bid of the company's own, read unlocked; undefined for anyone else's bid. */
export function ownBidFreight(db: Db, bidId: number, companyId: number): Promise<{ freight_id: number } | undefined> {
  return db
    .selectFrom('bids')
    .innerJoin('freights', 'freights.id', 'bids.freight_id')
    .select(['bids.freight_id'])
    .where('bids.id', '=', bidId)
    .where('bids.company_id', '=', companyId)
    .executeTakeFirst();
}

/** A bid's confirmations cleared: neither side, nobody, never (back to open, or revoked). */
export const NO_CONFIRMATION = {
  owner_confirmed: false,
  bidder_confirmed: false,
  owner_confirmed_by: null,
  owner_confirmed_at: null,
  bidder_confirmed_by: null,
  bidder_confirmed_at: null,
} as const;

/** Whether the freight has a pending bid still. */
export async function hasPendingBid(trx: Transaction<DB>, freightId: number): Promise<boolean> {
  return Boolean(
    await trx.selectFrom('bids').select('id').where('freight_id', '=', freightId).where('status', '=', 'pending').executeTakeFirst(),
  );
}
