import { Type, type TSchema } from '@sinclair/typebox';
import type { EventDoc } from '../events/index.ts';
import type { EndpointDoc } from '../kernel/doc.ts';
import { KEPT_AFTER_DELIVERY_DAYS, MAX_POSITIONS, POSITIONS_SHOWN, READS_SHOWN } from './store.ts';
import { MILESTONE_TYPES } from './tables.ts';

/** What tracking by permission (docs/reference.md#tracking) tells the API description. */

const FREIGHT_ID = { freightId: Type.Integer({ description: 'the freight id' }) };
const NULLABLE = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const TIME = (description: string) => Type.String({ description: `${description}: YYYY-MM-DD HH:MM:SS in \`timezone\`` });

const POSITION_IN = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  at: Type.String({
    description: 'when the position was taken: YYYY-MM-DD HH:MM:SS in `timezone`, or ISO 8601 with its zone; at most 5 minutes ahead',
  }),
  speed: Type.Optional(NULLABLE(Type.Number({ minimum: 0, maximum: 300, description: 'km/h' }))),
});

const POSITIONS_INPUT = Type.Object({
  positions: Type.Array(POSITION_IN, {
    minItems: 1,
    maxItems: MAX_POSITIONS,
    description: `1 to ${MAX_POSITIONS} positions, in any order; one bad item refuses them all (named in the message, e.g. \`positions[3].latitude\`), nothing stored`,
  }),
});

export const POSITION = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  at: TIME('when it was taken'),
  speed: NULLABLE(Type.Number({ description: 'km/h' })),
  source: Type.Union([Type.Literal('api'), Type.Literal('link')], {
    description: '`api`: a telematics system; `link`: the driver’s phone',
  }),
});

export const ETA = NULLABLE(
  Type.Object(
    {
      at: TIME('expected arrival'),
      km_left: Type.Number({ description: 'road km from the last position to the destination' }),
    },
    {
      description:
        'From the last position to the destination: great-circle distance × 1.3 at 65 km/h, with 45 minutes’ break per 4.5 h and 11 h rest per 9 h of driving (the method and what it ignores: docs/choices.md); null without a position or without destination coordinates',
    },
  ),
);

export const MILESTONE = Type.Object({
  type: Type.Union(
    MILESTONE_TYPES.map((t) => Type.Literal(t)),
    { description: 'recognised when positions come within 1 km of the origin or destination, and leave the origin' },
  ),
  at: TIME('the time of the position that made it'),
});

const READ = Type.Object({
  user: Type.Object({ id: NULLABLE(Type.Integer()), name: Type.String() }),
  at: TIME('when'),
});

const TRACKING_DATA = Type.Object({
  positions: Type.Array(POSITION, { description: `oldest first, at most the last ${POSITIONS_SHOWN}` }),
  eta: ETA,
  milestones: Type.Array(MILESTONE),
  late: Type.Boolean({ description: 'the ETA passed the end of the delivery window (`freight.late` was sent)' }),
  reads: Type.Optional(
    Type.Array(READ, {
      description: `the winner’s answer only: who of the owner’s company read the positions and when, newest first (at most ${READS_SHOWN}; reads of one user within 5 minutes are one)`,
    }),
  ),
});

const LINK = Type.Object({
  url: Type.String({ description: 'the driver’s page: opens that page of this freight and nothing else; shown only here' }),
  expires: TIME('the link stops working then, or at delivery, or when revoked'),
});

export const POSITION_DOCS = {
  post: {
    summary: `Share the truck’s positions (the winner, from the award until delivery): ${MAX_POSITIONS} at most a call, validated whole. Before the award or after delivery, or by the owner: \`status\` = \`error\`. A company that may not see the freight: 404.`,
    tag: 'tracking',
    path: FREIGHT_ID,
    input: POSITIONS_INPUT,
    data: Type.Object({
      stored: Type.Integer({ description: 'how many positions were stored' }),
      eta: ETA,
      milestones: Type.Array(MILESTONE, { description: 'every milestone recognised so far' }),
    }),
  },
  get: {
    summary: `Where the load is (owner and winner only; anyone else: 404): the last ${POSITIONS_SHOWN} positions, the ETA and the milestones; deleted ${KEPT_AFTER_DELIVERY_DAYS} days after delivery. The owner’s reads are logged for the winner.`,
    tag: 'tracking',
    path: FREIGHT_ID,
    data: TRACKING_DATA,
  },
  link: {
    summary:
      'A link for the driver’s phone (the winner, from the award until delivery): a page without an account that shares the phone’s position every minute while open, and allows nothing else. It ends at delivery or when revoked. Before the award or after delivery, or by the owner: `status` = `error`; anyone else: 404.',
    tag: 'tracking',
    path: FREIGHT_ID,
    data: Type.Object({ link: LINK }),
  },
  revoke: {
    summary: 'End every driver’s link of the freight (the winner). Anyone else: 404; the owner: `status` = `error`.',
    tag: 'tracking',
    path: FREIGHT_ID,
    data: Type.Object({ revoked: Type.Integer({ description: 'how many links ended' }) }),
  },
  driver: {
    summary:
      'The driver’s page posts the phone’s positions here (no account: the link’s token in the path is the permission). The same rules as the winner’s positions; an ended, revoked or unknown link: 404.',
    tag: 'tracking',
    path: { token: Type.String({ description: 'the token of the driver’s link' }) },
    input: POSITIONS_INPUT,
    data: Type.Object({ stored: Type.Integer() }),
  },
} satisfies Record<string, EndpointDoc>;

export const POSITION_EVENT_DOCS = {
  'freight.milestone': {
    summary:
      'The truck reached a milestone: within 1 km of the pickup (`arrived_pickup`), out of it again (`departed_pickup`), within 1 km of the delivery (`arrived_delivery`).',
    recipients: 'the freight’s owner and winner only.',
    data: Type.Object({ route_id: Type.Integer(), milestone: MILESTONE }),
  },
  'freight.late': {
    summary:
      'The ETA passed the end of the delivery window (`eta_end`, else `eta`): told once a freight, by the first position that shows it or by the sweeper as time passes without arrival.',
    recipients: 'the freight’s owner and winner only.',
    data: Type.Object({
      route_id: Type.Integer(),
      eta: Type.Object({ at: TIME('expected arrival'), km_left: NULLABLE(Type.Number()) }),
      window_end: NULLABLE(TIME('the end of the delivery window')),
    }),
  },
} satisfies Record<'freight.milestone' | 'freight.late', EventDoc>;
