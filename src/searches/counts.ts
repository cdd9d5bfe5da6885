import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { FILTERS, MAY_BE_MASKED } from '../freights/lists.ts';
import { searchConditions, type FreightSearch } from '../freights/search.ts';

/** The TMS lists (preview, decisions.md §6) share the enlist path; they take no search parameters. */
export const TMS_FILTERS = [51, 52, 53] as const;

/**
 * GET /freights/counts: how many freights each list holds for the caller's company, narrowed by
 * the same search as the lists (so the tabs can show the counts of the current search). One
 * statement: one indexed count per list, with the lists' own membership (lists.ts FILTERS).
 */
export async function countLists(db: Kysely<DB>, companyId: number, now: Date, search: FreightSearch): Promise<Record<string, number>> {
  const row = await countsQuery(db, companyId, now, search).executeTakeFirstOrThrow();
  const counts: Record<string, number> = {};
  for (const id of [...Object.keys(FILTERS).map(Number), ...TMS_FILTERS]) counts[String(id)] = Number((row as Record<string, unknown>)[`f${id}`] ?? 0);
  return counts;
}

/** The statement of countLists (the benchmark explains it). */
export function countsQuery(db: Kysely<DB>, companyId: number, now: Date, search: FreightSearch) {
  const ids = Object.keys(FILTERS).map(Number);
  return db
    .selectNoFrom((eb) => [
      ...ids.map((id) =>
        eb
          .selectFrom('freights')
          .select(sql<number>`count(*)::int`.as('n'))
          .where((w) => w.and([FILTERS[id]!(w, companyId, now), ...searchConditions(w, search, companyId, now, { mayBeMasked: MAY_BE_MASKED.has(id) })]))
          .as(`f${id}`),
      ),
      // 51: won orders on no tour; 52: orders on the company's tours; 53: its tours.
      eb
        .selectFrom('freights')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('freights.winner_id', '=', companyId)
        .where('freights.status', '=', 'taken')
        .where((w) => w.not(w.exists(w.selectFrom('tour_freights').select(sql`1`.as('one')).whereRef('tour_freights.freight_id', '=', 'freights.id'))))
        .as('f51'),
      eb.selectFrom('tour_freights').select(sql<number>`count(*)::int`.as('n')).where('tour_freights.company_id', '=', companyId).as('f52'),
      eb.selectFrom('tours').select(sql<number>`count(*)::int`.as('n')).where('tours.company_id', '=', companyId).as('f53'),
    ]);
}
