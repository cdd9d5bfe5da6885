import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The lane tenders' tables (docs/reference.md#tenders) and the named values that explain their rows. A
 * tender, its lanes (each `from` and `to` one pattern of the load search, §7, stored as that
 * pattern's normal text), the carriers' sealed bids per lane, and the contracts: the awarded
 * lanes with both parties, copied from the lane and the bid at the award so a contract reads
 * alone (the routing guide finds a freight's contracts in one index, migration 0330).
 */

export interface TendersTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  name: string;
  currency: string;
  /** the contract period, `YYYY-MM-DD` (inclusive) */
  valid_from: string;
  valid_to: string;
  /** bids close */
  deadline: Date;
  /** invited company ids; empty: every company */
  invited: number[];
  status: TenderStatus;
  created: Date;
  modified: Date;
  published: Date | null;
}

export interface TenderLanesTable {
  id: Generated<number>;
  tender_id: number;
  /** 1-based, in the order given */
  position: number;
  /** a load-search pattern's text (market formatPlacePattern): `DE`, `DE-60`, `airport:FRA` */
  from_pattern: string;
  to_pattern: string;
  loads: number;
  /** kg, exact decimal text */
  weight: ColumnType<string | null, string | number | null, string | number | null>;
  body: string | null;
  note: string | null;
  /**
   * The lane's bids ranked at the close (price, then company), each `company:price:capacity`;
   * null until the tender closes (migration 0560, tenders.ts rankLanes). Never read whole by a
   * list of lanes: the owner's reads take what they show of it.
   */
  bids_ranked: string[] | null;
}

export interface TenderBidsTable {
  tender_id: number;
  lane_id: number;
  company_id: number;
  user_id: number | null;
  price: ColumnType<string, string, string>;
  capacity: number;
  created: Date;
  modified: Date;
}

export interface ContractsTable {
  id: Generated<number>;
  tender_id: number;
  lane_id: number;
  shipper_id: number;
  carrier_id: number;
  rank: number;
  price: ColumnType<string, string, string>;
  currency: string;
  loads: number;
  from_pattern: string;
  to_pattern: string;
  valid_from: string;
  valid_to: string;
  created: Date;
}

export interface TenderTables {
  tenders: TendersTable;
  tender_lanes: TenderLanesTable;
  tender_bids: TenderBidsTable;
  contracts: ContractsTable;
}

/** `draft` → `open` (published) → `closed` (the deadline passed; the sweeper writes it) → `awarded`. */
export const TENDER_STATUSES = ['draft', 'open', 'closed', 'awarded'] as const;
export type TenderStatus = (typeof TENDER_STATUSES)[number];

/** The rows as read: each table's columns, with its generated keys read as numbers. */
export type TenderRow = Selectable<TendersTable>;

/** A lane without its ranked bids (read only where shown, tables above). */
export type LaneRow = Omit<Selectable<TenderLanesTable>, 'bids_ranked'>;

export type BidRow = Pick<Selectable<TenderBidsTable>, 'lane_id' | 'company_id' | 'price' | 'capacity'>;

export type ContractRow = Selectable<ContractsTable>;

/** A tender holds 1 to 1,000 lanes (docs/reference.md#tenders). */
export const MAX_LANES = 1000;
/** At most this many invited companies, bids or awards in one request. */
export const MAX_INVITED = 1000;
export const MAX_ITEMS = 1000;
export const NAME_MAX = 200;
export const NOTE_MAX = 500;
/** loads a month and capacity: at most this many */
export const LOADS_MAX = 100_000;
/** kg */
export const WEIGHT_MAX = 100_000;
/** a price per load */
export const PRICE_MAX = 10_000_000;
/** a contract period spans at most this many days */
export const PERIOD_MAX_DAYS = 1100;
/** ranks 1 (primary) to this */
export const RANK_MAX = 20;
