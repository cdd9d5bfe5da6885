import type { Kysely } from 'kysely';
import { insertEvents } from './outbox.ts';
import { TEST_EVENT } from '../events/types.ts';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../kernel/context.ts';
import type { Clock } from '../kernel/time.ts';
import { checkWebhookUrl, parseWebhookUrl } from './address.ts';
import type { AddressRule } from '../config/webhooks.ts';
import type { WebhookInput } from './fields.ts';
import { newSecret } from './signing.ts';
import { enqueueDeliveries, findWebhook, insertWebhook, listWebhooks, lockRegistrations, type WebhookRow } from './store.ts';
import type { FailureCode } from '../kernel/errors.ts';

/** Per company; bounds the fan-out of one event and the dispatcher's work. */
export const MAX_WEBHOOKS = 20;

export type AddResult = { kind: 'ok'; webhook: WebhookRow } | { kind: 'invalid'; key: FailureCode; vars?: Record<string, string> };

/**
 * The receiver a URL delivers to, for telling two registrations apart: the address as the URL
 * parser writes it (host in lower case, default port dropped, `/` for an empty path), without
 * the fragment, which is never sent. Undefined when it is no webhook URL.
 */
export function receiverOf(url: string): string | undefined {
  const parsed = parseWebhookUrl(url);
  if (!parsed.ok) return undefined;
  parsed.url.hash = '';
  return parsed.url.href;
}

/** Why the company cannot register one more webhook for this receiver, if it cannot. */
function refusal(registered: WebhookRow[], receiver: string | undefined): AddResult | undefined {
  const twin = receiver === undefined ? undefined : registered.find((w) => receiverOf(w.url) === receiver);
  if (twin) return { kind: 'invalid', key: 'webhooks.url_duplicate', vars: { id: String(twin.id) } };
  if (registered.length >= MAX_WEBHOOKS) return { kind: 'invalid', key: 'webhooks.too_many', vars: { max: String(MAX_WEBHOOKS) } };
  return undefined;
}

/**
 * Registers a webhook for the caller's company; its URL must reach an address the rule allows. One
 * webhook per receiver and company: a second registration of the same address (as the URL
 * parser reads it) is refused, naming the first; the events of an address are changed by
 * deleting its webhook and adding it again. Checked before the address is resolved and again
 * under the company's registration lock, so two adds at once cannot both pass.
 */
export async function addWebhook(db: Kysely<DB>, clock: Clock, caller: Caller, input: WebhookInput, rule: AddressRule): Promise<AddResult> {
  if (input.kind === 'invalid') return input;
  const receiver = receiverOf(input.url);
  const early = refusal(await listWebhooks(db, caller.companyId), receiver);
  if (early) return early;
  const checked = await checkWebhookUrl(input.url, rule);
  if (!checked.ok) return { kind: 'invalid', key: `webhooks.${checked.reason}` };
  return db.transaction().execute(async (trx): Promise<AddResult> => {
    await lockRegistrations(trx, caller.companyId);
    const late = refusal(await listWebhooks(trx, caller.companyId), receiver);
    if (late) return late;
    const webhook = await insertWebhook(trx, {
      companyId: caller.companyId,
      userId: caller.userId,
      url: input.url,
      events: input.events,
      secret: newSecret(),
      now: clock.now(),
    });
    return { kind: 'ok', webhook };
  });
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
    const webhook = await findWebhook(trx, caller.companyId, webhookId, true);
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
