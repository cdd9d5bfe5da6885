import { sql } from 'kysely';
import { notBlockedBySql } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import { admitsSql, fromFreights, inMarketSql, originDistanceSql, searchConditions, type FreightRow } from '../freights/index.ts';
import type { LoadSearch } from '../market/index.ts';

/**
 * What nearestMarketFreights reads: the freights of one class in the market that a company may
 * take (the market list's rule, list 8: another company's, visible to it, neither company blocking
 * the other), of the given owners only (empty: any), matching a load search, nearest origin first.
 */
export interface NearestQuery {
  /** the company looking: the freight must be visible to it, and not its own */
  companyId: number;
  /** only freights of these companies (empty: any) */
  owners: readonly number[];
  /** the freight's class (`rfs`: road) */
  class: string;
  /** a search with a radius around the origin (`fromNear`): without one, nothing is near; distances are from its centre */
  search: LoadSearch;
  now: Date;
  limit: number;
  /** the rows skipped before the first (paging) */
  offset?: number;
}

/** A freight near a point: its id, owner and creating user, and its origin's distance from the point. */
export interface NearFreight {
  id: number;
  company_id: number;
  user_id: number;
  /** null only for a row without a place the search reads (none is found by the radius) */
  distance_km: number | null;
}

/**
 * The market's freights near a point, nearest origin first, as ONE statement over the market's
 * partial indexes (migration 0013: a radius search starts from the market's freights near the
 * centre). The distance is measured in the statement for every way the radius search finds a
 * freight (market/distance.ts distanceFromSql: its coordinates, else its airport, else its postal
 * code's centre), and the rows are sorted by it before the limit, so a page is the nearest ones
 * whichever way each is placed. Read through the freights' read model and its rules (the market
 * list's, the load search's); what fits an offer is matching.ts's.
 */
export async function nearestMarketFreights(db: Db, q: NearestQuery): Promise<NearFreight[]> {
  const near = q.search.fromNear;
  if (!near) return [];
  const distance = originDistanceSql(near);
  const rows = await fromFreights(db)
    .select(['freights.id', 'freights.company_id', 'freights.user_id', distance.as('distance_km')])
    .where(inMarketSql(q.now))
    .where('freights.class', '=', q.class)
    .where('freights.company_id', '<>', q.companyId)
    .where((eb) => admitsSql(eb, q.companyId))
    // Neither company blocked the other (docs/reference.md#trust): no match, no alert, either way.
    .where(notBlockedBySql(q.companyId, sql`freights.company_id`))
    .where(notBlockedBySql(sql<number>`freights.company_id`, sql`${q.companyId}::integer`))
    .$if(q.owners.length > 0, (qb) => qb.where('freights.company_id', 'in', [...q.owners]))
    .where((eb) => eb.and(searchConditions(eb, q.search, q.companyId, q.now, { mayBeMasked: false })))
    // Every row the radius finds has a distance; `nulls last` only keeps the order total.
    .orderBy(sql`distance_km nulls last`)
    .orderBy('freights.id')
    .limit(q.limit)
    .offset(q.offset ?? 0)
    .execute();
  return rows.map((r) => ({ ...r, distance_km: r.distance_km === null ? null : Number(r.distance_km) }));
}

/** A freight in the market at `now`, its whole row (matching reads its places, window and weight); undefined otherwise. */
export async function marketFreight(db: Db, freightId: number, now: Date): Promise<FreightRow | undefined> {
  return (await fromFreights(db).selectAll().where('id', '=', freightId).where(inMarketSql(now)).executeTakeFirst()) as
    | FreightRow
    | undefined;
}
