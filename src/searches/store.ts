import { sql, type Insertable, type Selectable, type SqlBool } from 'kysely';
import { MAX_RADIUS_KM, placeKeys } from '../market/index.ts';
import { greatCircleKmSql } from '../places/index.ts';
import { notBlockedBySql } from '../accounts/index.ts';
import type { Db } from '../db/schema.ts';
import type { NotificationsTable, SavedSearchesTable } from './tables.ts';
import { VISIBILITY, type FreightRow } from '../freights/index.ts';

/** SQL of saved searches and notifications; every query is scoped to the caller's user. */

export type SavedSearchRow = Selectable<SavedSearchesTable>;
export type NotificationRow = Selectable<NotificationsTable>;

export interface NewSavedSearch {
  userId: number;
  companyId: number;
  name: string;
  filterId: number;
  params: Record<string, string>;
  alert: boolean;
}

export async function countSearches(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSearch(db: Db, now: Date, s: NewSavedSearch): Promise<SavedSearchRow> {
  return db
    .insertInto('saved_searches')
    .values({
      user_id: s.userId,
      company_id: s.companyId,
      name: s.name,
      filter_id: s.filterId,
      params: JSON.stringify(s.params),
      alert: s.alert,
      created: now,
      modified: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's saved search of the same list with the same parameters (in any order), if any: a second one is refused. */
export async function sameSearch(
  db: Db,
  userId: number,
  filterId: number,
  params: Record<string, string>,
): Promise<SavedSearchRow | undefined> {
  const key = (p: Record<string, string>) => JSON.stringify(Object.entries(p).sort(([a], [b]) => a.localeCompare(b)));
  const rows = await db.selectFrom('saved_searches').selectAll().where('user_id', '=', userId).where('filter_id', '=', filterId).execute();
  const wanted = key(params);
  return rows.find((r) => key(typeof r.params === 'string' ? JSON.parse(r.params) : r.params) === wanted);
}

export async function searchesOf(db: Db, userId: number): Promise<SavedSearchRow[]> {
  return db.selectFrom('saved_searches').selectAll().where('user_id', '=', userId).orderBy('name').orderBy('id').execute();
}

/** One of the user's saved searches (another user's: undefined). */
export async function searchOf(db: Db, userId: number, id: number): Promise<SavedSearchRow | undefined> {
  return db.selectFrom('saved_searches').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function updateSearch(
  db: Db,
  userId: number,
  id: number,
  now: Date,
  values: Partial<Pick<NewSavedSearch, 'name' | 'filterId' | 'params' | 'alert'>>,
): Promise<SavedSearchRow | undefined> {
  return db
    .updateTable('saved_searches')
    .set({
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.filterId !== undefined ? { filter_id: values.filterId } : {}),
      ...(values.params !== undefined ? { params: JSON.stringify(values.params) } : {}),
      ...(values.alert !== undefined ? { alert: values.alert } : {}),
      modified: now,
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteSearch(db: Db, userId: number, id: number): Promise<SavedSearchRow | undefined> {
  return db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

/**
 * The origin side of a search could match the freight: one of its patterns is one the freight's
 * origin matches, or it has none. Of those without patterns, a circle around a point (migration
 * 0130's numbers) is asked only when the freight's coordinates lie in it (a radius search measures
 * a freight with coordinates by them, market nearSql; the latitude band reads the index, 1 km of
 * slack for rounding); a search without one, or around an airport, stays a candidate.
 */
function fromSideCouldMatch(freight: Pick<FreightRow, 'from_code' | 'from_country' | 'from_latitude' | 'from_longitude'>) {
  const keys = sql<SqlBool>`from_keys && ${placeKeys(freight.from_code, freight.from_country)}::text[]`;
  if (freight.from_latitude === null || freight.from_longitude === null) return sql<SqlBool>`(from_keys is null or ${keys})`;
  const lat = Number(freight.from_latitude);
  const lon = Number(freight.from_longitude);
  const band = MAX_RADIUS_KM / 111 + 0.1;
  const km = greatCircleKmSql(
    { latitude: sql`from_near_lat`, longitude: sql`from_near_lon` },
    { latitude: sql`${lat}`, longitude: sql`${lon}` },
  );
  return sql<SqlBool>`(${keys} or (from_keys is null and (from_near_lat is null or (from_near_lat between ${lat - band}::float8 and ${lat + band}::float8
    and ${km} <= coalesce(from_near_km, ${MAX_RADIUS_KM}::float8) + 1))))`;
}

/**
 * The alerting searches of companies other than the owner that the freight's visibility admits
 * (docs/reference.md#freights: >= 0 everyone, -2 the whitelist, -1 nobody else) and whose place patterns
 * could match it: on each side no pattern, or one of the patterns its place matches (market
 * placeKeys; GIN indexes of migration 0130). The caller matches these exactly.
 */
export async function alertingSearches(
  db: Db,
  freight: Pick<
    FreightRow,
    'company_id' | 'visibility' | 'whitelist' | 'from_code' | 'from_country' | 'from_latitude' | 'from_longitude' | 'to_code' | 'to_country'
  >,
): Promise<SavedSearchRow[]> {
  if (freight.visibility === VISIBILITY.ownCompany || freight.visibility < VISIBILITY.whitelist) return [];
  if (freight.visibility === VISIBILITY.whitelist && !freight.whitelist.length) return [];
  return (
    db
      .selectFrom('saved_searches')
      .selectAll()
      .where('alert', '=', true)
      .where('company_id', '<>', freight.company_id)
      // A company that blocked the freight's company hears nothing of its freights (docs/reference.md#trust).
      .where(notBlockedBySql(sql<number>`saved_searches.company_id`, sql`${freight.company_id}::integer`))
      .$if(freight.visibility === VISIBILITY.whitelist, (q) => q.where('company_id', 'in', freight.whitelist))
      .where(fromSideCouldMatch(freight))
      .where(sql<SqlBool>`(to_keys is null or to_keys && ${placeKeys(freight.to_code, freight.to_country)}::text[])`)
      .orderBy('id')
      .execute()
  );
}

/**
 * Writes notifications once each: a row that its unique index already holds (a saved search's:
 * one per user and freight; a vehicle offer's: one per user, freight, offer and type) is
 * skipped. Answers those written.
 */
async function insertOnce(db: Db, rows: Insertable<NotificationsTable>[], vehicle: boolean): Promise<NotificationRow[]> {
  if (!rows.length) return [];
  return db
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) =>
      vehicle
        ? oc.columns(['user_id', 'freight_id', 'vehicle_id', 'type']).where('vehicle_id', 'is not', null).doNothing()
        : oc.columns(['user_id', 'freight_id']).where('vehicle_id', 'is', null).doNothing(),
    )
    .returningAll()
    .execute();
}

/** Notifications for users (one per user and freight); answers those written (not already there). */
export function insertNotifications(
  db: Db,
  rows: Array<{ userId: number; searchId: number; searchName: string; freightId: number; created: Date }>,
): Promise<NotificationRow[]> {
  return insertOnce(
    db,
    rows.map((r) => ({
      user_id: r.userId,
      type: 'freight.matched',
      search_id: r.searchId,
      search_name: r.searchName,
      freight_id: r.freightId,
      created: r.created,
    })),
    false,
  );
}

/** What a vehicle offer's match or invitation writes (docs/reference.md#vehicles): one per user, freight and offer. */
export type VehicleNotificationType = 'freight.matched' | 'vehicle.matched' | 'freight.invited';

/**
 * Notifications of vehicle offers (the vehicles module calls this): one per user, freight, offer
 * and type; answers those written (not already there).
 */
export function insertVehicleNotifications(
  db: Db,
  rows: Array<{ userId: number; type: VehicleNotificationType; freightId: number; vehicleId: number; created: Date }>,
): Promise<NotificationRow[]> {
  return insertOnce(
    db,
    rows.map((r) => ({
      user_id: r.userId,
      type: r.type,
      search_id: null,
      search_name: '',
      freight_id: r.freightId,
      vehicle_id: r.vehicleId,
      created: r.created,
    })),
    true,
  );
}

/**
 * A tender's invitation (docs/reference.md#tenders): one `tender.published` notification per user
 * of the invited companies, once each (notifications_user_tender_idx); answers those written.
 */
export async function insertTenderNotifications(
  db: Db,
  rows: Array<{ userId: number; tenderId: number; tenderName: string; created: Date }>,
): Promise<number> {
  if (!rows.length) return 0;
  const written = await db
    .insertInto('notifications')
    .values(
      rows.map((r) => ({
        user_id: r.userId,
        type: 'tender.published',
        search_id: null,
        search_name: r.tenderName.slice(0, 200),
        freight_id: null,
        tender_id: r.tenderId,
        created: r.created,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'tender_id']).where('tender_id', 'is not', null).doNothing())
    .returning('id')
    .execute();
  return written.length;
}

/**
 * The freights whose owners were told of a match with the offer: the freight named in every
 * `vehicle.matched` notification of the offer (its owner was told) and in every `freight.matched`
 * one (the offer's company was told, the freight's owner got `vehicle.matched` as an event), at
 * most `limit`, by id (notifications_vehicle_idx, migration 0220).
 */
export async function freightsToldOfVehicle(db: Db, vehicleId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('freight_id')
    .distinct()
    .where('vehicle_id', '=', vehicleId)
    .where('type', 'in', ['vehicle.matched', 'freight.matched'])
    .orderBy('freight_id')
    .limit(limit)
    .execute();
  return rows.flatMap((r) => (r.freight_id === null ? [] : [r.freight_id]));
}

export async function notificationsOf(
  db: Db,
  userId: number,
  options: { limit: number; offset: number; unreadOnly: boolean },
): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('merged_into', 'is', null)
    .$if(options.unreadOnly, (q) => q.where('read_at', 'is', null))
    .orderBy('id', 'desc')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where('merged_into', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks one notification (with its further reasons) or, without id, all of the user's read;
 * answers the shown rows changed.
 */
export async function markRead(db: Db, userId: number, now: Date, id?: number): Promise<NotificationRow[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(id !== undefined, (q) => q.where((eb) => eb.or([eb('id', '=', id!), eb('merged_into', '=', id!)])))
    .returningAll()
    .execute();
  return rows.filter((r) => r.merged_into === null);
}

/** A notification the user is shown (a further reason merged into another is not one). */
export async function findNotification(db: Db, userId: number, id: number): Promise<NotificationRow | undefined> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('merged_into', 'is', null)
    .executeTakeFirst();
}

/**
 * One alert per load per user (docs/choices.md, "One alert per load"): of a user's
 * `freight.matched` notifications of the freight (a saved search's, each fitting vehicle
 * offer's), the first is shown and every later one becomes a further reason of it. Called after
 * each writer of such notifications, in the alert's transaction; a second call changes nothing.
 * A reason that arrives unread makes the shown notification unread again.
 */
export async function mergeMatchNotifications(db: Db, freightId: number): Promise<void> {
  const merged = await mergeMatchSql(freightId).execute(db);
  const shown = [...new Set(merged.rows.map((r) => Number(r.merged_into)))];
  if (shown.length) await db.updateTable('notifications').set({ read_at: null }).where('id', 'in', shown).execute();
}

/**
 * SQL: the merge of one freight's `freight.matched` reasons (mergeMatchNotifications); it reads the
 * freight's rows by notifications_freight_idx (migration 0570), never the whole table: it runs in
 * every alert's transaction (tests/alerts/merge-at-scale.test.ts explains it).
 */
export function mergeMatchSql(freightId: number) {
  return sql<{ merged_into: number }>`
    update notifications n set merged_into = p.first
      from (select user_id, min(id) as first from notifications
             where freight_id = ${freightId} and type = 'freight.matched'
             group by user_id having count(*) > 1) p
     where n.freight_id = ${freightId} and n.type = 'freight.matched' and n.user_id = p.user_id
       and n.id <> p.first and n.merged_into is null
    returning n.merged_into`;
}

/** The further reasons merged into these shown notifications, oldest first. */
export async function mergedReasons(db: Db, userId: number, shownIds: readonly number[]): Promise<NotificationRow[]> {
  if (!shownIds.length) return [];
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('merged_into', 'in', [...shownIds])
    .orderBy('id')
    .execute();
}

/**
 * Of `freight.matched` alerts (freight, user, what matched: a saved search or a vehicle offer),
 * those merged into another notification of the same load: the mail of such a reason is not sent,
 * the shown notification's mail names it (src/mail/fanout.ts).
 */
export async function mergedMatchKeys(db: Db, freightIds: readonly number[]): Promise<Set<string>> {
  if (!freightIds.length) return new Set();
  const rows = await mergedMatchQuery(db, freightIds).execute();
  return new Set(rows.map((r) => matchKey(r.freight_id!, r.user_id, r.search_id, r.vehicle_id)));
}

/** The statement of mergedMatchKeys (by notifications_freight_idx, migration 0570). */
export function mergedMatchQuery(db: Db, freightIds: readonly number[]) {
  return db
    .selectFrom('notifications')
    .select(['freight_id', 'user_id', 'search_id', 'vehicle_id'])
    .where('freight_id', 'in', [...new Set(freightIds)])
    .where('type', '=', 'freight.matched')
    .where('merged_into', 'is not', null);
}

/** The key of one `freight.matched` reason: `freight:user:s<search>` or `freight:user:v<offer>`. */
export function matchKey(freightId: number, userId: number, searchId: number | null, vehicleId: number | null): string {
  return `${freightId}:${userId}:${vehicleId !== null ? `v${vehicleId}` : `s${searchId}`}`;
}

/** The users of these saved searches (mail: an alert's mail goes to the search's user). */
export async function searchUsers(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('saved_searches')
    .select(['id', 'user_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.user_id]));
}

/** Every `freight.matched` reason (shown and merged) of these users' loads, by `freight:user`, oldest first (the mail names them). */
export async function matchReasonsOf(
  db: Db,
  pairs: ReadonlyArray<{ userId: number; freightId: number }>,
): Promise<Map<string, NotificationRow[]>> {
  const found = new Map<string, NotificationRow[]>();
  if (!pairs.length) return found;
  const rows = await db
    .selectFrom('notifications')
    .selectAll()
    .where('type', '=', 'freight.matched')
    .where('freight_id', 'in', [...new Set(pairs.map((p) => p.freightId))])
    .where('user_id', 'in', [...new Set(pairs.map((p) => p.userId))])
    .orderBy('id')
    .execute();
  for (const r of rows) found.set(`${r.freight_id}:${r.user_id}`, [...(found.get(`${r.freight_id}:${r.user_id}`) ?? []), r]);
  return found;
}
