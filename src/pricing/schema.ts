import { Type, type Static } from '@sinclair/typebox';
import { timestamp } from '../kernel/fields.ts';

/**
 * Rate search answers and parameters as JSON Schema (docs/reference.md#rate-search, contract). The types the
 * search code produces are derived from these schemas (RateOut, CombinationOut), so the API
 * description and the answers cannot differ.
 */

const money = (description: string) => Type.Number({ description: `${description}, rounded to cents` });

export const RATE_SCHEMA = Type.Object(
  {
    id: Type.Integer({ description: 'the rate line; usable as objId of /freights/request/rate/{id}.json' }),
    sheet_id: Type.Integer(),
    company: Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'the carrier whose sheet it is' }),
    origin: Type.String({ description: 'the line’s zone: airport:<IATA> or city:<CC>-<prefix>' }),
    destination: Type.String(),
    transit_days: Type.Union([Type.Integer(), Type.Null()]),
    chargeable_weight: Type.Number({ description: 'kg: max(weight, volume / 6000)' }),
    currency: Type.String(),
    rate_base: money('max(min_charge, cw × price per kg of its band), or uld_count × uld_price'),
    rate_fsc: money('rate_base × fsc_pct / 100'),
    rate_ssc: money('cw × ssc_per_kg'),
    amount: money('rate_base + rate_fsc + rate_ssc'),
  },
  { $id: 'Rate', description: 'A priced rate line (decisions.md §5)' },
);

export const COMBINATION_SCHEMA = Type.Object(
  {
    via: Type.String({
      pattern: '^airport:[A-Z]{3}$',
      description: 'the hub airport, as origins and destinations are written: airport:<IATA> (airport:FRA)',
    }),
    // Two rates, origin → via and via → destination: a 2020-12 tuple (prefixItems), as TypeBox's Tuple is not.
    legs: Type.Unsafe<[Static<typeof RATE_SCHEMA>, Static<typeof RATE_SCHEMA>]>({
      type: 'array',
      prefixItems: [RATE_SCHEMA, RATE_SCHEMA],
      items: false,
      minItems: 2,
      maxItems: 2,
      description: 'the two legs: origin → via, via → destination',
    }),
    currency: Type.String(),
    amount: Type.Number({ description: 'the sum of both legs' }),
    transit_days: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Combination', description: 'Two legs origin → via → destination in one currency' },
);

const PIECE = Type.Object({
  pieces: Type.Optional(Type.Integer({ minimum: 0 })),
  depth: Type.Optional(Type.String()),
  width: Type.Optional(Type.String()),
  height: Type.Optional(Type.String()),
  weight: Type.Optional(Type.String({ description: 'kg, of the line (all its pieces)' })),
});

const SEARCH_PARAMS = {
  origin: Type.String({ description: 'airport:<IATA> or city:<CC>-<postal code>' }),
  destination: Type.String({ description: 'airport:<IATA> or city:<CC>-<postal code>' }),
  weight: Type.Union([Type.String({ description: 'kg, exact decimal as text' }), Type.Null()]),
  direction: Type.Union([Type.Literal('auto'), Type.Literal('export'), Type.Literal('import')]),
  allow_combinations: Type.Union([Type.Literal(0), Type.Literal(1)]),
  pieces_json: Type.Array(PIECE),
  unitOfLength: Type.Union([Type.Literal('cm'), Type.Literal('in')]),
  search_type: Type.Union([Type.Literal('standard'), Type.Literal('uld')]),
  uld_count: Type.Union([Type.Integer(), Type.Null()]),
};

export const SEARCH_RECORD_SCHEMA = Type.Object(
  { id: Type.Integer(), ...SEARCH_PARAMS, created: timestamp(), result_count: Type.Integer() },
  { $id: 'SearchRecord', description: 'A stored search: its id, the request parameters as read, created, result_count' },
);

export const SEARCH_RESULT_SCHEMA = Type.Object({
  rates: Type.Array(RATE_SCHEMA, { maxItems: 200, description: 'cheapest first, then transit days' }),
  combinations: Type.Array(COMBINATION_SCHEMA, { maxItems: 50, description: 'empty unless allow_combinations = 1' }),
  searchEntity: SEARCH_RECORD_SCHEMA,
});

export const SEARCH_INPUT = Type.Object({
  origin: Type.String({ description: 'airport:<IATA> or city:<CC>-<postal code>' }),
  destination: Type.String({ description: 'airport:<IATA> or city:<CC>-<postal code>; one side an airport' }),
  weight: Type.Optional(
    Type.Union([Type.Number({ minimum: 0 }), Type.String()], { description: 'kg; without it the pieces’ weights add up' }),
  ),
  direction: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('export'), Type.Literal('import')], { default: 'auto' })),
  allow_combinations: Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1: two-leg combinations through a hub' }),
  ),
  pieces_json: Type.Optional(
    Type.Array(
      Type.Object({
        pieces: Type.Optional(Type.Integer({ minimum: 0 })),
        depth: Type.Optional(Type.Number({ minimum: 0 })),
        width: Type.Optional(Type.Number({ minimum: 0 })),
        height: Type.Optional(Type.Number({ minimum: 0 })),
        weight: Type.Optional(Type.Number({ minimum: 0 })),
      }),
      { maxItems: 500, description: 'piece lines (also as a JSON text)' },
    ),
  ),
  unitOfLength: Type.Optional(Type.Union([Type.Literal('cm'), Type.Literal('in')], { default: 'cm' })),
  search_type: Type.Optional(Type.String({ description: 'uld: price per ULD (uld_count × uld_price)' })),
  uld_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const LOCATIONS_DATA = Type.Object({
  locations: Type.Array(
    Type.Object({
      value: Type.String({ description: 'directly usable as origin or destination' }),
      label: Type.String(),
      country: Type.String(),
    }),
  ),
});

export const FEEDBACK_DATA = Type.Object({
  feedback: Type.Object({
    id: Type.Integer(),
    search_id: Type.Integer(),
    rating: Type.Integer(),
    rate_id: Type.Union([Type.Integer(), Type.Null()]),
    created: timestamp(),
  }),
});

export type RateOut = Static<typeof RATE_SCHEMA>;
export type CombinationOut = Static<typeof COMBINATION_SCHEMA>;
