import { EVENT_TYPES } from '../events/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import type { Translate } from '../kernel/i18n.ts';
import type { Answer } from '../kernel/outcome.ts';
import { readId, readPageWindow } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { ConfirmAction, DataTable, Pager, PostButton, text, type Column } from '../kernel/ui.tsx';
import type { presentAttempt, presentWebhook } from './fields.ts';

/**
 * The company's settings page for webhooks (routes.tsx): the list with add, delete and "send
 * test event", and each webhook's delivery log. They render the same data as the JSON answers.
 */

type Webhook = ReturnType<typeof presentWebhook>;
type Attempt = ReturnType<typeof presentAttempt>;

const INDEX = '/webhooks/index';

/** A webhook's event types as the list shows them: `*` in words. */
const eventsText = (events: string[], t: Translate) => events.map((e) => (e === '*' ? t('wh.all') : e)).join(', ');

/** GET /webhooks/index: the list and the add form. */
export function webhooksPage(outcome: Answer<{ webhooks: Webhook[] }>, ctx: Ctx<Caller>): Page {
  const t = ctx.t;
  const hooks = outcome.kind === 'ok' ? outcome.data.webhooks : [];
  const csrf = ctx.reply.generateCsrf();
  const columns: Column<Webhook>[] = [
    { label: t('wh.col.url'), cell: (w) => <code>{w.url}</code> },
    { label: t('wh.col.events'), cell: (w) => eventsText(w.events, t) },
    { label: t('wh.col.secret'), cell: (w) => <code>{w.secret}</code> },
    { label: t('wh.col.created'), cell: (w) => text(w.created) },
    {
      label: t('wh.col.actions'),
      cell: (w) => (
        <span class="actions">
          <a href={`/webhooks/deliveries/${w.id}`}>{t('wh.deliveries')}</a>{' '}
          <PostButton action={`/webhooks/test/${w.id}`} label={t('wh.test')} csrf={csrf} variant="secondary" />{' '}
          <ConfirmAction
            action={`/webhooks/delete/${w.id}`}
            label={t('wh.delete')}
            question={t('wh.delete.question', { url: w.url })}
            confirmLabel={t('wh.delete.confirm')}
            csrf={csrf}
            variant="danger"
            testId="delete-webhook"
          />
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
          {/* Each checkbox inside its own label, the name beside it on the same line (label.check). */}
          <fieldset class="checks" data-testid="webhook-events">
            <legend>{t('wh.events')}</legend>
            <label class="check">
              <input type="checkbox" name="events[]" value="*" checked />
              <span>{t('wh.all')}</span>
            </label>
            {EVENT_TYPES.map((type) => (
              <label class="check">
                <input type="checkbox" name="events[]" value={type} />
                <code>{type}</code>
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
          <code>{w.url}</code> · {eventsText(w.events, t)}
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
    // The one wording of a failed connection is a sentence: it wraps instead of widening the table
    // (so it fits at 1366 px, no region to scroll).
    { label: t('wh.col.error'), cell: (a) => <span class="wrap-text">{text(a.error)}</span>, wrap: true },
  ];
  const href = (page: number, limit = paging.limit) =>
    `/webhooks/deliveries/${webhook.id}?${new URLSearchParams({ page: String(page), limit: String(limit) })}`;
  return {
    title: t('wh.log.title', { id: webhook.id }),
    body: (
      <section>
        <p>
          <a href={INDEX}>{t('wh.back')}</a>
        </p>
        <h1>{t('wh.log.title', { id: webhook.id })}</h1>
        <p>
          <code>{webhook.url}</code> · {eventsText(webhook.events, t)}
        </p>
        <PostButton action={`/webhooks/test/${webhook.id}`} label={t('wh.test')} csrf={ctx.reply.generateCsrf()} variant="secondary" />
        <DataTable columns={columns} rows={deliveries} empty={t('wh.log.empty')} testId="webhook-deliveries" />
        <Pager
          page={paging.page}
          limit={paging.limit}
          count={deliveries.length}
          href={(page) => href(page)}
          sizeHref={(limit, page) => href(page, limit)}
          t={t}
        />
      </section>
    ),
  };
}
