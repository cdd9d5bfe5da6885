import { readPaging } from '../kernel/paging.ts';
import { fail, notFound, ok } from '../kernel/outcome.ts';
import { findById, offsetOf } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { presentAttempt, presentWebhook, readWebhookInput } from './fields.ts';
import { addWebhook, sendTestEvent } from './manage.ts';
import { WEBHOOK_DOCS } from './schema.ts';
import { deleteWebhook, deliveryLog, findWebhook, listWebhooks } from './store.ts';
import { deletedPage, deliveriesPage, testSentPage, webhookAddedPage, webhooksPage } from './views.tsx';

/** docs/reference.md#events: a company's webhooks (API and the settings page on the same paths). */
export function webhookEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/webhooks/add',
      doc: WEBHOOK_DOCS.add,
      async handle(ctx) {
        const result = await addWebhook(
          ctx.db,
          ctx.clock,
          ctx.caller,
          readWebhookInput(ctx.params),
          ctx.services.config.webhooks.addresses,
        );
        if (result.kind === 'invalid') return fail(ctx.t, result.key, result.vars);
        return ok({ webhook: presentWebhook(result.webhook, ctx.clock, true) });
      },
      page: webhookAddedPage,
    }),
    userEndpoint({
      method: 'GET',
      path: '/webhooks/index',
      doc: WEBHOOK_DOCS.index,
      async handle(ctx) {
        const rows = await listWebhooks(ctx.db, ctx.caller.companyId);
        return ok({ webhooks: rows.map((row) => presentWebhook(row, ctx.clock)) });
      },
      page: webhooksPage,
    }),
    userEndpoint({
      method: 'POST',
      path: '/webhooks/delete/:id',
      doc: WEBHOOK_DOCS.delete,
      async handle(ctx) {
        const row = await findById(ctx.path.id, (id) => deleteWebhook(ctx.db, ctx.caller.companyId, id));
        return row ? ok({ webhook: presentWebhook(row, ctx.clock) }) : notFound();
      },
      page: deletedPage,
    }),
    userEndpoint({
      method: 'GET',
      path: '/webhooks/deliveries/:id',
      doc: WEBHOOK_DOCS.deliveries,
      async handle(ctx) {
        const row = await findById(ctx.path.id, (id) => findWebhook(ctx.db, ctx.caller.companyId, id));
        if (!row) return notFound();
        const warnings: { field: string; reason: string }[] = [];
        const paging = readPaging(ctx.params, warnings);
        const log = await deliveryLog(ctx.db, row.id, { limit: paging.limit, offset: offsetOf(paging) });
        return ok(
          { webhook: presentWebhook(row, ctx.clock), deliveries: log.map((entry) => presentAttempt(entry, ctx.clock)) },
          warnings.length ? warnings : undefined,
        );
      },
      page: deliveriesPage,
    }),
    userEndpoint({
      method: 'POST',
      path: '/webhooks/test/:id',
      doc: WEBHOOK_DOCS.test,
      async handle(ctx) {
        const sent = await findById(ctx.path.id, (id) => sendTestEvent(ctx.db, ctx.clock, ctx.caller, id));
        return sent
          ? ok({ webhook: presentWebhook(sent.webhook, ctx.clock), event: { id: sent.eventId, type: 'webhook.test' } })
          : notFound();
      },
      page: testSentPage,
    }),
  ];
}

/** The settings (webhooks) in the menu. */
export const SETTINGS_SECTION = { prefix: '/webhooks', href: '/webhooks/index', label: 'nav.settings' } as const;
