import './messages.ts';
import type { Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, redirect, type Outcome, type Warning } from '../kernel/outcome.ts';
import { readId, readInt, type Params } from '../kernel/params.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import { searchForFreight } from '../pricing/handover.ts';
import { bookingRequest } from './booking.ts';
import { parseFreight, readIds } from './fields.ts';
import { archiveFreight, publishFreight, revokeFreight, setDeliveryStatus, type TransitionResult } from './lifecycle.ts';
import { enlist, readPaging } from './lists.ts';
import { loadFreightForCaller } from './policy.ts';
import { editFreight, insertFreight, presentOne, type ReadContext } from './store.ts';
import { flightEndpoints, templateEndpoints } from './templates.ts';
import { addRefs, newFreightValues } from './create.ts';
import { trackingEndpoints } from '../tracking/routes.ts';
import { enlistPage, freightFormPage, freightPage, type FreightView } from './views.tsx';

/**
 * The freight endpoints of api.md (Freights) and decisions.md §4. Routes are thin: read the
 * path and parameters, call one function, turn its result into an outcome.
 */

const rc = (ctx: Ctx): ReadContext => ({ db: ctx.db, clock: ctx.clock, t: ctx.t, caller: ctx.caller });
const withWarnings = (warnings: Warning[]) => (warnings.length ? warnings : undefined);
const viewPath = (id: number) => `/freights/view/${id}`;

/** HTML rendering of an answer carrying `data.route`; the page names the companies the JSON gives as ids. */
async function routePage(outcome: Extract<Outcome, { kind: 'ok' | 'error' }>, ctx: Ctx): Promise<PageResult> {
  if (outcome.kind === 'error') return { redirect: '/freights/enlist/10', ok: false, message: outcome.message };
  const route = (outcome.data as { route: FreightView }).route;
  const ids = [route.winner, ...(Array.isArray(route._bids) ? route._bids.map((b: FreightView) => b.company) : [])].filter((id): id is number => typeof id === 'number');
  const rows = ids.length ? await ctx.db.selectFrom('companies').select(['id', 'name']).where('id', 'in', ids).execute() : [];
  return freightPage(route, ctx, new Map(rows.map((r) => [r.id, r.name])));
}

/** HTML form posts of the transitions land back on the freight page with a flash message. */
function backToFreight(outcome: Extract<Outcome, { kind: 'ok' | 'error' }>, ctx: Ctx): PageResult {
  const id = readId(ctx.path.id);
  return { redirect: id ? viewPath(id) : '/freights/enlist/10', ok: outcome.kind === 'ok', message: outcome.kind === 'error' ? outcome.message : undefined };
}

async function transitionOutcome(ctx: Ctx, result: TransitionResult): Promise<Outcome> {
  if (result.kind === 'not_found') return notFound();
  if (result.kind === 'refused') return fail(ctx.t(result.reason));
  const role = result.row.company_id === ctx.caller.companyId ? 'owner' : 'winner';
  return ok({ route: await presentOne(rc(ctx), result.row, role) });
}

async function view(ctx: Ctx): Promise<Outcome> {
  const id = readId(ctx.path.id);
  if (!id) return notFound();
  const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, id);
  if (!found) return notFound();
  return ok({ route: await presentOne(rc(ctx), found.row, found.role) });
}

/** `pricing_search_id` (api.md): the stored search's from, to, weight and pieces, under the body's own values. */
async function fromPricingSearch(ctx: Ctx, warnings: Warning[]): Promise<{ base: Params; refs: Record<string, unknown> }> {
  const raw = ctx.params.pricing_search_id;
  if (raw === undefined || raw === null || raw === '') return { base: {}, refs: {} };
  const id = readId(raw);
  const search = id ? await searchForFreight(ctx.db, ctx.caller.companyId, id) : null;
  if (!id || !search) {
    warnings.push({ field: 'pricing_search_id', reason: 'no stored search of your company with this id' });
    return { base: {}, refs: {} };
  }
  const base: Params = { from: search.origin, to: search.destination, pieces: search.pieces };
  const bodyHasWeight = ['weight', 'weight_actual', 'weight_volume'].some((k) => k in ctx.params);
  if (search.weight !== null && !bodyHasWeight) base.weight = search.weight;
  return { base, refs: { pricing_search_id: id } };
}

export function freightEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/freights/add',
      async handle(ctx) {
        const warnings: Warning[] = [];
        const search = await fromPricingSearch(ctx, warnings);
        const parsed = parseFreight({ ...search.base, ...ctx.params }, { clock: ctx.clock, handled: ['pricing_search_id', 'winner_direct'] });
        warnings.push(...parsed.warnings);
        const values = await newFreightValues(ctx, parsed.values, ctx.params.winner_direct, warnings);
        addRefs(values, search.refs);
        const row = await insertFreight(ctx.db, ctx.caller, ctx.clock.now(), { values, pieces: parsed.pieces });
        // api.md: the flat freight in `data` (id at data.id).
        return ok(await presentOne(rc(ctx), row, 'owner'), withWarnings(warnings));
      },
      page: (outcome) => (outcome.kind === 'ok' ? { redirect: viewPath((outcome.data as { id: number }).id) } : { redirect: '/freights/enlist/20', ok: false, message: outcome.message }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/edit/:id',
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        const warnings: Warning[] = [];
        for (const key of ['winner_direct', 'pricing_search_id']) if (key in ctx.params) warnings.push({ field: key, reason: 'only on creation' });
        const result = await editFreight(ctx.db, ctx.clock, ctx.caller, id, (existing) => {
          const parsed = parseFreight(ctx.params, { clock: ctx.clock, existing, handled: ['winner_direct', 'pricing_search_id'] });
          warnings.push(...parsed.warnings);
          return parsed;
        });
        if (result.kind === 'not_found') return notFound();
        if (result.kind === 'refused') return fail(ctx.t('freight.edit.not_allowed'));
        // Decided (docs/decisions.md): edit answers in data.route, as its own description says.
        return ok({ route: await presentOne(rc(ctx), result.row, 'owner') }, withWarnings(warnings));
      },
      page: backToFreight,
    }),
    userEndpoint({ method: 'GET', path: '/freights/view/:id', handle: view, page: routePage }),
    userEndpoint({
      // The HTML form behind POST /freights/add (no JSON counterpart in api.md).
      method: 'GET',
      path: '/freights/add',
      async handle(ctx) {
        return ctx.format === 'json' ? notFound() : ok({});
      },
      page: (_outcome, ctx) => freightFormPage(ctx),
    }),
    userEndpoint({
      // The HTML form behind POST /freights/edit/{id}; as JSON it reads like view.
      method: 'GET',
      path: '/freights/edit/:id',
      handle: view,
      page: (outcome, ctx) => (outcome.kind === 'ok' ? freightFormPage(ctx, (outcome.data as { route: FreightView }).route) : routePage(outcome, ctx)),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/view/:id',
      async handle(ctx) {
        // Without action=publish a POST reads like GET (decided, docs/decisions.md).
        if (ctx.params.action !== 'publish') return view(ctx);
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        const visibility = readInt(ctx.params.visibility);
        const result = await publishFreight(ctx.db, ctx.clock, ctx.caller, id, {
          visibility: visibility !== undefined && visibility >= -2 && visibility <= 1000 ? visibility : undefined,
          whitelist: ctx.params.whitelist === undefined ? undefined : readIds(ctx.params.whitelist),
          deadline: ctx.params.deadline,
        });
        if (result.kind === 'not_found') return notFound();
        // api.md: 302 to the freight page whether it worked or not; the flash says which.
        if (result.kind === 'refused') return redirect(viewPath(id), false, ctx.t(result.reason));
        return redirect(viewPath(id), true, ctx.t('freight.published'));
      },
      page: routePage,
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/enlist/:filterId',
      async handle(ctx) {
        const filterId = readInt(ctx.path.filterId);
        if (filterId === undefined) return notFound();
        const warnings: Warning[] = [];
        const paging = readPaging(ctx.params, warnings);
        const routes = await enlist(rc(ctx), filterId, paging);
        if (!routes) return fail(ctx.t('freight.enlist.unknown_filter'));
        return ok({ routes }, withWarnings(warnings));
      },
      page(outcome, ctx) {
        if (outcome.kind === 'error') return { redirect: '/freights/enlist/10', ok: false, message: outcome.message };
        const paging = readPaging(ctx.params, []);
        const state = { filterId: Number(ctx.path.filterId), page: paging.page, limit: paging.limit, sort: `Routes.${paging.sort}`, direction: paging.direction };
        return enlistPage((outcome.data as { routes: FreightView[] }).routes, state, ctx);
      },
    }),
    // The owner's transitions without parameters (decisions.md §4): revoke and archive.
    ...(
      [
        ['/freights/revoke/:id', revokeFreight],
        ['/freights/archive/:id', archiveFreight],
      ] as const
    ).map(([path, transition]) =>
      userEndpoint({
        method: 'POST',
        path,
        async handle(ctx) {
          const id = readId(ctx.path.id);
          return id ? transitionOutcome(ctx, await transition(ctx.db, ctx.clock, ctx.caller, id)) : notFound();
        },
        page: backToFreight,
      }),
    ),
    userEndpoint({
      method: 'POST',
      path: '/freights/delivery/:id',
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        return transitionOutcome(ctx, await setDeliveryStatus(ctx.db, ctx.clock, ctx.caller, id, readInt(ctx.params.delivery_status)));
      },
      page: backToFreight,
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/request/:entity/:objId',
      async handle(ctx) {
        const warnings: Warning[] = [];
        const row = await bookingRequest(ctx, ctx.path.entity ?? '', readId(ctx.path.objId), warnings);
        if (!row) return notFound();
        return ok({ route: await presentOne(rc(ctx), row, 'owner') }, withWarnings(warnings));
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok' ? { redirect: viewPath((outcome.data as { route: { id: number } }).route.id), message: ctx.t('freight.request.created') } : routePage(outcome, ctx),
    }),
    ...templateEndpoints(),
    ...flightEndpoints(),
    ...trackingEndpoints(),
  ];
}
