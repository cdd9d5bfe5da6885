import { Type } from '@sinclair/typebox';
import type { EndpointDoc } from '../kernel/doc.ts';
import type { EventDoc } from '../events/index.ts';
import { MAX_RADIUS_KM, MIN_RADIUS_KM, SEARCH_INPUT_PROPERTIES } from '../market/index.ts';
import { DEFAULT_RADIUS, MAX_CAPACITY_KG, MAX_LOADING_METERS, MAX_NOTE, MAX_PRICE_PER_KM, MAX_WHITELIST, VEHICLE } from './fields.ts';
import { BODIES } from './tables.ts';

/** The vehicle offers' endpoints and events for the API description (docs/reference.md#vehicles). */

const opt = Type.Optional;

const FIELDS = {
  from: opt(
    Type.String({
      description:
        'origin: airport:FRA, city:60311 (with from_country) or city:DE-60311; or leave it empty and send from_latitude/from_longitude',
    }),
  ),
  from_country: opt(Type.String({ description: 'country of a postal code (DE)' })),
  from_latitude: opt(Type.Number({ minimum: -90, maximum: 90 })),
  from_longitude: opt(Type.Number({ minimum: -180, maximum: 180 })),
  from_radius: opt(Type.Integer({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: `km; default ${DEFAULT_RADIUS}` })),
  to: opt(
    Type.String({ description: 'comma-separated destination patterns as in the load search: DE, FR-75, airport:JFK; empty: anywhere' }),
  ),
  available_from: Type.String({ description: 'YYYY-MM-DD HH:MM[:SS], application time zone' }),
  available_to: Type.String({ description: 'YYYY-MM-DD HH:MM[:SS], after available_from and not passed' }),
  body: Type.Union(BODIES.map((b) => Type.Literal(b))),
  capacity: Type.Number({ minimum: 1, maximum: MAX_CAPACITY_KG, description: 'kg, up to 3 decimals' }),
  loading_meters: opt(Type.Number({ minimum: 0, maximum: MAX_LOADING_METERS, description: 'm, up to 2 decimals' })),
  price_per_km: opt(Type.Number({ minimum: 0.01, maximum: MAX_PRICE_PER_KM, description: 'EUR per km, up to 2 decimals; non-binding' })),
  adr: opt(
    Type.Integer({
      minimum: 0,
      maximum: 1,
      description: '1: truck and driver may carry dangerous goods (ADR); default 0. Only such an offer fits a freight with an adr_class',
    }),
  ),
  note: opt(Type.String({ maxLength: MAX_NOTE })),
  whitelist: opt(
    Type.Array(Type.Integer({ minimum: 1 }), {
      maxItems: MAX_WHITELIST,
      description: 'company ids that may see the offer; empty: every company',
    }),
  ),
};

export const VEHICLE_INPUT = Type.Object(FIELDS);
const EDIT_INPUT = Type.Partial(VEHICLE_INPUT);

const ID = { id: Type.Integer() };
const VEHICLE_DATA = Type.Object({ vehicle: VEHICLE.schema });
const PAGING = {
  page: opt(Type.Integer({ minimum: 1 })),
  limit: opt(Type.Integer({ minimum: 1, maximum: 100 })),
};
const REFUSED =
  'Validated, unlike freights: a missing or impossible field answers status = error (code vehicle.invalid) with data.errors naming each field and its problem; nothing is stored.';

export const WITH_DISTANCE = Type.Object({ distance_km: Type.Number({ description: 'great-circle km between the origins' }) });

export const VEHICLE_DOCS = {
  add: {
    summary: 'Offer a vehicle: free capacity of the caller’s company (open at once)',
    description: REFUSED,
    input: VEHICLE_INPUT,
    data: VEHICLE_DATA,
  },
  view: {
    summary: 'A vehicle offer (its status reads expired once available_to has passed)',
    path: ID,
    data: VEHICLE_DATA,
    answers: { 404: 'No such offer, or one whose whitelist leaves the caller’s company out.' },
  },
  edit: {
    summary: 'Change an own open offer: only the fields sent change, the result is validated as on add',
    description: REFUSED,
    path: ID,
    input: EDIT_INPUT,
    data: VEHICLE_DATA,
    answers: { 404: 'No offer of the caller’s company with this id.' },
  },
  withdraw: {
    summary: 'Withdraw an own open offer (status withdrawn)',
    path: ID,
    data: VEHICLE_DATA,
    answers: { 404: 'No offer of the caller’s company with this id.' },
  },
  index: {
    summary: 'Open vehicle offers of other companies visible to the caller, narrowed by the load search',
    input: Type.Object({
      from: SEARCH_INPUT_PROPERTIES.from,
      to: opt(Type.String({ description: 'destination patterns: an offer going there (or to a part or a whole of it, or anywhere)' })),
      from_near: SEARCH_INPUT_PROPERTIES.from_near,
      from_radius: SEARCH_INPUT_PROPERTIES.from_radius,
      pickup_from: opt(Type.String({ description: 'YYYY-MM-DD: the availability window overlaps the days from here' })),
      pickup_to: opt(Type.String({ description: 'YYYY-MM-DD, inclusive' })),
      weight_min: opt(Type.Number({ minimum: 0, description: 'kg: capacity at least this' })),
      body: opt(Type.String({ description: `comma-separated: ${BODIES.join(', ')}` })),
      ...PAGING,
      sort: opt(Type.String({ description: 'Vehicles.available_from or Vehicles.created (default), optionally followed by asc or desc' })),
      direction: opt(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    }),
    data: Type.Object({ vehicles: Type.Array(VEHICLE.schema) }),
  },
  mine: {
    summary: 'The caller’s company’s own offers, every status, newest first',
    input: Type.Object(PAGING),
    data: Type.Object({ vehicles: Type.Array(VEHICLE.schema) }),
  },
  matches: {
    summary: 'Freights fitting an own offer, as the offer’s company sees them, nearest origin first, a page of them',
    description:
      'A list like every list: page (1 unless given) and limit (20 rows unless given, at most 100: more reads as 100); the order (distance, then id) runs on across pages. An offer that is withdrawn or expired has none.',
    path: ID,
    input: Type.Object(PAGING),
    data: Type.Object({
      freights: Type.Array(Type.Intersect([Type.Ref('Freight'), WITH_DISTANCE]), {
        description:
          'road freights in the market visible to the company: origin within the radius, destination among the patterns, loading window overlapping, weight at most the capacity',
      }),
    }),
    answers: { 404: 'No offer of the caller’s company with this id.' },
  },
  fitting: {
    summary: 'Open vehicle offers fitting an own freight, nearest first, a page of them',
    description:
      'A list like every list: page (1 unless given) and limit (20 rows unless given, at most 100: more reads as 100); the order (distance, then id) runs on across pages. A freight not in the market, or not a road freight, has none.',
    tag: 'freights',
    path: ID,
    input: Type.Object(PAGING),
    data: Type.Object({ vehicles: Type.Array(Type.Intersect([VEHICLE.schema, WITH_DISTANCE])) }),
    answers: { 404: 'No freight of the caller’s company with this id.' },
  },
  invite: {
    summary: 'Invite an offer’s company to an own freight in the market: added to its whitelist when it has one, and notified',
    path: ID,
    input: Type.Object({ freight: Type.Integer({ description: 'an own freight in the market (open or pending)' }) }),
    data: Type.Object({
      vehicle: VEHICLE.schema,
      freight: Type.Integer(),
      whitelisted: Type.Boolean({ description: 'true when the company was added to the freight’s whitelist (the freight has one)' }),
    }),
    answers: { 404: 'No offer visible to the caller, or no freight of the caller’s company with this id.' },
  },
} satisfies Record<string, EndpointDoc>;

const MATCHES = Type.Array(Type.Object({ route_id: Type.Integer(), distance_km: Type.Union([Type.Number(), Type.Null()]) }), {
  description: 'the matched freights the recipient may know of: every one for the offer’s company, its own for a freight’s owner',
});
const VEHICLE_EVENT = Type.Object({ vehicle: Type.Ref('Vehicle'), matches: MATCHES });
const PARTIES = 'the offer’s company, and the owners of the freights it fits (each told of its own freights only).';

/** The events of vehicle offers, and of the invitation they lead to (docs/reference.md#events, #vehicles). */
export const VEHICLE_EVENT_DOCS = {
  'vehicle.published': {
    summary: 'A vehicle offer was published.',
    recipients: `${PARTIES} The owners receive it with the match, after the publishing commit.`,
    data: VEHICLE_EVENT,
  },
  'vehicle.withdrawn': {
    summary: 'A vehicle offer was withdrawn by its company.',
    recipients:
      'the offer’s company, and the owners of the freights it fits now or was matched with before (each told of its own freights only; distance_km is null for a freight that no longer fits).',
    data: VEHICLE_EVENT,
  },
  'vehicle.matched': {
    summary: 'A vehicle offer and freights fit each other (the offer or the freight was just published).',
    recipients: PARTIES,
    data: VEHICLE_EVENT,
  },
  'freight.invited': {
    summary: 'A freight’s owner invited the company of a vehicle offer to the freight (decisions.md §11); it may now bid.',
    recipients: 'the invited company only, the freight as it may see it now.',
    data: Type.Object({ route: Type.Ref('Freight'), vehicle: Type.Ref('Vehicle') }),
  },
} satisfies Record<'vehicle.published' | 'vehicle.withdrawn' | 'vehicle.matched' | 'freight.invited', EventDoc>;
