import type { CompiledQuery, Kysely } from 'kysely';
import { executeShape } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import type { Paging } from '../kernel/paging.ts';
import { DEFAULT_LIMIT } from '../kernel/params.ts';
import type { LoadSearch } from './search.ts';

/**
 * How a list page of the market is run (the freight lists today, vehicle offers next): the owner
 * of the rows writes the statement (freights/lists/read.ts), this decides how it is prepared. A
 * plain page is prepared once per connection, the first pages of the default size with their
 * window written in; a page narrowed by a load search is built per request and prepared by its
 * text only when one plan serves every value of the search.
 */

/** Pages of the default size up to this one are prepared with their window written in (writtenPage). */
const WRITTEN_PAGES = 5;

/**
 * The page whose limit and offset a prepared list statement writes in as constants, or undefined
 * (they are parameters). The first pages in the default size, by far the most read: with limit and
 * offset as parameters PostgreSQL assumes a tenth of the rows are wanted, rates a generic plan too
 * dear and plans every execution anew, which cost the market list's pages 2 and 3 about 2.5 ms of
 * the server each (docs/benchmarks.md).
 */
export function writtenPage(paging: Pick<Paging, 'limit' | 'page'>): number | undefined {
  return paging.limit === DEFAULT_LIMIT && paging.page <= WRITTEN_PAGES ? paging.page : undefined;
}

/**
 * Whether one plan serves a search whatever its values, so its statement may be prepared (a
 * generic plan). A radius, a postal prefix or an airport is always a narrow start on an index (a
 * radius's ways read only covering indexes on the market). A country is written into the
 * statement's text (market/sql.ts placeSql), so its prepared statement has a plan for that
 * country: Germany holds a good part of the market (read in list order, stopping at a page),
 * Malta almost none (read from the place index). Loading or delivery days alone are not alike:
 * a window of the coming days matches many rows, one next year hardly any; only a plan for the
 * values tells these apart.
 */
export function planAlike(s: LoadSearch): boolean {
  const places = [...(s.from ?? []), ...(s.to ?? [])];
  return places.length > 0 || Boolean(s.fromNear || s.toNear) || !(s.pickup || s.delivery);
}

/**
 * Runs a list page narrowed by a search: prepared by its text (db/prepared.ts executeShape, at
 * most 100 texts per process) where one plan serves every value (planAlike), else planned for its values.
 */
export async function runSearched<R>(db: Kysely<DB>, query: CompiledQuery, search: LoadSearch): Promise<R[]> {
  return planAlike(search) ? executeShape<R>(db, query) : (await db.executeQuery<R>(query)).rows;
}
