/**
 * The market module's table (migration 0405): road distances an operator's routing server
 * (ROUTING_URL, an OSRM server) answered, one row per place pair (roads.ts). A pair is its two
 * points' coordinates rounded to 4 decimals (about 10 m), origin first: a route's length may
 * differ between the two directions.
 */
export interface RoadDistancesTable {
  from_latitude: string;
  from_longitude: string;
  to_latitude: string;
  to_longitude: string;
  /** the route's length in km (OSRM's `distance`, metres, ÷ 1,000) */
  km: number;
  fetched: Date;
}

export interface MarketTables {
  road_distances: RoadDistancesTable;
}
