import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { freightIdPage, isWonOrder, type ExternalList } from '../freights/index.ts';
import { offsetOf } from '../kernel/params.ts';
import type { Paging } from '../kernel/paging.ts';
import type { ShipmentList } from '../shipments/routes.ts';
import type { Shipment } from '../shipments/present.ts';
import { visibleShipments } from '../shipments/store.ts';
import { notOnTourSql, onToursOfSql, tourFreightIds, tourOfSql, type TourRow } from './store.ts';

/** TMS monitoring lists of api.md, served on GET /freights/enlist/{51|52|53}.json. */
export const TMS_LISTS = [51, 52, 53] as const;

/** A tour as the tour endpoints and list 53 answer it. */
export type TourView = Awaited<ReturnType<typeof presentTours>>[number];
/** A shipment of lists 51 and 52 (52 names its tour). */
export type TourShipment = Shipment & { tour_id?: number | null };

/** A tour as answered by the tour endpoints and list 53: its shipments in tour order. */
export async function presentTours(db: Kysely<DB>, clock: Clock, caller: Caller, tours: TourRow[]) {
  const ids = await tourFreightIds(
    db,
    tours.map((t) => t.id),
  );
  const shipments = await visibleShipments(db, clock, caller, [...ids.values()].flat());
  return tours.map((t) => {
    const routeIds = ids.get(t.id) ?? [];
    return {
      id: t.id,
      name: t.name,
      date: t.date,
      route_ids: routeIds,
      routes: routeIds.flatMap((id) => shipments.get(id) ?? []),
      created: clock.format(t.created),
      modified: clock.format(t.modified),
    };
  });
}

/**
 * The TMS lists for the freights module's enlist endpoint to delegate to:
 * 51 won orders of the caller's company (winner, status taken) on no tour; 52 freights on the
 * company's tours (Shipments with `tour_id`); 53 the company's tours. Null: not a TMS list.
 */
export async function tmsList(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  filterId: number,
  paging: Paging,
): Promise<TourView[] | TourShipment[] | null> {
  const c = caller.companyId;
  if (filterId === 53) {
    const tours = await db
      .selectFrom('tours')
      .selectAll()
      .where('company_id', '=', c)
      .orderBy('date', (ob) => (paging.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('id', paging.direction)
      .limit(paging.limit)
      .offset(offsetOf(paging))
      .execute();
    return presentTours(db, clock, caller, tours);
  }
  if (filterId !== 51 && filterId !== 52) return null;
  return tmsShipments(db, clock, caller, filterId, paging);
}

/** Lists 51 (won orders on no tour) and 52 (freights on the company's tours) as Shipments. */
export async function tmsShipments(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  filterId: 51 | 52,
  paging: Paging,
): Promise<TourShipment[]> {
  const c = caller.companyId;
  const onTour = { tour_id: tourOfSql(sql`freights.id`) };
  const rows =
    filterId === 51
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
    return filterId === 52 ? [{ ...s, tour_id: r.tour_id as number | null }] : [s];
  });
}

/** 51-53 on GET /routes/enlist (app.ts passes it to shipmentEndpoints). */
export const tmsShipmentList: ShipmentList = (ctx, filterId, paging) => tmsList(ctx.db, ctx.clock, ctx.caller, filterId, paging);

/**
 * 51-53 as lists of GET /freights/enlist: app.ts passes them to the freights module's endpoints
 * (freightEndpoints, otherLists).
 */
export function tmsFreightLists(): ReadonlyMap<number, ExternalList> {
  return new Map(
    TMS_LISTS.map((id): [number, ExternalList] => [
      id,
      async (rc, paging) => (await tmsList(rc.db, rc.clock, rc.caller, id, paging)) ?? [],
    ]),
  );
}
