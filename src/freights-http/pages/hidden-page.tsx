import type { Caller, Ctx } from '../../kernel/context.ts';
import type { PageWindow } from '../../kernel/params.ts';
import type { PageResult } from '../../kernel/route.tsx';
import { DataTable, Pager, columnsFor } from '../../kernel/ui.tsx';
import { LIST, listPath, seenAmong } from '../../freights/index.ts';
import { freightListColumns, isListedFreight } from './list-columns.tsx';
import type { ListPageParts } from './list-page.tsx';

/**
 * GET /freights/hidden as a page (issue 47, item 11): the market's loads the user hides, with the
 * market list's columns and a button on each row that shows it again. The user's alone: its
 * colleagues' hides are theirs.
 */
export async function hiddenPage(
  routes: unknown[],
  paging: PageWindow,
  ctx: Ctx<Caller>,
  parts: Pick<ListPageParts, 'rowMarks'>,
): Promise<PageResult> {
  const t = ctx.t;
  const rows = routes.filter(isListedFreight);
  const seen = await seenAmong(
    ctx.db,
    ctx.caller.userId,
    rows.map((r) => r.id),
  );
  const noSort = { href: () => '', sorted: () => undefined };
  const columns = await freightListColumns(rows, LIST.market, ctx, noSort, parts.rowMarks, { seen, unhide: true });
  // Without sort links: the hidden loads come newest first.
  const plain = columns.map(({ sortHref: _h, sorted: _s, ...c }) => c);
  const href = (page: number, limit = paging.limit) => `/freights/hidden?page=${page}&limit=${limit}`;
  return {
    title: t('fv.hidden.title'),
    body: (
      <section data-testid="hidden-loads">
        <div class="toolbar">
          <h1>{t('fv.hidden.title')}</h1>
          <span class="spacer" />
          <a href={listPath(LIST.market)}>{t('fv.hidden.back')}</a>
        </div>
        <p class="muted">{t('fv.hidden.intro')}</p>
        <DataTable
          columns={columnsFor(isListedFreight, plain)}
          rows={routes}
          empty={t('fv.hidden.empty')}
          testId="freight-list"
          rowKey={(r) => (isListedFreight(r) ? r.id : undefined)}
          rowClass={(r) => (isListedFreight(r) && seen.has(r.id) ? 'seen' : undefined)}
        />
        <Pager page={paging.page} limit={paging.limit} count={routes.length} href={(page) => href(page)} t={t} />
      </section>
    ),
  };
}
