import type { ColumnType, Generated } from 'kysely';

/** A rating one party of a delivered freight gave the other (docs/reference.md#trust); the rated company may reply once. */
export interface RatingsTable {
  id: Generated<number>;
  freight_id: number;
  /** the rating company */
  rater_id: number;
  /** the rated company */
  rated_id: number;
  /** 1 to 5 */
  score: number;
  comment: ColumnType<string, string | undefined, string>;
  created: Date;
  reply: ColumnType<string | null, string | null | undefined, string | null>;
  replied: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface TrustTables {
  ratings: RatingsTable;
}

export const SCORE_MIN = 1;
export const SCORE_MAX = 5;
/** Characters of a comment and of a reply. */
export const TEXT_MAX = 1000;
/** The average is shown from this many ratings on (fewer say too little). */
export const AVERAGE_FROM = 3;
