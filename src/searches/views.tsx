import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { DataTable, PostButton } from '../kernel/ui.tsx';
import { listLabel } from '../freights/index.ts';
import type { PresentedSearch } from './present.ts';
import type { NotificationView } from './notifications.ts';

/** Pages of saved searches and notifications; they render the JSON answers' data. */

/** `from DE-60 · around 50.11,8.68 (100 km) · media road`: the parameters, readable. */
export function describeParams(params: Record<string, string>, t: Ctx['t']): string {
  const parts = Object.entries(params).map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(' · ') : t('searches.everything');
}

export function searchesPage(ctx: Ctx<Caller>, searches: PresentedSearch[]): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  return {
    title: t('searches.title'),
    body: (
      <section>
        <h1>{t('searches.title')}</h1>
        <DataTable
          testId="saved-searches"
          empty={t('searches.none')}
          rows={searches}
          columns={[
            { label: t('searches.col.name'), cell: (s) => <a href={s.url}>{s.name}</a> },
            { label: t('searches.col.list'), cell: (s) => t(listLabel(s.filter)) },
            { label: t('searches.col.params'), cell: (s) => <span class="wrap-text">{describeParams(s.params, t)}</span> },
            { label: t('searches.col.alert'), cell: (s) => (s.alert ? t('searches.alert.on') : t('searches.alert.off')) },
            {
              label: '',
              cell: (s) => (
                <span class="toolbar">
                  <PostButton
                    action={`/searches/edit/${s.id}`}
                    label={s.alert ? t('searches.alert.disable') : t('searches.alert.enable')}
                    csrf={csrf}
                    fields={{ alert: s.alert ? '0' : '1' }}
                    variant="secondary"
                  />
                  <PostButton action={`/searches/delete/${s.id}`} label={t('searches.delete')} csrf={csrf} variant="danger" />
                </span>
              ),
            },
          ]}
        />
      </section>
    ),
  };
}

export function notificationsPage(ctx: Ctx<Caller>, data: { notifications: NotificationView[]; unread: number }): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  return {
    title: t('notifications.title'),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t('notifications.title')}</h1>
          <span class="spacer" />
          {data.unread > 0 && (
            <PostButton action="/notifications/read" label={t('notifications.read_all')} csrf={csrf} variant="secondary" />
          )}
          <a href="/searches/index">{t('nav.searches')}</a>
        </div>
        <DataTable
          testId="notifications"
          empty={t('notifications.none')}
          rows={data.notifications}
          columns={[
            {
              label: t('notifications.col.created'),
              cell: (n) => [n.created, n.read ? null : <span class="badge open">{t('notifications.new')}</span>],
            },
            {
              label: t('notifications.col.search'),
              cell: (n) => ('url' in n.search && n.search.url ? <a href={n.search.url}>{n.search.name}</a> : n.search.name),
            },
            {
              label: t('notifications.col.freight'),
              cell: (n) =>
                n.route ? (
                  <a href={`/notifications/open/${n.id}`}>{`${n.route.f_from} → ${n.route.f_to} · ${n.route.display_id}`}</a>
                ) : (
                  <span class="muted">{t('notifications.gone')}</span>
                ),
            },
            { label: t('fv.col.weight'), cell: (n) => n.route?.weight ?? '–', numeric: true },
            { label: t('fv.col.etd'), cell: (n) => n.route?.f_etd ?? '–' },
          ]}
        />
      </section>
    ),
  };
}
