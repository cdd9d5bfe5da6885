/**
 * The market's load search (docs/reference.md#load-search), the engine every list of the exchange narrows by:
 * its parameters read and written (search.ts), their API description (schema.ts), and what they
 * mean for a table's place and window columns as SQL pieces (sql.ts). Freights use it today,
 * vehicle offers next. The module's public surface.
 */
export {
  ADR_CLASSES,
  BODIES,
  MAX_LOADING_METERS,
  DEFAULT_RADIUS_KM,
  formatPlacePattern,
  isEmptySearch,
  MAX_RADIUS_KM,
  MIN_RADIUS_KM,
  parseCenter,
  parsePlacePattern,
  placeKeys,
  readLoadSearch,
  SEARCH_PARAMS,
  searchToParams,
  type AdrClass,
  type Body,
  type TruckFit,
  type DayWindow,
  type LoadSearch,
  type Near,
  type PlacePattern,
  type SearchParamName,
} from './search.ts';
export { SEARCH_INPUT_PROPERTIES } from './schema.ts';
export { countsAt, type Counted } from './counts.ts';
export { planAlike, runSearched, writtenPage } from './lists.ts';
export {
  distanceFromSql,
  distanceSql,
  type Placed,
  type RoadDistance,
  roadDistanceBetween,
  routeDistanceKm,
  routeRoadDistance,
} from './distance.ts';
export { RoadRouter, type RoutingOptions, round4, routingIdle, routingOn, startRoadRouter, stopRoadRouter } from './roads.ts';
export {
  airportsNear,
  codeKey,
  containing,
  inBoxSql,
  nearSql,
  nearWays,
  placesSql,
  windowSql,
  type PlaceColumns,
  type PostalRanges,
  type WindowColumns,
} from './sql.ts';
