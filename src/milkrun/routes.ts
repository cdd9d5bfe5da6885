import { fail, notFound, ok } from '../kernel/outcome.ts';
import { readId, readInt } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { readPaging } from '../kernel/paging.ts';
import { type ShipmentList, SHIPMENT_SCHEMA } from '../shipments/index.ts';
import { milkrunAsShipment, presentMilkrun } from './present.ts';
import { MILKRUN_DOCS } from './schema.ts';
import { MOVES } from './states.ts';
import { milkrunList, moveShipment } from './store.ts';
import { afterMove, carrierByName, milkrunListPage } from './views.tsx';

/** The milk-run lists (70-84) on GET /routes/enlist as Shipments (app.ts passes it to shipmentEndpoints). */
export const milkrunShipmentList: ShipmentList = {
  read: async (ctx, filterId, paging) => (await milkrunList(ctx.db, ctx.caller, filterId, paging))?.map(milkrunAsShipment) ?? null,
  items: [SHIPMENT_SCHEMA],
};

export function milkrunEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/milkrun/import/short/:id',
      doc: MILKRUN_DOCS.list,
      async handle(ctx) {
        const id = readInt(ctx.path.id);
        const rows = id === undefined ? null : await milkrunList(ctx.db, ctx.caller, id, readPaging(ctx.params));
        if (!rows) return fail(ctx.t, 'milkrun.unknown_list', { id: String(ctx.path.id ?? '').slice(0, 20) }, { shipments: [] });
        return ok({ shipments: rows.map((r) => presentMilkrun(r, ctx.clock)) });
      },
      page: (outcome, ctx) => milkrunListPage(outcome, ctx, readInt(ctx.path.id), readPaging(ctx.params)),
    }),
    ...MOVES.map((move) =>
      userEndpoint({
        method: 'POST',
        path: `/milkrun/${move}/:id`,
        doc: MILKRUN_DOCS.move(move),
        async handle(ctx) {
          const id = readId(ctx.path.id);
          if (id === undefined) return notFound();
          // The page's dispatch form names the trucker by company name (docs/choices.md, Web interface).
          if (ctx.format === 'html' && move === 'dispatch') await carrierByName(ctx);
          const result = await moveShipment(
            ctx.db,
            ctx.clock.now(),
            ctx.caller,
            id,
            move,
            readId(ctx.params.carrier ?? ctx.params.carrier_id),
          );
          if (result.kind === 'not_found') return notFound();
          if (result.kind === 'refused') return fail(ctx.t, result.reason, result.vars);
          return ok({ shipment: presentMilkrun(result.row, ctx.clock) });
        },
        page: afterMove(move),
      }),
    ),
  ];
}
