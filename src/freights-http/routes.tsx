import { droppedIdsWarning } from '../accounts/index.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/schema.ts';
import { fail, notFound, ok, okJsonText, redirect, type Answer, type Outcome, type Warning } from '../kernel/outcome.ts';
import { readId, readInt } from '../kernel/params.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import { bookingRequest } from './booking.ts';
import { placeGiven, presentFreight, type FreightView } from '../freights/index.ts';
import { parseFreight, readIds } from './parse.ts';
import type { Role } from '../freights/index.ts';
import { type FreightRow, VISIBILITY } from '../freights/index.ts';
import { FREIGHT_DOCS, freightEnlistDoc } from './schema.ts';
import {
  archiveFreight,
  editFreight,
  publishFreight,
  revokeFreight,
  setDeliveryStatus,
  type EnteredMarket,
  type TransitionResult,
} from '../freights/index.ts';
import { enlist, enlistJson, hiddenLoads, type ExternalList } from './lists.ts';
import { hiddenPage } from './pages/hidden-page.tsx';
import { hideFreight, markSeen, MAX_HIDDEN, unhideFreight } from '../freights/index.ts';
import { sitePath } from '../kernel/format.ts';
import { readPageWindow, readString } from '../kernel/params.ts';
import { LIST, listPath } from '../freights/index.ts';
import { readPaging } from '../kernel/paging.ts';
import { type FreightPresentations, loadFreightForCaller, presentRead, readViewAnswer, type ReadContext } from '../freights/index.ts';
import { addFreight } from './create.ts';
import { enlistPage, type ListPageParts } from './pages/list-page.tsx';
import { freightPage, publishGaps, type BidderFigure, type FreightPageData } from './pages/freight-page.tsx';
import { freightFormPage, type FormPageOptions } from './pages/form-page.tsx';
import type { ComponentChildren } from 'preact';
import {
  mergeRefs,
  normaliseBookingForm,
  normaliseFreightForm,
  normalisePublishForm,
  problemsFromWarnings,
  type FormState,
} from './pages/form-input.ts';
import { readFreightPageParts } from './pages/page-parts.ts';
import { isRecord } from '../kernel/params.ts';
import { readLoadSearch } from '../market/index.ts';

/**
 * The freight endpoints of docs/reference.md#freights and docs/reference.md#freights. Routes are thin: read the
 * path and parameters, call one function, turn its result into an outcome.
 */

const rc = (ctx: Ctx): ReadContext => ({ db: ctx.db, clock: ctx.clock, t: ctx.t, caller: ctx.caller });
const withWarnings = (warnings: Warning[]) => (warnings.length ? warnings : undefined);
const viewPath = (id: number) => `/freights/view/${id}`;

/**
 * HTML rendering of an answer carrying `data.route`. The page names the companies the JSON
 * gives as ids, the cities of both ends, and after the award the other side's contact person
 * (owner and winner only: the user who made the accepted bid, or who created the freight).
 */
/** The answer of view, edit and the transitions (docs/reference.md#the-api): the freight in `data.route`. */
type RouteData = { route: FreightView };

async function routePage(
  outcome: Answer<RouteData>,
  ctx: Ctx,
  extra: Pick<FreightPageData, 'bidForm'> = {},
  above: Pick<FreightParts, 'sections' | 'marketPrice' | 'partnerRatings' | 'bidders'> = {},
): Promise<PageResult> {
  if (outcome.kind === 'error') return { redirect: listPath(LIST.ownOpen), ok: false, message: outcome.message };
  const route = outcome.data.route;
  const owner = route.company === ctx.caller.companyId;
  const [parts, more, marketPrice] = await Promise.all([
    readFreightPageParts(ctx.db, ctx.clock, route, ctx.caller.companyId, ctx.language),
    above.sections?.(ctx, route),
    above.marketPrice?.(ctx, laneOfView(route)),
  ]);
  // The partners' ratings beside their names in the waterfall's picker (the owner's draft: src/trust).
  const partnerRatings =
    parts.partners.length && above.partnerRatings
      ? await above.partnerRatings(
          ctx.db,
          parts.partners.map((p) => p.id),
        )
      : undefined;
  // The owner compares bidders (issue 47, item 5): each bidder's figures beside its bid.
  const shown = route._bids ?? parts.pastBids ?? [];
  const bidders =
    owner && above.bidders && shown.length ? await above.bidders(ctx.db, [...new Set(shown.map((b) => b.company))]) : undefined;
  return freightPage(route, ctx, {
    ...parts,
    gaps: owner && route.status === 'draft' ? publishGaps({ ...route, from: sideOf(route, 'from'), to: sideOf(route, 'to') }) : [],
    ...extra,
    sections: more,
    marketPrice,
    partnerRatings,
    bidders,
  });
}

/** What the lane prices read of a freight as the caller sees it (masked ends are null: no lane). */
function laneOfView(route: Partial<FreightView>): FreightLane {
  const refs = isRecord(route.refs) ? route.refs : {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    class: text(route.class),
    from: text(route.from),
    from_country: text(route.from_country),
    to: text(route.to),
    to_country: text(route.to_country),
    currency: refs.target_currency,
  };
}

/** The freight form with the lane's market price beside the price field (when the form knows the lane). */
async function formPage(ctx: Ctx, options: FormPageOptions, marketPrice: FreightParts['marketPrice']): Promise<PageResult> {
  const hint = options.route && marketPrice ? await marketPrice(ctx, laneOfView(options.route)) : undefined;
  return freightFormPage(ctx, { ...options, marketPrice: hint });
}

/** A side of the freight as publishing reads it (freights/lists/moves.ts placeGiven). */
const sideOf = (route: FreightView, side: 'from' | 'to') =>
  placeGiven({
    code: route[side],
    country: route[`${side}_country`],
    latitude: route[`${side}_latitude`],
    longitude: route[`${side}_longitude`],
  });

/** Sections other modules add to the freight page (the fitting trucks of src/vehicles), passed in by app.ts. */
export type FreightSections = (ctx: Ctx, route: FreightView) => Promise<FreightPageData['sections']>;

/** A freight's lane as the lane prices read it: its class, both ends as the caller sees them, its target currency. */
export interface FreightLane {
  class: string | null;
  from: string | null;
  from_country: string | null;
  to: string | null;
  to_country: string | null;
  currency: unknown;
}
/** The lane's market price beside a freight's price field (src/lanes), passed in by app.ts; undefined: nothing to show. */
export type MarketPrice = (ctx: Ctx, lane: FreightLane) => Promise<ComponentChildren>;

/** Companies' ratings (count, and the average once there are enough), for the partners a page names (src/trust). */
export type PartnerRatings = (db: Db, companies: readonly number[]) => Promise<Map<number, { count: number; average: number | null }>>;

/**
 * The freight page as the caller sees it now, for another endpoint's form that comes back to it
 * (a refused bid: the typed values and each problem next to its field). Not visible: the lists.
 */
export async function freightPageFor(ctx: Ctx, id: number, extra: Pick<FreightPageData, 'bidForm'>): Promise<PageResult> {
  const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, id);
  if (!found) return { redirect: listPath(LIST.market), ok: false, message: ctx.t('error.not_found') };
  return routePage({ kind: 'ok', data: { route: presentRead(found, ctx) } }, ctx, extra);
}

/** After saving the freight form: to the freight with a message, or back to the form with each problem next to its field. */
async function afterFreightForm(
  outcome: Answer<FreightView>,
  ctx: Ctx,
  mode: 'add' | 'edit',
  state: FormState | undefined,
  marketPrice?: MarketPrice,
): Promise<PageResult> {
  if (outcome.kind === 'error') return backToFreight(outcome, ctx);
  const route = outcome.data;
  const warnings = problemsFromWarnings(outcome.warnings, ctx.t);
  if (!state || (!Object.keys(state.problems).length && !Object.keys(warnings).length)) {
    return { redirect: viewPath(route.id), ok: true, message: ctx.t(mode === 'add' ? 'fv.saved.add' : 'fv.saved.edit') };
  }
  // Saved (a draft may be incomplete); the form comes back as the edit form of what was saved.
  return formPage(ctx, { route, mode: 'edit', state, warnings }, marketPrice);
}

/** The page of the loads the caller hides (GET /freights/hidden). */
const HIDDEN_PATH = '/freights/hidden';

/**
 * A hide or unhide from a page lands back where it was sent from (`back`: a list, the hidden
 * loads or a freight page of this site), else on `fallback`, saying what happened.
 */
function backToList(
  outcome: Answer<{ freight: { id: number } }>,
  ctx: Ctx,
  fallback: string,
  done: 'fv.hidden.done' | 'fv.unhidden.done',
): PageResult {
  const to = sitePath(readString(ctx.params.back));
  const target = to && /^\/freights\/(enlist\/|hidden|view\/)/.test(to) ? to : fallback;
  if (outcome.kind === 'error') return { redirect: target, ok: false, message: outcome.message };
  return { redirect: target, ok: true, message: ctx.t(done, { id: String(outcome.data.freight.id) }) };
}

/** HTML form posts of the transitions land back on the freight page with a flash message. */
function backToFreight(outcome: Extract<Outcome, { kind: 'ok' | 'error' }>, ctx: Ctx, done?: string): PageResult {
  const id = readId(ctx.path.id);
  return {
    redirect: id ? viewPath(id) : listPath(LIST.ownOpen),
    ok: outcome.kind === 'ok',
    message: outcome.kind === 'error' ? outcome.message : done,
  };
}

/**
 * A freight this request has just written (its row in hand), as the caller now reads it with its
 * parts (pieces, company, bids): one statement. Only if it vanished meanwhile, the row alone.
 */
async function presentWritten(ctx: Ctx, row: FreightRow, role: Role): Promise<FreightView> {
  const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, row.id);
  return found ? presentRead(found, ctx) : presentFreight(row, role, ctx);
}

async function transitionOutcome(ctx: Ctx, result: TransitionResult): Promise<Outcome<RouteData>> {
  if (result.kind === 'not_found') return notFound();
  if (result.kind === 'refused') return fail(ctx.t, result.reason);
  const role = result.row.company_id === ctx.caller.companyId ? 'owner' : 'winner';
  return ok({ route: await presentWritten(ctx, result.row, role) });
}

async function view(ctx: Ctx): Promise<Outcome<RouteData>> {
  const id = readId(ctx.path.id);
  if (!id) return notFound();
  const found = await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, id);
  if (!found) return notFound();
  return ok({ route: presentRead(found, ctx) });
}

/** GET /freights/view/{id}.json: from the freight's stored presentation where it serves the caller (freights/presented.ts). */
async function viewJson(ctx: Ctx, presentations: FreightPresentations | undefined): Promise<Outcome<RouteData>> {
  const id = readId(ctx.path.id);
  if (!id) return notFound();
  const answer = await readViewAnswer(ctx.db, ctx.clock, ctx.caller, ctx.language, id, presentations);
  if (!answer) return notFound();
  return 'json' in answer ? okJsonText(answer.json) : ok({ route: presentRead(answer.read, ctx) });
}

/**
 * What the freight endpoints take from modules above freights, passed in by app.ts (the freights
 * module imports none of them; docs/architecture.md, "Which way imports point").
 */
export interface FreightParts extends ListPageParts {
  /** Other modules' lists on GET /freights/enlist, by filter id (TMS 51-53). */
  otherLists: ReadonlyMap<number, ExternalList>;
  /** Run in the transaction that puts a freight on the market (queues its alert). */
  enteredMarket: EnteredMarket;
  /**
   * Called once a freight entered the market and the transaction committed (publish, or created
   * open by winner_direct): the queued alert starts from here, after the answer.
   */
  published?: () => void;
  /** Writes the stored view presentations a JSON view found stale (freights/presented.ts); without it views read the long way. */
  presentations?: FreightPresentations;
  /** Sections of the freight page from modules above (the fitting trucks, src/vehicles). */
  sections?: FreightSections;
  /** The lane's last market median beside the price field of the freight form and page (src/lanes). */
  marketPrice?: MarketPrice;
  /** The ratings of the partners in the waterfall's picker (src/trust). */
  partnerRatings?: PartnerRatings;
  /** Each bidder's rating, completed loads and member since for the owner's bids table (src/trust). */
  bidders?: (db: Db, companies: readonly number[]) => Promise<Map<number, BidderFigure>>;
}

export function freightEndpoints(parts: FreightParts): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/freights/add',
      doc: FREIGHT_DOCS.add,
      // The HTML form's input in the user's language, read before the API's rules (docs/choices.md).
      read: (ctx) => (ctx.format === 'html' ? normaliseFreightForm(ctx, 'add') : undefined),
      async handle(ctx) {
        const added = await addFreight(ctx, parts.enteredMarket);
        // Created open for one company (winner_direct), it entered the market: its alert starts after the commit.
        if (added.enteredMarket) parts.published?.();
        // docs/reference.md#the-api: the flat freight in `data` (id at data.id).
        return ok(await presentWritten(ctx, added.row, 'owner'), withWarnings(added.warnings));
      },
      page: (outcome, ctx, form) =>
        outcome.kind === 'ok'
          ? afterFreightForm(outcome, ctx, 'add', form, parts.marketPrice)
          : { redirect: listPath(LIST.drafts), ok: false, message: outcome.message },
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/edit/:id',
      doc: FREIGHT_DOCS.edit,
      read: (ctx) => (ctx.format === 'html' ? normaliseFreightForm(ctx, 'edit') : undefined),
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        const html = ctx.format === 'html';
        const warnings: Warning[] = [];
        for (const key of ['winner_direct', 'pricing_search_id'])
          if (key in ctx.params) warnings.push({ field: key, reason: 'only on creation' });
        let sentWhitelist: unknown;
        const result = await editFreight(ctx.db, ctx.clock, ctx.caller, id, (existing) => {
          // The form shows some refs keys; the stored others (entity, obj_id, …) stay.
          const params =
            html && isRecord(ctx.params.refs) ? { ...ctx.params, refs: mergeRefs(existing.refs, ctx.params.refs) } : ctx.params;
          const parsed = parseFreight(params, { clock: ctx.clock, existing, handled: ['winner_direct', 'pricing_search_id'] });
          warnings.push(...parsed.warnings);
          sentWhitelist = parsed.values.whitelist;
          return { ...parsed, values: { ...parsed.values } };
        });
        if (result.kind === 'not_found') return notFound();
        if (result.kind === 'refused') return fail(ctx.t, result.reason);
        // Ids of the whitelist that name no company were dropped (lifecycle.ts).
        const dropped = droppedIdsWarning('whitelist', sentWhitelist, result.row.whitelist);
        if (dropped) warnings.push(dropped);
        // Decided (docs/choices.md): edit answers in data.route, as its own description says.
        return ok({ route: await presentWritten(ctx, result.row, 'owner') }, withWarnings(warnings));
      },
      // add answers the flat freight, edit `data.route` (docs/reference.md#the-api): the form after either shows the freight.
      page: (outcome, ctx, form) =>
        afterFreightForm(outcome.kind === 'ok' ? { ...outcome, data: outcome.data.route } : outcome, ctx, 'edit', form, parts.marketPrice),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/view/:id',
      doc: FREIGHT_DOCS.view,
      reads: 'replica-json',
      handle: (ctx) => (ctx.format === 'json' ? viewJson(ctx, parts.presentations) : view(ctx)),
      async page(outcome, ctx) {
        // Opening another company's load marks it seen for this user (the market list shows it so).
        if (outcome.kind === 'ok' && outcome.data.route.company !== ctx.caller.companyId)
          await markSeen(ctx.db, ctx.caller.userId, outcome.data.route.id, ctx.clock.now());
        return routePage(outcome, ctx, {}, parts);
      },
    }),
    // A user's own marks on the market's loads (issue 47, item 11; docs/choices.md, "Hidden and seen loads").
    userEndpoint({
      method: 'POST',
      path: '/freights/hide/:id',
      doc: FREIGHT_DOCS.hide,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        const result = await hideFreight(ctx.db, ctx.clock, ctx.caller, id);
        if (result.kind === 'not_found') return notFound();
        if (result.kind === 'own') return fail(ctx.t, 'freight.hide.own');
        if (result.kind === 'too_many') return fail(ctx.t, 'freight.hide.too_many', { max: MAX_HIDDEN });
        return ok({ freight: { id, hidden: true } });
      },
      page: (outcome, ctx) => backToList(outcome, ctx, listPath(LIST.market), 'fv.hidden.done'),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/unhide/:id',
      doc: FREIGHT_DOCS.unhide,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        if (!(await unhideFreight(ctx.db, ctx.clock, ctx.caller, id))) return notFound();
        return ok({ freight: { id, hidden: false } });
      },
      page: (outcome, ctx) => backToList(outcome, ctx, HIDDEN_PATH, 'fv.unhidden.done'),
    }),
    userEndpoint({
      method: 'GET',
      path: HIDDEN_PATH,
      doc: FREIGHT_DOCS.hidden,
      reads: 'replica',
      read(ctx) {
        const warnings: Warning[] = [];
        const window = readPageWindow(ctx.params, warnings);
        return { paging: { ...window, sort: 'created' as const, direction: 'desc' as const }, warnings };
      },
      async handle(ctx, input) {
        return ok({ routes: await hiddenLoads(rc(ctx), input.paging) }, withWarnings(input.warnings));
      },
      page: (outcome, ctx, input) => hiddenPage(outcome.kind === 'ok' ? outcome.data.routes : [], input.paging, ctx, parts),
    }),
    userEndpoint({
      // The HTML form behind POST /freights/add (no JSON counterpart in docs/reference.md#the-api).
      method: 'GET',
      path: '/freights/add',
      json: false,
      async handle(ctx) {
        // `?copy=ID`: a new draft from one of the company's freights (re-publish an expired one, repeat a transport).
        const copy = readId(ctx.params.copy);
        const found = copy ? await loadFreightForCaller(ctx.db, ctx.clock, ctx.caller, copy) : null;
        return ok(found?.role === 'owner' ? { route: presentRead(found, ctx) } : {});
      },
      page: (outcome, ctx) => {
        const source = outcome.kind === 'ok' ? outcome.data.route : undefined;
        return formPage(ctx, { mode: 'add', route: source ? copyForForm(source) : undefined, copyOf: source?.id }, parts.marketPrice);
      },
    }),
    userEndpoint({
      // The HTML form behind POST /freights/edit/{id}; as JSON it reads like view.
      method: 'GET',
      path: '/freights/edit/:id',
      doc: FREIGHT_DOCS.editForm,
      handle: view,
      page: (outcome, ctx) =>
        outcome.kind === 'ok' ? formPage(ctx, { mode: 'edit', route: outcome.data.route }, parts.marketPrice) : routePage(outcome, ctx),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/view/:id',
      doc: FREIGHT_DOCS.publish,
      async handle(ctx) {
        // Without action=publish a POST reads like GET (decided, docs/choices.md).
        if (ctx.params.action !== 'publish') return view(ctx);
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        if (ctx.format === 'html') {
          // The page's publish form names companies; an unknown name refuses the publish with the reason.
          const refused = await normalisePublishForm(ctx);
          if (refused) return redirect(viewPath(id), false, refused);
        }
        const visibility = readInt(ctx.params.visibility);
        const result = await publishFreight(
          ctx.db,
          ctx.clock,
          ctx.caller,
          id,
          {
            visibility:
              visibility !== undefined && visibility >= VISIBILITY.whitelist && visibility <= VISIBILITY.max ? visibility : undefined,
            whitelist: ctx.params.whitelist === undefined ? undefined : readIds(ctx.params.whitelist),
            deadline: ctx.params.deadline,
          },
          parts.enteredMarket,
        );
        if (result.kind === 'not_found') return notFound();
        // docs/reference.md#the-api: 302 to the freight page whether it worked or not; the flash says which.
        if (result.kind === 'refused') return redirect(viewPath(id), false, ctx.t(result.reason));
        parts.published?.();
        return redirect(viewPath(id), true, ctx.t('freight.published'));
      },
      page: (outcome, ctx) => routePage(outcome, ctx, {}, parts),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/enlist/:filterId',
      doc: freightEnlistDoc(parts.otherLists),
      reads: 'replica',
      // Read once for the list and its page: the list, paging and sort, and the load search
      // (docs/reference.md#load-search; unreadable parameters are ignored with a warning).
      read(ctx) {
        const pagingWarnings: Warning[] = [];
        const searchWarnings: Warning[] = [];
        const paging = readPaging(ctx.params, pagingWarnings);
        const search = readLoadSearch(ctx.params, ctx.clock.zone, searchWarnings);
        return { filterId: readInt(ctx.path.filterId), paging, search, pagingWarnings, searchWarnings };
      },
      async handle(ctx, input) {
        if (input.filterId === undefined) return notFound();
        const warnings = withWarnings([...input.pagingWarnings, ...input.searchWarnings]);
        if (ctx.format === 'json') {
          // The rows as text, from their stored presentations where they serve (freights/presented.ts).
          const { filterId, paging, search } = input;
          const text = await enlistJson(rc(ctx), ctx.language, filterId, paging, search, parts.otherLists, parts.presentations);
          if (text === undefined) return fail(ctx.t, 'freight.enlist.unknown_filter');
          return { ...okJsonText<{ routes: unknown[] }>(`{"routes":${text}}`), warnings };
        }
        const routes = await enlist(rc(ctx), input.filterId, input.paging, input.search, parts.otherLists);
        if (!routes) return fail(ctx.t, 'freight.enlist.unknown_filter');
        return ok({ routes }, warnings);
      },
      page(outcome, ctx, input) {
        if (outcome.kind === 'error') return { redirect: listPath(LIST.ownOpen), ok: false, message: outcome.message };
        const { paging } = input;
        const state = {
          filterId: Number(ctx.path.filterId),
          page: paging.page,
          limit: paging.limit,
          sort: `Routes.${paging.sort}`,
          direction: paging.direction,
        };
        return enlistPage(outcome.data.routes, state, ctx, parts, { search: input.search, warnings: input.searchWarnings });
      },
    }),
    // The owner's transitions without parameters (docs/reference.md#freights): revoke and archive.
    ...(
      [
        ['/freights/revoke/:id', revokeFreight, FREIGHT_DOCS.revoke, 'fv.revoked'],
        ['/freights/archive/:id', archiveFreight, FREIGHT_DOCS.archive, 'fv.archived'],
      ] as const
    ).map(([path, transition, doc, done]) =>
      userEndpoint({
        method: 'POST',
        path,
        doc,
        async handle(ctx) {
          const id = readId(ctx.path.id);
          return id ? transitionOutcome(ctx, await transition(ctx.db, ctx.clock, ctx.caller, id)) : notFound();
        },
        page: (outcome, ctx) => backToFreight(outcome, ctx, ctx.t(done)),
      }),
    ),
    userEndpoint({
      method: 'POST',
      path: '/freights/delivery/:id',
      doc: FREIGHT_DOCS.delivery,
      async handle(ctx) {
        const id = readId(ctx.path.id);
        if (!id) return notFound();
        return transitionOutcome(ctx, await setDeliveryStatus(ctx.db, ctx.clock, ctx.caller, id, readInt(ctx.params.delivery_status)));
      },
      page: (outcome, ctx) =>
        backToFreight(
          outcome,
          ctx,
          ctx.t('fv.delivery.saved', {
            status: outcome.kind === 'ok' ? outcome.data.route.delivery_status_in_words : '',
          }),
        ),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/request/:entity/:objId',
      doc: FREIGHT_DOCS.request,
      async handle(ctx) {
        const warnings: Warning[] = [];
        // The rate search's Book button: the search's pieces, weight and exact places (docs/choices.md).
        const refine = ctx.format === 'html' ? await normaliseBookingForm(ctx) : undefined;
        const row = await bookingRequest(ctx, ctx.path.entity ?? '', readId(ctx.path.objId), warnings, refine);
        if (!row) return notFound();
        return ok({ route: await presentWritten(ctx, row, 'owner') }, withWarnings(warnings));
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? { redirect: viewPath(outcome.data.route.id), message: ctx.t('freight.request.created') }
          : routePage(outcome, ctx),
    }),
  ];
}

/** A freight's fields for the form of a new draft made from it (no id, status or bids). */
function copyForForm(route: FreightView): Partial<FreightView> {
  const { id: _id, status: _status, _bids, deadline: _deadline, winner: _winner, price: _price, ...rest } = route;
  return rest;
}
