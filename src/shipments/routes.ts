import { loadFreightForCaller } from '../freights/policy.ts';
import { fail, notFound, ok } from '../kernel/outcome.ts';
import { findById, readInt } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { milkrunAsShipment } from '../milkrun/present.ts';
import { milkrunList } from '../milkrun/store.ts';
import { tmsList } from '../tms/lists.ts';
import './messages.ts';
import { readPaging } from '../kernel/paging.ts';
import { presentShipment } from './present.ts';
import { SHIPMENT_DOCS } from './schema.ts';
import { freightListShipments } from './store.ts';

export function shipmentEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/routes/enlist/:filterId',
      doc: SHIPMENT_DOCS.enlist,
      async handle(ctx) {
        // The freight lists (decisions.md §4), the TMS lists 51-53 and the milk-run lists 70-84,
        // each as Shipments (53: the tours). Milk-run ids are milk-run shipment ids.
        const filterId = readInt(ctx.path.filterId);
        const paging = readPaging(ctx.params);
        if (filterId !== undefined) {
          const freights = await freightListShipments(ctx.db, ctx.clock, ctx.caller, filterId, paging);
          if (freights) return ok({ routes: freights });
          const tms = await tmsList(ctx.db, ctx.clock, ctx.caller, filterId, paging);
          if (tms) return ok({ routes: tms });
          const milkrun = await milkrunList(ctx.db, ctx.caller, filterId, paging);
          if (milkrun) return ok({ routes: milkrun.map(milkrunAsShipment) });
        }
        return fail(ctx.t('shipments.unknown_list', { id: String(ctx.path.filterId ?? '').slice(0, 20) }), { routes: [] });
      },
    }),
    userEndpoint({
      method: 'GET',
      path: '/routes/view/:id',
      doc: SHIPMENT_DOCS.view,
      async handle(ctx) {
        const found = await findById(ctx.path.id, (id) => loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, id));
        return found ? ok({ route: presentShipment(found.row, found.role) }) : notFound();
      },
    }),
  ];
}
