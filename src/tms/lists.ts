import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { freightDistanceSql, fromFreights, LIST, TMS_LIST_IDS } from '../freights/index.ts';
import type { ExternalList } from '../freights-http/index.ts';
import { offsetOf } from '../kernel/params.ts';
import type { Paging } from '../kernel/paging.ts';
import { type ShipmentList, type Shipment, visibleShipments, SHIPMENT_SCHEMA } from '../shipments/index.ts';
import { TOUR_SCHEMA } from './schema.ts';
import { notOnTourSql, onToursOfSql, tourFreightIds, tourOfSql, type TourRow } from './store.ts';

/**
 * The TMS's monitoring lists of docs/reference.md#the-api (51-53), served on GET /freights/enlist/{filterId}.json
 * and GET /routes/enlist: their ids are the freight list registry's (LIST.tmsUnplanned,
 * LIST.tmsPlanned, LIST.tmsTours), where the tabs and counts also read them.
 */

/** A shipment of the unplanned and planned lists (the planned names its tour). */
export type TourShipment = Shipment & { tour_id?: number | null };

/** What tours are presented with beside their rows: their freights in tour order, and each one's Shipment as the caller may see it. */
export interface TourParts {
  freightIds: Map<number, number[]>;
  shipments: Map<number, Shipment>;
}

/** Reads the parts of `tours` (two statements whatever their number). */
export async function readTourParts(db: Kysely<DB>, clock: Clock, caller: Caller, tours: readonly TourRow[]): Promise<TourParts> {
  const freightIds = await tourFreightIds(
    db,
    tours.map((t) => t.id),
  );
  const shipments = await visibleShipments(db, clock, caller, [...freightIds.values()].flat());
  return { freightIds, shipments };
}

/** A tour as answered by the tour endpoints and the tours list: its shipments in tour order. */
export function presentTours(tours: readonly TourRow[], parts: TourParts, clock: Clock) {
  return tours.map((t) => {
    const routeIds = parts.freightIds.get(t.id) ?? [];
    return {
      id: t.id,
      name: t.name,
      date: t.date,
      route_ids: routeIds,
      routes: routeIds.flatMap((id) => parts.shipments.get(id) ?? []),
      created: clock.format(t.created),
      modified: clock.format(t.modified),
    };
  });
}

/** A tour as the tour endpoints and the tours list answer it. */
export type TourView = ReturnType<typeof presentTours>[number];

/** Tours read for the caller and presented. */
export async function tourViews(db: Kysely<DB>, clock: Clock, caller: Caller, tours: TourRow[]): Promise<TourView[]> {
  return presentTours(tours, await readTourParts(db, clock, caller, tours), clock);
}

/**
 * The TMS lists for the freights module's enlist endpoint to delegate to: unplanned, won orders
 * of the caller's company (winner, status taken) on no tour; planned, freights on the company's
 * tours (Shipments with `tour_id`); tours, the company's tours. Null: not a TMS list.
 */
export async function tmsList(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  filterId: number,
  paging: Paging,
): Promise<TourView[] | TourShipment[] | null> {
  const c = caller.companyId;
  if (filterId === LIST.tmsTours) {
    const tours = await db
      .selectFrom('tours')
      .selectAll()
      .where('company_id', '=', c)
      .orderBy('date', (ob) => (paging.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('id', paging.direction)
      .limit(paging.limit)
      .offset(offsetOf(paging))
      .execute();
    return tourViews(db, clock, caller, tours);
  }
  if (filterId !== LIST.tmsUnplanned && filterId !== LIST.tmsPlanned) return null;
  return tmsShipments(db, clock, caller, filterId, paging);
}

/** The unplanned (won orders on no tour) and planned lists (freights on the company's tours) as Shipments. */
export async function tmsShipments(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  filterId: typeof LIST.tmsUnplanned | typeof LIST.tmsPlanned,
  paging: Paging,
): Promise<TourShipment[]> {
  const c = caller.companyId;
  const onTour = { tour_id: tourOfSql(sql`freights.id`) };
  const rows =
    filterId === LIST.tmsUnplanned
      ? await freightIdPage(db, paging, (eb) => eb.and([isWonOrder(eb, c), notOnTourSql(sql`freights.id`)]), onTour)
      : await freightIdPage(db, paging, () => onToursOfSql(sql`freights.id`, c), onTour);
  const shipments = await visibleShipments(
    db,
    clock,
    caller,
    rows.map((r) => r.id),
  );
  return rows.flatMap((r): TourShipment[] => {
    const s = shipments.get(r.id);
    if (!s) return [];
    return filterId === LIST.tmsPlanned ? [{ ...s, tour_id: r.tour_id as number | null }] : [s];
  });
}

/** The TMS lists on GET /routes/enlist (app.ts passes it to shipmentEndpoints). */
export const tmsShipmentList: ShipmentList = {
  read: (ctx, filterId, paging) => tmsList(ctx.db, ctx.clock, ctx.caller, filterId, paging),
  items: [SHIPMENT_SCHEMA, TOUR_SCHEMA],
};

/**
 * The TMS lists as lists of GET /freights/enlist: app.ts passes them to the freights module's
 * endpoints (freightEndpoints, otherLists).
 */
export function tmsFreightLists(): ReadonlyMap<number, ExternalList> {
  return new Map(
    TMS_LIST_IDS.map((id): [number, ExternalList] => [
      id,
      {
        read: async (rc, paging) => (await tmsList(rc.db, rc.clock, rc.caller, id, paging)) ?? [],
        // 51 and 52 answer Shipments (52 with tour_id), 53 the tours.
        items: id === LIST.tmsTours ? TOUR_SCHEMA : SHIPMENT_SCHEMA,
      },
    ]),
  );
}

/** A won order of the company: it is the winner and the stored status is taken (TMS list 51). */
const isWonOrder = (eb: ExpressionBuilder<DB, 'freights'>, companyId: number) =>
  eb.and([eb('freights.winner_id', '=', companyId), eb('freights.status', '=', 'taken')]);

/**
 * A page of freight ids in the paging's order (nullable sort keys last, then id), among the
 * freights for which `where` holds, each with `columns` (SQL over the row `freights`). Other
 * TMS lists (51 and 52) read their page with it, in one statement, over the freights' read model.
 */
function freightIdPage<C extends string>(
  db: Kysely<DB>,
  paging: Paging,
  where: (eb: ExpressionBuilder<DB, 'freights'>) => Expression<SqlBool>,
  columns: Record<C, RawBuilder<unknown>>,
) {
  return fromFreights(db)
    .select('freights.id')
    .select(Object.entries<RawBuilder<unknown>>(columns).map(([name, value]) => value.as(name)))
    .where(where)
    .orderBy(paging.sort === 'distance' ? freightDistanceSql() : sql.ref(`freights.${paging.sort}`), (ob) =>
      (paging.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast(),
    )
    .orderBy('freights.id', paging.direction)
    .limit(paging.limit)
    .offset(offsetOf(paging))
    .execute() as Promise<Array<{ id: number } & Record<C, unknown>>>;
}
