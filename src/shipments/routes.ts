import type { TSchema } from '@sinclair/typebox';
import { loadFreightForCaller } from '../freights/index.ts';
import { fail, notFound, ok } from '../kernel/outcome.ts';
import { findById, readInt } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import type { Caller, Ctx } from '../kernel/context.ts';
import { readPaging, type Paging } from '../kernel/paging.ts';
import { presentShipment } from './present.ts';
import { SHIPMENT_DOCS, shipmentEnlistDoc } from './schema.ts';
import { freightListShipments } from './store.ts';

/**
 * A list of another module on GET /routes/enlist, as Shipments (TMS 51-53, milk run 70-84); null:
 * not one of its lists. app.ts passes them, in the order they are asked.
 */
export interface ShipmentList {
  read(ctx: Ctx<Caller>, filterId: number, paging: Paging): Promise<unknown[] | null>;
  /** The JSON Schemas of its rows, for the API description (Shipment; the TMS's tours list: Tour). */
  items: readonly TSchema[];
}

export function shipmentEndpoints(otherLists: readonly ShipmentList[]): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/routes/enlist/:filterId',
      doc: shipmentEnlistDoc(otherLists.flatMap((list) => list.items)),
      reads: 'replica',
      async handle(ctx) {
        // The freight lists (docs/reference.md#freights), the TMS lists 51-53 and the milk-run lists 70-84,
        // each as Shipments (53: the tours). Milk-run ids are milk-run shipment ids.
        const filterId = readInt(ctx.path.filterId);
        const paging = readPaging(ctx.params);
        if (filterId !== undefined) {
          const freights = await freightListShipments(ctx.db, ctx.clock, ctx.caller, filterId, paging);
          if (freights) return ok({ routes: freights });
          for (const list of otherLists) {
            const routes = await list.read(ctx, filterId, paging);
            if (routes) return ok({ routes });
          }
        }
        return fail(ctx.t, 'shipments.unknown_list', { id: String(ctx.path.filterId ?? '').slice(0, 20) }, { routes: [] });
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
