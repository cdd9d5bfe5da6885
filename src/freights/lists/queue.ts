import { sql, type Kysely, type SqlBool } from 'kysely';
import { companyNameSql } from '../../accounts/companies.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/time.ts';
import { BIDS_IN_PLAY, effectiveStatusSql, inMarketSql } from '../in-market.ts';
import { hadBidSql } from '../policy.ts';
import type { FreightStatus } from '../tables.ts';
import { cityOf } from '../pages/page-data.ts';
import { bidderMustConfirm, isCallersMove, ownerMoveOf, publishGaps, type PublishGap } from './moves.ts';
import { LIST, type ListId } from './registry.ts';

/**
 * The dispatcher's work queue (the start page, src/desk): what waits for the company's move and
 * what changed since the user last looked, each entry a freight to open. Page only, never in a
 * JSON answer. Whose move it is comes from moves.ts (the rule the freight page and the lists
 * read); the statements only find the candidates: one bounded statement per part, at most
 * QUEUE_BOUND rows each, run together.
 */

/** At most this many rows are read per part (its count stops there). */
export const QUEUE_BOUND = 500;
/** Entries shown per part; the rest are counted. */
const SHOWN = 8;

type Db = Kysely<DB>;

/** A freight of the queue as the caller may see it. */
export interface QueueFreight {
  id: number;
  /** the customer reference to owner and winner (refs, decisions.md §4), else the number */
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
  /** bids in play (bids to answer) */
  bids?: number;
  /** what a draft lacks */
  gaps?: PublishGap[];
  /** the delivery status (0–2) of an order to deliver */
  delivery?: number;
  /** when it happened or falls due (`YYYY-MM-DD HH:MM:SS`) */
  at?: string | null;
}

export interface QueueSection {
  /** how many (at most QUEUE_BOUND) */
  count: number;
  /** the first of them, at most eight */
  entries: QueueEntry[];
}

/** The parts of the queue, in the order the start page shows them. */
export const WAITING_PARTS = ['confirmBids', 'chooseBids', 'confirmMine', 'answerRequests', 'deliveries', 'drafts'] as const;
export const CHANGED_PARTS = ['newBids', 'won', 'lost'] as const;
export type QueuePart = (typeof WAITING_PARTS)[number] | (typeof CHANGED_PARTS)[number];

export type WorkQueue = Record<QueuePart, QueueSection>;

const IN_PLAY = sql.raw(BIDS_IN_PLAY.map((s) => `'${s}'`).join(', '));
const AWARDED: readonly FreightStatus[] = ['taken', 'closed', 'archived'];

/** The freight columns an entry is made of (places, pick-up, the customer reference). */
const FREIGHT_COLUMNS = [
  'freights.id',
  'freights.company_id',
  'freights.winner_id',
  'freights.type',
  'freights.whitelist',
  'freights.from_code',
  'freights.from_country',
  'freights.from_latitude',
  'freights.from_longitude',
  'freights.to_code',
  'freights.to_country',
  'freights.to_latitude',
  'freights.to_longitude',
  'freights.etd',
  'freights.weight',
  'freights.delivery_status',
] as const;

interface FreightColumns {
  id: number;
  company_id: number;
  winner_id: number | null;
  type: string;
  whitelist: number[];
  from_code: string | null;
  from_country: string | null;
  from_latitude: string | null;
  from_longitude: string | null;
  to_code: string | null;
  to_country: string | null;
  to_latitude: string | null;
  to_longitude: string | null;
  etd: Date | null;
  weight: string | null;
  delivery_status: number;
  status: string;
  customer: string | null;
}

const customerSql = sql<string | null>`(freights.refs ->> 'customer')`;

/** `CODE City (CC)`, as the freight page names a place (freight-page.tsx placeLabel). */
async function placeText(code: string | null, country: string | null, lat: string | null, lon: string | null): Promise<string> {
  if (!code) return '–';
  const city = await cityOf(code, lat, lon, country);
  return [code, city, country ? `(${country})` : null].filter(Boolean).join(' ');
}

/** A freight of the queue; `masked` for a former bidder (no places, no reference). */
async function queueFreight(f: FreightColumns, company: number, clock: Clock, masked = false): Promise<QueueFreight> {
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
  const now = clock.now();
  const freightColumns = () => [...FREIGHT_COLUMNS, effectiveStatusSql(now).as('status'), customerSql.as('customer')] as const;
  const inMarket = inMarketSql(now);

  const [ownBids, myBids, requests, deliveries, drafts, newBids, won, lost] = await Promise.all([
    // Bids in play on the company's freights in the market (its move: confirm one, or choose).
    db
      .selectFrom('freights')
      .innerJoin('bids', 'bids.freight_id', 'freights.id')
      .select(freightColumns())
      .select([
        'bids.amount',
        'bids.currency_code',
        'bids.owner_confirmed',
        'bids.bidder_confirmed',
        'bids.modified as bid_modified',
        'freights.deadline',
        companyNameSql(sql`bids.company_id`).as('bidder'),
      ])
      .where('freights.company_id', '=', company)
      .where(inMarket)
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .orderBy('freights.deadline')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND * 4)
      .execute(),
    // The company's bids in play on other companies' freights in the market (its move: confirm an accepted one).
    db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .select(freightColumns())
      .select([
        'bids.amount',
        'bids.currency_code',
        'bids.owner_confirmed',
        'bids.bidder_confirmed',
        'bids.modified as bid_modified',
        companyNameSql(sql`freights.company_id`).as('owner'),
      ])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .where(inMarket)
      .orderBy('bids.modified', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // Booking requests and direct requests addressed to the company, not answered yet.
    db
      .selectFrom('freights')
      .select(freightColumns())
      .select(['freights.deadline', companyNameSql(sql`freights.company_id`).as('owner')])
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`freights.type <> 'AHR'`)
      .where(sql<SqlBool>`(freights.winner_id = ${company} or freights.whitelist @> array[${company}]::integer[])`)
      .where(inMarket)
      .where((eb) => eb.not(hadBidSql(eb, company)))
      .orderBy('freights.deadline')
      .limit(QUEUE_BOUND)
      .execute(),
    // Orders the company won whose delivery it reports.
    db
      .selectFrom('freights')
      .select(freightColumns())
      .select(companyNameSql(sql`freights.company_id`).as('owner'))
      .where('freights.winner_id', '=', company)
      .where('freights.status', '=', 'taken')
      .orderBy('freights.etd')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's drafts (those with gaps wait for it).
    db
      .selectFrom('freights')
      .select(freightColumns())
      .select('freights.modified')
      .where('freights.company_id', '=', company)
      .where('freights.status', '=', 'draft')
      .orderBy('freights.modified', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // Bids other companies made on the company's freights since.
    db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .select(freightColumns())
      .select(['bids.amount', 'bids.currency_code', 'bids.created as bid_created', companyNameSql(sql`bids.company_id`).as('bidder')])
      .where('freights.company_id', '=', company)
      .where('bids.company_id', '<>', company)
      .where('bids.status', '<>', 'revoked')
      .where('bids.created', '>', since)
      .orderBy('bids.created', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's bids accepted since (the award: both confirmations).
    db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .select(freightColumns())
      .select(['bids.amount', 'bids.currency_code', 'bids.modified as bid_modified', companyNameSql(sql`freights.company_id`).as('owner')])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where('bids.status', '=', 'accepted')
      .where('bids.modified', '>', since)
      .orderBy('bids.modified', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's bids on freights awarded to another company since (the accepted bid's time).
    db
      .selectFrom('bids')
      .innerJoin('freights', 'freights.id', 'bids.freight_id')
      .innerJoin('bids as accepted', (join) =>
        join.onRef('accepted.freight_id', '=', 'freights.id').on(sql<SqlBool>`accepted.status = 'accepted'`),
      )
      .select(freightColumns())
      .select(['bids.amount', 'bids.currency_code', 'accepted.modified as awarded', companyNameSql(sql`freights.company_id`).as('owner')])
      .distinctOn(['accepted.modified', 'freights.id'])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .where('freights.winner_id', 'is not', null)
      .where('freights.winner_id', '<>', company)
      .where('freights.status', 'in', AWARDED)
      .where('accepted.modified', '>', since)
      .orderBy('accepted.modified', 'desc')
      .orderBy('freights.id', 'desc')
      .orderBy('bids.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
  ]);

  const f = (row: FreightColumns, masked = false) => queueFreight(row, company, clock, masked);
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
  const awaited = myBids.filter((b) => bidderMustConfirm(b));
  const unanswered = requests.filter((r) =>
    isCallersMove(
      { status: r.status as FreightStatus, company: r.company_id, winner: r.winner_id, type: r.type, whitelist: r.whitelist },
      company,
      undefined,
      undefined,
    ),
  );
  const withGaps = drafts
    .map((d) => ({ d, gaps: publishGaps({ from: d.from_code, to: d.to_code, etd: d.etd, weight: d.weight }) }))
    .filter((x) => x.gaps.length > 0);

  const [confirmBids, chooseBids, confirmMine, answerRequests, deliveriesDue, draftsWithGaps, newBidsSince, wonSince, lostSince] =
    await Promise.all([
      section(toConfirm, async (b) => ({
        freight: await f(b),
        company: b.bidder,
        amount: b.amount,
        currency: b.currency_code,
        at: time(b.bid_modified),
      })),
      section(toChoose, async ({ row, bids }) => ({
        freight: await f(row),
        bids: bids.length,
        amount: row.amount,
        currency: row.currency_code,
        at: time(row.deadline),
      })),
      section(awaited, async (b) => ({
        freight: await f(b),
        company: b.owner,
        amount: b.amount,
        currency: b.currency_code,
        at: time(b.bid_modified),
      })),
      section(unanswered, async (r) => ({ freight: await f(r), company: r.owner, at: time(r.deadline) })),
      section(deliveries, async (r) => ({ freight: await f(r), company: r.owner, delivery: r.delivery_status })),
      section(withGaps, async ({ d, gaps }) => ({ freight: await f(d), gaps, at: time(d.modified) })),
      section(newBids, async (b) => ({
        freight: await f(b),
        company: b.bidder,
        amount: b.amount,
        currency: b.currency_code,
        at: time(b.bid_created),
      })),
      section(won, async (b) => ({
        freight: await f(b),
        company: b.owner,
        amount: b.amount,
        currency: b.currency_code,
        at: time(b.bid_modified),
      })),
      // A lost load is masked for its former bidder (decisions.md §4): its number, day and the own bid.
      section(lost, async (b) => ({
        freight: await f(b, true),
        company: b.owner,
        amount: b.amount,
        currency: b.currency_code,
        at: time(b.awarded),
      })),
    ]);
  return {
    confirmBids,
    chooseBids,
    confirmMine,
    answerRequests,
    deliveries: deliveriesDue,
    drafts: draftsWithGaps,
    newBids: newBidsSince,
    won: wonSince,
    lost: lostSince,
  };
}

/** Where each part of the queue is listed in full (registry.ts), for "all of them". */
export const QUEUE_LISTS: Record<QueuePart, ListId> = {
  confirmBids: LIST.withBids,
  chooseBids: LIST.withBids,
  confirmMine: LIST.bidOn,
  answerRequests: LIST.bookingsIn,
  deliveries: LIST.won,
  drafts: LIST.drafts,
  newBids: LIST.withBids,
  won: LIST.won,
  lost: LIST.lost,
};
