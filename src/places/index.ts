/**
 * The places module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { cityNear, cityOf } from './cities.ts';
export { cityNameIn } from './city-names.ts';
export { countryByCode, countryName, fold, searchCountries } from './countries.ts';
export {
  airportPoint,
  airportsWithin,
  boundingBox,
  type Box,
  distanceKm,
  greatCircleKmSql,
  type Point,
  ROAD_FACTOR,
  roadEstimateKm,
} from './geo.ts';
export { airportText, cityText, countryAndPostal, splitLocation } from './location.ts';
export { PLACE_ERRORS, PLACE_MESSAGES } from './messages.ts';
export { postalCentre, type PostalCentre, postalCentresWithin, postalRangesWithin } from './postal-centres.ts';
export {
  AIRPORT_CODE_PATTERN,
  airportCode,
  airportCodeOf,
  isAirportCode,
  isAirportCodeSql,
  isKnownAirport,
  type PlaceOf,
  placePoint,
  townOfCode,
} from './point.ts';
export { isPostalPrefix, POSTAL_AREA, postalKey } from './postal.ts';
export { laneAreaOfText, pointText, type Resolution, resolvePlaceText, type ResolvedPlace, townIntoForm } from './resolve.ts';
export { placeEndpoints } from './routes.ts';
