import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { companyNameSql } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import {
  AWARDED_STATUSES,
  BIDS_IN_PLAY,
  bidsWithAward,
  bidsWithFreights,
  completedSql as completed,
  effectiveStatusSql,
  freightsWithBids,
  fromFreights,
  freightsWithWaterfalls,
  hadBidSql,
  inMarketSql,
} from '../freights/index.ts';

/**
 * The candidates of the dispatcher's work queue (the start page, queue.ts), read through the
 * freights' read model (freights/read-model.ts) and its rules: one bounded statement per part, at
 * most QUEUE_BOUND rows each, run together. Whose move each candidate is (freights/lists/moves.ts)
 * and what the page shows of it is queue.ts's.
 */

/** At most this many rows are read per part (its count stops there). */
export const QUEUE_BOUND = 500;

const IN_PLAY = sql.raw(BIDS_IN_PLAY.map((s) => `'${s}'`).join(', '));

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

export interface QueueFreightColumns {
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

/** The columns of a queue entry's freight (QueueFreightColumns), the status effective at `now`. */
const freightColumns = (now: Date) => [...FREIGHT_COLUMNS, effectiveStatusSql(now).as('status'), customerSql.as('customer')] as const;

/** Deliveries are offered for rating on the desk for this long after they closed (older ones stay ratable on the profile). */
export const RATE_WITHIN_DAYS = 30;

/**
 * The company's freights delivered in the last RATE_WITHIN_DAYS between it and another company
 * (as owner or as carrier) that it has not rated yet, newest first, at most QUEUE_BOUND: the
 * queue's "rate your counterpart". Whether the company rated a freight is the trust module's
 * (`notRatedBy`, its SQL over its ratings, passed in from above, as the TMS lists pass theirs),
 * so this stays one statement; the two partial indexes of completed freights find the rows.
 */
export async function deliveredToRate(
  db: Kysely<DB>,
  now: Date,
  company: number,
  notRatedBy: (freightId: RawBuilder<number>) => RawBuilder<SqlBool>,
) {
  const since = new Date(now.getTime() - RATE_WITHIN_DAYS * 86_400_000);
  return fromFreights(db)
    .select(freightColumns(now))
    .select([
      'freights.modified as delivered_at',
      sql<number>`(case when freights.company_id = ${company} then freights.winner_id else freights.company_id end)`.as('other_id'),
      companyNameSql(sql`(case when freights.company_id = ${company} then freights.winner_id else freights.company_id end)`).as('other'),
    ])
    .where((eb) => eb.or([eb('freights.company_id', '=', company), eb('freights.winner_id', '=', company)]))
    .where(sql<SqlBool>`${completed('freights')}`)
    .where('freights.modified', '>', since)
    .where(notRatedBy(sql<number>`freights.id`))
    .orderBy('freights.modified', 'desc')
    .orderBy('freights.id', 'desc')
    .limit(QUEUE_BOUND)
    .execute();
}

/** How long a freight whose bidding expired with bids left stays in the queue's expired group. */
export const EXPIRED_DAYS = 7;

/**
 * The queue's candidate rows for the company at `now`; `since`: the start of "what changed"
 * (new bids, won and lost since). Each row carries the freight's columns (QueueFreightColumns).
 */
export async function queueRows(db: Kysely<DB>, now: Date, company: number, since: Date) {
  const columns = () => freightColumns(now);
  const inMarket = inMarketSql(now);
  /** Bids with their freight's columns. */
  const bidsWithFreight = () => bidsWithFreights(db).select(columns());

  const [ownBids, myBids, requests, deliveries, drafts, newBids, won, lost, turns, expiredBids] = await Promise.all([
    // Bids in play on the company's freights in the market (its move: confirm one, or choose).
    freightsWithBids(db)
      .select(columns())
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
    // The company's bids in play on other companies' freights in the market (its move: confirm an
    // accepted one, or answer the owner's counter-offer).
    bidsWithFreight()
      .select([
        'bids.amount',
        'bids.currency_code',
        'bids.owner_confirmed',
        'bids.bidder_confirmed',
        'bids.modified as bid_modified',
        'bids.counter_amount',
        'bids.counter_currency',
        'bids.counter_created',
        companyNameSql(sql`freights.company_id`).as('owner'),
      ])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .where(inMarket)
      .orderBy('bids.modified', 'desc')
      .orderBy('bids.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // Booking requests and direct requests addressed to the company, not answered yet.
    fromFreights(db)
      .select(columns())
      .select(['freights.deadline', companyNameSql(sql`freights.company_id`).as('owner')])
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`freights.type <> 'AHR'`)
      .where(sql<SqlBool>`(freights.winner_id = ${company} or freights.whitelist @> array[${company}]::integer[])`)
      .where(inMarket)
      .where((eb) => eb.not(hadBidSql(eb, company)))
      .orderBy('freights.deadline')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND)
      .execute(),
    // Orders the company won whose delivery it reports.
    fromFreights(db)
      .select(columns())
      .select(companyNameSql(sql`freights.company_id`).as('owner'))
      .where('freights.winner_id', '=', company)
      .where('freights.status', '=', 'taken')
      .orderBy('freights.etd')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's drafts (those with gaps wait for it).
    fromFreights(db)
      .select(columns())
      .select('freights.modified')
      .where('freights.company_id', '=', company)
      .where('freights.status', '=', 'draft')
      .orderBy('freights.modified', 'desc')
      .orderBy('freights.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // Bids other companies made on the company's freights since.
    bidsWithFreight()
      .select(['bids.amount', 'bids.currency_code', 'bids.created as bid_created', companyNameSql(sql`bids.company_id`).as('bidder')])
      .where('freights.company_id', '=', company)
      .where('bids.company_id', '<>', company)
      .where('bids.status', '<>', 'revoked')
      .where('bids.created', '>', since)
      .orderBy('bids.created', 'desc')
      .orderBy('bids.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's bids accepted since (the award: both confirmations).
    bidsWithFreight()
      .select(['bids.amount', 'bids.currency_code', 'bids.modified as bid_modified', companyNameSql(sql`freights.company_id`).as('owner')])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where('bids.status', '=', 'accepted')
      .where('bids.modified', '>', since)
      .orderBy('bids.modified', 'desc')
      .orderBy('bids.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // The company's bids on freights awarded to another company since (the accepted bid's time).
    bidsWithAward(db)
      .select(columns())
      .select(['bids.amount', 'bids.currency_code', 'accepted.modified as awarded', companyNameSql(sql`freights.company_id`).as('owner')])
      .distinctOn(['accepted.modified', 'freights.id'])
      .where('bids.company_id', '=', company)
      .where('freights.company_id', '<>', company)
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .where('freights.winner_id', 'is not', null)
      .where('freights.winner_id', '<>', company)
      .where('freights.status', 'in', [...AWARDED_STATUSES])
      .where('accepted.modified', '>', since)
      .orderBy('accepted.modified', 'desc')
      .orderBy('freights.id', 'desc')
      .orderBy('bids.id', 'desc')
      .limit(QUEUE_BOUND)
      .execute(),
    // A waterfall's turn of the company (docs/reference.md#one-step): offered to it alone until its turn ends.
    freightsWithWaterfalls(db)
      .select(columns())
      .select(['freights.book_now', 'freights.book_now_currency', 'w.step_until', companyNameSql(sql`freights.company_id`).as('owner')])
      .where(sql<SqlBool>`w.state = 'running'`)
      .where(sql<SqlBool>`w.carriers[w.step + 1] = ${company}`)
      .where('w.step_until', '>', now)
      .where(inMarket)
      .orderBy('w.step_until')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND)
      .execute(),
    // Bids left on the company's freights whose bidding deadline passed in the last EXPIRED_DAYS
    // (issue 47, item 4): no longer to answer, shown in a group of their own after the live ones,
    // the most recently expired first.
    freightsWithBids(db)
      .select(columns())
      .select(['bids.amount', 'bids.currency_code', 'freights.deadline'])
      .where('freights.company_id', '=', company)
      // Expired: written so by the sweeper, or due and not yet written (in-market.ts).
      .where(sql<SqlBool>`(freights.status = 'expired' or freights.market_until < ${now})`)
      .where('freights.deadline', '<', now)
      .where('freights.deadline', '>=', new Date(now.getTime() - EXPIRED_DAYS * 86_400_000))
      .where(sql<SqlBool>`bids.status in (${IN_PLAY})`)
      .orderBy('freights.deadline', 'desc')
      .orderBy('freights.id')
      .limit(QUEUE_BOUND * 4)
      .execute(),
  ]);

  return { ownBids, myBids, requests, deliveries, drafts, newBids, won, lost, turns, expiredBids };
}

/** The candidate rows of each part of the queue. */
export type QueueRows = Awaited<ReturnType<typeof queueRows>>;

/**
 * The company's freights underway (taken: owner or winner), newest first, at most `bound`, with
 * the queue's columns and the other party's name: the desk asks tracking (src/positions) which of
 * them are late or reached a milestone.
 */
export async function underwayFreights(db: Kysely<DB>, now: Date, company: number, bound = QUEUE_BOUND) {
  return fromFreights(db)
    .select(freightColumns(now))
    .select(
      sql<string>`case when freights.company_id = ${company} then ${companyNameSql(sql`freights.winner_id`)} else ${companyNameSql(sql`freights.company_id`)} end`.as(
        'other',
      ),
    )
    .where('freights.status', '=', 'taken')
    .where((eb) => eb.or([eb('freights.company_id', '=', company), eb('freights.winner_id', '=', company)]))
    .orderBy('freights.id', 'desc')
    .limit(bound)
    .execute();
}
