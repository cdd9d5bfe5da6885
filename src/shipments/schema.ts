import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LIST, listRange, TMS_LIST_IDS } from '../freights/index.ts';

const PAGING = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  sort: Type.Optional(Type.String({ description: 'Routes.<field>, as the freight lists' })),
  direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
};

/** Paging of the preview lists (the freight lists' rules). */
export const PAGING_INPUT = Type.Object(PAGING);

/** docs/reference.md#preview resources": a freight (or milk-run shipment) seen through the preview endpoints. */
export const SHIPMENT_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    from: Type.Union([Type.String(), Type.Null()], { description: 'origin shortcode (postal code or IATA); null when masked or unset' }),
    to: Type.Union([Type.String(), Type.Null()], { description: 'destination shortcode' }),
    weight: Type.Union([Type.Integer(), Type.Null()], { description: 'chargeable weight in whole kg, rounded up' }),
    capacity: Type.Union([Type.Integer(), Type.Null()], { description: 'refs.capacity in whole cbm, rounded up; owner and winner only' }),
    tour_id: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description: `lists ${LIST.tmsUnplanned} and ${LIST.tmsPlanned}: the tour it is planned on`,
      }),
    ),
  },
  { $id: 'Shipment', description: 'A shipment (preview)' },
);

export type Shipment = Static<typeof SHIPMENT_SCHEMA>;

/** Named schemas once each, in order (a list's rows may be any of several). */
export function distinctSchemas(schemas: readonly TSchema[]): TSchema[] {
  const seen = new Set<unknown>();
  return schemas.filter((s) => {
    const key = s.$id ?? s;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * GET /routes/enlist as it answers: Shipments of the freight lists, and the rows of the other
 * modules' lists (`items` of each ShipmentList: the TMS's tours list 53 answers Tours).
 */
export function shipmentEnlistDoc(otherItems: readonly TSchema[]) {
  const items = distinctSchemas([SHIPMENT_SCHEMA, ...otherItems]);
  return {
    summary: `A list as Shipments: the freight lists’ filter ids, TMS ${listRange(TMS_LIST_IDS)}, milk-run 70–84`,
    path: { filterId: Type.Integer() },
    input: PAGING_INPUT,
    data: Type.Object({
      routes: Type.Array(items.length > 1 ? Type.Union(items) : SHIPMENT_SCHEMA, {
        description: 'Shipments; the TMS’s tours list (53) answers Tours',
      }),
    }),
    preview: true,
  };
}

export const SHIPMENT_DOCS = {
  view: {
    summary: 'One shipment',
    path: { id: Type.Integer() },
    data: Type.Object({ route: SHIPMENT_SCHEMA }),
    answers: { 404: 'Shipment not found or access denied.' },
    preview: true,
  },
};
