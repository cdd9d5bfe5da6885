import { sql, type Kysely } from 'kysely';
import { companyNameSql } from '../../accounts/index.ts';
import type { DB } from '../../db/schema.ts';
import {
  AWARDED_STATUSES,
  BIDS_IN_PLAY,
  BIDS_SHOWN_STATUSES,
  bidsWithFreights,
  fromBids,
  fromFreights,
  presentBid,
  storedInSql,
  type BidStatus,
  type BidView,
  type Confirmations,
  type FreightView,
} from '../../freights/index.ts';
import type { Clock } from '../../kernel/time.ts';

/**
 * The freight pages' reads over freights and bids, beyond the JSON answers (never part of them):
 * the winner's contact user, whether a freight has a winner, the bids the JSON no longer carries,
 * bid summaries and own bids for lists, price currencies. One small query each, bounded by the
 * page's ids, started from the freights' read model (freights/read-model.ts) with its rules as SQL
 * pieces; page-parts.ts and list-columns.tsx put a page's parts together. The companies to pick
 * by name, which other modules' pages read too, are the core's (freights/page-data.ts).
 */

type Db = Kysely<DB>;
const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) =>
  [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

/** The user who made the accepted bid of a freight (the winner's contact person). */
export async function acceptedBidUser(db: Db, freightId: number): Promise<number | null> {
  const row = await fromBids(db).select('user_id').where('freight_id', '=', freightId).where('status', '=', 'accepted').executeTakeFirst();
  return row?.user_id ?? null;
}

/** Whether a freight has a winner (a former bidder's archived freight: lost, or ended without an award). */
export async function hasWinner(db: Db, freightId: number): Promise<boolean> {
  const row = await fromFreights(db).select('winner_id').where('id', '=', freightId).executeTakeFirst();
  return row?.winner_id !== null && row?.winner_id !== undefined;
}

/**
 * The bids of a freight the JSON no longer shows (docs/reference.md#the-api: `_bids` only while open, pending or
 * taken), as the view would show them: every bid to the owner, the company's own to anyone else,
 * in creation order, each with its company's name. One statement; page only.
 */
export async function pastBidsOf(
  db: Db,
  clock: Clock,
  route: FreightView,
  companyId: number,
): Promise<{ bids: BidView[]; names: Map<number, string> } | undefined> {
  if (route._bids !== undefined || route.status === 'draft' || BIDS_SHOWN_STATUSES.includes(route.status)) return undefined;
  const rows = await fromBids(db)
    .selectAll('bids')
    .select(companyNameSql(sql`bids.company_id`).as('company_name'))
    .where('bids.freight_id', '=', route.id)
    .$if(route.company !== companyId, (q) => q.where('bids.company_id', '=', companyId))
    .orderBy('bids.created')
    .orderBy('bids.id')
    .limit(MAX_IDS)
    .execute();
  const names = new Map(rows.map((r) => [r.company_id, r.company_name] as const));
  return { bids: rows.map(({ company_name: _name, freight_created: _created, ...bid }) => presentBid(bid, clock)), names };
}

export interface BidSummary {
  count: number;
  /** the lowest live amount, with its currency */
  best: { amount: string; currency: string } | null;
  /** the confirmations of the bids still in play (open, pending): whose move it is (lists/moves.ts) */
  live: Confirmations[];
}

const IN_PLAY: readonly BidStatus[] = BIDS_IN_PLAY;

/** The live (non-revoked) bids on the page's freights, with their freight: what a list row shows of each (amount, status, confirmations). */
const liveBidsOn = (db: Db, freightIds: number[]) =>
  bidsWithFreights(db)
    .select([
      'bids.freight_id',
      'bids.amount',
      'bids.currency_code',
      'bids.status',
      'bids.owner_confirmed',
      'bids.bidder_confirmed',
      sql<boolean>`bids.counter_amount is not null`.as('countered'),
    ])
    .where('bids.freight_id', 'in', freightIds)
    .where('bids.status', '<>', 'revoked');

/** Owner lists: number of live (non-revoked) bids and the lowest amount per freight. Only the caller's own freights. */
export async function bidSummaries(db: Db, ownerCompany: number, freightIds: number[]): Promise<Map<number, BidSummary>> {
  const wanted = ids(freightIds);
  if (!wanted.length) return new Map();
  const rows = await liveBidsOn(db, wanted).where('freights.company_id', '=', ownerCompany).execute();
  const out = new Map<number, BidSummary>();
  for (const r of rows) {
    const s = out.get(r.freight_id) ?? { count: 0, best: null, live: [] };
    s.count += 1;
    if (r.amount !== null && (!s.best || Number(r.amount) < Number(s.best.amount)))
      s.best = { amount: r.amount, currency: r.currency_code ?? '' };
    if (IN_PLAY.includes(r.status)) s.live.push({ owner_confirmed: r.owner_confirmed, bidder_confirmed: r.bidder_confirmed });
    out.set(r.freight_id, s);
  }
  return out;
}

export interface OwnBid extends Confirmations {
  amount: string | null;
  currency: string | null;
  status: BidStatus;
  /** another company won the freight (page only: the JSON masks the winner from a former bidder) */
  lost: boolean;
}

/**
 * Bidder lists: the caller's company's live bid per freight (the accepted one, else the latest),
 * with its confirmations and whether another company won the freight.
 */
export async function ownBids(db: Db, company: number, freightIds: number[]): Promise<Map<number, OwnBid>> {
  const wanted = ids(freightIds);
  if (!wanted.length) return new Map();
  const rows = await liveBidsOn(db, wanted)
    .select(
      sql<boolean>`(freights.winner_id is not null and freights.winner_id <> ${company} and ${storedInSql(AWARDED_STATUSES)})`.as('lost'),
    )
    .where('bids.company_id', '=', company)
    .orderBy(sql`bids.status = 'accepted'`)
    .orderBy('bids.id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.freight_id,
      {
        amount: r.amount,
        currency: r.currency_code,
        status: r.status,
        owner_confirmed: r.owner_confirmed,
        bidder_confirmed: r.bidder_confirmed,
        countered: Boolean(r.countered),
        lost: Boolean(r.lost),
      },
    ]),
  );
}

/**
 * Awarded freights of the page: the currency of the price (the accepted bid's), for the freights
 * whose owner or winner the company is. A freight awarded without a bid (a template's own order) has none.
 */
export async function priceCurrencies(db: Db, company: number, freightIds: number[]): Promise<Map<number, string>> {
  const wanted = ids(freightIds);
  if (!wanted.length) return new Map();
  const rows = await bidsWithFreights(db)
    .select(['bids.freight_id', 'bids.currency_code'])
    .where('bids.freight_id', 'in', wanted)
    .where('bids.status', '=', 'accepted')
    .where((eb) => eb.or([eb('freights.company_id', '=', company), eb('freights.winner_id', '=', company)]))
    .execute();
  return new Map(rows.filter((r) => r.currency_code).map((r) => [r.freight_id, r.currency_code!]));
}
