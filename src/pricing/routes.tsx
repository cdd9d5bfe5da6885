import { Type } from '@sinclair/typebox';
import { searchAirports } from '../airports/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { PAGE_FORM_INVALID } from '../kernel/errors.ts';
import { fail, failWith, notFound, ok, type Outcome } from '../kernel/outcome.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, readId, readInt, readIntWithin, readString } from '../kernel/params.ts';
import { publicEndpoint, userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { airportText, cityText } from '../places/index.ts';
import {
  normaliseSearchForm,
  problemOfRefusal,
  readSearchParams,
  SearchInputError,
  type SearchFormState,
  type SearchParams,
} from './fields.ts';
import { rateLineForBooking } from './handover.ts';
import { historyPage, searchPage } from './views.tsx';
import { FEEDBACK_DATA, LOCATIONS_DATA, SEARCH_INPUT, SEARCH_RECORD_SCHEMA, SEARCH_RESULT_SCHEMA } from './schema.ts';
import { presentSearch, runSearch, type SearchResult, type SearchView } from './search.ts';
import { companyName } from '../accounts/index.ts';
import { findSearch, insertFeedback, insertSearch, knownZones, searchHistory, type SearchScope } from './store.ts';

const LOCATIONS_LIMIT = 20;

/** `data` of a search: the rates and combinations, and the stored search. */
type SearchAnswer = SearchResult & { searchEntity: SearchView };

/**
 * Validates, runs and stores a search; bad input is `status: error`, nothing stored. With the
 * page's form (`form`), a refusal that names one of its fields is also put next to that field.
 */
async function searchAndStore(ctx: Ctx<Caller | null>, scope: SearchScope, form?: SearchFormState): Promise<Outcome<SearchAnswer>> {
  let params: SearchParams;
  try {
    params = readSearchParams(ctx.params);
  } catch (err) {
    if (err instanceof SearchInputError) {
      const beside = form && problemOfRefusal(err.message, ctx.t);
      if (form && beside) form.problems[beside.field] = beside.message;
      return fail(ctx.t, 'pricing.search_invalid', { message: err.message });
    }
    throw err;
  }
  const result = await runSearch(ctx.db, ctx.clock, params, scope);
  const record = await insertSearch(ctx.db, {
    companyId: scope.kind === 'company' ? scope.companyId : null,
    userId: ctx.caller && scope.kind === 'company' ? ctx.caller.userId : null,
    publicCompanyId: scope.kind === 'public' ? scope.companyId : null,
    params,
    resultCount: result.rates.length,
    created: ctx.clock.now(),
  });
  return ok({ ...result, searchEntity: presentSearch(record, ctx.clock) });
}

export function pricingEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/pricing/search/results',
      doc: {
        summary: 'Search trucking rates between a postal area and an airport (stored; its id in searchEntity.id)',
        input: SEARCH_INPUT,
        data: SEARCH_RESULT_SCHEMA,
      },
      // The page's form, numbers typed in the user's language, read before the API's rules (fields.ts).
      read: (ctx) => (ctx.format === 'html' ? normaliseSearchForm(ctx.params, ctx.t, ctx.language) : undefined),
      handle: (ctx, form) =>
        form && Object.keys(form.problems).length
          ? Promise.resolve(failWith(PAGE_FORM_INVALID, ctx.t('pv.error.form')))
          : searchAndStore(ctx, { kind: 'company', companyId: ctx.caller.companyId }, form),
      page: (outcome, ctx, form) =>
        outcome.kind === 'ok'
          ? searchPage(ctx, outcome.data)
          : searchPage(ctx, null, form && Object.keys(form.problems).length ? ctx.t('pv.error.form') : outcome.message, form),
    }),
    userEndpoint({
      // Rerun of a stored search of the caller's company against the current rates.
      method: 'GET',
      path: '/pricing/search/results',
      doc: {
        summary: 'Rerun a stored search of the caller’s company against the current rates',
        input: Type.Object({ search_id: Type.Integer({ minimum: 1 }) }),
        data: SEARCH_RESULT_SCHEMA,
        answers: { 404: 'No stored search of the caller’s company with this id.' },
      },
      async handle(ctx) {
        if (ctx.params.search_id === undefined || ctx.params.search_id === '') return fail(ctx.t, 'pricing.search_id_required');
        const id = readId(ctx.params.search_id);
        const record = id === undefined ? undefined : await findSearch(ctx.db, ctx.caller.companyId, id);
        if (!record) return notFound();
        const result = await runSearch(ctx.db, ctx.clock, record.params, { kind: 'company', companyId: ctx.caller.companyId });
        return ok({ ...result, searchEntity: presentSearch(record, ctx.clock, result.rates.length) });
      },
      // Without search_id the page is the empty search form.
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? searchPage(ctx, outcome.data)
          : searchPage(ctx, null, ctx.params.search_id === undefined ? undefined : outcome.message),
    }),
    publicEndpoint({
      // Public search of one company's `public_search` sheets; stored without a company.
      method: 'POST',
      path: '/pricing/public-search/:companyId/results',
      doc: {
        summary: 'Search the public_search rate sheets of one company, without a token',
        path: { companyId: Type.Integer({ minimum: 1 }) },
        input: SEARCH_INPUT,
        data: SEARCH_RESULT_SCHEMA,
      },
      async handle(ctx) {
        const companyId = readId(ctx.path.companyId);
        if (companyId === undefined || !(await companyName(ctx.db, companyId))) return notFound();
        return searchAndStore(ctx, { kind: 'public', companyId });
      },
    }),
    userEndpoint({
      method: 'GET',
      path: '/pricing/search/history',
      doc: {
        summary: 'The stored searches of the caller’s company, newest first',
        input: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        }),
        data: Type.Object({ searches: Type.Array(SEARCH_RECORD_SCHEMA) }),
      },
      async handle(ctx) {
        const limit = readIntWithin(ctx.params.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        const page = readIntWithin(ctx.params.page, 1, 1, Number.MAX_SAFE_INTEGER);
        const rows = await searchHistory(ctx.db, ctx.caller.companyId, limit, (page - 1) * limit);
        return ok({ searches: rows.map((r) => presentSearch(r, ctx.clock)) });
      },
      page: (outcome, ctx) => historyPage(ctx, outcome.kind === 'ok' ? outcome.data.searches : []),
    }),
    userEndpoint({
      method: 'GET',
      path: '/pricing/search/location/:query/:type',
      doc: {
        summary: 'Autocomplete: airports by code, name or city; postal areas of the rate sheets the caller can search',
        path: { query: Type.String({ minLength: 2 }), type: Type.Union([Type.Literal('airport'), Type.Literal('city')]) },
        data: LOCATIONS_DATA,
      },
      async handle(ctx) {
        const query = (ctx.path.query ?? '').trim();
        const type = (ctx.path.type ?? '').trim().toLowerCase();
        if (type !== 'airport' && type !== 'city') return fail(ctx.t, 'pricing.type_unknown', { type: type.slice(0, 20) });
        if (query.length < 2) return fail(ctx.t, 'pricing.query_short');
        if (type === 'airport') {
          const airports = searchAirports(query.replace(/^airport:/i, ''), LOCATIONS_LIMIT);
          return ok({
            locations: airports.map((a) => ({
              value: airportText(a.iata),
              label: `${a.iata} – ${a.name}${a.city ? `, ${a.city}` : ''}`,
              country: a.country,
            })),
          });
        }
        const text = query.replace(/^city:/i, '').trim();
        const m = /^([A-Za-z]{2})(?:\s*-\s*|\s+)?([A-Za-z0-9 ]*)$/.exec(text);
        let country: string | null = null;
        let postal = text.replace(/\s+/g, '').toUpperCase();
        if (m && !/^\d/.test(text)) {
          country = m[1]!.toUpperCase();
          postal = m[2]!.replace(/\s+/g, '').toUpperCase();
        }
        if (!/^[A-Z0-9]{0,12}$/.test(postal) || (!country && postal.length < 2)) return ok({ locations: [] });
        const zones = await knownZones(ctx.db, ctx.caller.companyId, country, postal, LOCATIONS_LIMIT);
        return ok({
          locations: zones.map((z) => ({
            value: cityText(z.country, z.prefix),
            label: ctx.t('pv.postal_area', { zone: `${z.country}-${z.prefix}` }),
            country: z.country,
          })),
        });
      },
    }),
    userEndpoint({
      // Feedback on a search result (not a search).
      method: 'POST',
      path: '/pricing/search/rate-search',
      doc: {
        summary: 'Feedback on a search result (not a search): thumbs up (1) or down (0)',
        input: Type.Object({
          search_id: Type.Integer({ minimum: 1 }),
          rating: Type.Union([Type.Literal(0), Type.Literal(1)]),
          rate_id: Type.Optional(Type.Integer({ minimum: 1 })),
        }),
        data: FEEDBACK_DATA,
        answers: { 404: 'No stored search of the caller’s company with this search_id.' },
      },
      async handle(ctx) {
        const searchId = readId(ctx.params.search_id);
        const search = searchId === undefined ? undefined : await findSearch(ctx.db, ctx.caller.companyId, searchId);
        if (!search) return notFound();
        const rating = readInt(ctx.params.rating);
        if (rating !== 0 && rating !== 1) return fail(ctx.t, 'pricing.rating_invalid');
        let rateId: number | null = null;
        const rateText = readString(ctx.params.rate_id);
        if (ctx.params.rate_id !== undefined && ctx.params.rate_id !== null && rateText !== '') {
          const id = readId(ctx.params.rate_id);
          if (id === undefined) return fail(ctx.t, 'pricing.rate_id_invalid');
          if (!(await rateLineForBooking(ctx.db, ctx.caller.companyId, id))) return fail(ctx.t, 'pricing.rate_unknown');
          rateId = id;
        }
        const row = await insertFeedback(ctx.db, {
          searchId: search.id,
          companyId: ctx.caller.companyId,
          userId: ctx.caller.userId,
          rating,
          rateId,
          created: ctx.clock.now(),
        });
        return ok({
          feedback: {
            id: row.id,
            search_id: row.search_id,
            rating: row.rating,
            rate_id: row.rate_id,
            created: ctx.clock.format(row.created),
          },
        });
      },
    }),
  ];
}

/** The rate search's place in the menu. */
export const PRICING_SECTION = { prefix: '/pricing', href: '/pricing/search/results', label: 'nav.rates' } as const;
