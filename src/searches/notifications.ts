import { presentMany, visibleFreights, withPieces, type FreightView, type ReadContext } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';
import { presentSearch, type PresentedSearch } from './present.ts';
import { mergedReasons, notificationsOf, type NotificationRow } from './store.ts';

/** What notifications are presented with beside their rows: the freights as the user may see them now, and the searches as saved now. */
export interface NotificationParts {
  routes: Map<number, FreightView>;
  searches: Map<number, PresentedSearch>;
  vehicles: Map<number, unknown>;
  /** the further reasons merged into each shown notification (one alert per load), oldest first */
  merged: Map<number, NotificationRow[]>;
  /** the tenders of invitations as the user may see them now (by id) */
  tenders: Map<number, unknown>;
}

/**
 * The tenders of invitations as the user may see them now (by id; one it may no longer see is left
 * out): the tenders module's reader, passed in by app.ts (tenders is above searches).
 */
export type TenderReader = (rc: ReadContext, ids: readonly number[]) => Promise<Map<number, unknown>>;

/** The readers of what notifications name beside freights and searches, passed in by app.ts. */
export interface NotificationReaders {
  readVehicles?: VehicleReader;
  readTenders?: TenderReader;
}

/**
 * The vehicle offers of notifications as the user may see them now (by id; an offer it may not
 * see is left out): the vehicles module's reader, passed in by app.ts (vehicles is above searches).
 */
export type VehicleReader = (rc: ReadContext, ids: readonly number[]) => Promise<Map<number, unknown>>;

/** Reads the parts of `rows` (three statements whatever their number, four with vehicle offers). */
export async function readNotificationParts(
  rc: ReadContext,
  rows: readonly NotificationRow[],
  readers: NotificationReaders = {},
): Promise<NotificationParts> {
  const freightIds = [...new Set(rows.flatMap((r) => (r.freight_id === null ? [] : [r.freight_id])))];
  const tenderIds = [...new Set(rows.flatMap((r) => (r.tender_id === null ? [] : [r.tender_id])))];
  const further = await mergedReasons(
    rc.db,
    rc.caller.userId,
    rows.filter((r) => r.type === 'freight.matched').map((r) => r.id),
  );
  const merged = new Map<number, NotificationRow[]>();
  for (const r of further) merged.set(r.merged_into!, [...(merged.get(r.merged_into!) ?? []), r]);
  const every = [...rows, ...further];
  const searchIds = [...new Set(every.map((r) => r.search_id).filter((id): id is number => id !== null))];
  const vehicleIds = [...new Set(every.map((r) => r.vehicle_id).filter((id): id is number => id !== null))];
  const [visible, searches, vehicles, tenders] = await Promise.all([
    visibleFreights(rc.db, rc.clock.now(), rc.caller.companyId, freightIds),
    searchIds.length
      ? rc.db.selectFrom('saved_searches').selectAll().where('id', 'in', searchIds).where('user_id', '=', rc.caller.userId).execute()
      : [],
    vehicleIds.length && readers.readVehicles ? readers.readVehicles(rc, vehicleIds) : new Map<number, unknown>(),
    tenderIds.length && readers.readTenders ? readers.readTenders(rc, tenderIds) : new Map<number, unknown>(),
  ]);
  const presented = presentMany(await withPieces(rc.db, visible), rc);
  return {
    routes: new Map(visible.map((v, i) => [v.row.id, presented[i]!])),
    searches: new Map(searches.map((s) => [s.id, presentSearch(s, rc.clock)])),
    vehicles,
    merged,
    tenders,
  };
}

/** One reason of a notification: the saved search that matched, or the vehicle offer the freight fits. */
function reasonOf(n: NotificationRow, parts: NotificationParts) {
  return n.vehicle_id !== null
    ? { vehicle: parts.vehicles.get(n.vehicle_id) ?? null, vehicle_id: n.vehicle_id }
    : {
        search: (n.search_id !== null && parts.searches.get(n.search_id)) || { id: null, name: n.search_name },
        search_id: n.search_id,
      };
}

/**
 * Notifications as `data.notifications`: newest first, each with the search that matched (as
 * saved now; `id` null once deleted) and the freight as the user may see it now (`route`, null
 * once it is no longer visible: a match reveals nothing the lists would not). A `freight.matched`
 * is one per load and user: `matched_by` names every reason (saved search or vehicle offer),
 * and `search` / `vehicle` the first of each kind (docs/reference.md#load-search, #vehicles).
 */
export function presentNotifications(rows: readonly NotificationRow[], parts: NotificationParts, clock: Clock) {
  return rows.map((n) => {
    // A tender's invitation names the tender (docs/reference.md#tenders), no freight.
    if (n.tender_id !== null) {
      return {
        id: n.id,
        type: n.type,
        created: clock.format(n.created),
        read: n.read_at ? 1 : 0,
        read_at: clock.format(n.read_at),
        tender: parts.tenders.get(n.tender_id) ?? null,
        tender_id: n.tender_id,
        route: null,
        route_id: null,
      };
    }
    const reasons = [n, ...(parts.merged.get(n.id) ?? [])];
    const firstSearch = reasons.find((r) => r.vehicle_id === null);
    const firstVehicle = reasons.find((r) => r.vehicle_id !== null);
    return {
      id: n.id,
      type: n.type,
      created: clock.format(n.created),
      read: n.read_at ? 1 : 0,
      read_at: clock.format(n.read_at),
      // A vehicle offer's notification names the offer instead of a search (docs/reference.md#vehicles).
      ...(firstSearch ? reasonOf(firstSearch, parts) : {}),
      ...(firstVehicle ? reasonOf(firstVehicle, parts) : {}),
      ...(n.type === 'freight.matched' ? { matched_by: reasons.map((r) => reasonOf(r, parts)) } : {}),
      route: (n.freight_id !== null && parts.routes.get(n.freight_id)) || null,
      route_id: n.freight_id,
    };
  });
}

/** A notification as `data.notifications` holds it. */
export type NotificationView = ReturnType<typeof presentNotifications>[number];

/** Notifications read for the caller and presented. */
export async function notificationViews(
  rc: ReadContext,
  rows: NotificationRow[],
  readers: NotificationReaders = {},
): Promise<NotificationView[]> {
  return presentNotifications(rows, await readNotificationParts(rc, rows, readers), rc.clock);
}

export async function listNotifications(
  rc: ReadContext,
  options: { limit: number; offset: number; unreadOnly: boolean },
  readers: NotificationReaders = {},
) {
  return notificationViews(rc, await notificationsOf(rc.db, rc.caller.userId, options), readers);
}
