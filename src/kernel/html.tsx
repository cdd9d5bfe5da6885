import { createContext, type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Caller } from './context.ts';
import type { MessageKey, Translate } from './i18n.ts';

/** A rendered page: title and body; the layout adds navigation, the flash message and assets. */
export interface Page {
  title: string;
  body: VNode;
}

export interface Flash {
  ok: boolean;
  message: string;
}

export interface LayoutProps {
  page: Page;
  caller: Caller | null;
  t: Translate;
  language: string;
  flash: Flash | null;
  csrf: () => string;
  /** The request path, to mark the current section in the navigation. */
  path: string;
  layout: Layout;
}

/** A section of the interface in the menu: the path prefix that marks it active, its link, its label key. */
export interface Section {
  prefix: string;
  href: string;
  label: MessageKey;
}

/**
 * What every page's frame links to, given by the composition root (app.ts): each module names
 * its own section and start page, so the kernel knows no module's paths.
 */
export interface Layout {
  /** The menu, in order. */
  sections: readonly Section[];
  /** Where "back to the start" leads (the not-found page). */
  home: string;
  /**
   * The live board's stream (src/live, docs/reference.md#live-board): on a logged-in page, public/app.js
   * listens to it and shows new rows, changed statuses and unread counts without a reload.
   */
  live?: string;
}

/**
 * What the page's building blocks (ui.tsx) tell the frame while the body renders, and what they
 * read from it: the reader's language (the hidden header of an action column) and whether the
 * page's content is a list, whose rows the second skip link leads to (`#list`).
 */
export interface PageScope {
  t?: Translate;
  /** The list's rows carry the id `list` (a DataTable claimed it). */
  list?: boolean;
  /** Tabs were rendered: the next table is the list they switch (the freight lists, the milk-run lists). */
  tabs?: boolean;
}

export const PageScopeContext = createContext<PageScope>({});

/** The id of the list's rows, the second skip link's target. */
export const LIST_TARGET = 'list';

/**
 * The page shell. Preact escapes every interpolated value; no inline script or style exists. The
 * main part is rendered first, so the skip links know whether the page holds a list.
 */
export function renderDocument(props: LayoutProps): string {
  const { page, caller, t, flash } = props;
  const scope: PageScope = { t };
  const content = renderToString(
    <PageScopeContext.Provider value={scope}>
      {flash && (
        <p class={flash.ok ? 'flash ok' : 'flash error'} role={flash.ok ? 'status' : 'alert'} data-testid="flash">
          {flash.message}
        </p>
      )}
      {page.body}
    </PageScopeContext.Provider>,
  );
  return (
    '<!doctype html>' +
    renderToString(
      <html lang={props.language === 'deu' ? 'de' : 'en'}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${page.title} · ${t('app.name')}`}</title>
          <link rel="stylesheet" href="/assets/app.css" />
          <script src="/assets/app.js" defer></script>
        </head>
        <body data-live={caller && props.layout.live ? props.layout.live : undefined}>
          {/* WCAG 2.4.1: past the menu to the page's heading, and on a list page past the search and
              the tabs to the list's first row. */}
          <a class="skip-link" href="#main">
            {t('nav.skip')}
          </a>
          {scope.list && (
            <a class="skip-link" href={`#${LIST_TARGET}`}>
              {t('nav.skip.list')}
            </a>
          )}
          <header class="topbar">
            <a class="brand" href="/">
              {t('app.name')}
            </a>
            {caller && (
              <nav class="sections" aria-label={t('nav.menu')}>
                {props.layout.sections.map(({ prefix, href, label }) => (
                  <a
                    href={href}
                    class={props.path.startsWith(prefix) ? 'active' : undefined}
                    aria-current={props.path.startsWith(prefix) ? 'page' : undefined}
                  >
                    {t(label)}
                  </a>
                ))}
              </nav>
            )}
            {caller && (
              <form class="whoami" method="post" action="/users/logout">
                {/* Alerts of saved searches; public/app.js adds the unread count (its word for screen readers from here). */}
                <a href="/notifications/index" class="notifications" data-notifications data-unread-label={t('nav.unread')}>
                  {t('nav.notifications')}
                </a>
                {/* Unread messages of the deal room (GET /messages/unread); public/app.js adds the count as above. */}
                <a href="/messages/unread" class="notifications messages" data-messages data-unread-label={t('nav.unread')}>
                  {t('nav.messages')}
                </a>
                <a href="/users/password" title={t('nav.account')} class="account">
                  <span class="who">{caller.realname || caller.email} · </span>
                  {caller.companyName}
                </a>
                <CsrfField token={props.csrf()} />
                <button type="submit" class="link">
                  {t('nav.logout')}
                </button>
              </form>
            )}
          </header>
          {/* Rendered above (escaped by Preact there). */}
          <main id="main" tabindex={-1} dangerouslySetInnerHTML={{ __html: content }} />
        </body>
      </html>,
    )
  );
}

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}
