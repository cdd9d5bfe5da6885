import type { Kysely } from 'kysely';
import { insertEvents } from './outbox.ts';
import { TEST_EVENT } from '../events/types.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { checkWebhookUrl } from './address.ts';
import type { WebhookInput } from './fields.ts';
import { newSecret } from './signing.ts';
import { countWebhooks, enqueueDeliveries, findWebhook, insertWebhook, type WebhookRow } from './store.ts';
import type { MessageKey } from '../kernel/i18n.ts';

/** Per company; bounds the fan-out of one event and the dispatcher's work. */
export const MAX_WEBHOOKS = 20;

export type AddResult = { kind: 'ok'; webhook: WebhookRow } | { kind: 'invalid'; key: MessageKey; vars?: Record<string, string> };

/** Registers a webhook for the caller's company; with `publicOnly` its URL must be public. */
export async function addWebhook(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  input: WebhookInput,
  publicOnly: boolean,
): Promise<AddResult> {
  if (input.kind === 'invalid') return input;
  if ((await countWebhooks(db, caller.companyId)) >= MAX_WEBHOOKS)
    return { kind: 'invalid', key: 'webhooks.too_many', vars: { max: String(MAX_WEBHOOKS) } };
  const checked = await checkWebhookUrl(input.url, publicOnly);
  if (!checked.ok) return { kind: 'invalid', key: `webhooks.${checked.reason}` };
  const webhook = await insertWebhook(db, {
    companyId: caller.companyId,
    userId: caller.userId,
    url: input.url,
    events: input.events,
    secret: newSecret(),
    now: clock.now(),
  });
  return { kind: 'ok', webhook };
}

/**
 * "Send test event": a `webhook.test` event for the caller's company, queued for this webhook
 * only (whatever it subscribes to). Undefined when the webhook is not the company's.
 */
export async function sendTestEvent(
  db: Kysely<DB>,
  clock: Clock,
  caller: Caller,
  webhookId: number,
): Promise<{ webhook: WebhookRow; eventId: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const webhook = await findWebhook(trx, caller.companyId, webhookId);
    if (!webhook) return undefined;
    const [event] = await insertEvents(trx, clock, TEST_EVENT, [
      {
        companyId: caller.companyId,
        freightId: null,
        data: { webhook: webhook.id, url: webhook.url, message: 'Test event from the freight exchange' },
      },
    ]);
    await enqueueDeliveries(trx, clock.now(), [{ webhookId: webhook.id, eventSeq: event!.seq }]);
    return { webhook, eventId: event!.id };
  });
}
