import { fail, notFound, ok } from '../kernel/outcome.ts';
import { findById, readId } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { readRouteIds, readTourDate, readTourName, type Read } from './fields.ts';
import { tmsShipments, tourViews, type TourShipment, type TourView } from './lists.ts';
import { TOUR_DOCS } from './schema.ts';
import { createTour, deleteTour, editTour, findTour, type TourInput, type TourResult } from './store.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { Failure, Outcome } from '../kernel/outcome.ts';
import { readPaging } from '../kernel/paging.ts';
import { LIST } from '../freights/index.ts';
import { TOURS_LIST, tourAdded, tourDeleted, tourEdited, tourFormPage, tourPage } from './views.tsx';

/** The won orders on no tour (the unplanned list), for the pages' forms: the first 100. */
async function unplannedOrders(ctx: Ctx<Caller>): Promise<TourShipment[]> {
  return tmsShipments(ctx.db, ctx.clock, ctx.caller, LIST.tmsUnplanned, readPaging({ limit: '100' }));
}

/** The first refusal among the read fields, as a status error; else null. */
function firstRefusal(ctx: Ctx, ...reads: Array<Read<unknown> | undefined>): Failure | null {
  for (const r of reads) if (r && !r.ok) return fail(ctx.t, r.reason, r.vars);
  return null;
}

async function answer(ctx: Ctx, result: TourResult): Promise<Outcome<{ tour: TourView }>> {
  if (result.kind === 'not_found') return notFound();
  if (result.kind === 'refused') return fail(ctx.t, result.reason, result.vars);
  const [tour] = await tourViews(ctx.db, ctx.clock, ctx.caller, [result.tour]);
  // One tour in, one out.
  return ok({ tour: tour! });
}

export function tmsEndpoints(): Endpoint[] {
  // Lists 51-53 live on the freights module's path: hand them over once, when the app is built.
  return [
    userEndpoint({
      method: 'POST',
      path: '/tours/add',
      doc: TOUR_DOCS.add,
      async handle(ctx) {
        const name = readTourName(ctx.params.name);
        const date = readTourDate(ctx.params.date);
        const routeIds =
          ctx.params.route_ids === undefined ? ({ ok: true, value: [] as number[] } as const) : readRouteIds(ctx.params.route_ids);
        const refused = firstRefusal(ctx, name, date, routeIds);
        if (refused || !name.ok || !date.ok || !routeIds.ok) return refused!;
        return answer(
          ctx,
          await createTour(ctx.db, ctx.clock.now(), ctx.caller, { name: name.value, date: date.value, routeIds: routeIds.value }),
        );
      },
      page: tourAdded,
    }),
    userEndpoint({
      // The HTML form behind POST /tours/add (no JSON counterpart).
      method: 'GET',
      path: '/tours/add',
      json: false,
      handle: async () => ok({}),
      page: async (_outcome, ctx) => tourFormPage(ctx, await unplannedOrders(ctx)),
    }),
    userEndpoint({
      method: 'POST',
      path: '/tours/edit/:id',
      doc: TOUR_DOCS.edit,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (id === undefined) return notFound();
        // Only sent fields change; route_ids replaces the tour's list (like pieces on freight edit).
        const name = ctx.params.name === undefined ? undefined : readTourName(ctx.params.name);
        const date = ctx.params.date === undefined ? undefined : readTourDate(ctx.params.date);
        const routeIds = ctx.params.route_ids === undefined ? undefined : readRouteIds(ctx.params.route_ids);
        if (!(await findTour(ctx.db, ctx.caller, id))) return notFound();
        const refused = firstRefusal(ctx, name, date, routeIds);
        if (refused) return refused;
        const input: TourInput = {};
        if (name?.ok) input.name = name.value;
        if (date?.ok) input.date = date.value;
        if (routeIds?.ok) input.routeIds = routeIds.value;
        return answer(ctx, await editTour(ctx.db, ctx.clock.now(), ctx.caller, id, input));
      },
      page: tourEdited,
    }),
    userEndpoint({
      method: 'GET',
      path: '/tours/view/:id',
      doc: TOUR_DOCS.view,
      async handle(ctx) {
        const tour = await findById(ctx.path.id, (id) => findTour(ctx.db, ctx.caller, id));
        return tour ? answer(ctx, { kind: 'ok', tour }) : notFound();
      },
      page: async (outcome, ctx) =>
        outcome.kind === 'ok'
          ? tourPage(ctx, outcome.data.tour, await unplannedOrders(ctx))
          : { redirect: TOURS_LIST, ok: false, message: outcome.message },
    }),
    userEndpoint({
      method: 'POST',
      path: '/tours/delete/:id',
      doc: TOUR_DOCS.delete,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (id === undefined || !(await deleteTour(ctx.db, ctx.caller, id))) return notFound();
        return ok({ tour: { id } });
      },
      page: tourDeleted,
    }),
  ];
}
