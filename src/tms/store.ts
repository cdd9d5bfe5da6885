import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { lockFreights } from '../freights/index.ts';
import type { Caller } from '../kernel/context.ts';
import type { ToursTable } from './tables.ts';
import type { FailureCode } from '../kernel/errors.ts';

export type TourRow = Selectable<ToursTable>;

export type TourResult =
  | { kind: 'ok'; tour: TourRow }
  | { kind: 'not_found' }
  | { kind: 'refused'; reason: FailureCode; vars?: Record<string, string | number> };

export interface TourInput {
  name?: string;
  date?: string | null;
  /** the complete list of freights on the tour (replaces the previous one) */
  routeIds?: number[];
}

/**
 * Puts exactly `routeIds` on the tour, in that order. Only won orders of the caller's company
 * (winner, status taken) may be planned, plus freights already on this very tour (so a
 * delivered one can stay). The freight rows are locked in id order first: two tours planning
 * the same freight at once serialise, and the second sees the first's plan and is refused.
 */
async function planFreights(
  trx: Transaction<DB>,
  caller: Caller,
  tourId: number,
  routeIds: number[],
  now: Date,
): Promise<TourResult | null> {
  if (routeIds.length > 0) {
    const sorted = [...routeIds].sort((a, b) => a - b);
    const rows = await lockFreights(trx, sorted);
    const planned = await trx.selectFrom('tour_freights').select(['freight_id', 'tour_id']).where('freight_id', 'in', sorted).execute();
    const onThisTour = new Set(planned.filter((p) => p.tour_id === tourId).map((p) => p.freight_id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const notWon = sorted.filter((id) => {
      const r = byId.get(id);
      return !onThisTour.has(id) && !(r && r.winner_id === caller.companyId && r.status === 'taken');
    });
    if (notWon.length) return { kind: 'refused', reason: 'tms.not_won_orders', vars: { ids: notWon.join(', ') } };
    const elsewhere = planned.filter((p) => p.tour_id !== tourId).map((p) => p.freight_id);
    if (elsewhere.length) return { kind: 'refused', reason: 'tms.on_other_tour', vars: { ids: elsewhere.join(', ') } };
  }
  await trx.deleteFrom('tour_freights').where('tour_id', '=', tourId).execute();
  if (routeIds.length > 0) {
    await trx
      .insertInto('tour_freights')
      .values(
        routeIds.map((freight_id, position) => ({ freight_id, tour_id: tourId, company_id: caller.companyId, position, created: now })),
      )
      .execute();
  }
  return null;
}

/** Thrown inside a transaction to roll it back with a refusal. */
class Refusal extends Error {
  constructor(readonly result: TourResult) {
    super('refused');
  }
}

async function refusable(run: () => Promise<TourResult>): Promise<TourResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Refusal) return e.result;
    throw e;
  }
}

export function createTour(db: Kysely<DB>, now: Date, caller: Caller, input: Required<TourInput>): Promise<TourResult> {
  return refusable(() =>
    db.transaction().execute(async (trx) => {
      const tour = await trx
        .insertInto('tours')
        .values({ company_id: caller.companyId, user_id: caller.userId, name: input.name, date: input.date, created: now, modified: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const refused = await planFreights(trx, caller, tour.id, input.routeIds, now);
      if (refused) throw new Refusal(refused);
      return { kind: 'ok', tour };
    }),
  );
}

/** Changes name, date and/or the freights of an own tour; what is not sent stays. */
export function editTour(db: Kysely<DB>, now: Date, caller: Caller, id: number, input: TourInput): Promise<TourResult> {
  return refusable(() =>
    db.transaction().execute(async (trx) => {
      const tour = await trx
        .selectFrom('tours')
        .selectAll()
        .where('id', '=', id)
        .where('company_id', '=', caller.companyId)
        .forUpdate()
        .executeTakeFirst();
      if (!tour) return { kind: 'not_found' };
      if (input.routeIds) {
        const refused = await planFreights(trx, caller, id, input.routeIds, now);
        if (refused) throw new Refusal(refused);
      }
      const values: Partial<TourRow> = { modified: now };
      if (input.name !== undefined) values.name = input.name;
      if (input.date !== undefined) values.date = input.date;
      const updated = await trx.updateTable('tours').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return { kind: 'ok', tour: updated };
    }),
  );
}

/** Deletes an own tour; its freights return to "not planned" (list 51 while still taken). */
export async function deleteTour(db: Kysely<DB>, caller: Caller, id: number): Promise<boolean> {
  const res = await db.deleteFrom('tours').where('id', '=', id).where('company_id', '=', caller.companyId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function findTour(db: Kysely<DB>, caller: Caller, id: number): Promise<TourRow | undefined> {
  return db.selectFrom('tours').selectAll().where('id', '=', id).where('company_id', '=', caller.companyId).executeTakeFirst();
}

/** Freight ids per tour, in tour order. */
export async function tourFreightIds(db: Kysely<DB>, tourIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(tourIds.map((id) => [id, []]));
  if (tourIds.length === 0) return out;
  const rows = await db
    .selectFrom('tour_freights')
    .select(['tour_id', 'freight_id'])
    .where('tour_id', 'in', tourIds)
    .orderBy('tour_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.tour_id)!.push(r.freight_id);
  return out;
}

// SQL pieces for the list counts (src/searches/counts.ts passes them to freights/lists/counts.ts): the TMS lists counted in the freight lists' statement.

/** SQL: the freight (its id an SQL expression of the outer statement) is on no tour. */
export function notOnTourSql(freightId: RawBuilder<number>) {
  return sql<SqlBool>`not exists (select 1 from tour_freights where tour_freights.freight_id = ${freightId})`;
}

/** SQL: how many orders are on the company's tours (list 52). */
export function plannedOrdersCountSql(companyId: number) {
  return sql<number>`(select count(*)::int as n from tour_freights where tour_freights.company_id = ${companyId})`;
}

/** SQL: how many tours the company has (list 53). */
export function toursCountSql(companyId: number) {
  return sql<number>`(select count(*)::int as n from tours where tours.company_id = ${companyId})`;
}

/** SQL: the freight (its id an SQL expression) is on one of the company's tours (list 52). */
export function onToursOfSql(freightId: RawBuilder<number>, companyId: number) {
  return sql<SqlBool>`exists (select 1 from tour_freights where tour_freights.freight_id = ${freightId} and tour_freights.company_id = ${companyId})`;
}

/** SQL: the tour the freight (its id an SQL expression) is on, or null. */
export function tourOfSql(freightId: RawBuilder<number>) {
  return sql<number | null>`(select tour_freights.tour_id from tour_freights where tour_freights.freight_id = ${freightId})`;
}
