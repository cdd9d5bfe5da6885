import { Type } from '@sinclair/typebox';
import { timestamp } from '../kernel/fields.ts';
import { LIST } from '../freights/index.ts';
import { SEARCH_INPUT_PROPERTIES } from '../market/index.ts';
import type { EventDoc } from '../events/index.ts';

/** Counts, saved searches and notifications (docs/reference.md#load-search), for the API description. */

const PARAMS = Type.Object(Object.fromEntries(Object.keys(SEARCH_INPUT_PROPERTIES).map((k) => [k, Type.Optional(Type.String())])), {
  description: 'the search parameters, normalised as the lists read them (strings)',
});

export const SAVED_SEARCH_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    filter: Type.Integer({ description: 'the freight list it searches (enlist filter id)' }),
    params: PARAMS,
    alert: Type.Integer({ enum: [0, 1], description: '1: a new market freight that matches notifies the user' }),
    url: Type.String({ description: 'the list page with the search' }),
    created: timestamp(),
    modified: timestamp(),
  },
  { $id: 'SavedSearch', description: 'A load search saved by a user' },
);

const NAMED_SEARCH = Type.Union([
  SAVED_SEARCH_SCHEMA,
  Type.Object({ id: Type.Null(), name: Type.String() }, { description: 'a search deleted since' }),
]);

export const NOTIFICATION_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Union(
      [Type.Literal('freight.matched'), Type.Literal('vehicle.matched'), Type.Literal('freight.invited'), Type.Literal('tender.published')],
      {
        description:
          'freight.matched: a freight entered the market and matches a saved search, or fits a vehicle offer of the company; vehicle.matched: a new vehicle offer fits an own freight; freight.invited: a freight’s owner invited the company (its vehicle offer); tender.published: the company is invited to a lane tender (docs/reference.md#tenders)',
      },
    ),
    created: timestamp(),
    read: Type.Integer({ enum: [0, 1] }),
    read_at: Type.Union([timestamp(), Type.Null()]),
    search: Type.Optional(NAMED_SEARCH),
    search_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    vehicle: Type.Optional(
      Type.Union([Type.Ref('Vehicle'), Type.Null()], {
        description:
          'instead of search, for vehicle offers (decisions.md §11): the offer as the user may see it now; null once it is not visible',
      }),
    ),
    vehicle_id: Type.Optional(Type.Integer()),
    matched_by: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object({ search: NAMED_SEARCH, search_id: Type.Union([Type.Integer(), Type.Null()]) }),
          Type.Object({ vehicle: Type.Union([Type.Ref('Vehicle'), Type.Null()]), vehicle_id: Type.Integer() }),
        ]),
        {
          description:
            'freight.matched only: every reason the load matched for this user, one alert per load: each saved search and each own vehicle offer it fits (search and vehicle name the first of each kind)',
        },
      ),
    ),
    route: Type.Union([Type.Ref('Freight'), Type.Null()], {
      description: 'the freight as the user may see it now; null once it is no longer visible',
    }),
    route_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a tender’s invitation' }),
    tender: Type.Optional(
      Type.Union(
        [
          Type.Object({
            id: Type.Integer(),
            name: Type.String(),
            company: Type.Object({ id: Type.Integer(), name: Type.String() }),
            currency: Type.String(),
            valid_from: Type.String(),
            valid_to: Type.String(),
            deadline: Type.Union([timestamp(), Type.Null()]),
          }),
          Type.Null(),
        ],
        { description: 'tender.published only: the tender as the user may see it now (its events’ head); null once not visible' },
      ),
    ),
    tender_id: Type.Optional(Type.Integer({ description: 'tender.published only' })),
  },
  { $id: 'Notification', description: 'An alert: a saved search’s or a vehicle offer’s match, or an invitation' },
);

const SEARCH_INPUT = Type.Object({
  name: Type.String({ maxLength: 200 }),
  filter: Type.Optional(Type.Integer({ description: `a freight list; default ${LIST.market} (open requests)` })),
  params: Type.Optional(Type.Union([Type.Object(SEARCH_INPUT_PROPERTIES), Type.String({ description: 'JSON text or a query string' })])),
  alert: Type.Optional(Type.Integer({ enum: [0, 1] })),
});

const ID = { id: Type.Integer() };

export const SEARCH_DOCS = {
  counts: {
    summary: 'How many freights each list holds for the caller (filter id → number), narrowed by the same search parameters as the lists',
    tag: 'freights',
    input: Type.Object(SEARCH_INPUT_PROPERTIES),
    data: Type.Object({
      counts: Type.Object({}, { additionalProperties: Type.Integer({ minimum: 0 }), description: 'filter id → number of freights' }),
    }),
  },
  add: {
    summary: 'Save a load search (with alert = 1: notify of new matching market freights)',
    input: SEARCH_INPUT,
    data: Type.Object({ search: SAVED_SEARCH_SCHEMA }),
  },
  index: { summary: 'The caller’s saved searches', data: Type.Object({ searches: Type.Array(SAVED_SEARCH_SCHEMA) }) },
  edit: {
    summary: 'Change a saved search (only sent fields)',
    path: ID,
    input: Type.Partial(SEARCH_INPUT),
    data: Type.Object({ search: SAVED_SEARCH_SCHEMA }),
  },
  delete: { summary: 'Delete a saved search (another user’s: 404)', path: ID, data: Type.Object({ search: SAVED_SEARCH_SCHEMA }) },
  notifications: {
    summary: 'The caller’s notifications, newest first, and how many are unread',
    tag: 'notifications',
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      unread: Type.Optional(Type.Integer({ enum: [0, 1] })),
    }),
    data: Type.Object({ notifications: Type.Array(NOTIFICATION_SCHEMA), unread: Type.Integer() }),
  },
  unread: {
    summary: 'How many of the caller’s notifications are unread',
    tag: 'notifications',
    data: Type.Object({ unread: Type.Integer() }),
  },
  read: { summary: 'Mark a notification read', tag: 'notifications', path: ID, data: Type.Object({ notification: NOTIFICATION_SCHEMA }) },
  readAll: {
    summary: 'Mark all of the caller’s notifications read',
    tag: 'notifications',
    data: Type.Object({ read: Type.Integer({ description: 'how many were unread' }) }),
  },
};

/** A saved search's match (searches/alerts.ts), for the API description. */
export const SEARCH_EVENT_DOCS = {
  'freight.matched': {
    summary: 'A freight that entered the market matches a saved search with alert = 1, or fits an open vehicle offer (decisions.md §11).',
    recipients: 'the company of the search’s user, or of the vehicle offer, only; the freight as the market shows it.',
    data: Type.Object({
      route: Type.Ref('Freight'),
      search: Type.Optional(
        Type.Union([SAVED_SEARCH_SCHEMA, Type.Null()], { description: 'the saved search the freight met; absent for a vehicle offer' }),
      ),
      vehicle: Type.Optional(Type.Ref('Vehicle', { description: 'the vehicle offer the freight fits, instead of search' })),
    }),
  },
} satisfies Record<'freight.matched', EventDoc>;
