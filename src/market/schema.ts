import { Type } from '@sinclair/typebox';
import { BODIES, DEFAULT_RADIUS_KM, MAX_LOADING_METERS, MAX_RADIUS_KM, MIN_RADIUS_KM } from './search.ts';

const described = (description: string) => Type.Optional(Type.String({ description }));

/** The load search's parameters for the API description (GET /openapi.json), as the lists, counts and saved searches take them. */
export const SEARCH_INPUT_PROPERTIES = {
  from: described('origin: comma-separated DE (country), DE-60 (country and postal prefix), airport:FRA'),
  to: described('destination, as from'),
  from_near: described('origin within from_radius of lat,lon or airport:XXX (the freight’s coordinates, else its airport’s)'),
  from_radius: Type.Optional(
    Type.Number({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: `km; default ${DEFAULT_RADIUS_KM}` }),
  ),
  to_near: described('destination within to_radius of lat,lon or airport:XXX'),
  to_radius: Type.Optional(
    Type.Number({ minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, description: `km; default ${DEFAULT_RADIUS_KM}` }),
  ),
  pickup_from: described('YYYY-MM-DD: the loading window (etd … etd_end) overlaps the days from here (application time zone)'),
  pickup_to: described('YYYY-MM-DD, inclusive'),
  delivery_from: described('YYYY-MM-DD: the delivery window (eta … eta_end) overlaps the days from here'),
  delivery_to: described('YYYY-MM-DD, inclusive'),
  weight_min: Type.Optional(Type.Number({ minimum: 0, description: 'kg' })),
  weight_max: Type.Optional(Type.Number({ minimum: 0, description: 'kg' })),
  media: Type.Optional(Type.Union([Type.Literal('road'), Type.Literal('air')])),
  q: described('words that must each appear in display_id, the places of the caption, or (owner and winner) refs values; case-insensitive'),
  body: described(`the load’s body is one of these, comma-separated: ${BODIES.join(', ')}; loads without a body do not match`),
  adr: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1, description: '1: loads with an ADR class (dangerous goods); 0: loads without one' }),
  ),
  loading_meters_max: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: MAX_LOADING_METERS,
      description: 'the load takes at most these loading metres (up to 2 decimals); loads without loading metres do not match',
    }),
  ),
  pallet_exchange: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1, description: '1: loads with pallet exchange; 0: loads without (not said counts as without)' }),
  ),
};
