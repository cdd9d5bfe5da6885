import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import {
  bidderMustConfirm,
  isCallersMove,
  LIST,
  ownerMoveOf,
  placeGiven,
  publishGaps,
  type FreightStatus,
  type ListId,
  type PublishGap,
} from '../freights/index.ts';
import { deliveredToRate, QUEUE_BOUND, queueRows, underwayFreights, type QueueFreightColumns } from './candidates.ts';
import type { Clock } from '../kernel/time.ts';
import { cityOf } from '../places/index.ts';
import { notRatedBySql, ratingsToAnswer } from '../trust/index.ts';
import { trackingStates, type MilestoneType } from '../positions/index.ts';

/**
 * The dispatcher's work queue (the start page): what waits for the company's move and what
 * changed since the user last looked, each entry a freight to open. Page only, never in a JSON
 * answer. The candidates are read here through the freights' read model (candidates.ts queueRows:
 * one bounded statement per part, run together), and the ratings' parts with the trust module (the
 * deliveries to rate: candidates.ts's statement with the trust module's "not rated" piece; the
 * ratings to answer: the trust module's); whose move each is comes from its rule
 * (freights/lists/moves.ts, which the freight page and the lists read too), and what an entry
 * shows is decided here.
 */

/** Entries shown per part; the rest are counted. */
const SHOWN = 8;

type Db = Kysely<DB>;

/** A freight of the queue as the caller may see it. */
export interface QueueFreight {
  id: number;
  /** the customer reference to owner and winner (refs, docs/reference.md#freights), else the number */
  ref: string;
  /** `60311 Frankfurt am Main (DE) → 20121 Milano (IT)`; null for a lost load (masked: no places) */
  route: string | null;
  /** the pick-up time (`YYYY-MM-DD HH:MM:SS`), null when unknown */
  etd: string | null;
}

export interface QueueEntry {
  freight: QueueFreight;
  /** the other party: the bidder, the shipper */
  company?: string;
  amount?: string | null;
  currency?: string | null;
  /** the company's own bid, in `currency` (a counter-offer to answer: `amount` is the owner's price) */
  bidAmount?: string | null;
  /** bids in play (bids to answer) */
  bids?: number;
  /** what a draft lacks */
  gaps?: PublishGap[];
  /** the delivery status (0–2) of an order to deliver */
  delivery?: number;
  /** when it happened or falls due (`YYYY-MM-DD HH:MM:SS`) */
  at?: string | null;
  /** the other party's company id (a counterpart to rate: its profile holds the rate form) */
  companyId?: number | null;
  /** a rating's score (a rating to answer) */
  score?: number;
  /** the milestone a truck reached (tracking, docs/reference.md#tracking) */
  milestone?: MilestoneType;
}

export interface QueueSection {
  /** how many (at most the freights module's QUEUE_BOUND) */
  count: number;
  /** the first of them, at most eight */
  entries: QueueEntry[];
}

/** The parts of the queue, in the order the start page shows them. */
export const WAITING_PARTS = [
  'yourTurn',
  'answerCounters',
  'confirmBids',
  'chooseBids',
  'confirmMine',
  'answerRequests',
  'deliveries',
  'rateCounterparts',
  'answerRatings',
  'late',
  'drafts',
] as const;
/** Dead ends, apart from what waits (issue 47, item 4): freights whose bidding expired with bids left. */
export const EXPIRED_PARTS = ['expiredBids'] as const;
export const CHANGED_PARTS = ['newBids', 'won', 'lost', 'milestones'] as const;
export type QueuePart = (typeof WAITING_PARTS)[number] | (typeof EXPIRED_PARTS)[number] | (typeof CHANGED_PARTS)[number];

export type WorkQueue = Record<QueuePart, QueueSection>;

/** `CODE City (CC)`, as the freight page names a place (freight-page.tsx placeLabel). */
async function placeText(code: string | null, country: string | null, lat: string | null, lon: string | null): Promise<string> {
  // A town without a postal code (issue 47, item 2) is named by its point: `München (DE)`.
  if (!code && !(country && lat !== null && lon !== null)) return '–';
  const city = await cityOf(code, lat, lon, country);
  return [code, city, country ? `(${country})` : null].filter(Boolean).join(' ');
}

/** A freight of the queue; `masked` for a former bidder (no places, no reference). */
async function queueFreight(f: QueueFreightColumns, company: number, clock: Clock, masked = false): Promise<QueueFreight> {
  const mayReadRefs = f.company_id === company || f.winner_id === company;
  const route = masked
    ? null
    : `${await placeText(f.from_code, f.from_country, f.from_latitude, f.from_longitude)} → ${await placeText(
        f.to_code,
        f.to_country,
        f.to_latitude,
        f.to_longitude,
      )}`;
  return {
    id: f.id,
    ref: mayReadRefs && f.customer ? f.customer : String(f.id),
    route,
    etd: clock.format(f.etd),
  };
}

/** A part of the queue from its rows: counted, the first SHOWN made entries. */
async function section<R>(rows: readonly R[], entry: (row: R) => Promise<QueueEntry>): Promise<QueueSection> {
  return { count: rows.length, entries: await Promise.all(rows.slice(0, SHOWN).map(entry)) };
}

/**
 * The company's work queue at the clock's now; `since`: when the user last looked (the start
 * page keeps it), the start of "what changed".
 */
export async function workQueue(db: Db, clock: Clock, company: number, since: Date): Promise<WorkQueue> {
  const [{ ownBids, myBids, requests, deliveries, drafts, newBids, won, lost, turns, expiredBids }, toRate, toAnswer, underway] =
    await Promise.all([
      queueRows(db, clock.now(), company, since),
      deliveredToRate(db, clock.now(), company, notRatedBySql(company)),
      ratingsToAnswer(db, company, QUEUE_BOUND),
      underwayFreights(db, clock.now(), company),
    ]);
  // Tracking (docs/reference.md#tracking): of the freights underway, the late ones (waiting: a call to make)
  // and the milestones reached since the last look, newest first.
  const states = new Map(
    (
      await trackingStates(
        db,
        underway.map((f) => f.id),
      )
    ).map((s) => [s.freightId, s]),
  );
  const late = underway.flatMap((f) => {
    const s = states.get(f.id);
    return s?.late ? [{ f, eta: s.eta }] : [];
  });
  const reached = underway
    .flatMap((f) => (states.get(f.id)?.milestones ?? []).filter((m) => m.at > since).map((m) => ({ f, m })))
    .sort((a, b) => b.m.at.getTime() - a.m.at.getTime());

  const f = (row: QueueFreightColumns, masked = false) => queueFreight(row, company, clock, masked);
  const time = (d: Date | null | undefined) => clock.format(d ?? null);

  // The owner's bids, by freight, in the order read (nearest deadline first): whose move each is.
  const byFreight = new Map<number, typeof ownBids>();
  for (const b of ownBids) byFreight.set(b.id, [...(byFreight.get(b.id) ?? []), b]);
  const toConfirm: typeof ownBids = [];
  const toChoose: Array<{ row: (typeof ownBids)[number]; bids: typeof ownBids }> = [];
  for (const bids of byFreight.values()) {
    const move = ownerMoveOf(bids);
    if (move === 'confirm') toConfirm.push(...bids.filter((b) => b.bidder_confirmed && !b.owner_confirmed));
    else if (move === 'choose') {
      const best = [...bids].sort((a, b) => Number(a.amount ?? Infinity) - Number(b.amount ?? Infinity))[0]!;
      toChoose.push({ row: best, bids });
    }
  }
  // Expired with bids left (issue 47, item 4): by freight, most recently expired first.
  const expiredByFreight = new Map<number, typeof expiredBids>();
  for (const b of expiredBids) expiredByFreight.set(b.id, [...(expiredByFreight.get(b.id) ?? []), b]);
  const expired = [...expiredByFreight.values()].map((bids) => ({
    row: [...bids].sort((a, b) => Number(a.amount ?? Infinity) - Number(b.amount ?? Infinity))[0]!,
    bids,
  }));
  const awaited = myBids.filter((b) => bidderMustConfirm(b));
  // The owner answered the company's bid with its own price (docs/reference.md#one-step): accept it or change
  // the bid; a bid the owner accepted meanwhile is a confirmation to give instead.
  const countered = myBids.filter((b) => b.counter_amount !== null && !bidderMustConfirm(b));
  const unanswered = requests.filter((r) =>
    isCallersMove(
      { status: r.status as FreightStatus, company: r.company_id, winner: r.winner_id, type: r.type, whitelist: r.whitelist },
      company,
      undefined,
      undefined,
    ),
  );
  const withGaps = drafts
    .map((d) => ({
      d,
      // A town without a postal code (its country and coordinates) is a place given (issue 47, item 2).
      gaps: publishGaps({
        from: placeGiven({ code: d.from_code, country: d.from_country, latitude: d.from_latitude, longitude: d.from_longitude }),
        to: placeGiven({ code: d.to_code, country: d.to_country, latitude: d.to_latitude, longitude: d.to_longitude }),
        etd: d.etd,
        weight: d.weight,
      }),
    }))
    .filter((x) => x.gaps.length > 0);

  /** An entry of a bid: its freight, the other party, the amount, and when (`at`). */
  const bidEntry = async (
    b: QueueFreightColumns & { amount: string | null; currency_code: string | null },
    other: string,
    at: Date | null | undefined,
    masked = false,
  ): Promise<QueueEntry> => ({ freight: await f(b, masked), company: other, amount: b.amount, currency: b.currency_code, at: time(at) });

  const [
    yourTurn,
    answerCounters,
    confirmBids,
    chooseBids,
    confirmMine,
    expiredWithBids,
    answerRequests,
    deliveriesDue,
    draftsWithGaps,
    newBidsSince,
    wonSince,
    lostSince,
    rateCounterparts,
    answerRatings,
    lateOrders,
    milestonesSince,
  ] = await Promise.all([
    // A waterfall's turn: the price to book at and the turn's end (docs/reference.md#one-step).
    section(turns, async (r) => ({
      freight: await f(r),
      company: r.owner,
      amount: r.book_now,
      currency: r.book_now_currency,
      at: time(r.step_until),
    })),
    // A counter-offer: the owner's price, beside the bid's own.
    section(countered, async (b) => ({
      freight: await f(b),
      company: b.owner,
      amount: b.counter_amount === null ? null : String(b.counter_amount),
      currency: b.counter_currency ?? b.currency_code,
      bidAmount: b.amount,
      at: time(b.counter_created),
    })),
    section(toConfirm, (b) => bidEntry(b, b.bidder, b.bid_modified)),
    section(toChoose, async ({ row, bids }) => ({
      freight: await f(row),
      bids: bids.length,
      amount: row.amount,
      currency: row.currency_code,
      at: time(row.deadline),
    })),
    section(awaited, (b) => bidEntry(b, b.owner, b.bid_modified)),
    section(expired, async ({ row, bids }) => ({
      freight: await f(row),
      bids: bids.length,
      amount: row.amount,
      currency: row.currency_code,
      at: time(row.deadline),
    })),
    section(unanswered, async (r) => ({ freight: await f(r), company: r.owner, at: time(r.deadline) })),
    section(deliveries, async (r) => ({ freight: await f(r), company: r.owner, delivery: r.delivery_status })),
    section(withGaps, async ({ d, gaps }) => ({ freight: await f(d), gaps, at: time(d.modified) })),
    section(newBids, (b) => bidEntry(b, b.bidder, b.bid_created)),
    section(won, (b) => bidEntry(b, b.owner, b.bid_modified)),
    // A lost load is masked for its former bidder (docs/reference.md#freights): its number, day and the own bid.
    section(lost, (b) => bidEntry(b, b.owner, b.awarded, true)),
    section(toRate, async (r) => ({ freight: await f(r), company: r.other, companyId: r.other_id, at: time(r.delivered_at) })),
    // A rating names its freight by the display id the company may see; its reply form is on the company's profile.
    section(toAnswer, async (r) => ({
      freight: { id: r.freight_id, ref: r.display_id, route: null, etd: null },
      company: r.rater,
      score: r.score,
      at: time(r.created),
    })),
    section(late, async ({ f: r, eta }) => ({ freight: await f(r), company: r.other, at: time(eta) })),
    section(reached, async ({ f: r, m }) => ({ freight: await f(r), company: r.other, milestone: m.type, at: time(m.at) })),
  ]);
  return {
    yourTurn,
    answerCounters,
    confirmBids,
    chooseBids,
    confirmMine,
    expiredBids: expiredWithBids,
    answerRequests,
    deliveries: deliveriesDue,
    drafts: draftsWithGaps,
    newBids: newBidsSince,
    won: wonSince,
    lost: lostSince,
    rateCounterparts,
    answerRatings,
    late: lateOrders,
    milestones: milestonesSince,
  };
}

/**
 * Where each part of the queue is listed in full (freights' list registry), for "all of them"; the
 * ratings to answer are on the company's own profile, the deliveries to rate in no one list.
 */
export const QUEUE_LISTS: Record<Exclude<QueuePart, 'rateCounterparts' | 'answerRatings' | 'late' | 'milestones'>, ListId> = {
  yourTurn: LIST.market,
  answerCounters: LIST.bidOn,
  confirmBids: LIST.withBids,
  chooseBids: LIST.withBids,
  expiredBids: LIST.ownArchive,
  confirmMine: LIST.bidOn,
  answerRequests: LIST.bookingsIn,
  deliveries: LIST.won,
  drafts: LIST.drafts,
  newBids: LIST.withBids,
  won: LIST.won,
  lost: LIST.lost,
};
