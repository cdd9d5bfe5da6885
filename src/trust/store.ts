import { sql, type Kysely, type Selectable } from 'kysely';
import {
  companyVerifiedSql,
  companyNameSql,
  companyProfileJsonSql,
  profileRowFromJson,
  type CompanyProfileRow,
} from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import { PreparedStatement, statementBuilder } from '../db/prepared.ts';
import { completedJsonSql, displayIdSql } from './parties.ts';
import { AVERAGE_FROM, type RatingsTable } from './tables.ts';

/** The trust module's SQL: a profile with its counts in one statement, ratings and replies. */

export type RatingRow = Selectable<RatingsTable>;

/** A profile with what the exchange counts about the company. */
export interface ProfileRead extends CompanyProfileRow {
  completed: { as_owner: number; as_carrier: number };
  ratings: { count: number; average: number | null };
}

let profilePrepared: PreparedStatement<[id: number]> | undefined;

/**
 * The statement of readProfile, prepared (src/db/prepared.ts): the profile, its completed
 * freights (counted from the partial indexes alone, migration 0180) and its ratings' count and
 * average (ratings_rated_idx, which carries the score), as one JSON text.
 */
function profileStatement(): PreparedStatement<[id: number]> {
  profilePrepared ??= new PreparedStatement<[id: number]>('fx_company_profile', 1, (id: number) =>
    statementBuilder<DB>().selectNoFrom(
      sql<string>`json_build_object(
        'company', ${companyProfileJsonSql(id)},
        'completed', ${completedJsonSql(id)},
        'ratings', (select json_build_object('count', count(*), 'average', round(avg(r.score), 1)) from ratings r where r.rated_id = ${id})
      )::text`.as('profile'),
    ),
  );
  return profilePrepared;
}

/**
 * A company's profile, its completed freights (freights' partial indexes) and its ratings'
 * count and average, as one statement and one JSON text; undefined for an unknown id.
 */
export async function readProfile(db: Kysely<DB>, id: number): Promise<ProfileRead | undefined> {
  const rows = await profileStatement().execute<{ profile: string }>(db, id);
  const found = JSON.parse(rows[0]?.profile ?? 'null') as {
    company: Record<string, unknown> | null;
    completed: { as_owner: number; as_carrier: number };
    ratings: { count: number; average: number | string | null };
  } | null;
  if (!found?.company) return undefined;
  return {
    ...profileRowFromJson(found.company),
    completed: { as_owner: Number(found.completed.as_owner), as_carrier: Number(found.completed.as_carrier) },
    ratings: { count: Number(found.ratings.count), average: found.ratings.average === null ? null : Number(found.ratings.average) },
  };
}

/** A company's ratings as a picker shows them beside its name: the count, the average (to one decimal) from AVERAGE_FROM ratings on, else null. */
export interface RatingSummary {
  count: number;
  average: number | null;
}

/** The rating summaries of `ids` in one statement (ratings_rated_idx, which carries the score); a company without ratings: count 0. */
export async function ratingSummaries(db: Db, ids: readonly number[]): Promise<Map<number, RatingSummary>> {
  const wanted = [...new Set(ids)];
  const out = new Map<number, RatingSummary>(wanted.map((id) => [id, { count: 0, average: null }]));
  if (!wanted.length) return out;
  const rows = await sql<{ rated_id: number; count: string; average: string | null }>`
    select rated_id, count(*) as count, round(avg(score), 1) as average
      from ratings where rated_id = any(${wanted}::int[]) group by rated_id`.execute(db);
  for (const r of rows.rows) {
    const count = Number(r.count);
    out.set(r.rated_id, { count, average: count >= AVERAGE_FROM && r.average !== null ? Number(r.average) : null });
  }
  return out;
}

/** A rating as lists show it: with the rating company (name, verified mark) and the freight's display id. */
export interface RatingRead extends RatingRow {
  rater_name: string;
  rater_verified: boolean;
  display_id: string;
}

/** The columns of a rating read for the company `viewer` (display ids as it may see them). */
const ratingColumns = (viewer: number) =>
  [
    'ratings.id',
    'ratings.freight_id',
    'ratings.rater_id',
    'ratings.rated_id',
    'ratings.score',
    'ratings.comment',
    'ratings.created',
    'ratings.reply',
    'ratings.replied',
    companyNameSql(sql`ratings.rater_id`).as('rater_name'),
    companyVerifiedSql(sql`ratings.rater_id`).as('rater_verified'),
    displayIdSql(sql`ratings.freight_id`, viewer).as('display_id'),
  ] as const;

/** A company's ratings, newest first, one page (index ratings_rated_idx). */
export async function ratingsOf(db: Db, rated: number, viewer: number, limit: number, offset: number): Promise<RatingRead[]> {
  return db
    .selectFrom('ratings')
    .select(ratingColumns(viewer))
    .where('ratings.rated_id', '=', rated)
    .orderBy('ratings.created', 'desc')
    .orderBy('ratings.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** One rating read for `viewer`, or undefined. */
export async function ratingById(db: Db, id: number, viewer: number): Promise<RatingRead | undefined> {
  return db.selectFrom('ratings').select(ratingColumns(viewer)).where('ratings.id', '=', id).executeTakeFirst();
}

/** Writes a rating; undefined when this side has rated the freight already (the unique index decides). */
export async function insertRating(
  db: Db,
  values: { freightId: number; rater: number; rated: number; score: number; comment: string; created: Date },
): Promise<number | undefined> {
  const row = await db
    .insertInto('ratings')
    .values({
      freight_id: values.freightId,
      rater_id: values.rater,
      rated_id: values.rated,
      score: values.score,
      comment: values.comment,
      created: values.created,
    })
    .onConflict((oc) => oc.columns(['freight_id', 'rater_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Writes the rated company's reply once; answers false when the rating was answered already. */
export async function replyTo(db: Db, id: number, reply: string, now: Date): Promise<boolean> {
  const rows = await db
    .updateTable('ratings')
    .set({ reply, replied: now })
    .where('id', '=', id)
    .where('reply', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Which of the freights the company rated already. */
export async function ratedFreights(db: Db, rater: number, freightIds: number[]): Promise<Set<number>> {
  if (!freightIds.length) return new Set();
  const rows = await db
    .selectFrom('ratings')
    .select('freight_id')
    .where('rater_id', '=', rater)
    .where('freight_id', 'in', freightIds)
    .execute();
  return new Set(rows.map((r) => r.freight_id));
}

/** What a shipper compares bidders by (issue 47, item 5): the trust module's own figures of each company. */
export interface BidderFigure {
  /** the average score to one decimal; null below AVERAGE_FROM ratings (as the profile says) */
  rating: number | null;
  ratings: number;
  /** freights it won and delivered (the profile's `completed.as_carrier`) */
  completed: number;
  memberSince: Date;
}

/** The figures of these companies, as their profiles count them (one prepared statement each). */
export async function bidderFigures(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, BidderFigure>> {
  const found = new Map<number, BidderFigure>();
  for (const id of new Set(ids)) {
    const p = await readProfile(db, id);
    if (!p) continue;
    found.set(id, {
      rating: p.ratings.count >= AVERAGE_FROM ? p.ratings.average : null,
      ratings: p.ratings.count,
      completed: p.completed.as_carrier,
      memberSince: p.created,
    });
  }
  return found;
}
