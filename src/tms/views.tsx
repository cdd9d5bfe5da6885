import { formatDay, formatNumber } from '../kernel/locale.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import type { Translate } from '../kernel/i18n.ts';
import type { Answer } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { columnsFor, DataTable, Facts, PostButton, text, type Column } from '../kernel/ui.tsx';
import { LIST, listPath } from '../freights/index.ts';
import type { TourShipment, TourView } from './lists.ts';

/**
 * HTML pages of TMS tours (routes.ts). The tours list itself is the freights enlist page of
 * filter 53 (its columns come from `tourColumns` here); this module adds the form that plans a
 * tour from won orders (list 51), the tour page with its edit form, and the form posts'
 * redirects.
 */

type TourAnswer = Answer<{ tour: TourView }>;

export const TOURS_LIST = listPath(LIST.tmsTours);
const tourPath = (id: number | string) => `/tours/view/${id}`;
const totalKg = (tour: TourView) => tour.routes.reduce((sum, r) => sum + (typeof r.weight === 'number' ? r.weight : 0), 0);

/** A row of the tours list is a tour (presentTours). */
const isTour = (row: unknown): row is TourView => typeof row === 'object' && row !== null && 'route_ids' in row;

/** The columns of the tours list (enlist filter 53, rendered by the freights module's page, whose rows are untyped). */
export function tourColumns(t: Translate, language = 'eng'): Column<unknown>[] {
  return columnsFor(isTour, [
    { label: t('tmv.col.id'), cell: (r) => <a href={tourPath(r.id)}>{String(r.id)}</a> },
    { label: t('tmv.col.name'), cell: (r) => <a href={tourPath(r.id)}>{text(r.name)}</a> },
    { label: t('tmv.col.date'), cell: (r) => formatDay(r.date, language) || '–' },
    { label: t('tmv.col.orders'), cell: (r) => String(r.routes.length), numeric: true },
    { label: t('tmv.col.weight'), cell: (r) => formatNumber(totalKg(r), language), numeric: true },
  ]);
}

/** Shipments (won orders) as a table; `pick` adds a checkbox per row named route_ids[]. */
function shipmentColumns(t: Translate, pick: boolean, language = 'eng'): Column<TourShipment>[] {
  const columns: Column<TourShipment>[] = [
    { label: t('tmv.col.freight'), cell: (s) => <a href={`/freights/view/${s.id}`}>{String(s.id)}</a> },
    { label: t('tmv.col.from'), cell: (s) => text(s.from) },
    { label: t('tmv.col.to'), cell: (s) => text(s.to) },
    { label: t('tmv.col.weight'), cell: (s) => formatNumber(s.weight, language) || '–', numeric: true },
    { label: t('tmv.col.capacity'), cell: (s) => text(s.capacity), numeric: true },
  ];
  if (pick)
    columns.unshift({
      label: '',
      cell: (s) => <input type="checkbox" name="route_ids[]" value={String(s.id)} aria-label={`${t('tmv.col.freight')} ${s.id}`} />,
    });
  return columns;
}

/** GET /tours/add (HTML only): name, date and the won orders on no tour to pick. */
export function tourFormPage(ctx: Ctx<Caller>, orders: TourShipment[]): Page {
  const t = ctx.t;
  return {
    title: t('tmv.plan'),
    body: (
      <section>
        <p>
          <a href={TOURS_LIST}>{t('tmv.back')}</a>
        </p>
        <h1>{t('tmv.plan')}</h1>
        <form class="stack" method="post" action="/tours/add">
          <CsrfField token={ctx.reply.generateCsrf()} />
          <div class="form-grid panel">
            <label>
              {t('tmv.name')}
              <input name="name" required maxLength={200} />
            </label>
            <label>
              {t('tmv.date')}
              <input name="date" type="date" />
              <span class="hint">{t('tmv.date.hint')}</span>
            </label>
          </div>
          <h2>{t('tmv.orders')}</h2>
          <DataTable columns={shipmentColumns(t, true, ctx.language)} rows={orders} empty={t('tmv.no_orders')} testId="won-orders" />
          <div>
            <button type="submit">{t('tmv.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

/** POST /tours/add: to the tours list; a refusal back to the form. */
export function tourAdded(outcome: TourAnswer, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: '/tours/add', ok: false, message: outcome.message };
  const tour = outcome.data.tour;
  return { redirect: TOURS_LIST, message: ctx.t('tmv.planned', { name: tour.name }) };
}

/** GET /tours/view/{id}: facts, the orders in tour order, the edit form and delete. */
export function tourPage(ctx: Ctx<Caller>, tour: TourView, orders: TourShipment[]): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const ids = tour.route_ids.map(String).join(', ');
  return {
    title: `${t('tmv.col.id')} ${text(tour.name)}`,
    body: (
      <section>
        <p>
          <a href={TOURS_LIST}>{t('tmv.back')}</a> · <a href="/tours/add">{t('tmv.plan')}</a>
        </p>
        <div class="toolbar">
          <h1>
            {text(tour.name)} <span class="muted">#{String(tour.id)}</span>
          </h1>
          <span class="spacer" />
          <PostButton action={`/tours/delete/${tour.id}`} label={t('tmv.delete')} csrf={csrf} variant="danger" />
        </div>
        <div class="columns">
          <div class="panel">
            <h2>{t('tmv.details')}</h2>
            <Facts
              items={[
                [t('tmv.col.date'), text(tour.date)],
                [t('tmv.col.orders'), String(tour.routes.length)],
                [t('tmv.col.weight'), String(totalKg(tour))],
                [t('tmv.created'), text(tour.created)],
                [t('tmv.modified'), text(tour.modified)],
              ]}
            />
          </div>
          <div class="panel">
            <h2>{t('tmv.edit')}</h2>
            <form class="stack" method="post" action={`/tours/edit/${tour.id}`}>
              <CsrfField token={csrf} />
              <label>
                {t('tmv.name')}
                <input name="name" required maxLength={200} value={String(tour.name ?? '')} />
              </label>
              <label>
                {t('tmv.date')}
                <input name="date" type="date" value={tour.date ? String(tour.date) : ''} />
              </label>
              <label>
                {t('tmv.route_ids')}
                <input name="route_ids" value={ids} />
                <span class="hint">{t('tmv.route_ids.hint')}</span>
              </label>
              <div>
                <button type="submit">{t('tmv.update')}</button>
              </div>
            </form>
          </div>
        </div>
        <h2>{t('tmv.on_tour')}</h2>
        <DataTable columns={shipmentColumns(t, false, ctx.language)} rows={tour.routes} empty={t('tmv.no_routes')} testId="tour-routes" />
        <h2>{t('tmv.orders')}</h2>
        <DataTable columns={shipmentColumns(t, false, ctx.language)} rows={orders} empty={t('tmv.no_orders')} testId="won-orders" />
      </section>
    ),
  };
}

/** POST /tours/edit/{id}: back to the tour page with a flash either way. */
export function tourEdited(outcome: TourAnswer, ctx: Ctx<Caller>): PageResult {
  const id = readId(ctx.path.id);
  const to = id === undefined ? TOURS_LIST : tourPath(id);
  if (outcome.kind === 'error') return { redirect: to, ok: false, message: outcome.message };
  return { redirect: to, message: ctx.t('tmv.saved') };
}

/** POST /tours/delete/{id}: to the tours list. */
export function tourDeleted(outcome: Answer<{ tour: { id: number } }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: TOURS_LIST, ok: false, message: outcome.message };
  return { redirect: TOURS_LIST, message: ctx.t('tmv.deleted') };
}
