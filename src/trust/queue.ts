import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { companyNameSql } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { displayIdSql } from './parties.ts';

/**
 * What the dispatcher's work queue (src/desk) reads of the ratings, this module's table: whether
 * the company rated a freight (an SQL piece for the freights module's statement of deliveries to
 * rate) and the ratings of the company still without its reply.
 */

/** SQL: the company has not rated the freight `freightId` (an SQL expression); the unique index (freight_id, rater_id) answers it. */
export function notRatedBySql(company: number) {
  return (freightId: RawBuilder<number>) =>
    sql<SqlBool>`not exists (select 1 from ratings as nr where nr.freight_id = ${freightId} and nr.rater_id = ${company})`;
}

/**
 * The company's ratings without its reply, newest first, at most `bound` (index ratings_rated_idx
 * in its order): the queue's "answer a rating", each with the rating company's name and the
 * freight's display id as the company sees it.
 */
export async function ratingsToAnswer(db: Kysely<DB>, company: number, bound: number) {
  return db
    .selectFrom('ratings')
    .select([
      'ratings.id',
      'ratings.freight_id',
      'ratings.score',
      'ratings.created',
      companyNameSql(sql`ratings.rater_id`).as('rater'),
      displayIdSql(sql`ratings.freight_id`, company).as('display_id'),
    ])
    .where('ratings.rated_id', '=', company)
    .where('ratings.reply', 'is', null)
    .orderBy('ratings.created', 'desc')
    .orderBy('ratings.id', 'desc')
    .limit(bound)
    .execute();
}
