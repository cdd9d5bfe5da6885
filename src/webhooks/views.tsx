import { EVENT_TYPES } from '../events/types.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { addMessages } from '../kernel/i18n.ts';
import type { Answer } from '../kernel/outcome.ts';
import { readId, readPageWindow } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Pager, PostButton, text, type Column } from '../kernel/ui.tsx';
import type { presentAttempt, presentWebhook } from './fields.ts';

/**
 * The company's settings page for webhooks (routes.tsx): the list with add, delete and "send
 * test event", and each webhook's delivery log. They render the same data as the JSON answers.
 */

addMessages('eng', {
  'nav.settings': 'Settings',
  'wh.title': 'Company settings · Webhooks',
  'wh.intro':
    'Events of your company (freights, bids, bookings, shipment status) are sent as signed HTTP POST requests (Standard Webhooks) to the addresses below. Failed deliveries are retried for more than a day.',
  'wh.empty': 'No webhooks yet.',
  'wh.col.url': 'Address',
  'wh.col.events': 'Events',
  'wh.col.secret': 'Signing secret',
  'wh.col.created': 'Added',
  'wh.col.actions': 'Actions',
  'wh.deliveries': 'Deliveries',
  'wh.test': 'Send test event',
  'wh.delete': 'Delete',
  'wh.add': 'Add a webhook',
  'wh.url': 'Receiver URL (http or https)',
  'wh.events': 'Events to send',
  'wh.all': 'All events (*)',
  'wh.save': 'Add webhook',
  'wh.added': 'Webhook added',
  'wh.secret.once':
    'This is the signing secret of the new webhook. It is shown only now: store it in your receiver to verify the webhook-signature header.',
  'wh.back': '‹ All webhooks',
  'wh.deleted': 'Webhook deleted.',
  'wh.test.sent': 'Test event {id} queued; it is delivered within seconds.',
  'wh.log.title': 'Deliveries of webhook {id}',
  'wh.log.empty': 'Nothing delivered yet.',
  'wh.col.event': 'Event',
  'wh.col.type': 'Type',
  'wh.col.attempt': 'Attempt',
  'wh.col.status': 'HTTP status',
  'wh.col.state': 'State',
  'wh.col.error': 'Error',
  'wh.col.started': 'Sent',
  'wh.col.next': 'Next retry',
  'wh.state.pending': 'pending',
  'wh.state.delivered': 'delivered',
  'wh.state.failed': 'failed',
  'wh.queued': 'queued',
});

addMessages('deu', {
  'nav.settings': 'Einstellungen',
  'wh.title': 'Firmeneinstellungen · Webhooks',
  'wh.intro':
    'Ereignisse Ihrer Firma (Frachten, Gebote, Buchungen, Sendungsstatus) werden als signierte HTTP-POST-Anfragen (Standard Webhooks) an die folgenden Adressen gesendet. Fehlgeschlagene Zustellungen werden über mehr als einen Tag wiederholt.',
  'wh.empty': 'Noch keine Webhooks.',
  'wh.col.url': 'Adresse',
  'wh.col.events': 'Ereignisse',
  'wh.col.secret': 'Signaturschlüssel',
  'wh.col.created': 'Angelegt',
  'wh.col.actions': 'Aktionen',
  'wh.deliveries': 'Zustellungen',
  'wh.test': 'Testereignis senden',
  'wh.delete': 'Löschen',
  'wh.add': 'Webhook hinzufügen',
  'wh.url': 'Empfänger-URL (http oder https)',
  'wh.events': 'Zu sendende Ereignisse',
  'wh.all': 'Alle Ereignisse (*)',
  'wh.save': 'Webhook hinzufügen',
  'wh.added': 'Webhook hinzugefügt',
  'wh.secret.once':
    'Dies ist der Signaturschlüssel des neuen Webhooks. Er wird nur jetzt angezeigt: Hinterlegen Sie ihn in Ihrem Empfänger, um den Header webhook-signature zu prüfen.',
  'wh.back': '‹ Alle Webhooks',
  'wh.deleted': 'Webhook gelöscht.',
  'wh.test.sent': 'Testereignis {id} eingereiht; es wird in wenigen Sekunden zugestellt.',
  'wh.log.title': 'Zustellungen von Webhook {id}',
  'wh.log.empty': 'Noch nichts zugestellt.',
  'wh.col.event': 'Ereignis',
  'wh.col.type': 'Typ',
  'wh.col.attempt': 'Versuch',
  'wh.col.status': 'HTTP-Status',
  'wh.col.state': 'Zustand',
  'wh.col.error': 'Fehler',
  'wh.col.started': 'Gesendet',
  'wh.col.next': 'Nächster Versuch',
  'wh.state.pending': 'ausstehend',
  'wh.state.delivered': 'zugestellt',
  'wh.state.failed': 'fehlgeschlagen',
  'wh.queued': 'eingereiht',
});

type Webhook = ReturnType<typeof presentWebhook>;
type Attempt = ReturnType<typeof presentAttempt>;

const INDEX = '/webhooks/index';

/** GET /webhooks/index: the list and the add form. */
export function webhooksPage(outcome: Answer<{ webhooks: Webhook[] }>, ctx: Ctx<Caller>): Page {
  const t = ctx.t;
  const hooks = outcome.kind === 'ok' ? outcome.data.webhooks : [];
  const csrf = ctx.reply.generateCsrf();
  const columns: Column<Webhook>[] = [
    { label: t('wh.col.url'), cell: (w) => <code>{w.url}</code> },
    { label: t('wh.col.events'), cell: (w) => w.events.join(', ') },
    { label: t('wh.col.secret'), cell: (w) => <code>{w.secret}</code> },
    { label: t('wh.col.created'), cell: (w) => text(w.created) },
    {
      label: t('wh.col.actions'),
      cell: (w) => (
        <span class="actions">
          <a href={`/webhooks/deliveries/${w.id}`}>{t('wh.deliveries')}</a>{' '}
          <PostButton action={`/webhooks/test/${w.id}`} label={t('wh.test')} csrf={csrf} variant="secondary" />{' '}
          <PostButton action={`/webhooks/delete/${w.id}`} label={t('wh.delete')} csrf={csrf} variant="danger" />
        </span>
      ),
    },
  ];
  return {
    title: t('wh.title'),
    body: (
      <section>
        <h1>{t('wh.title')}</h1>
        <p class="muted">{t('wh.intro')}</p>
        {outcome.kind === 'error' && <p class="flash error">{outcome.message}</p>}
        <DataTable columns={columns} rows={hooks} empty={t('wh.empty')} testId="webhooks" />
        <h2>{t('wh.add')}</h2>
        <form class="stack panel" method="post" action="/webhooks/add">
          <CsrfField token={csrf} />
          <label>
            {t('wh.url')}
            <input name="url" type="url" required maxLength={2000} placeholder="https://" />
          </label>
          <fieldset>
            <legend>{t('wh.events')}</legend>
            <label>
              <input type="checkbox" name="events[]" value="*" checked /> {t('wh.all')}
            </label>
            {EVENT_TYPES.map((type) => (
              <label>
                <input type="checkbox" name="events[]" value={type} /> <code>{type}</code>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit">{t('wh.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

/** POST /webhooks/add: the one page that shows the secret (no redirect: it must not travel in a cookie). */
export function webhookAddedPage(outcome: Answer<{ webhook: Webhook }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: INDEX, ok: false, message: outcome.message };
  const t = ctx.t;
  const w = outcome.data.webhook;
  return {
    title: t('wh.added'),
    body: (
      <section>
        <p>
          <a href={INDEX}>{t('wh.back')}</a>
        </p>
        <h1>{t('wh.added')}</h1>
        <p>
          <code>{w.url}</code> · {w.events.join(', ')}
        </p>
        <p>{t('wh.secret.once')}</p>
        <p class="panel">
          <code data-testid="webhook-secret">{w.secret}</code>
        </p>
      </section>
    ),
  };
}

export function deletedPage(_outcome: Answer, ctx: Ctx<Caller>): PageResult {
  return { redirect: INDEX, message: ctx.t('wh.deleted') };
}

export function testSentPage(outcome: Answer<{ event: { id: string } }>, ctx: Ctx<Caller>): PageResult {
  const id = readId(ctx.path.id);
  const event = outcome.kind === 'ok' ? outcome.data.event.id : '';
  return { redirect: id === undefined ? INDEX : `/webhooks/deliveries/${id}`, message: ctx.t('wh.test.sent', { id: event }) };
}

/** GET /webhooks/deliveries/{id}: the attempts, newest first. */
export function deliveriesPage(outcome: Answer<{ webhook: Webhook; deliveries: Attempt[] }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: INDEX, ok: false, message: outcome.message };
  const t = ctx.t;
  const { webhook, deliveries } = outcome.data;
  const paging = readPageWindow(ctx.params);
  const columns: Column<Attempt>[] = [
    { label: t('wh.col.event'), cell: (a) => <code>{a.event_id}</code> },
    { label: t('wh.col.type'), cell: (a) => a.type },
    { label: t('wh.col.attempt'), cell: (a) => (a.attempt === 0 ? t('wh.queued') : String(a.attempt)), numeric: true },
    { label: t('wh.col.status'), cell: (a) => text(a.http_status), numeric: true },
    { label: t('wh.col.state'), cell: (a) => t(`wh.state.${a.state}`) },
    { label: t('wh.col.started'), cell: (a) => text(a.started) },
    { label: t('wh.col.next'), cell: (a) => text(a.next_retry) },
    { label: t('wh.col.error'), cell: (a) => text(a.error) },
  ];
  const href = (page: number) =>
    `/webhooks/deliveries/${webhook.id}?${new URLSearchParams({ page: String(page), limit: String(paging.limit) })}`;
  return {
    title: t('wh.log.title', { id: webhook.id }),
    body: (
      <section>
        <p>
          <a href={INDEX}>{t('wh.back')}</a>
        </p>
        <h1>{t('wh.log.title', { id: webhook.id })}</h1>
        <p>
          <code>{webhook.url}</code> · {webhook.events.join(', ')}
        </p>
        <PostButton action={`/webhooks/test/${webhook.id}`} label={t('wh.test')} csrf={ctx.reply.generateCsrf()} variant="secondary" />
        <DataTable columns={columns} rows={deliveries} empty={t('wh.log.empty')} testId="webhook-deliveries" />
        <Pager page={paging.page} limit={paging.limit} count={deliveries.length} href={href} t={t} />
      </section>
    ),
  };
}
