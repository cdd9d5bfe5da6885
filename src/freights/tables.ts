import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Decimal } from '../db/columns.ts';

/**
 * The freights module's tables and the types that explain their rows: what a status can be,
 * what a row read back holds. Behaviour lives in the other files; this one imports none of them,
 * so db/schema.ts can join it without a loop.
 */

type Json = ColumnType<unknown, string, string>;

/** A freight's status (docs/reference.md#freight-fields): the set the API description lists. */
export const FREIGHT_STATUSES = ['draft', 'open', 'pending', 'taken', 'expired', 'revoked', 'closed', 'archived'] as const;
export type FreightStatus = (typeof FREIGHT_STATUSES)[number];

/**
 * Who a freight is open to (docs/reference.md#freights, `visibility`): the companies of its whitelist only,
 * its own company only, or (0 and above, the stored default, up to `max`) every company on the exchange.
 */
export const VISIBILITY = { whitelist: -2, ownCompany: -1, everyone: 0, max: 1000 } as const;

/** How far a taken freight's transport has come (docs/reference.md#freights, `delivery_status`); delivered closes it. */
export const DELIVERY = { notStarted: 0, pickedUp: 1, inTransit: 2, delivered: 3 } as const;
export type DeliveryStatus = (typeof DELIVERY)[keyof typeof DELIVERY];
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = Object.values(DELIVERY);

/** A bid's status (docs/reference.md#freights): open on creation, pending when one side confirmed, accepted: the winning bid. */
export const BID_STATUSES = ['open', 'pending', 'accepted', 'revoked'] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

export interface FreightsTable {
  id: Generated<number>;
  class: Generated<string>;
  type: Generated<string>;
  status: Generated<FreightStatus>;
  category: string | null;
  from_code: string | null;
  from_country: string | null;
  from_addr: string | null;
  from_latitude: Decimal | null;
  from_longitude: Decimal | null;
  to_code: string | null;
  to_country: string | null;
  to_addr: string | null;
  to_latitude: Decimal | null;
  to_longitude: Decimal | null;
  weight: Decimal | null;
  weight_actual: Decimal | null;
  weight_volume: Decimal | null;
  direction: string | null;
  etd: Date | null;
  etd_end: Date | null;
  eta: Date | null;
  eta_end: Date | null;
  deadline: Date | null;
  dangerous: string | null;
  dangerous_goods: string | null;
  secured: number | null;
  stackable: number | null;
  dutiable: number | null;
  awb: string | null;
  price: Decimal | null;
  visibility: Generated<number>;
  whitelist: ColumnType<number[], number[] | undefined, number[]>;
  company_id: number;
  user_id: number;
  winner_id: number | null;
  transport_company_id: number | null;
  delivery_status: Generated<number>;
  parent_id: number | null;
  /** JSON text as sent (json column): write with JSON.stringify, read back parsed */
  refs: ColumnType<unknown, string | undefined, string>;
  /** What of refs the owner shows carriers (fields.ts SHARE_KEYS: goods, target_price); none by default */
  share: ColumnType<string[], string[] | undefined, string[]>;
  /** docs/reference.md#one-step: the price a carrier may take the freight at, at once (null: none) */
  book_now: Decimal | null;
  /** the currency of book_now and auto_award (EUR by default) */
  book_now_currency: Generated<string>;
  /** docs/reference.md#one-step: the owner's walk-away price; a bid at or below it is awarded at once. The owner's alone (fields.ts hide 'owner') */
  auto_award: Decimal | null;
  /** The load's description (docs/choices.md, "Loads described as trucks are"; migration 0475): the body it needs (market BODIES) */
  body: string | null;
  loading_meters: Decimal | null;
  /** the UN dangerous-goods class (market ADR_CLASSES: `3`, `4.1`, …) */
  adr_class: string | null;
  /** °C, reefer loads only */
  temperature_min: Decimal | null;
  temperature_max: Decimal | null;
  pallet_exchange: number | null;
  created: Date;
  modified: Date;
  /**
   * The deadline while the stored status is open or pending (`infinity` without one), else
   * null: kept by PostgreSQL (migration 0150), so "in the market at now" is one range of one
   * column (in-market.ts inMarketSql). Never written.
   */
  market_until: ColumnType<Date | null, never, never>;
}

export interface FreightPiecesTable {
  id: Generated<number>;
  freight_id: number;
  position: number;
  pieces: number | null;
  depth: Decimal | null;
  width: Decimal | null;
  height: Decimal | null;
  weight: Decimal | null;
  stackable: number | null;
  weight_per_piece: number | null;
  refs: Json | null;
}

export interface BidsTable {
  id: Generated<number>;
  freight_id: number;
  company_id: number;
  user_id: number;
  display_company_id: number | null;
  amount: Decimal | null;
  currency_code: string | null;
  rate_base: Decimal | null;
  rate_fsc: Decimal | null;
  rate_ssc: Decimal | null;
  note: string | null;
  status: Generated<BidStatus>;
  type: Generated<string>;
  owner_confirmed: Generated<boolean>;
  bidder_confirmed: Generated<boolean>;
  /** who confirmed on each side and when (migration 0014); cleared with the flags, kept on the accepted bid */
  owner_confirmed_by: ColumnType<number | null, number | null | undefined, number | null>;
  owner_confirmed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  bidder_confirmed_by: ColumnType<number | null, number | null | undefined, number | null>;
  bidder_confirmed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  deadline: Date | null;
  created: Date;
  modified: Date;
  /** the owner's standing counter-offer (docs/reference.md#one-step; migration 0320): null when none stands */
  counter_amount: Decimal | null;
  counter_currency: string | null;
  counter_note: string | null;
  counter_created: Date | null;
  /** the freight's `created`, filled by a trigger (migration 0011): the order of lists 6, 7, 9, 219 */
  freight_created: Generated<Date>;
}

/** Who made an offer of a bid's history: the bidder (its amounts) or the freight's owner (its counters). */
export type OfferSide = 'bidder' | 'owner';

/** A bid's history (docs/reference.md#one-step): every amount the bidder offered and every counter of the owner. */
export interface BidOffersTable {
  id: Generated<number>;
  bid_id: number;
  side: OfferSide;
  user_id: number | null;
  amount: Decimal;
  currency_code: string;
  note: string | null;
  created: Date;
}

/** What became of a waterfall: its turns run, a carrier booked, it went to the market, it stopped (freight expired), or the freight left it otherwise. */
export const WATERFALL_STATES = ['running', 'booked', 'market', 'stopped', 'ended'] as const;
export type WaterfallState = (typeof WATERFALL_STATES)[number];
/** What follows the last carrier's turn (docs/reference.md#one-step). */
export const WATERFALL_THEN = ['market', 'stop'] as const;
export type WaterfallThen = (typeof WATERFALL_THEN)[number];

/** A freight offered to carriers one after the other (docs/reference.md#one-step; freights/waterfall.ts). */
export interface FreightWaterfallsTable {
  freight_id: number;
  /** the carriers in order; `prices` holds each one's price (the same price, or a routing guide's contract prices) */
  carriers: number[];
  prices: ColumnType<string[], string[], string[]>;
  currency: string;
  minutes: number;
  /** what follows the last turn (the API's `then`) */
  afterwards: WaterfallThen;
  /** the carriers came from the owner's contracts (§17) */
  guide: Generated<boolean>;
  /** 0-based index of the carrier whose turn it is (the last one's once ended) */
  step: number;
  step_until: Date | null;
  state: WaterfallState;
  created: Date;
  modified: Date;
}

/**
 * A user's marks on a market load (migration 0540; marks.ts): when the user first opened its page,
 * and since when the user hides it from the market list. Per user, never shown to anyone else.
 */
export interface FreightMarksTable {
  user_id: number;
  freight_id: number;
  seen: Date | null;
  hidden: Date | null;
}

/**
 * A freight's JSON view as each audience sees it, written once per version of the freight
 * (migration 0590; presented.ts): the fields with the piece lines, and the display fields per language.
 */
export interface FreightPresentationsTable {
  freight_id: number;
  /** the freight row's `xmin` when written, then `:` and the format key (presented.ts presentationFormat): the version presented, and by what */
  source: string;
  /** the freight's effective status when written */
  status: string;
  /** it has a waterfall (one is created with a write of the freight row and never removed): the view reads it */
  waterfall: boolean;
  owner_fields: string;
  market_fields: string;
  owner_eng: string;
  owner_deu: string;
  market_eng: string;
  market_deu: string;
}

export interface FreightTables {
  freights: FreightsTable;
  freight_marks: FreightMarksTable;
  freight_pieces: FreightPiecesTable;
  bids: BidsTable;
  bid_offers: BidOffersTable;
  freight_waterfalls: FreightWaterfallsTable;
  freight_presentations: FreightPresentationsTable;
}

export type WaterfallRow = Selectable<FreightWaterfallsTable>;
export type BidOfferRow = Selectable<BidOffersTable>;

/** A freight as its row is read back (`market_until` is for conditions only, never read). */
export type FreightRow = Omit<Selectable<FreightsTable>, 'market_until'>;
/** Who confirmed a bid and when: the transport order's (deals), not the freight view's nor the API's bid. */
export type BidConfirmerColumn = 'owner_confirmed_by' | 'owner_confirmed_at' | 'bidder_confirmed_by' | 'bidder_confirmed_at';

/** A bid as its row is read back. */
export type BidRow = Selectable<BidsTable>;
