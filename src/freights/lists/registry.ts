/**
 * The lists of GET /freights/enlist/{filterId} (docs/reference.md#freights; docs/reference.md#freights and #preview), the
 * one place their ids are written. Everything else derives from here: the tabs and their groups,
 * the columns a list shows, how the counts statement counts it, whether it takes the load search,
 * the redirects to a list, and the lists another module serves on the same path (TMS 51–53).
 * Who belongs to a list is membership.ts, keyed by these ids.
 */

/** Every list by what it holds. */
export const LIST = {
  // As provider
  /** open requests on which the caller has not bid */
  market: 8,
  /** requests on which the caller has bid */
  bidOn: 7,
  /** requests where the caller's bid lost */
  lost: 6,
  /** won orders (taken, delivery open) */
  won: 2,
  /** foreign freights that ended (archived, closed, revoked, expired) */
  foreignArchive: 9,
  // As principal
  drafts: 20,
  /** own open tenders (open, pending) */
  ownOpen: 10,
  /** own open tenders with bids */
  withBids: 17,
  /** own open tenders without bids */
  withoutBids: 18,
  /** own awarded transports (taken) */
  awarded: 12,
  ownArchive: 19,
  // Booking requests (type FFR): outgoing, then incoming
  bookingsOut: 200,
  bookingsOutTaken: 201,
  bookingsOutArchive: 209,
  bookingsIn: 210,
  bookingsInTaken: 211,
  bookingsInArchive: 219,
  // The TMS's monitoring lists (preview), served by the tms module
  tmsUnplanned: 51,
  tmsPlanned: 52,
  tmsTours: 53,
} as const;

export type ListId = (typeof LIST)[keyof typeof LIST];

/** The lists another module serves on the same path (the TMS's, app.ts passes them in). */
export type OtherListId = typeof LIST.tmsUnplanned | typeof LIST.tmsPlanned | typeof LIST.tmsTours;

/**
 * The lists of freights this module serves: each has its membership (membership.ts `FILTERS`, a
 * full record over these ids), so a list added here without its rule fails the typecheck.
 */
export type FreightListId = Exclude<ListId, OtherListId>;

/** How the counts statement counts a list (lists/counts.ts). */
export type CountFamily =
  /** over the company's own freights */
  | 'own'
  /** over the freights the company bid on (a live bid) or won */
  | 'bidOrWon'
  /** over the market, index-only */
  | 'market'
  /** a small indexed count of its own */
  | 'single'
  /** another module's list: counted by the pieces that module passes in */
  | 'other';

/** What the caller is to a list's rows, which decides the extra columns the page shows. */
export type ListSide =
  /** its own freights in the market: bids coming in, the best one */
  | 'ownMarket'
  /** its own freights it awarded: the winner and the price */
  | 'ownAwarded'
  /** its own drafts */
  | 'ownDraft'
  /** foreign freights it bid on: its own bid */
  | 'bidder'
  /** foreign freights it won: the price */
  | 'winner'
  /** other foreign freights */
  | 'foreign'
  /** another module's rows */
  | 'other';

/**
 * Where a list's rows are in their life, which decides what the page shows of them: the bidding
 * deadline while in the market, the delivery status once awarded; drafts have neither.
 */
export type ListPhase = 'draft' | 'market' | 'awarded' | 'ended' | 'other';

export interface ListInfo {
  id: ListId;
  /** The tab group it is shown in, in this order. */
  group: 'principal' | 'provider' | 'booking' | 'tms';
  side: ListSide;
  phase: ListPhase;
  /** How it is counted; `difference`: the count of the first list minus the second's. */
  count: CountFamily | { difference: [ListId, ListId] };
  /** Whether the load search (docs/reference.md#load-search) narrows it; lists of other modules take none. */
  searchable: boolean;
  /** Whether it can hold rows masked for the caller (a former bidder's view, docs/reference.md#freights). */
  mayBeMasked: boolean;
  /** Whose rows: another module serves it on the same path (app.ts passes it in). */
  servedBy: 'freights' | 'other';
}

const freightList = (
  id: FreightListId,
  group: ListInfo['group'],
  side: ListSide,
  phase: ListPhase,
  count: ListInfo['count'],
  mayBeMasked = false,
): ListInfo => ({
  id,
  group,
  side,
  phase,
  count,
  searchable: true,
  mayBeMasked,
  servedBy: 'freights',
});
const otherList = (id: OtherListId): ListInfo => ({
  id,
  group: 'tms',
  side: 'other',
  phase: 'other',
  count: 'other',
  searchable: false,
  mayBeMasked: false,
  servedBy: 'other',
});

/** Every list, in the order of the tabs: the principal's, the provider's, booking requests, the TMS's. */
export const LISTS: readonly ListInfo[] = [
  freightList(LIST.drafts, 'principal', 'ownDraft', 'draft', 'own'),
  freightList(LIST.ownOpen, 'principal', 'ownMarket', 'market', 'own'),
  freightList(LIST.withBids, 'principal', 'ownMarket', 'market', 'own'),
  // 10 is "own, in the market"; 17 adds "has a bid", 18 "has none" (membership.ts).
  freightList(LIST.withoutBids, 'principal', 'ownMarket', 'market', { difference: [LIST.ownOpen, LIST.withBids] }),
  freightList(LIST.awarded, 'principal', 'ownAwarded', 'awarded', 'own'),
  freightList(LIST.ownArchive, 'principal', 'ownAwarded', 'ended', 'own'),
  freightList(LIST.market, 'provider', 'foreign', 'market', 'market'),
  freightList(LIST.bidOn, 'provider', 'bidder', 'market', 'bidOrWon'),
  freightList(LIST.lost, 'provider', 'bidder', 'ended', 'bidOrWon', true),
  freightList(LIST.won, 'provider', 'winner', 'awarded', 'bidOrWon'),
  freightList(LIST.foreignArchive, 'provider', 'bidder', 'ended', 'bidOrWon', true),
  // Booking requests: drafts and open ones together (200), then awarded, then ended.
  freightList(LIST.bookingsOut, 'booking', 'ownMarket', 'market', 'own'),
  freightList(LIST.bookingsOutTaken, 'booking', 'ownAwarded', 'awarded', 'own'),
  freightList(LIST.bookingsOutArchive, 'booking', 'ownAwarded', 'ended', 'own'),
  freightList(LIST.bookingsIn, 'booking', 'foreign', 'market', 'single'),
  freightList(LIST.bookingsInTaken, 'booking', 'winner', 'awarded', 'bidOrWon'),
  freightList(LIST.bookingsInArchive, 'booking', 'foreign', 'ended', 'bidOrWon', true),
  otherList(LIST.tmsUnplanned),
  otherList(LIST.tmsPlanned),
  otherList(LIST.tmsTours),
];

const BY_ID = new Map<number, ListInfo>(LISTS.map((l) => [l.id, l]));

/** The list of an id, or undefined for a number that is no list. */
export const listInfo = (id: number): ListInfo | undefined => BY_ID.get(id);

/** The ids of the lists the freights module serves, in tab order. */
export const FREIGHT_LIST_IDS: readonly ListId[] = LISTS.filter((l) => l.servedBy === 'freights').map((l) => l.id);

/** The TMS's monitoring lists, which the tms module serves on the same path. */
export const TMS_LIST_IDS: readonly ListId[] = LISTS.filter((l) => l.group === 'tms').map((l) => l.id);

/** Whether a number names a list of freights (saved searches keep one; docs/reference.md#load-search). */
export const isFreightList = (id: number): id is FreightListId => listInfo(id)?.servedBy === 'freights';

/** The lists of a tab group, in tab order. */
export const listsOfGroup = (group: ListInfo['group']): ListId[] => LISTS.filter((l) => l.group === group).map((l) => l.id);

/** A run of lists as a text names it: `200–219`. */
export const listRange = (ids: readonly ListId[]) => `${ids[0]}–${ids[ids.length - 1]}`;

/**
 * The freight lists by number as the messages name them (a saved search keeps one): the
 * provider's, the principal's, then the booking requests as a range.
 */
export const FREIGHT_LISTS_NAMED = [...listsOfGroup('provider'), ...listsOfGroup('principal'), listRange(listsOfGroup('booking'))].join(
  ', ',
);

/** The freight lists a family counts, in tab order. */
export const listsCounted = (family: Exclude<CountFamily, 'other'>): FreightListId[] =>
  LISTS.filter((l) => l.count === family)
    .map((l) => l.id)
    .filter(isFreightList);

/** The page of a list. */
export const listPath = (id: number) => `/freights/enlist/${id}`;

/** Where a dispatcher lands by default: as principal, as provider. */
export const HOME_LIST = LIST.ownOpen;
export const MARKET_LIST = LIST.market;
