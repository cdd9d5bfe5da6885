import { sitePath } from '../kernel/format.ts';
import { isFreightList, LIST, listPath } from '../freights/index.ts';
import type { Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, type Answer, type Outcome, type Warning } from '../kernel/outcome.ts';
import {
  DEFAULT_LIMIT,
  findById,
  isRecord,
  MAX_LIMIT,
  parseJsonText,
  readFlag,
  readId,
  readInt,
  readIntWithin,
  readString,
  type Params,
} from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { countLists } from './counts.ts';
import { SEARCH_DOCS } from './schema.ts';
import { listNotifications, notificationViews, type TenderReader, type VehicleReader } from './notifications.ts';
import { presentSearch, searchUrl, type PresentedSearch } from './present.ts';
import {
  countSearches,
  deleteSearch,
  sameSearch,
  findNotification,
  insertSearch,
  markRead,
  searchesOf,
  unreadCount,
  updateSearch,
} from './store.ts';
import { notificationsPage, searchesPage } from './views.tsx';
import { normaliseSearchForm } from './form-input.ts';
import { problemsFromWarnings } from '../freights-http/index.ts';
import { readLoadSearch, searchToParams, SEARCH_PARAMS } from '../market/index.ts';

/**
 * Load search around the lists (docs/reference.md#load-search): counts per list, saved searches and the
 * notifications of their alerts. The search itself is src/freights/search.ts.
 */

export const MAX_SAVED_SEARCHES = 100;
const MAX_NAME = 200;
/** A saved search without a list searches the market (open requests). */
const DEFAULT_FILTER = LIST.market;

const withWarnings = (warnings: Warning[]) => (warnings.length ? warnings : undefined);
const rc = (ctx: Ctx) => ({ db: ctx.db, clock: ctx.clock, t: ctx.t, caller: ctx.caller });

/**
 * `params` of a saved search: an object of §7 parameters (JSON, or form keys `params[from]`), a
 * JSON text of one, or a query string (`from=DE&media=road`). Normalised as the lists read them;
 * unknown or unreadable entries are ignored with a warning.
 */
function readSavedParams(ctx: Ctx, raw: unknown, warnings: Warning[]): Record<string, string> | undefined {
  let source: unknown = raw;
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.length > 5000) return undefined;
    try {
      source = text.startsWith('{') ? parseJsonText(text) : Object.fromEntries(new URLSearchParams(text.replace(/^\?/, '')));
    } catch {
      return undefined;
    }
  }
  if (!isRecord(source)) return undefined;
  const known: Params = {};
  let count = 0;
  for (const [key, value] of Object.entries(source)) {
    if (++count > 50) break;
    if ((SEARCH_PARAMS as readonly string[]).includes(key)) known[key] = value;
    else warnings.push({ field: `params[${key.slice(0, 40)}]`, reason: 'not a search parameter' });
  }
  const inner: Warning[] = [];
  const search = readLoadSearch(known, ctx.clock.zone, inner);
  warnings.push(...inner.map((w) => ({ field: `params[${w.field}]`, reason: w.reason })));
  return searchToParams(search) as Record<string, string>;
}

function readName(raw: unknown): string | undefined {
  const name = readString(raw)?.trim();
  return name && name.length <= MAX_NAME ? name : undefined;
}

function readFilter(raw: unknown): number | undefined {
  const id = readInt(raw);
  return id !== undefined && isFreightList(id) ? id : undefined;
}

async function addSearch(ctx: Ctx): Promise<Outcome<{ search: PresentedSearch }>> {
  const warnings: Warning[] = [];
  const name = readName(ctx.params.name);
  if (!name) return fail(ctx.t, 'searches.name_required');
  const filterId = ctx.params.filter === undefined || ctx.params.filter === '' ? DEFAULT_FILTER : readFilter(ctx.params.filter);
  if (filterId === undefined) return fail(ctx.t, 'searches.filter_unknown');
  const params = readSavedParams(ctx, ctx.params.params, warnings);
  if (!params) return fail(ctx.t, 'searches.params_invalid');
  let alert = false;
  if (ctx.params.alert !== undefined && ctx.params.alert !== '') {
    const flag = readFlag(ctx.params.alert);
    if (flag === undefined) warnings.push({ field: 'alert', reason: 'not 0 or 1: 0 used' });
    alert = flag === 1;
  }
  // The same list and parameters saved twice would alert twice: refused, naming the one saved (issue 47, item 12).
  const same = await sameSearch(ctx.db, ctx.caller.userId, filterId, params);
  if (same) return fail(ctx.t, 'searches.duplicate', { name: same.name });
  if ((await countSearches(ctx.db, ctx.caller.userId)) >= MAX_SAVED_SEARCHES)
    return fail(ctx.t, 'searches.too_many', { max: MAX_SAVED_SEARCHES });
  const row = await insertSearch(ctx.db, ctx.clock.now(), {
    userId: ctx.caller.userId,
    companyId: ctx.caller.companyId,
    name,
    filterId,
    params,
    alert,
  });
  return ok({ search: presentSearch(row, ctx.clock) }, withWarnings(warnings));
}

async function editSearch(ctx: Ctx): Promise<Outcome<{ search: PresentedSearch }>> {
  const id = readId(ctx.path.id);
  if (!id) return notFound();
  const warnings: Warning[] = [];
  const values: Parameters<typeof updateSearch>[4] = {};
  if (ctx.params.name !== undefined) {
    const name = readName(ctx.params.name);
    if (!name) return fail(ctx.t, 'searches.name_required');
    values.name = name;
  }
  if (ctx.params.filter !== undefined) {
    const filterId = readFilter(ctx.params.filter);
    if (filterId === undefined) return fail(ctx.t, 'searches.filter_unknown');
    values.filterId = filterId;
  }
  if (ctx.params.params !== undefined) {
    const params = readSavedParams(ctx, ctx.params.params, warnings);
    if (!params) return fail(ctx.t, 'searches.params_invalid');
    values.params = params;
  }
  if (ctx.params.alert !== undefined) {
    const flag = readFlag(ctx.params.alert);
    if (flag === undefined) warnings.push({ field: 'alert', reason: 'not 0 or 1: unchanged' });
    else values.alert = flag === 1;
  }
  const row = await updateSearch(ctx.db, ctx.caller.userId, id, ctx.clock.now(), values);
  return row ? ok({ search: presentSearch(row, ctx.clock) }, withWarnings(warnings)) : notFound();
}

/** HTML forms come back to where they were sent from (a list page or the searches page). */
function back(fallback: string) {
  return (outcome: Answer, ctx: Ctx) => {
    const to = sitePath(readString(ctx.params.back));
    const target = to && /^\/(freights\/enlist|searches|notifications)\//.test(to) ? to : fallback;
    return { redirect: target, ok: outcome.kind === 'ok', message: outcome.kind === 'error' ? outcome.message : undefined };
  };
}

/** What the search endpoints take from modules above (app.ts): the vehicle offers and tenders that notifications name. */
export interface SearchParts {
  readVehicles?: VehicleReader;
  readTenders?: TenderReader;
}

export function searchEndpoints(parts: SearchParts = {}): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/freights/counts',
      doc: SEARCH_DOCS.counts,
      reads: 'replica',
      async handle(ctx) {
        const warnings: Warning[] = [];
        const search = readLoadSearch(ctx.params, ctx.clock.zone, warnings);
        return ok({ counts: await countLists(ctx.db, ctx.caller.companyId, ctx.clock.now(), search) }, withWarnings(warnings));
      },
      page: () => ({ redirect: listPath(LIST.market) }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/searches/add',
      doc: SEARCH_DOCS.add,
      handle: addSearch,
      page: (outcome, ctx) => {
        if (outcome.kind === 'error') return back('/searches/index')(outcome, ctx);
        const search = outcome.data.search;
        return { redirect: searchUrl(search.filter, search.params), message: ctx.t('searches.saved') };
      },
    }),
    userEndpoint({
      method: 'GET',
      path: '/searches/index',
      doc: SEARCH_DOCS.index,
      async handle(ctx) {
        const rows = await searchesOf(ctx.db, ctx.caller.userId);
        return ok({ searches: rows.map((r) => presentSearch(r, ctx.clock)) });
      },
      // `?edit=ID`: the page with that search's form open (a change without script).
      page: (outcome, ctx) => {
        const edit = readId(ctx.params.edit);
        return searchesPage(ctx, outcome.kind === 'ok' ? outcome.data.searches : [], edit ? { id: edit } : undefined);
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/searches/edit/:id',
      doc: SEARCH_DOCS.edit,
      // The searches page's form, typed in the user's language, read before the API's rules (form-input.ts).
      read: normaliseSearchForm,
      handle: editSearch,
      async page(outcome, ctx, form) {
        const done = {
          ...back('/searches/index')(outcome, ctx),
          message: outcome.kind === 'ok' ? ctx.t('searches.updated') : outcome.message,
        };
        if (!form) return done;
        // The form's own problems and the API's warnings, next to their fields; a clean change goes back to the list.
        const warnings = outcome.kind === 'ok' ? problemsFromWarnings(outcome.warnings, ctx.t) : {};
        if (outcome.kind === 'ok' && !Object.keys(form.problems).length && !Object.keys(warnings).length) return done;
        const rows = await searchesOf(ctx.db, ctx.caller.userId);
        return searchesPage(
          ctx,
          rows.map((r) => presentSearch(r, ctx.clock)),
          {
            id: readId(ctx.path.id) ?? 0,
            form,
            warnings,
            error: outcome.kind === 'error' ? outcome.message : undefined,
            saved: outcome.kind === 'ok',
          },
        );
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/searches/delete/:id',
      doc: SEARCH_DOCS.delete,
      async handle(ctx) {
        const row = await findById(ctx.path.id, (id) => deleteSearch(ctx.db, ctx.caller.userId, id));
        return row ? ok({ search: presentSearch(row, ctx.clock) }) : notFound();
      },
      page: (outcome, ctx) => ({
        ...back('/searches/index')(outcome, ctx),
        message: outcome.kind === 'ok' ? ctx.t('searches.deleted') : outcome.message,
      }),
    }),
    userEndpoint({
      method: 'GET',
      path: '/notifications/index',
      doc: SEARCH_DOCS.notifications,
      async handle(ctx) {
        const limit = readIntWithin(ctx.params.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        const page = readIntWithin(ctx.params.page, 1, 1, 100_000);
        const unreadOnly = readFlag(ctx.params.unread) === 1;
        const [notifications, unread] = await Promise.all([
          listNotifications(rc(ctx), { limit, offset: (page - 1) * limit, unreadOnly }, parts),
          unreadCount(ctx.db, ctx.caller.userId),
        ]);
        return ok({ notifications, unread });
      },
      page: (outcome, ctx) => notificationsPage(ctx, outcome.kind === 'ok' ? outcome.data : { notifications: [], unread: 0 }),
    }),
    userEndpoint({
      // The count for the page header (public/app.js).
      method: 'GET',
      path: '/notifications/unread',
      doc: SEARCH_DOCS.unread,
      async handle(ctx) {
        return ok({ unread: await unreadCount(ctx.db, ctx.caller.userId) });
      },
      page: () => ({ redirect: '/notifications/index' }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/notifications/read/:id',
      doc: SEARCH_DOCS.read,
      async handle(ctx) {
        const found = await findById(ctx.path.id, (id) => findNotification(ctx.db, ctx.caller.userId, id));
        if (!found) return notFound();
        const [changed] = await markRead(ctx.db, ctx.caller.userId, ctx.clock.now(), found.id);
        const [notification] = await notificationViews(rc(ctx), [changed ?? found], parts);
        return ok({ notification });
      },
      page: back('/notifications/index'),
    }),
    userEndpoint({
      method: 'POST',
      path: '/notifications/read',
      doc: SEARCH_DOCS.readAll,
      async handle(ctx) {
        const rows = await markRead(ctx.db, ctx.caller.userId, ctx.clock.now());
        return ok({ read: rows.length });
      },
      page: (outcome, ctx) => ({
        redirect: '/notifications/index',
        message: ctx.t('notifications.marked', { count: outcome.kind === 'ok' ? outcome.data.read : 0 }),
      }),
    }),
    userEndpoint({
      // A notification's link on the page: marks it read and opens the freight.
      method: 'GET',
      path: '/notifications/open/:id',
      json: false,
      async handle(ctx) {
        const found = await findById(ctx.path.id, (id) => findNotification(ctx.db, ctx.caller.userId, id));
        if (!found) return notFound();
        await markRead(ctx.db, ctx.caller.userId, ctx.clock.now(), found.id);
        return ok({ route_id: found.freight_id, tender_id: found.tender_id });
      },
      page: (outcome) =>
        outcome.kind === 'ok'
          ? {
              redirect:
                outcome.data.tender_id !== null ? `/tenders/view/${outcome.data.tender_id}` : `/freights/view/${outcome.data.route_id}`,
            }
          : { redirect: '/notifications/index', ok: false, message: outcome.message },
    }),
  ];
}
