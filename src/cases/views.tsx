import { formatNumber, formatStamp } from '../kernel/locale.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import type { Answer } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Facts, Pager, text, type Column } from '../kernel/ui.tsx';
import type { CaseLinkView, CaseView } from './present.ts';

/**
 * HTML pages of cases (routes.ts): the company's cases with the add form, and one case with
 * its linked shipments and the link form. They render `data.cases` / `data.case`.
 */

const casePath = (id: number | string) => `/cdr/cases/view/${id}`;

/** GET /cdr/cases/index: the company's cases, newest first, and the form to open one. */
export function casesPage(ctx: Ctx<Caller>, cases: CaseView[], paging: { page: number; limit: number }): Page {
  const t = ctx.t;
  const columns: Column<CaseView>[] = [
    { label: t('cv.col.id'), cell: (c) => <a href={casePath(c.id)}>{String(c.id)}</a> },
    { label: t('cv.col.name'), cell: (c) => <a href={casePath(c.id)}>{text(c.name)}</a> },
    { label: t('cv.col.links'), cell: (c) => String(c._links.length), numeric: true },
    { label: t('cv.col.created'), cell: (c) => formatStamp(c.created, ctx.language) || text(c.created) },
    { label: t('cv.col.modified'), cell: (c) => formatStamp(c.modified, ctx.language) || text(c.modified) },
  ];
  const href = (page: number, limit = paging.limit) =>
    `/cdr/cases/index?${new URLSearchParams({ page: String(page), limit: String(limit) })}`;
  return {
    title: t('cv.title'),
    body: (
      <section>
        <h1>{t('cv.title')}</h1>
        <DataTable columns={columns} rows={cases} empty={t('cv.empty')} testId="cases" />
        <Pager
          page={paging.page}
          limit={paging.limit}
          count={cases.length}
          href={(page) => href(page)}
          sizeHref={(limit, page) => href(page, limit)}
          t={t}
        />
        <h2>{t('cv.add')}</h2>
        <form class="inline panel" method="post" action="/cdr/cases/add">
          <CsrfField token={ctx.reply.generateCsrf()} />
          <label>
            {t('cv.name')}
            <input name="name" required maxLength={200} />
          </label>
          <button type="submit">{t('cv.save')}</button>
        </form>
      </section>
    ),
  };
}

/** POST /cdr/cases/add: to the new case; a refusal back to the index. */
export function caseAdded(outcome: Answer<{ case: CaseView }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: '/cdr/cases/index', ok: false, message: outcome.message };
  const c = outcome.data.case;
  return { redirect: casePath(c.id), message: ctx.t('cv.opened', { name: c.name }) };
}

/** GET /cdr/cases/view/{id}: facts, the linked shipments and the link form. */
export function casePage(ctx: Ctx<Caller>, c: CaseView): Page {
  const t = ctx.t;
  const me = ctx.caller;
  const columns: Column<CaseLinkView>[] = [
    {
      label: t('cv.col.shipment'),
      cell: (l) =>
        l.object ? <a href={`/freights/view/${l.object.id}`}>{String(l.object.id)}</a> : <span class="muted">{t('cv.invisible')}</span>,
    },
    { label: t('cv.col.from'), cell: (l) => text(l.object?.from) },
    { label: t('cv.col.to'), cell: (l) => text(l.object?.to) },
    { label: t('cv.col.weight'), cell: (l) => formatNumber(l.object?.weight, ctx.language) || '–', numeric: true },
    { label: t('cv.col.capacity'), cell: (l) => text(l.object?.capacity), numeric: true },
    { label: t('cv.col.linked'), cell: (l) => formatStamp(l.created, ctx.language) || text(l.created) },
  ];
  const author = c.author_user_id === me.userId ? me.realname || me.email : `#${c.author_user_id}`;
  return {
    title: `${t('cv.col.name')} ${c.id}: ${text(c.name)}`,
    body: (
      <section>
        <p>
          <a href="/cdr/cases/index">{t('cv.back')}</a>
        </p>
        <h1>
          {text(c.name)} <span class="muted">#{String(c.id)}</span>
        </h1>
        <div class="columns">
          <div class="panel">
            <h2>{t('cv.details')}</h2>
            <Facts
              items={[
                [t('cv.author'), author],
                [t('cv.col.created'), text(c.created)],
                [t('cv.col.modified'), text(c.modified)],
              ]}
            />
          </div>
          <div class="panel">
            <h2>{t('cv.link')}</h2>
            <form class="stack" method="post" action={`/cdr/cases/link/${c.id}`}>
              <CsrfField token={ctx.reply.generateCsrf()} />
              <label>
                {t('cv.route_id')}
                <input name="route_id" inputMode="numeric" required />
                <span class="hint">{t('cv.route_id.hint')}</span>
              </label>
              <div>
                <button type="submit">{t('cv.link.save')}</button>
              </div>
            </form>
          </div>
        </div>
        <h2>{t('cv.shipments')}</h2>
        <DataTable columns={columns} rows={c._links} empty={t('cv.no_links')} testId="case-links" />
      </section>
    ),
  };
}

/** POST /cdr/cases/link/{id}: back to the case page with a flash either way. */
export function linked(outcome: Answer, ctx: Ctx<Caller>): PageResult {
  const id = readId(ctx.path.id);
  const to = id === undefined ? '/cdr/cases/index' : casePath(id);
  if (outcome.kind === 'error') return { redirect: to, ok: false, message: outcome.message };
  return { redirect: to, message: ctx.t('cv.linked') };
}
