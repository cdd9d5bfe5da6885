import { Type } from '@sinclair/typebox';
import { EVENT_TYPES, TEST_EVENT, type EventDoc } from '../events/index.ts';
import { timestamp } from '../kernel/fields.ts';

/** The webhook endpoints' parameters and answers (docs/reference.md#events), for the API description. */

const time = Type.Union([timestamp(), Type.Null()]);
const EVENT = Type.Union([...EVENT_TYPES.map((t) => Type.Literal(t)), Type.Literal('*')]);

export const WEBHOOK_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'http or https' }),
    events: Type.Array(EVENT, { description: 'the event types it receives; ["*"]: all' }),
    secret: Type.String({ description: 'whsec_ + base64 of the signing key: in full only in the answer of add, masked elsewhere' }),
    created: timestamp(),
  },
  { $id: 'Webhook', description: 'A company’s webhook endpoint (Standard Webhooks signatures)' },
);

export const ATTEMPT_SCHEMA = Type.Object(
  {
    event_id: Type.String({ description: 'the webhook-id header, the same on every retry' }),
    type: Type.String(),
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the receiver’s answer; null: no answer' }),
    http_status: Type.Union([Type.Integer(), Type.Null()]),
    attempt: Type.Integer({ description: '0: queued, not tried yet' }),
    next_retry: time,
    state: Type.String({ description: 'pending, delivered or failed' }),
    error: Type.Union([Type.String(), Type.Null()]),
    started: time,
    duration_ms: Type.Union([Type.Integer(), Type.Null()]),
    delivery_id: Type.Integer(),
  },
  { $id: 'DeliveryAttempt', description: 'One delivery attempt of an event to a webhook' },
);

const ID = Type.Integer({ description: 'the webhook' });

export const WEBHOOK_DOCS = {
  add: {
    summary: 'Register a webhook for event types; the answer holds its secret, shown only here',
    input: Type.Object({ url: Type.String(), events: Type.Array(EVENT, { description: 'or a comma list' }) }),
    data: Type.Object({ webhook: WEBHOOK_SCHEMA }),
  },
  index: { summary: 'The caller’s company’s webhooks (secrets masked)', data: Type.Object({ webhooks: Type.Array(WEBHOOK_SCHEMA) }) },
  delete: { summary: 'Delete a webhook', path: { id: ID }, data: Type.Object({ webhook: WEBHOOK_SCHEMA }) },
  deliveries: {
    summary: 'Recent delivery attempts of a webhook, newest first',
    path: { id: ID },
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    }),
    data: Type.Object({ webhook: WEBHOOK_SCHEMA, deliveries: Type.Array(ATTEMPT_SCHEMA) }),
  },
  test: {
    summary: 'Send a test event (webhook.test) to this webhook now',
    path: { id: ID },
    data: Type.Object({ webhook: WEBHOOK_SCHEMA, event: Type.Object({ id: Type.String(), type: Type.Literal('webhook.test') }) }),
  },
};

/** The test event (webhooks/manage.ts sendTestEvent), for the API description. */
export const WEBHOOK_EVENT_DOCS = {
  [TEST_EVENT]: {
    summary: 'A test event, sent by the "send test event" action (POST /webhooks/test/{id}.json).',
    recipients: 'the one webhook it was sent to, whatever types it subscribes to.',
    data: Type.Object({
      webhook: Type.Integer({ description: 'the webhook’s id' }),
      url: Type.String({ description: 'the webhook’s URL' }),
      message: Type.String(),
    }),
  },
} satisfies Record<typeof TEST_EVENT, EventDoc>;
