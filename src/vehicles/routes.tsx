import { droppedIdsWarning } from '../accounts/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, type Outcome, type Warning } from '../kernel/outcome.ts';
import { DEFAULT_LIMIT, offsetOf, readId, readPageWindow, readString, type PageWindow } from '../kernel/params.ts';
import { townIntoForm } from '../places/index.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import {
  isMarketStatus,
  loadFreightForCaller,
  presentMany,
  visibleFreightsWithPieces,
  type FreightView,
  type ReadContext,
} from '../freights/index.ts';
import { readPickedCompanies } from '../freights-http/index.ts';
import { readLoadSearch } from '../market/index.ts';
import { OFFER_FIELDS, presentVehicle, readOffer, typedInLanguage, type OfferField, type VehicleView } from './fields.ts';
import { createOffer, editOffer, inviteToFreight, withdrawOffer, type OfferPublished, type Result } from './lifecycle.ts';
import { fitsOfOffer } from './matching.ts';
import { offerInMarket } from './policy.ts';
import { VEHICLE_DOCS } from './schema.ts';
import {
  countMarketOffers,
  fittingOffers,
  listMarketOffers,
  listOwnOffers,
  readVisibleOffer,
  readVisibleOffers,
  SORTS,
  type Sort,
} from './store.ts';
import { backTo, fittingPage, formPage, listPage, matchesPage, minePage, offerPage, type FormState } from './views.tsx';

/**
 * The vehicle offers' endpoints (docs/reference.md#vehicles). Routes are thin: read the path and
 * parameters, call one function, turn its result into an outcome.
 */

const withWarnings = (warnings: Warning[]) => (warnings.length ? warnings : undefined);
const rc = (ctx: Ctx<Caller>): ReadContext => ({ db: ctx.db, clock: ctx.clock, t: ctx.t, caller: ctx.caller });
export const viewPath = (id: number) => `/vehicles/view/${id}`;

/**
 * What the endpoints take from app.ts: a new offer's alert is queued in its transaction
 * (`published`) and run after the commit (`committed` wakes the queue's worker).
 */
export interface VehicleParts {
  published: OfferPublished;
  committed: () => void;
}

/** The sent offer: a page's form is read in the person's language first. */
const readOfferBody = (ctx: Ctx<Caller>, existing?: Parameters<typeof readOffer>[2]) =>
  readOffer(ctx.format === 'html' ? typedInLanguage(ctx.params, ctx.language) : ctx.params, ctx.clock, existing);

/**
 * The page's origin typed as a town's name ("München", "PL Warszawa"; docs/choices.md, Typed
 * places): its country and point instead. A name of several towns is refused naming them.
 */
async function typedOrigin(ctx: Ctx<Caller>): Promise<string | undefined> {
  if (ctx.format !== 'html') return undefined;
  const { resolved, choices } = await townIntoForm(ctx.params as Record<string, unknown>, 'from', ctx.language);
  return !resolved && choices.length ? `which one: ${choices.map((c) => c.label).join('; ')}` : undefined;
}

/** The refusal of an offer with a problem: each field named, in the message and in `data.errors` (`field`, `reason`). */
function refused(ctx: Ctx<Caller>, errors: Partial<Record<OfferField, string>>): Outcome<never> {
  const problems = Object.entries(errors).map(([field, reason]) => ({ field, reason: String(reason) }));
  const fields = problems.map((p) => `${p.field}: ${p.reason}`).join('; ');
  return fail(ctx.t, 'vehicle.invalid', { fields }, { errors: problems });
}

function answer(ctx: Ctx<Caller>, result: Result, sentWhitelist?: readonly number[]): Outcome<{ vehicle: VehicleView }> {
  if (result.kind === 'not_found') return notFound();
  if (result.kind === 'refused') return fail(ctx.t, result.reason);
  // Ids of the whitelist that name no company were dropped (lifecycle.ts): said, as unknown input is.
  const dropped = droppedIdsWarning('whitelist', sentWhitelist, result.offer.whitelist);
  return ok({ vehicle: presentVehicle(result.offer, ctx.clock, ctx.caller.companyId) }, dropped ? [dropped] : undefined);
}

/** `sort=Vehicles.created` (or `Vehicles.available_from`), optionally followed by `asc`/`desc`; `direction` too. */
function readSort(ctx: Ctx, warnings: Warning[]): { sort: Sort; direction: 'asc' | 'desc' } {
  let sort: Sort = 'created';
  let direction: 'asc' | 'desc' = 'desc';
  const text = readString(ctx.params.sort)?.trim();
  if (text) {
    const m = /^(?:Vehicles\.)?([a-z_]+)(?:\s+(asc|desc))?$/i.exec(text);
    const key = m?.[1]?.toLowerCase();
    if (m && key && (SORTS as readonly string[]).includes(key)) {
      sort = key as Sort;
      if (m[2]) direction = m[2].toLowerCase() as 'asc' | 'desc';
    } else warnings.push({ field: 'sort', reason: `not one of ${SORTS.map((s) => `Vehicles.${s}`).join(', ')}` });
  }
  const dir = readString(ctx.params.direction)?.trim().toLowerCase();
  if (dir === 'asc' || dir === 'desc') direction = dir;
  else if (dir) warnings.push({ field: 'direction', reason: 'not asc or desc' });
  return { sort, direction };
}

/** The market list's input, read once for the list and its page. */
function readList(ctx: Ctx) {
  const warnings: Warning[] = [];
  const { page, limit } = readPageWindow(ctx.params, warnings);
  // The load's own description is no question to ask of trucks: those parameters are not read.
  const loadOnly = ['loading_meters_max', 'pallet_exchange', 'adr'];
  const search = readLoadSearch(
    Object.fromEntries(Object.entries(ctx.params).filter(([name]) => !loadOnly.includes(name))),
    ctx.clock.zone,
    warnings,
  );
  // The offers list reads these of §7's parameters; the others say so.
  for (const name of ['to_near', 'to_radius', 'delivery_from', 'delivery_to', 'weight_max', 'media', 'q', ...loadOnly])
    if (ctx.params[name] !== undefined && ctx.params[name] !== '')
      warnings.push({ field: name, reason: 'not a parameter of the offers list: ignored' });
  const {
    toNear: _a,
    delivery: _b,
    weightMax: _c,
    media: _d,
    q: _e,
    body,
    adr: _f,
    loadingMetersMax: _g,
    palletExchange: _h,
    truck: _i,
    ...kept
  } = search;
  // `body` reads as for freights (market readLoadSearch): the offer's body is one of them.
  return { page, limit, search: kept, bodies: body ?? [], ...readSort(ctx, warnings), warnings };
}

/** Freights as the caller sees them, with the distance of each, in the order given. */
async function freightsWithDistance(ctx: Ctx<Caller>, fits: Array<{ id: number; distance_km: number | null }>) {
  const visible = await visibleFreightsWithPieces(
    ctx.db,
    ctx.clock.now(),
    ctx.caller.companyId,
    fits.map((f) => f.id),
  );
  const presented = presentMany(visible, rc(ctx));
  const byId = new Map<number, FreightView>(visible.map((v, i) => [v.row.id, presented[i]!]));
  return fits.flatMap((f) => {
    const route = byId.get(f.id);
    return route ? [{ ...route, distance_km: f.distance_km === null ? null : Math.round(f.distance_km * 10) / 10 }] : [];
  });
}

/** The vehicle offers notifications name, as the user may see them (searches' notifications, via app.ts). */
export async function vehicleViews(rc: ReadContext, ids: readonly number[]): Promise<Map<number, unknown>> {
  const rows = await readVisibleOffers(rc.db, rc.caller.companyId, ids);
  return new Map(rows.map((r) => [r.id, presentVehicle(r, rc.clock, rc.caller.companyId)]));
}

/** A page of fits as the statements read it. */
const fitWindow = (p: PageWindow) => ({ limit: p.limit, offset: offsetOf(p) });

/**
 * A page of the open offers fitting a freight of the caller's company, nearest first (the freight
 * page's section reads the first); undefined when it is not the caller's.
 */
export async function fittingVehiclesOf(ctx: Ctx<Caller>, freightId: number, page: PageWindow) {
  const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, freightId);
  if (found?.role !== 'owner') return undefined;
  if (found.row.class !== 'rfs' || !isMarketStatus(found.row.status)) return [];
  const fits = await fittingOffers(ctx.db, found.row, ctx.clock.now(), fitWindow(page));
  return fits.map((f) => ({
    ...presentVehicle(f.offer, ctx.clock, ctx.caller.companyId),
    distance_km: Math.round(f.distance_km * 10) / 10,
  }));
}

/** The first page a page shows inside another (the offer's, the freight's), one row more to know whether there is a next. */
export const FIRST_PAGE: PageWindow = { page: 1, limit: DEFAULT_LIMIT + 1 };

export type FittingVehicle = NonNullable<Awaited<ReturnType<typeof fittingVehiclesOf>>>[number];

export function vehicleEndpoints(parts: VehicleParts): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/vehicles/add',
      doc: VEHICLE_DOCS.add,
      async handle(ctx) {
        // The form names companies (the freight form's picker): their ids are the whitelist.
        const unknown = await readPickedCompanies(ctx);
        if (unknown) return refused(ctx, { whitelist: `unknown companies: ${unknown.join(', ')}` });
        const which = await typedOrigin(ctx);
        if (which) return refused(ctx, { from: which });
        const read = readOfferBody(ctx);
        if (!read.ok) return refused(ctx, read.errors);
        const offer = await createOffer(ctx.db, ctx.clock, ctx.caller, read.values, parts.published);
        // Committed: the owners of fitting freights are alerted on the next turn, not in this request.
        parts.committed();
        return answer(ctx, { kind: 'ok', offer }, read.values.whitelist);
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? { redirect: viewPath(outcome.data.vehicle.id), message: ctx.t('vv.saved') }
          : formPage(ctx, { mode: 'add', state: formState(ctx, outcome.data) }),
    }),
    userEndpoint({
      // The HTML form behind POST /vehicles/add.
      method: 'GET',
      path: '/vehicles/add',
      json: false,
      handle: async () => ok({}),
      page: (_outcome, ctx) => formPage(ctx, { mode: 'add' }),
    }),
    userEndpoint({
      method: 'GET',
      path: '/vehicles/view/:id',
      doc: VEHICLE_DOCS.view,
      reads: 'replica-json',
      async handle(ctx) {
        const id = readId(ctx.path.id);
        const offer = id ? await readVisibleOffer(ctx.db, ctx.caller.companyId, id) : undefined;
        return offer ? ok({ vehicle: presentVehicle(offer, ctx.clock, ctx.caller.companyId) }) : notFound();
      },
      async page(outcome, ctx) {
        if (outcome.kind === 'error') return backTo(ctx, '/vehicles/index', outcome.message);
        const vehicle = outcome.data.vehicle;
        const own = vehicle.company.id === ctx.caller.companyId;
        const matches = own && vehicle.status === 'open' ? await ownMatches(ctx, vehicle.id, FIRST_PAGE) : undefined;
        return offerPage(ctx, vehicle, matches);
      },
    }),
    userEndpoint({
      // The HTML form behind POST /vehicles/edit/{id}.
      method: 'GET',
      path: '/vehicles/edit/:id',
      json: false,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        const offer = id ? await readVisibleOffer(ctx.db, ctx.caller.companyId, id) : undefined;
        return offer && offer.company_id === ctx.caller.companyId
          ? ok({ vehicle: presentVehicle(offer, ctx.clock, ctx.caller.companyId) })
          : notFound();
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? formPage(ctx, { mode: 'edit', vehicle: outcome.data.vehicle })
          : backTo(ctx, '/vehicles/mine', outcome.message),
    }),
    userEndpoint({
      method: 'POST',
      path: '/vehicles/edit/:id',
      doc: VEHICLE_DOCS.edit,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        let sent: readonly number[] | undefined;
        const unknown = await readPickedCompanies(ctx);
        if (unknown) return refused(ctx, { whitelist: `unknown companies: ${unknown.join(', ')}` });
        const which = await typedOrigin(ctx);
        if (which) return refused(ctx, { from: which });
        const result = await editOffer(ctx.db, ctx.clock, ctx.caller, id, (existing) => {
          const read = readOfferBody(ctx, existing);
          if (read.ok) sent = read.values.whitelist;
          return read;
        });
        if (result.kind === 'invalid') return refused(ctx, result.errors);
        return answer(ctx, result, sent);
      },
      async page(outcome, ctx) {
        const id = readId(ctx.path.id)!;
        if (outcome.kind === 'ok') return { redirect: viewPath(id), message: ctx.t('vv.changed') };
        const state = formState(ctx, outcome.data);
        if (!Object.keys(state.problems).length) return backTo(ctx, viewPath(id), outcome.message);
        const offer = await readVisibleOffer(ctx.db, ctx.caller.companyId, id);
        return formPage(ctx, { mode: 'edit', vehicle: offer ? presentVehicle(offer, ctx.clock, ctx.caller.companyId) : undefined, state });
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/vehicles/withdraw/:id',
      doc: VEHICLE_DOCS.withdraw,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        return id ? answer(ctx, await withdrawOffer(ctx.db, ctx.clock, ctx.caller, id)) : notFound();
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? { redirect: viewPath(outcome.data.vehicle.id), message: ctx.t('vv.withdrawn') }
          : backTo(ctx, viewPath(readId(ctx.path.id) ?? 0), outcome.message),
    }),
    userEndpoint({
      method: 'GET',
      path: '/vehicles/index',
      doc: VEHICLE_DOCS.index,
      reads: 'replica',
      read: readList,
      async handle(ctx, input) {
        const rows = await listMarketOffers(ctx.db, ctx.caller.companyId, ctx.clock.now(), input);
        return ok({ vehicles: rows.map((r) => presentVehicle(r, ctx.clock, ctx.caller.companyId)) }, withWarnings(input.warnings));
      },
      async page(outcome, ctx, input) {
        const total = await countMarketOffers(ctx.db, ctx.caller.companyId, ctx.clock.now(), input);
        return listPage(ctx, outcome.kind === 'ok' ? outcome.data.vehicles : [], { ...input, total });
      },
    }),
    userEndpoint({
      method: 'GET',
      path: '/vehicles/mine',
      doc: VEHICLE_DOCS.mine,
      async handle(ctx) {
        const { page, limit } = readPageWindow(ctx.params);
        const rows = await listOwnOffers(ctx.db, ctx.caller.companyId, page, limit);
        return ok({ vehicles: rows.map((r) => presentVehicle(r, ctx.clock, ctx.caller.companyId)) });
      },
      page: (outcome, ctx) => minePage(ctx, outcome.kind === 'ok' ? outcome.data.vehicles : []),
    }),
    userEndpoint({
      method: 'GET',
      path: '/vehicles/matches/:id',
      doc: VEHICLE_DOCS.matches,
      read: readPaging,
      async handle(ctx, input) {
        const id = readId(ctx.path.id);
        const freights = id ? await ownMatches(ctx, id, input.page) : undefined;
        return freights ? ok({ freights }, withWarnings(input.warnings)) : notFound();
      },
      page: (outcome, ctx, input) =>
        outcome.kind === 'ok'
          ? matchesPage(ctx, readId(ctx.path.id)!, outcome.data.freights, input.page)
          : backTo(ctx, '/vehicles/mine', outcome.message),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/vehicles/:id',
      doc: VEHICLE_DOCS.fitting,
      read: readPaging,
      async handle(ctx, input) {
        const id = readId(ctx.path.id);
        const vehicles = id ? await fittingVehiclesOf(ctx, id, input.page) : undefined;
        return vehicles ? ok({ vehicles }, withWarnings(input.warnings)) : notFound();
      },
      page: (outcome, ctx, input) =>
        outcome.kind === 'ok'
          ? fittingPage(ctx, readId(ctx.path.id)!, outcome.data.vehicles, input.page)
          : backTo(ctx, `/freights/view/${readId(ctx.path.id) ?? 0}`, outcome.message),
    }),
    userEndpoint({
      method: 'POST',
      path: '/vehicles/invite/:id',
      doc: VEHICLE_DOCS.invite,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        const raw = ctx.params.freight;
        const freightId = readId(raw);
        if (raw === undefined || raw === null || raw === '') return fail(ctx.t, 'vehicle.invite.freight_required');
        if (!freightId) return notFound();
        const result = await inviteToFreight(ctx.db, ctx.clock, ctx.caller, id, freightId);
        if (result.kind === 'not_found') return notFound();
        if (result.kind === 'refused') return fail(ctx.t, result.reason);
        return ok({
          vehicle: presentVehicle(result.offer, ctx.clock, ctx.caller.companyId),
          freight: result.freightId,
          whitelisted: result.whitelisted,
        });
      },
      page: (outcome, ctx) => {
        const freight = readId(ctx.params.freight);
        const to = freight ? `/freights/view/${freight}` : '/vehicles/index';
        return outcome.kind === 'ok' ? { redirect: to, message: ctx.t('vv.invited') } : backTo(ctx, to, outcome.message);
      },
    }),
  ];
}

/** `page` and `limit` of a list of matches (docs/reference.md#the-api: page 1 and 20 by default, at most 100 a page). */
function readPaging(ctx: Ctx) {
  const warnings: Warning[] = [];
  return { page: readPageWindow(ctx.params, warnings), warnings };
}

/** A page of the freights fitting an own offer, as its company sees them; undefined for an offer that is not the caller's. */
async function ownMatches(ctx: Ctx<Caller>, id: number, page: PageWindow) {
  const offer = await readVisibleOffer(ctx.db, ctx.caller.companyId, id);
  if (!offer || offer.company_id !== ctx.caller.companyId) return undefined;
  const now = ctx.clock.now();
  if (!offerInMarket(offer, now)) return [];
  return freightsWithDistance(ctx, await fitsOfOffer(ctx.db, offer, now, fitWindow(page)));
}

/** The form as typed, with each refused field's problem, for the page to show again. */
function formState(ctx: Ctx, data: unknown): FormState {
  const sent = (data as { errors?: Record<string, string> | Array<{ field: string; reason: string }> } | undefined)?.errors ?? {};
  // The answer's list of problems (field and reason), by field; unknown company names in the reader's words.
  const errors: Record<string, string> = Array.isArray(sent) ? Object.fromEntries(sent.map((p) => [p.field, p.reason])) : { ...sent };
  const unknown = /^unknown companies: (.*)$/.exec(errors.whitelist ?? '');
  if (unknown) errors.whitelist = ctx.t('form.error.companies', { names: unknown[1]! });
  const values: Record<string, string> = {};
  for (const f of OFFER_FIELDS) {
    const v = ctx.params[f];
    if (typeof v === 'string' || typeof v === 'number') values[f] = String(v);
  }
  // What was typed into the company picker comes back as typed.
  if (typeof ctx.params.whitelist_names === 'string') values.whitelist_names = ctx.params.whitelist_names;
  return { values, problems: errors };
}
