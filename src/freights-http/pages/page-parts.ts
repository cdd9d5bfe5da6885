import type { Kysely } from 'kysely';
import { cityOf } from '../../places/index.ts';
import { companyRefs, contactOf, type Contact, isBlocked, type CompanyRef } from '../../accounts/index.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/time.ts';
import {
  bidHistory,
  isAwardedStatus,
  isMarketStatus,
  partnerCompanies,
  type BidView,
  type FreightStatus,
  type FreightView,
} from '../../freights/index.ts';
import { acceptedBidUser, hasWinner, pastBidsOf, type OwnBid } from './page-data.ts';

/**
 * What the freight page shows beyond the JSON answer (never part of it), put together from the
 * freight pages' reads (page-data.ts), the accounts' names and contacts and the places'
 * cities; and what became of a bid, as its bidder reads it.
 */

type Db = Kysely<DB>;

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

/**
 * Reads the freight page's parts in one round of statements at once: the names of the companies
 * the JSON gives as ids, after the award the other side's contact person (for the owner the user
 * who made the accepted bid, for the winner the freight's creator: in the presented freight
 * while it is taken), the partners offered for addressing a draft, and the cities of both ends.
 */
export async function readFreightPageParts(
  db: Db,
  clock: Clock,
  route: FreightView,
  companyId: number,
  language?: string,
): Promise<FreightPageParts> {
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
  // Before the award, the dispatcher who published a load is its contact for every carrier who
  // sees it in the market (issue 47, item 11), as on every freight board; a masked view has none.
  const inMarket = !owner && isMarketStatus(route.status) && typeof route.user === 'number';
  const contactUser = !awarded
    ? inMarket
      ? route.user
      : null
    : owner
      ? (accepted ?? acceptedBidUser(db, route.id))
      : winner
        ? route.user
        : null;
  // A former bidder (masked view) learns that its bid lost: taken and closed freights have a winner, an archived one may.
  const formerBidder = !owner && !winner && isAwardedStatus(route.status);
  const [companies, contact, partners, fromCity, toCity, past, awardedToOther, blocked] = await Promise.all([
    companyRefs(db, [...names, ...(route._bids === undefined && route.status !== 'draft' ? [] : [])]),
    // The e-mail stays between the parties of a deal: before the award a carrier reads the name
    // and the company's phone only (a user's address is none of a company that only sees the load).
    Promise.resolve(contactUser)
      .then((user) => contactOf(db, user))
      .then((c) => (c && inMarket ? { ...c, email: '' } : c)),
    owner && route.status === 'draft' && route.type !== 'FFR' ? partnerCompanies(db, companyId) : Promise.resolve([]),
    cityOf(route.from, route.from_latitude, route.from_longitude, route.from_country, language),
    cityOf(route.to, route.to_latitude, route.to_longitude, route.to_country, language),
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

/**
 * What became of a bid, as its bidder reads it: still in play (`open`, `pending`), `won`, `lost`
 * (another company was awarded the freight), or the tender ended without an award (`expired`,
 * `withdrawn` by its owner, `not_awarded`: archived without a winner).
 */
export type BidOutcome = 'open' | 'pending' | 'won' | 'lost' | 'expired' | 'withdrawn' | 'not_awarded';
export const BID_OUTCOMES: readonly BidOutcome[] = ['open', 'pending', 'won', 'lost', 'expired', 'withdrawn', 'not_awarded'];

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
