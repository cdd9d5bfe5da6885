import { Decimal } from 'decimal.js';
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { blockedSql, blocksEither } from '../accounts/index.ts';
import { PreparedStatement, statementBuilder } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { bidParties, lockBid, updateBid } from './bids.ts';
import type { AwardPath } from './award.ts';
import { emitEvent } from './events.ts';
import { BIDS_IN_PLAY, inMarket, isMarketStatus } from './in-market.ts';
import { inTransition, lockFreight } from './lifecycle.ts';
import { admits } from './policy.ts';
import type { BidRow, BidsTable, FreightRow, OfferSide } from './tables.ts';
import { catchUpWaterfall, lockWaterfall, waterfallWon, type WaterfallWork } from './waterfall.ts';

/**
 * Deals in one step (docs/reference.md#one-step): Book Now, automatic award and counter-offers. Each runs
 * in one transaction that locks the freight row first, then the bid (the lock order of every bid
 * transition: freights → bids), and awards through the one award path it is given (`AwardPath`,
 * built by app.ts), so a deal made in one step does everything an award does (events, transport
 * order, lane cell, other bids back to open). Two companies booking one freight at once, on one
 * server process or on many sharing one PostgreSQL, queue on the freight's lock: the second reads
 * the freight taken and is refused.
 */

/** Why a step is refused (`status` = `error`, its reason the code). */
export type OneStepRefusal =
  | 'quotes.book.no_price'
  | 'quotes.book.own_freight'
  | 'quotes.book.not_available'
  | 'quotes.bidder_blocked'
  | 'quotes.one_step.blocked'
  | 'quotes.counter.not_open'
  | 'quotes.counter.own_bid'
  | 'quotes.accept.no_counter';

export type OneStepResult =
  | { kind: 'done'; freight: FreightRow; bid: BidRow }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: OneStepRefusal; freightId: number };

const notFound = { kind: 'not_found' } as const;
const refused = (reason: OneStepRefusal, freightId: number) => ({ kind: 'refused', reason, freightId }) as const;

/** Runs a step in its transaction; a concurrent transition that won is the caller's refusal (`inTransition`). */
function inTransaction(
  db: Kysely<DB>,
  freightId: number,
  refusal: OneStepRefusal,
  work: (trx: Transaction<DB>) => Promise<OneStepResult>,
): Promise<OneStepResult> {
  return inTransition(db, work, () => refused(refusal, freightId));
}

/** One line of a bid's history (bid_offers): the bidder's amount or the owner's counter. */
export async function recordOffer(
  trx: Transaction<DB>,
  bid: Pick<BidRow, 'id' | 'amount' | 'currency_code'>,
  side: OfferSide,
  userId: number | null,
  offer: { amount: string; currency: string; note: string | null },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('bid_offers')
    .values({ bid_id: bid.id, side, user_id: userId, amount: offer.amount, currency_code: offer.currency, note: offer.note, created: now })
    .execute();
}

/**
 * A new bid and its first line of history (the bidder's amount, as recordOffer writes it), in one
 * statement: a bid placed (bidding.ts) and a load booked at its posted price (Book Now).
 */
export async function insertBidWithOffer(trx: Transaction<DB>, values: Insertable<BidsTable>): Promise<BidRow> {
  return (await trx
    .with('bid', (db) => db.insertInto('bids').values(values).returningAll())
    .with('offer', (db) =>
      db
        .insertInto('bid_offers')
        .columns(['bid_id', 'side', 'user_id', 'amount', 'currency_code', 'note', 'created'])
        .expression((eb) =>
          eb
            .selectFrom('bid')
            .select([
              'bid.id',
              sql<OfferSide>`'bidder'::text`.as('side'),
              'bid.user_id',
              'bid.amount',
              'bid.currency_code',
              'bid.note',
              'bid.created',
            ]),
        )
        .returning('bid_offers.id'),
    )
    .selectFrom('bid')
    .selectAll()
    .executeTakeFirstOrThrow()) as BidRow;
}

/** The standing counter cleared (a new amount of the bidder ends it, docs/reference.md#one-step). */
export const NO_COUNTER = { counter_amount: null, counter_currency: null, counter_note: null, counter_created: null } as const;

/**
 * Whether a bid just created or changed is awarded at once (docs/reference.md#one-step, automatic award):
 * the freight has a walk-away price, the bid is in its currency and at or below it, and the bid
 * is another company's (the owner's own `selling` bid is no offer to it).
 */
export function autoAwards(freight: Pick<FreightRow, 'auto_award' | 'book_now_currency' | 'company_id'>, bid: BidRow): boolean {
  if (freight.auto_award === null || bid.amount === null || bid.company_id === freight.company_id) return false;
  if ((bid.currency_code ?? '').toUpperCase() !== freight.book_now_currency) return false;
  return new Decimal(bid.amount).lessThanOrEqualTo(new Decimal(freight.auto_award));
}

/**
 * A waterfall's turn is the only way in while it runs (docs/reference.md#one-step): the freight's running
 * waterfall is brought up to date first (turns whose end has passed end here, in this transaction,
 * whether or not a sweeper came by), then the caller must be the carrier whose turn it is.
 * Answers the freight as it stands after that, and whether the caller is in its turn.
 */
async function throughWaterfall(
  trx: Transaction<DB>,
  clock: Clock,
  freight: FreightRow,
  companyId: number,
  work: WaterfallWork,
): Promise<{ freight: FreightRow; turn: 'none' | 'yours' | 'not_yours' }> {
  const fall = await lockWaterfall(trx, freight.id);
  if (fall?.state !== 'running') return { freight, turn: 'none' };
  const now = clock.now();
  const caught = await catchUpWaterfall(trx, clock, freight, fall, now, work);
  if (caught.fall.state !== 'running') return { freight: caught.freight, turn: 'none' };
  return { freight: caught.freight, turn: caught.fall.carriers[caught.fall.step] === companyId ? 'yours' : 'not_yours' };
}

type RefusalFacts = Pick<FreightRow, 'company_id' | 'status' | 'visibility' | 'whitelist'> & { has_bid: boolean; falling: boolean };

let refusalPrepared: PreparedStatement<[freightId: number, companyId: number]> | undefined;

/**
 * What a booking is refused on before any transaction (the freight's owner, status and audience,
 * the caller's live bid, a running waterfall), prepared (src/db/prepared.ts): a race's losers
 * send it thousands of times, and planning it (the freights table has three dozen indexes to
 * weigh) cost PostgreSQL ten times running it.
 */
function refusalFacts(): PreparedStatement<[freightId: number, companyId: number]> {
  refusalPrepared ??= new PreparedStatement<[freightId: number, companyId: number]>(
    'fx_booking_refusal',
    2,
    (freightId: number, companyId: number) =>
      statementBuilder<DB>()
        .selectFrom('freights as f')
        .where('f.id', '=', freightId)
        .select([
          'f.company_id',
          'f.status',
          'f.visibility',
          'f.whitelist',
          sql<boolean>`exists (select 1 from bids b where b.freight_id = f.id and b.company_id = ${companyId} and b.status <> 'revoked')`.as(
            'has_bid',
          ),
          sql<boolean>`exists (select 1 from freight_waterfalls w where w.freight_id = f.id and w.state = 'running')`.as('falling'),
        ]),
  );
  return refusalPrepared;
}

/**
 * A booking's answer decided without a transaction or a lock, when one statement's snapshot
 * already decides it (docs/choices.md, "A losing booking is refused cheaply"): the caller's own
 * freight, or a freight that left the market (taken by an earlier booking, expired, revoked) and
 * has no running waterfall. The answer is the one the locked path gives on that snapshot (its
 * instant is the booking's: a freight out of the market then is refused as the lock's holder
 * would have found it); anything else (open, pending, draft, a running waterfall, gone) is null:
 * the locked path decides. So a race's losers arriving after the winner committed neither wait
 * for a lock nor open a transaction.
 *
 * `taken`: a booking of this process holds the freight and has passed every check, so it is
 * being taken (`Bookings`): the snapshot's open freight is answered as the taken freight it is
 * about to be, which is the answer the locked path gives once the winner committed — except on a
 * running waterfall, whose turn the winner may have moved in its transaction (null: the locked
 * path decides).
 */
async function refusedAtOnce(db: Kysely<DB>, caller: Caller, freightId: number, taken = false): Promise<OneStepResult | null> {
  const [row] = await refusalFacts().execute<RefusalFacts>(db, freightId, caller.companyId);
  if (!row) return null;
  if (row.company_id === caller.companyId) return refused('quotes.book.own_freight', freightId);
  if (row.falling || row.status === 'draft' || (isMarketStatus(row.status) && !taken)) return null;
  // As the locked path answers a freight out of the market: a refusal to whom it shows itself, else not found.
  return admits(row, caller.companyId) || row.has_bid ? refused('quotes.book.not_available', freightId) : notFound;
}

/**
 * The bookings of one app (`AwardPath.deciding`, so per process) that hold their freight's lock and
 * have passed every check: they are writing the award, and only a failure of the database (a
 * deadlock, the connection) would leave the freight open — the winner itself is then refused too
 * (`inTransaction`). A booking of such a freight is answered at once as the winner's commit will
 * make it (`refusedAtOnce` with `taken`), and one waiting in line for it wakes at the decision
 * instead of at the commit (docs/choices.md, "A losing booking is refused cheaply").
 */
class Bookings {
  constructor(private readonly deciding: AwardPath['deciding']) {}

  private entry(freightId: number) {
    let found = this.deciding.get(freightId);
    if (!found) {
      let wake = () => {};
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      found = { taken: false, woken, wake };
      this.deciding.set(freightId, found);
    }
    return found;
  }

  taken(freightId: number): boolean {
    return this.deciding.get(freightId)?.taken === true;
  }

  /** Resolves when a booking of the freight passed its checks, or when that booking ended (`settled`). */
  decided(freightId: number): Promise<void> {
    return this.entry(freightId).woken;
  }

  decide(freightId: number): void {
    const found = this.entry(freightId);
    found.taken = true;
    found.wake();
  }

  /** The booking's transaction ended (committed or rolled back): its waiters wake, the entry goes. */
  settled(freightId: number): void {
    const found = this.deciding.get(freightId);
    this.deciding.delete(freightId);
    found?.wake();
  }
}

/**
 * Runs `book` after the bookings of `freightId` this app has under way (`AwardPath.bookings`), one
 * at a time: a booking of a freight that another booking of the process is taking waits for it in
 * memory, without a connection, then asks again (docs/choices.md, "A losing booking is refused
 * cheaply"); it wakes early when the one before it passed its checks (`Bookings.decided`) and is
 * then answered without waiting for that commit when it can be.
 */
async function inLine<T>(
  line: Map<number, Promise<unknown>>,
  freightId: number,
  decided: () => Promise<void>,
  atDecision: () => Promise<T | null>,
  book: (waited: boolean) => Promise<T>,
): Promise<T> {
  const before = line.get(freightId);
  const mine = (async () => {
    if (before) {
      const settled = before.then(
        () => true,
        () => true,
      );
      if (!(await Promise.race([settled, decided().then(() => false)]))) {
        const answer = await atDecision();
        if (answer) return answer;
        await settled;
      }
    }
    return book(before !== undefined);
  })();
  line.set(freightId, mine);
  try {
    return await mine;
  } finally {
    if (line.get(freightId) === mine) line.delete(freightId);
  }
}

/**
 * POST /quotes/book/{freightId}.json (docs/reference.md#one-step): by a company that may bid on the
 * freight, while it is open or pending and has `book_now`, a bid at `book_now` is created and
 * awarded in this one transaction. A company that cannot see the freight: not found (a taken
 * freight stays "there" for every company its visibility admitted, so the loser of a race reads
 * a refusal, not a 404). The owner's own company, no price, a blocked company, a freight no
 * longer in the market: refused, nothing written.
 *
 * A race's loser is refused without a transaction once the winner committed (`refusedAtOnce`),
 * or once a booking of this process holds the freight and passed its checks (`Bookings`); within
 * one process it otherwise waits for a booking of the same freight under way in memory, not on
 * the row's lock with a connection held; across processes the row's lock decides, as for every
 * transition.
 */
export async function bookNow(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  award: AwardPath,
  work: WaterfallWork,
): Promise<OneStepResult> {
  const now = clock.now();
  const under = new Bookings(award.deciding);
  if (!award.bookings.has(freightId) || under.taken(freightId)) {
    const early = await refusedAtOnce(db, caller, freightId, under.taken(freightId));
    if (early) return early;
  }
  return inLine(
    award.bookings,
    freightId,
    () => under.decided(freightId),
    () => (under.taken(freightId) ? refusedAtOnce(db, caller, freightId, true) : Promise.resolve(null)),
    async (waited) => {
      // The head of the line: whatever it answers, its freight's entry ends with it.
      try {
        const early = waited ? await refusedAtOnce(db, caller, freightId) : null;
        return early ?? (await bookLocked(db, clock.at(now), caller, freightId, award, work, () => under.decide(freightId)));
      } finally {
        under.settled(freightId);
      }
    },
  );
}

/** The booking in its transaction, on the locked freight. */
function bookLocked(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  freightId: number,
  award: AwardPath,
  work: WaterfallWork,
  decided: () => void,
): Promise<OneStepResult> {
  const now = clock.now();
  return inTransaction(db, freightId, 'quotes.book.not_available', async (trx) => {
    const locked = await lockFreight(trx, freightId, clock);
    if (!locked) return notFound;
    if (locked.company_id === caller.companyId) return refused('quotes.book.own_freight', freightId);
    const { freight, turn } = await throughWaterfall(trx, clock.at(now), locked, caller.companyId, work);
    if (freight.status === 'draft' || turn === 'not_yours') return notFound;
    // The rest of the checks' facts in one statement: the caller's live bid (whom the freight
    // shows itself to: its visibility's audience — a waterfall's: the carrier whose turn it is —,
    // or a company with a live bid on it) and the blocks both ways.
    const facts = (
      await sql<{ has_bid: boolean; owner_blocks: boolean; caller_blocks: boolean }>`select
        exists (select 1 from bids where bids.freight_id = ${freightId} and bids.company_id = ${caller.companyId} and bids.status <> 'revoked') as has_bid,
        ${blockedSql(freight.company_id, caller.companyId)} as owner_blocks,
        ${blockedSql(caller.companyId, freight.company_id)} as caller_blocks`.execute(trx)
    ).rows[0]!;
    if (!admits(freight, caller.companyId) && !facts.has_bid) return notFound;
    if (!inMarket(freight, now)) return refused('quotes.book.not_available', freightId);
    if (facts.owner_blocks) return refused('quotes.bidder_blocked', freightId);
    if (facts.caller_blocks) return refused('quotes.one_step.blocked', freightId);
    if (freight.book_now === null) return refused('quotes.book.no_price', freightId);
    // Every check passed on the locked row: the freight is being taken (`Bookings`).
    decided();

    // The bid at the Book Now price and its line of history, in one statement.
    const bid = await insertBidWithOffer(trx, {
      freight_id: freightId,
      company_id: caller.companyId,
      user_id: caller.userId,
      display_company_id: caller.companyId,
      amount: freight.book_now,
      currency_code: freight.book_now_currency,
      status: 'open',
      type: 'buying',
      deadline: freight.deadline,
      created: now,
      modified: now,
    });
    const won = await award.award(trx, clock.at(now), {
      way: 'book_now',
      freightId,
      bidId: bid.id,
      announce: [{ type: 'bid.created', freightId, bidId: bid.id }],
      // The freight as locked (and brought up to date by its waterfall), the bid as inserted here.
      held: { freight, bid },
    });
    if (won.kind !== 'awarded' || !won.bid) throw Object.assign(new Error('not awardable'), { code: '40001' });
    // Only a running waterfall (the caller's turn) ends here: without one (none, or it ended, its
    // row locked above) there is nothing to write.
    if (turn === 'yours') await waterfallWon(trx, freightId, now);
    return { kind: 'done', freight: won.freight, bid: won.bid };
  });
}

/**
 * The automatic award of a bid just created or changed in `trx` (docs/reference.md#one-step), called by the
 * bid state machine on the freight it locked: awarded at the bid's own amount, as if both sides
 * had confirmed. Answers the award, or null when the bid does not qualify.
 */
export async function autoAward(
  trx: Transaction<DB>,
  clock: Clock,
  freight: FreightRow,
  bid: BidRow,
  award: AwardPath,
): Promise<{ freight: FreightRow; bid: BidRow } | null> {
  if (!autoAwards(freight, bid)) return null;
  if (await blocksEither(trx, freight.company_id, bid.company_id)) return null;
  const won = await award.award(trx, clock, { way: 'auto_award', freightId: freight.id, bidId: bid.id });
  if (won.kind !== 'awarded' || !won.bid) return null;
  await waterfallWon(trx, freight.id, clock.now());
  return { freight: won.freight, bid: won.bid };
}

/**
 * POST /quotes/counter/{bidId}.json (docs/reference.md#one-step): the freight's owner answers a bid with its
 * own price, in the bid's currency; a new counter replaces the standing one. Event `bid.countered`
 * to the bidder. Anyone but the owner: not found; a revoked (or accepted) bid, a freight out of
 * the market: refused.
 */
export async function counterBid(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  bidId: number,
  offer: { amount: string; note: string | null },
): Promise<OneStepResult> {
  const now = clock.now();
  const probe = await bidParties(db, bidId);
  if (!probe || probe.owner !== caller.companyId) return notFound;
  return inTransaction(db, probe.freight_id, 'quotes.counter.not_open', async (trx) => {
    const freight = await lockFreight(trx, probe.freight_id, clock.at(now));
    const bid = await lockBid(trx, bidId);
    if (!freight || !bid || freight.company_id !== caller.companyId) return notFound;
    if (bid.company_id === freight.company_id) return refused('quotes.counter.own_bid', freight.id);
    if (!(BIDS_IN_PLAY as readonly string[]).includes(bid.status) || !inMarket(freight, now))
      return refused('quotes.counter.not_open', freight.id);
    if (await blocksEither(trx, freight.company_id, bid.company_id)) return refused('quotes.one_step.blocked', freight.id);
    const currency = bid.currency_code ?? freight.book_now_currency;
    const countered = await updateBid(trx, bid.id, {
      counter_amount: offer.amount,
      counter_currency: currency,
      counter_note: offer.note,
      counter_created: now,
    });
    await recordOffer(trx, bid, 'owner', caller.userId, { amount: offer.amount, currency, note: offer.note }, now);
    await emitEvent(trx, clock.at(now), { type: 'bid.countered', freightId: freight.id, bidId: bid.id, by: caller.companyId });
    return { kind: 'done', freight, bid: countered };
  });
}

/**
 * POST /quotes/accept/{bidId}.json (docs/reference.md#one-step): the bidder takes the standing counter; the
 * freight is awarded to it at the counter's amount (the bid's amount becomes the counter's).
 * Anyone but the bidder: not found; no counter, a revoked bid, a freight out of the market: refused.
 */
export async function acceptCounter(db: Kysely<DB>, clock: Clock, caller: Caller, bidId: number, award: AwardPath): Promise<OneStepResult> {
  const now = clock.now();
  const probe = await bidParties(db, bidId);
  if (!probe || probe.bidder !== caller.companyId) return notFound;
  return inTransaction(db, probe.freight_id, 'quotes.counter.not_open', async (trx) => {
    const freight = await lockFreight(trx, probe.freight_id, clock.at(now));
    const bid = await lockBid(trx, bidId);
    if (!freight || !bid || bid.company_id !== caller.companyId) return notFound;
    if (!(BIDS_IN_PLAY as readonly string[]).includes(bid.status) || !inMarket(freight, now))
      return refused('quotes.counter.not_open', freight.id);
    if (bid.counter_amount === null) return refused('quotes.accept.no_counter', freight.id);
    if (await blocksEither(trx, freight.company_id, bid.company_id)) return refused('quotes.one_step.blocked', freight.id);
    await updateBid(trx, bid.id, { amount: bid.counter_amount, modified: now });
    const won = await award.award(trx, clock.at(now), { way: 'counter_accepted', freightId: freight.id, bidId: bid.id });
    if (won.kind !== 'awarded' || !won.bid) throw Object.assign(new Error('not awardable'), { code: '40001' });
    await waterfallWon(trx, freight.id, now);
    return { kind: 'done', freight: won.freight, bid: won.bid };
  });
}

/** A bid's history for its two parties (the freight page): oldest first. */
export function bidHistory(db: Kysely<DB>, bidIds: readonly number[]) {
  if (!bidIds.length) return Promise.resolve([]);
  return db
    .selectFrom('bid_offers')
    .select(['bid_id', 'side', 'amount', 'currency_code', 'note', 'created'])
    .where('bid_id', 'in', [...bidIds])
    .orderBy('bid_id')
    .orderBy('id')
    .execute();
}
