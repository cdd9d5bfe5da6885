import { fail, ok } from '../kernel/outcome.ts';
import { readIntWithin, readString } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { countryByCode } from './countries.ts';
import { PLACE_DOCS } from './schema.ts';
import { PLACE_INPUTS, suggestPlaces, type PlaceInput } from './suggest.ts';

const MAX_QUERY = 100;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 20;

/**
 * GET /places/suggest.json?q=…&for=filter|near|freight|rate|lane[&country=DE][&limit=10]: places
 * matching what a person typed, for the list search bar, the freight form, rate search and lane prices
 * (public/app.js). `data.places`; `data.cities_pending` while the city data is still loading
 * (the first question starts it; answers never wait for it long).
 */
export function placeEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/places/suggest',
      doc: PLACE_DOCS.suggest,
      async handle(ctx) {
        const q = (readString(ctx.params.q) ?? '').trim();
        if (q.length < 2 || q.length > MAX_QUERY) return fail(ctx.t, 'places.query_short');
        const input = (readString(ctx.params.for) ?? 'filter').trim().toLowerCase();
        if (!(PLACE_INPUTS as readonly string[]).includes(input)) return fail(ctx.t, 'places.input_unknown');
        const hint = readString(ctx.params.country)?.trim().toUpperCase();
        const limit = readIntWithin(ctx.params.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        const { places, citiesPending } = await suggestPlaces(q, {
          input: input as PlaceInput,
          language: ctx.language,
          country: hint && countryByCode(hint) ? hint : undefined,
          limit,
        });
        return ok({ places, cities_pending: citiesPending });
      },
    }),
  ];
}
