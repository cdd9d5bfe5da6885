import { Type } from '@sinclair/typebox';
import { timestamp } from '../kernel/fields.ts';
import { SHIPMENT_SCHEMA } from '../shipments/index.ts';
import { MAX_NAME, MAX_TOUR_ROUTES } from './fields.ts';

export const TOUR_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    date: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()]),
    route_ids: Type.Array(Type.Integer(), { description: 'the won orders on it, in order' }),
    routes: Type.Array(SHIPMENT_SCHEMA),
    created: timestamp(),
    modified: timestamp(),
  },
  { $id: 'Tour', description: 'A tour of a carrier’s won orders (TMS, preview)' },
);

const ROUTE_IDS = Type.Array(Type.Integer(), {
  maxItems: MAX_TOUR_ROUTES,
  description: 'won orders of the caller’s company (also "1,2,3"); replaces the list',
});
const ID = Type.Integer({ description: 'the tour' });

export const TOUR_DOCS = {
  add: {
    summary: 'Plan won orders on a new tour',
    input: Type.Object({
      name: Type.String({ minLength: 1, maxLength: MAX_NAME }),
      date: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
      route_ids: Type.Optional(ROUTE_IDS),
    }),
    data: Type.Object({ tour: TOUR_SCHEMA }),
    preview: true,
  },
  edit: {
    summary: 'Change a tour: only sent fields change',
    path: { id: ID },
    input: Type.Object({
      name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME })),
      date: Type.Optional(Type.String()),
      route_ids: Type.Optional(ROUTE_IDS),
    }),
    data: Type.Object({ tour: TOUR_SCHEMA }),
    preview: true,
  },
  view: { summary: 'One tour', path: { id: ID }, data: Type.Object({ tour: TOUR_SCHEMA }), preview: true },
  delete: {
    summary: 'Delete a tour (its orders become unplanned)',
    path: { id: ID },
    data: Type.Object({ tour: Type.Object({ id: Type.Integer() }) }),
    preview: true,
  },
};
