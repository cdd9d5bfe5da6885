import type { ComponentChildren } from 'preact';
import { CsrfField } from './html.tsx';
import type { Translate } from './i18n.ts';

/**
 * Building blocks of the HTML pages, so every module's views look alike. Everything is
 * rendered on the server; values are escaped by Preact.
 */

export interface Column<R> {
  label: string;
  /** Cell content for a row. */
  cell: (row: R) => ComponentChildren;
  numeric?: boolean;
  /** When set, the header links to this sort key. */
  sortHref?: string;
}

export function DataTable<R>({ columns, rows, empty, testId }: { columns: Column<R>[]; rows: R[]; empty: string; testId?: string }) {
  return (
    <div class="table-wrap">
      <table class="grid" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th class={c.numeric ? 'num' : undefined}>{c.sortHref ? <a href={c.sortHref}>{c.label}</a> : c.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td class="empty" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr>
                {columns.map((c) => (
                  <td class={c.numeric ? 'num' : undefined}>{c.cell(r)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export interface Tab {
  href: string;
  label: string;
  active?: boolean;
  /** Starts a new labelled group of tabs. */
  group?: string;
}

export function Tabs({ tabs }: { tabs: Tab[] }) {
  return (
    <nav class="tabs">
      {tabs.map((t) => [
        t.group ? <span class="group">{t.group}</span> : null,
        <a href={t.href} class={t.active ? 'active' : undefined} aria-current={t.active ? 'page' : undefined}>
          {t.label}
        </a>,
      ])}
    </nav>
  );
}

/** Previous/next links: the contract returns no total, the last page is the first short one. */
export function Pager({ page, limit, count, href, t }: { page: number; limit: number; count: number; href: (page: number) => string; t: Translate }) {
  return (
    <div class="pager">
      {page > 1 ? <a href={href(page - 1)}>{t('pager.prev')}</a> : <span class="muted">{t('pager.prev')}</span>}
      <span class="muted">
        {t('pager.page')} {page}
      </span>
      {count >= limit ? <a href={href(page + 1)}>{t('pager.next')}</a> : <span class="muted">{t('pager.next')}</span>}
    </div>
  );
}

export function Badge({ value }: { value: string | null | undefined }) {
  return value ? <span class={`badge ${value}`}>{value}</span> : null;
}

export function Facts({ items }: { items: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {items.map(([k, v]) => [<dt>{k}</dt>, <dd>{v ?? '–'}</dd>])}
    </dl>
  );
}

/** A select of fixed options (value, label), the current value selected. */
export function Select({ name, value, options }: { name: string; value: string; options: [string, string][] }) {
  return (
    <select name={name}>
      {options.map(([v, label]) => (
        <option value={v} selected={v === value}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** A one-button form that posts to an action URL with the CSRF token and optional fields. */
export function PostButton({ action, label, csrf, fields, variant }: { action: string; label: string; csrf: string; fields?: Record<string, string>; variant?: 'secondary' | 'danger' }) {
  return (
    <form class="inline" method="post" action={action}>
      <CsrfField token={csrf} />
      {Object.entries(fields ?? {}).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <button type="submit" class={variant}>
        {label}
      </button>
    </form>
  );
}
