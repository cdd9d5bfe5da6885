import { Type } from '@sinclair/typebox';

/** Place suggestions, for the API description. */

const PLACE = Type.Object(
  {
    kind: Type.Union([Type.Literal('country'), Type.Literal('postal'), Type.Literal('airport'), Type.Literal('city')]),
    value: Type.String({
      description: 'what the input takes (empty for a city in the freight form: it gives country, name and coordinates)',
    }),
    label: Type.String(),
    country: Type.String(),
    name: Type.Optional(Type.String()),
    postal: Type.Optional(Type.String()),
    latitude: Type.Optional(Type.Number()),
    longitude: Type.Optional(Type.Number()),
    population: Type.Optional(Type.Integer()),
    distance: Type.Optional(Type.Number({ description: 'km from the city asked about' })),
  },
  { $id: 'Place', description: 'A place a person can type: a country, a postal area, an airport or a city' },
);

export const PLACE_DOCS = {
  suggest: {
    summary:
      'Places matching what a person typed (countries, postal areas, airports, GeoNames cities), each with the value one kind of input takes',
    input: Type.Object({
      q: Type.String({ minLength: 2, maxLength: 100 }),
      for: Type.Optional(
        Type.Union([Type.Literal('filter'), Type.Literal('near'), Type.Literal('freight'), Type.Literal('rate'), Type.Literal('lane')], {
          default: 'filter',
          description:
            'the input: `filter` (list search from/to), `near` (a radius centre), `freight` (freight form), `rate` (rate search), `lane` (lane prices: postal areas, a city as the area of its centre)',
        }),
      ),
      country: Type.Optional(Type.String({ description: 'a country the form knows already: its postal areas first' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
    }),
    data: Type.Object({
      places: Type.Array(PLACE),
      cities_pending: Type.Boolean({ description: 'the city data is still loading (the first question starts it)' }),
    }),
  },
};
