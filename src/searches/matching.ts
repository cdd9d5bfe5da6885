import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/schema.ts';
import { fromFreights, inMarketSql, searchConditions } from '../freights/index.ts';
import type { LoadSearch } from '../market/index.ts';

/**
 * The saved searches' statements over freights (docs/reference.md#load-search), over the freights'
 * read model: the freight that entered the market, and which searches it matches by the lists'
 * own conditions (the freights module's searchConditions).
 */

/** A freight in the market at `now` (in-market.ts), as saved searches are matched against it (alerts.ts); undefined otherwise. */
export function marketCandidate(db: Db, freightId: number, now: Date) {
  return fromFreights(db)
    .select([
      'id',
      'company_id',
      'visibility',
      'whitelist',
      'status',
      'from_code',
      'from_country',
      'from_latitude',
      'from_longitude',
      'to_code',
      'to_country',
    ])
    .where('id', '=', freightId)
    .where(inMarketSql(now))
    .executeTakeFirst();
}

/**
 * Which of the searches (each for the company that saved it) the freight matches, by the lists'
 * own SQL (searchConditions) evaluated on this one row for every search in one statement;
 * undefined when the freight is missing.
 */
export async function searchesMatching(
  db: Db,
  freightId: number,
  searches: Array<{ search: () => LoadSearch; company: number }>,
  now: Date,
): Promise<boolean[] | undefined> {
  const row = await fromFreights(db)
    .select((eb) =>
      searches.map((s, k) => {
        const conditions = searchConditions(eb, s.search(), s.company, now, { mayBeMasked: false });
        const matches = conditions.length ? sql<SqlBool>`${eb.and(conditions)}` : sql<SqlBool>`true`;
        return matches.as(`m${k}`);
      }),
    )
    .where('freights.id', '=', freightId)
    .executeTakeFirst();
  return row && searches.map((_, k) => (row as Record<string, unknown>)[`m${k}`] === true);
}
