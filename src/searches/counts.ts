import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { countFreightLists, freightCountsQuery, LIST, type OtherListCounts } from '../freights/index.ts';
import type { LoadSearch } from '../market/index.ts';
import { notOnTourSql, plannedOrdersCountSql, toursCountSql } from '../tms/index.ts';

/**
 * The counts of GET /freights/counts (an endpoint of this module, beside the saved searches): the
 * freight lists' counts (freights/lists/counts.ts, kept per snapshot by market/counts.ts) with
 * the pieces of the TMS's lists on the same path, which the freights module cannot import.
 */
const TMS_COUNTS: OtherListCounts = {
  notPlanned: notOnTourSql,
  counts: (c) => ({ [LIST.tmsPlanned]: plannedOrdersCountSql(c), [LIST.tmsTours]: toursCountSql(c) }),
};

/** How many freights each list holds for the company, narrowed by the search (keyed by filter id). */
export function countLists(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch): Promise<Record<string, number>> {
  return countFreightLists(db, companyId, now, search, TMS_COUNTS);
}

/** The statement of countLists (the benchmark explains it). */
export function countsQuery(db: Kysely<DB>, companyId: number, now: Date, search: LoadSearch) {
  return freightCountsQuery(db, companyId, now, search, TMS_COUNTS);
}
