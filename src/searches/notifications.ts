import { presentMany, visibleFreights, type ReadContext } from '../freights/index.ts';
import { presentSearch } from './present.ts';
import { notificationsOf, type NotificationRow } from './store.ts';

/** A notification as `data.notifications` holds it. */
export type NotificationView = Awaited<ReturnType<typeof presentNotifications>>[number];

/**
 * Notifications as `data.notifications`: newest first, each with the search that matched (as
 * saved now; `id` null once deleted) and the freight as the user may see it now (`route`, null
 * once it is no longer visible: a match reveals nothing the lists would not).
 */
export async function presentNotifications(rc: ReadContext, rows: NotificationRow[]) {
  const now = rc.clock.now();
  const company = rc.caller.companyId;
  const freightIds = [...new Set(rows.map((r) => r.freight_id))];
  const searchIds = [...new Set(rows.map((r) => r.search_id).filter((id): id is number => id !== null))];
  const [visible, searches] = await Promise.all([
    visibleFreights(rc.db, now, company, freightIds),
    searchIds.length
      ? rc.db.selectFrom('saved_searches').selectAll().where('id', 'in', searchIds).where('user_id', '=', rc.caller.userId).execute()
      : [],
  ]);
  const presented = await presentMany(rc, visible);
  const routes = new Map(visible.map((v, i) => [v.row.id, presented[i]]));
  const searchById = new Map(searches.map((s) => [s.id, presentSearch(s, rc.clock)]));
  return rows.map((n) => ({
    id: n.id,
    type: n.type,
    created: rc.clock.format(n.created),
    read: n.read_at ? 1 : 0,
    read_at: rc.clock.format(n.read_at),
    search: (n.search_id !== null && searchById.get(n.search_id)) || { id: null, name: n.search_name },
    search_id: n.search_id,
    route: routes.get(n.freight_id) ?? null,
    route_id: n.freight_id,
  }));
}

export async function listNotifications(rc: ReadContext, options: { limit: number; offset: number; unreadOnly: boolean }) {
  return presentNotifications(rc, await notificationsOf(rc.db, rc.caller.userId, options));
}
