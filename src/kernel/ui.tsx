import type { ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { CsrfField, LIST_TARGET, PageScopeContext } from './html.tsx';
import { translator, type Translate } from './i18n.ts';
import { DEFAULT_LIMIT, isOneOf, MAX_LIMIT } from './params.ts';

/**
 * Building blocks of the HTML pages, so every module's views look alike. Everything is
 * rendered on the server; values are escaped by Preact.
 */

/** A value as a table cell or fact shows it: nothing (null, undefined, empty text) is a dash. */
export const text = (v: unknown) => (v === null || v === undefined || v === '' ? '–' : String(v));

export interface Column<R> {
  /**
   * The header. An empty label (an action column) gets "Actions" for screen readers, so no
   * header is empty (axe-core `empty-table-header`); `hideLabel` shows a given one to them only.
   */
  label: string;
  /** The label is for screen readers only (a column of buttons or checkboxes); cards on a phone show none. */
  hideLabel?: boolean;
  /** Cell content for a row. */
  cell: (row: R) => ComponentChildren;
  numeric?: boolean;
  /** The cell may wrap (routes, windows); other cells keep one line at the desk. */
  wrap?: boolean;
  /** On a phone this cell heads its card (the route of a freight). */
  lead?: boolean;
  /** On a phone, in a row the table's `brief` marks, this cell stays on one line beside the lead; the others hide. */
  brief?: boolean;
  /** When set, the header links to this sort key. */
  sortHref?: string;
  /** The list is sorted by this column: `aria-sort` and an arrow on its header. */
  sorted?: 'ascending' | 'descending';
}

/**
 * Columns written for rows of type R, for a table whose rows arrive as `unknown` (a list another
 * module serves, e.g. the tours of enlist filter 53): a row that is not an R shows empty cells.
 */
export function columnsFor<R>(is: (row: unknown) => row is R, columns: Column<R>[]): Column<unknown>[] {
  return columns.map((c) => ({ ...c, cell: (row: unknown) => (is(row) ? c.cell(row) : null) }));
}

/**
 * A table; on a phone (CSS) each row becomes a card whose cells carry their column's label
 * (`data-label`), so no table is wider than the screen. `caption` names it for screen readers.
 * The page's list (`skipTarget`, or the first table under `Tabs`) takes the second skip link:
 * its rows carry the id `list`, so the next Tab after the skip link is in the first row.
 */
export function DataTable<R>({
  columns,
  rows,
  empty,
  testId,
  caption,
  skipTarget,
  rowKey,
  rowClass,
  brief,
}: {
  columns: Column<R>[];
  rows: R[];
  empty: string;
  testId?: string;
  caption?: string;
  skipTarget?: boolean;
  /** A row's identity (`data-key`): the live board's script (public/app.js) tells new rows from known ones by it. */
  rowKey?: (row: R) => string | number | undefined;
  /** A row's class (a load the user has seen reads muted: `seen`). */
  rowClass?: (row: R) => string | undefined;
  /**
   * A row with nothing to read but its lead and its `brief` cells (a month without awards): on a
   * phone one line instead of a card of dashes, so the rows that say something come sooner.
   */
  brief?: (row: R) => boolean;
}) {
  const scope = useContext(PageScopeContext);
  const t = scope.t ?? translator('eng');
  const target = (skipTarget || scope.tabs) && !scope.list;
  if (target) scope.list = true;
  scope.tabs = false;
  return (
    <div class="table-wrap cards">
      <table class="grid" data-testid={testId}>
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th class={c.numeric ? 'num' : undefined} aria-sort={c.sortHref ? (c.sorted ?? 'none') : undefined}>
                {c.sortHref ? (
                  <a href={c.sortHref}>
                    {c.label}
                    {c.sorted ? (c.sorted === 'ascending' ? ' ▲' : ' ▼') : null}
                  </a>
                ) : c.hideLabel || !c.label ? (
                  <span class="visually-hidden">{c.label || t('ui.col.actions')}</span>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody id={target ? LIST_TARGET : undefined} tabindex={target ? -1 : undefined}>
          {rows.length === 0 ? (
            <tr>
              <td class="empty" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr data-key={rowKey?.(r)} class={[rowClass?.(r), brief?.(r) ? 'brief' : ''].filter(Boolean).join(' ') || undefined}>
                {columns.map((c) => (
                  <td
                    class={
                      [c.numeric ? 'num' : '', c.wrap ? 'wrap' : '', c.lead ? 'lead' : '', c.brief ? 'brief' : '']
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                    data-label={(!c.hideLabel && c.label) || undefined}
                  >
                    {cellValue(c.cell(r))}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A cell's content as one element. On a phone a cell is a grid of two columns, its label and
 * its value: content of several nodes (a window "day – day", a link and a note) would become
 * several grid items and wrap into the label's column. Empty stays empty (`td:empty` hides it).
 */
function cellValue(content: unknown) {
  if (content === null || content === undefined || content === '' || content === false) return null;
  if (Array.isArray(content) && content.length === 0) return null;
  return <div class="cell">{content}</div>;
}

export interface Tab {
  href: string;
  label: string;
  active?: boolean;
  /** Starts a new labelled group of tabs. */
  group?: string;
}

/**
 * Tabs in labelled groups (a tab with `group` starts one). Only the active tab's group shows
 * its tabs, under a row of group links, so a phone shows the list after two short rows.
 */
export function Tabs({ tabs, label }: { tabs: Tab[]; label?: string }) {
  // The table after the tabs is the list they switch: the page's content (DataTable, skip link).
  useContext(PageScopeContext).tabs = true;
  const groups: { label?: string; tabs: Tab[] }[] = [];
  for (const tab of tabs) {
    if (tab.group !== undefined || groups.length === 0) groups.push({ label: tab.group, tabs: [] });
    groups[groups.length - 1]!.tabs.push(tab);
  }
  const current = groups.find((g) => g.tabs.some((t) => t.active)) ?? groups[0];
  return (
    <nav class="tabs" aria-label={label}>
      {groups.length > 1 && (
        <div class="tab-groups">
          {groups.map((g) => (
            <a href={g.tabs[0]!.href} class={g === current ? 'active' : undefined} aria-current={g === current ? 'true' : undefined}>
              {g.label}
            </a>
          ))}
        </div>
      )}
      <div class="tab-row">
        {current?.tabs.map((t) => (
          <a href={t.href} class={t.active ? 'active' : undefined} aria-current={t.active ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </div>
    </nav>
  );
}

/** Previous/next links: the contract returns no total, the last page is the first short one. */
/** The page sizes a list page offers (docs/reference.md#the-api caps `limit` at 100; 20 is the default). */
export const PAGE_SIZES = [DEFAULT_LIMIT, 50, MAX_LIMIT] as const;

/**
 * Previous and next page; with `sizeHref`, the page sizes as links (no script needed: the size is
 * the URL's `limit`), each to the page of the new size that holds the first row shown now.
 */
export function Pager({
  page,
  limit,
  count,
  href,
  sizeHref,
  t,
}: {
  page: number;
  limit: number;
  count: number;
  href: (page: number) => string;
  /** the URL of the list with another page size on the given page */
  sizeHref?: (limit: number, page: number) => string;
  t: Translate;
}) {
  const first = (page - 1) * limit;
  return (
    <div class="pager">
      {page > 1 ? <a href={href(page - 1)}>{t('pager.prev')}</a> : <span class="muted">{t('pager.prev')}</span>}
      <span class="muted">
        {t('pager.page')} {page}
      </span>
      {count >= limit ? <a href={href(page + 1)}>{t('pager.next')}</a> : <span class="muted">{t('pager.next')}</span>}
      {sizeHref && (
        <span class="page-size" data-testid="page-size">
          <span class="muted">{t('pager.size')}</span>
          {PAGE_SIZES.map((n) =>
            n === limit ? (
              <strong aria-current="true">{n}</strong>
            ) : (
              <a href={sizeHref(n, Math.floor(first / n) + 1)} aria-label={t('pager.size.choose', { count: n })}>
                {n}
              </a>
            ),
          )}
        </span>
      )}
    </div>
  );
}

/** The states a badge names in words (`status.<state>` in the kernel's catalogue): freights', bids', milk-run shipments'. */
export const BADGE_STATES = [
  'draft',
  'open',
  'pending',
  'taken',
  'expired',
  'revoked',
  'closed',
  'archived',
  'accepted',
  'waiting',
  'selected',
  'deselected',
  'follow_up',
  'dispatched',
  'running',
  'delivered',
] as const;

/** A state as a coloured word; with `t` in the reader's language (`status.<value>`), an unknown one as it is. */
export function Badge({ value, t }: { value: string | null | undefined; t?: Translate }) {
  if (!value) return null;
  return <span class={`badge ${value}`}>{t && isOneOf(BADGE_STATES, value) ? t(`status.${value}`) : value}</span>;
}

export function Facts({ items }: { items: [string, ComponentChildren][] }) {
  return <dl class="facts">{items.map(([k, v]) => [<dt>{k}</dt>, <dd>{v ?? '–'}</dd>])}</dl>;
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
export function PostButton({
  action,
  label,
  csrf,
  fields,
  variant,
}: {
  action: string;
  label: string;
  csrf: string;
  fields?: Record<string, string>;
  variant?: 'secondary' | 'danger';
}) {
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

/**
 * A binding action with a confirmation step and no script: the button opens a box that says
 * what will happen, and only its second button posts (`<details>`, works without JavaScript).
 */
export function ConfirmAction({
  action,
  label,
  question,
  confirmLabel,
  csrf,
  fields,
  variant,
  testId,
}: {
  action: string;
  label: string;
  question: ComponentChildren;
  confirmLabel: string;
  csrf: string;
  fields?: Record<string, string>;
  variant?: 'secondary' | 'danger';
  testId?: string;
}) {
  return (
    <details class="confirm" data-testid={testId}>
      <summary class={`button${variant ? ` ${variant}` : ''}`}>{label}</summary>
      <div class="confirm-box">
        <p>{question}</p>
        <PostButton action={action} label={confirmLabel} csrf={csrf} fields={fields} variant={variant} />
      </div>
    </details>
  );
}

/** A labelled form field with its hint and its problem (shown next to it, announced, in the reader's language). */
export function Field({
  id,
  label,
  hint,
  error,
  required,
  requiredLabel,
  children,
}: {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string;
  required?: boolean;
  requiredLabel?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>
        {label}
        {required && (
          <span class="required" title={requiredLabel}>
            {' *'}
          </span>
        )}
      </label>
      {children}
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <span class="field-error" id={`${id}-error`} role="alert" data-error-for={id}>
        {error ?? ''}
      </span>
    </div>
  );
}
