import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { cityOf } from '../places/index.ts';
import { companiesToPick, companyNameSql, companyRefs, contactOf, type Contact, isBlocked, type CompanyRef } from '../accounts/index.ts';
import type { Clock } from '../kernel/time.ts';
import { presentBid, type BidView } from './bids.ts';
import { bidHistory } from './one-step.ts';
import { BIDS_SHOWN_STATUSES, type FreightView } from './fields.ts';
import { AWARDED_STATUSES, BIDS_IN_PLAY, isAwardedStatus, isMarketStatus, storedInSql } from './in-market.ts';
import type { Confirmations } from './lists/moves.ts';
import type { BidStatus, FreightStatus } from './tables.ts';

/**
 * What the HTML pages show beyond the JSON answers (never part of them): company names for
 * ids, the contact persons after an award, bid summaries for lists, partner companies to pick
 * by name, and city names for places. One small query each, bounded by the page's ids.
 */

type Db = Kysely<DB>;
const MAX_IDS = 500;

const ids = (list: Array<number | null | undefined>) =>
  [...new Set(list.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)))].slice(0, MAX_IDS);

/** The user who made the accepted bid of a freight (the winner's contact person). */
async function acceptedBidUser(db: Db, freightId: number): Promise<number | null> {
  const row = await db
    .selectFrom('bids')
    .select('user_id')
    .where('freight_id', '=', freightId)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** What the freight page shows beside the presented freight: names, cities, the other side's contact, the partners to address a draft to. */
export interface FreightPageParts {
  companyNames: Map<number, string>;
  /** the companies named on the page, with the verified mark (accounts/mark.tsx) */
  companies: Map<number, CompanyRef>;
  /** the caller's company blocked the freight's company (docs/reference.md#trust) */
  blocked: boolean;
  contact: Contact | null;
  partners: Array<{ id: number; name: string }>;
  fromCity: string | null;
  toCity: string | null;
  /**
   * The bids of a freight whose JSON leaves `_bids` out (expired, revoked, closed, archived;
   * docs/reference.md#the-api): the ones the caller would see while it was open (all for the owner, its own for
   * anyone else), for the page only. Undefined while the JSON carries them, and for drafts.
   */
  pastBids?: BidView[];
  /** a former bidder's freight went to another company (page only: the JSON masks the winner) */
  awardedToOther?: boolean;
  /** each shown bid's history (docs/reference.md#one-step: who offered what, when), for its two parties */
  history: Map<number, BidOffer[]>;
}

/** One offer of a bid's history: the bidder's amount or the owner's counter. */
export interface BidOffer {
  side: 'bidder' | 'owner';
  amount: string;
  currency_code: string;
  created: Date;
}

/** Whether a freight has a winner (a former bidder's archived freight: lost, or ended without an award). */
async function hasWinner(db: Db, freightId: number): Promise<boolean> {
  const row = await db.selectFrom('freights').select('winner_id').where('id', '=', freightId).executeTakeFirst();
  return row?.winner_id !== null && row?.winner_id !== undefined;
}

/**
 * The bids of a freight the JSON no longer shows (docs/reference.md#the-api: `_bids` only while open, pending or
 * taken), as the view would show them: every bid to the owner, the company's own to anyone else,
 * in creation order, each with its company's name. One statement; page only.
 */
async function pastBidsOf(
  db: Db,
  clock: Clock,
  route: FreightView,
  companyId: number,
): Promise<{ bids: BidView[]; names: Map<number, string> } | undefined> {
  if (route._bids !== undefined || route.status === 'draft' || BIDS_SHOWN_STATUSES.includes(route.status)) return undefined;
  const rows = await db
    .selectFrom('bids')
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

/**
 * Reads the freight page's parts in one round of statements at once: the names of the companies
 * the JSON gives as ids, after the award the other side's contact person (for the owner the user
 * who made the accepted bid, for the winner the freight's creator: in the presented freight
 * while it is taken), the partners offered for addressing a draft, and the cities of both ends.
 */
export async function readFreightPageParts(db: Db, clock: Clock, route: FreightView, companyId: number): Promise<FreightPageParts> {
  const owner = route.company === companyId;
  const winner = route.winner !== null && route.winner === companyId;
  const awarded = isAwardedStatus(route.status) && route.winner !== null;
  const names = [
    route.winner,
    route.company,
    ...(Array.isArray(route.whitelist) ? route.whitelist : []),
    ...(Array.isArray(route._bids) ? route._bids.map((b) => b.company) : []),
    // A waterfall's carriers (docs/reference.md#one-step), named to its owner.
    ...(route.waterfall?.carriers ?? []),
  ];
  // The bids are in the freight while it is taken; closed or archived, the accepted one is read.
  const accepted = route._bids?.find((b) => b.status === 'accepted')?.user;
  const contactUser = !awarded ? null : owner ? (accepted ?? acceptedBidUser(db, route.id)) : winner ? route.user : null;
  // A former bidder (masked view) learns that its bid lost: taken and closed freights have a winner, an archived one may.
  const formerBidder = !owner && !winner && isAwardedStatus(route.status);
  const [companies, contact, partners, fromCity, toCity, past, awardedToOther, blocked] = await Promise.all([
    companyRefs(db, [...names, ...(route._bids === undefined && route.status !== 'draft' ? [] : [])]),
    Promise.resolve(contactUser).then((user) => contactOf(db, user)),
    owner && route.status === 'draft' && route.type !== 'FFR' ? partnerCompanies(db, companyId) : Promise.resolve([]),
    cityOf(route.from, route.from_latitude, route.from_longitude, route.from_country),
    cityOf(route.to, route.to_latitude, route.to_longitude, route.to_country),
    pastBidsOf(db, clock, route, companyId),
    formerBidder ? (route.status === 'archived' ? hasWinner(db, route.id) : Promise.resolve(true)) : Promise.resolve(false),
    owner ? Promise.resolve(false) : isBlocked(db, companyId, route.company),
  ]);
  // Past bids' companies (read with the bids, names only) join those read above.
  const missing = [...(past?.names.keys() ?? []), ...partners.map((p) => p.id)].filter((id) => !companies.has(id));
  if (missing.length) for (const [id, ref] of await companyRefs(db, missing)) companies.set(id, ref);
  const companyNames = new Map([...companies].map(([id, ref]) => [id, ref.name] as const));
  for (const [id, name] of past?.names ?? []) if (!companyNames.has(id)) companyNames.set(id, name);
  // The shown bids are the caller's to see (all for the owner, its own for a bidder): so is their history.
  const shownBids = [...(route._bids ?? []), ...(past?.bids ?? [])].map((b) => b.id);
  const history = new Map<number, BidOffer[]>();
  for (const offer of await bidHistory(db as Kysely<DB>, shownBids)) {
    history.set(offer.bid_id, [...(history.get(offer.bid_id) ?? []), offer]);
  }
  return { companyNames, companies, blocked, contact, partners, fromCity, toCity, pastBids: past?.bids, awardedToOther, history };
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
  db
    .selectFrom('bids')
    .innerJoin('freights', 'freights.id', 'bids.freight_id')
    .select(['bids.freight_id', 'bids.amount', 'bids.currency_code', 'bids.status', 'bids.owner_confirmed', 'bids.bidder_confirmed'])
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

/**
 * What became of a bid, as its bidder reads it: still in play (`open`, `pending`), `won`, `lost`
 * (another company was awarded the freight), or the tender ended without an award (`expired`,
 * `withdrawn` by its owner, `not_awarded`: archived without a winner).
 */
export type BidOutcome = 'open' | 'pending' | 'won' | 'lost' | 'expired' | 'withdrawn' | 'not_awarded';
export const BID_OUTCOMES: readonly BidOutcome[] = ['open', 'pending', 'won', 'lost', 'expired', 'withdrawn', 'not_awarded'];

export interface OwnBid extends Confirmations {
  amount: string | null;
  currency: string | null;
  status: BidStatus;
  /** another company won the freight (page only: the JSON masks the winner from a former bidder) */
  lost: boolean;
}

/**
 * The outcome of a company's own bid on a freight in the status it reads as now (a masked
 * freight's status is shown; its winner is not, so `lost` comes from ownBids).
 */
export function bidOutcome(bid: Pick<OwnBid, 'status' | 'lost'>, freightStatus: FreightStatus, won: boolean): BidOutcome {
  if (won || bid.status === 'accepted') return 'won';
  if (bid.lost) return 'lost';
  if (freightStatus === 'expired') return 'expired';
  if (freightStatus === 'revoked') return 'withdrawn';
  if (isMarketStatus(freightStatus)) return bid.status === 'pending' ? 'pending' : 'open';
  return 'not_awarded';
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
  const rows = await db
    .selectFrom('bids')
    .innerJoin('freights', 'freights.id', 'bids.freight_id')
    .select(['bids.freight_id', 'bids.currency_code'])
    .where('bids.freight_id', 'in', wanted)
    .where('bids.status', '=', 'accepted')
    .where((eb) => eb.or([eb('freights.company_id', '=', company), eb('freights.winner_id', '=', company)]))
    .execute();
  return new Map(rows.filter((r) => r.currency_code).map((r) => [r.freight_id, r.currency_code!]));
}

/**
 * Companies to pick by name: those the caller's company has dealt with (bidders on its
 * freights, owners of freights it bid on, companies named in its whitelists) first, then others
 * by name, at most `limit`.
 */
export async function partnerCompanies(db: Db, company: number, limit = 200): Promise<Array<{ id: number; name: string }>> {
  return companiesToPick(
    db,
    company,
    (c) => sql`(exists (select 1 from bids b join freights f on f.id = b.freight_id where f.company_id = ${company} and b.company_id = ${c})
       or exists (select 1 from bids b join freights f on f.id = b.freight_id where b.company_id = ${company} and f.company_id = ${c})
       or exists (select 1 from freights f where f.company_id = ${company} and ${c} = any(f.whitelist)))`,
    limit,
  );
}
