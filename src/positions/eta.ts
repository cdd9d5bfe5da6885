/**
 * The ETA and the milestones of tracking by permission (docs/reference.md#tracking), pure functions of
 * positions and the freight's ends. The method, as docs/choices.md ("Tracking: the ETA") states it:
 *
 *   km_left = great-circle distance (haversine, R = 6,371 km) from the last position to the
 *             destination × ROAD_FACTOR (1.3: roads are longer than the straight line);
 *   driving = km_left / AVERAGE_SPEED_KMH (65 km/h: a truck's average over motorways and towns);
 *   the driver's breaks of Regulation (EC) 561/2006 in their simplest form: 45 minutes after each
 *   4.5 hours of driving, and 11 hours' rest after each 9 hours (instead of a break);
 *   eta.at  = the last position's `at` + driving + breaks.
 *
 * It ignores the real road network and its closures, traffic, ferries and tunnels, driving bans
 * (weekends, holidays), border waits, the speed the truck reports, the time already driven today,
 * loading and unloading, and the opening hours at the destination.
 */

export const ROAD_FACTOR = 1.3;
export const AVERAGE_SPEED_KMH = 65;
const EARTH_RADIUS_KM = 6371;
/** A milestone's geofence: a position within this distance of an end is "at" it (docs/reference.md#tracking). */
export const GEOFENCE_KM = 1;

export interface Point {
  latitude: number;
  longitude: number;
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The great-circle distance in km (haversine). */
export function greatCircleKm(a: Point, b: Point): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Eta {
  at: Date;
  /** road km left, one decimal */
  kmLeft: number;
}

/** Hours of driving plus the breaks and rests they require (see above). */
export function travelHours(km: number): number {
  const driving = km / AVERAGE_SPEED_KMH;
  const rests = Math.max(0, Math.ceil(driving / 9) - 1);
  const breaks = Math.max(0, Math.ceil(driving / 4.5) - 1) - rests;
  return driving + rests * 11 + breaks * 0.75;
}

/** The ETA from a position at `at` to the destination; null without a destination. */
export function etaFrom(last: Point & { at: Date }, destination: Point | null): Eta | null {
  if (!destination) return null;
  const km = greatCircleKm(last, destination) * ROAD_FACTOR;
  const kmLeft = Math.round(km * 10) / 10;
  return { at: new Date(last.at.getTime() + Math.round(travelHours(km) * 3_600_000)), kmLeft };
}

export interface Milestones {
  arrived_pickup: Date | null;
  departed_pickup: Date | null;
  arrived_delivery: Date | null;
}

/**
 * The milestones after these positions (oldest first), from those recognised before: the first
 * position within GEOFENCE_KM of the origin is `arrived_pickup`, the first after it outside the
 * fence `departed_pickup`, the first within the fence of the destination (and not of the origin)
 * `arrived_delivery`. Each is recognised once and never moves.
 */
export function foldMilestones(
  before: Milestones,
  positions: ReadonlyArray<Point & { at: Date }>,
  origin: Point | null,
  destination: Point | null,
): Milestones {
  const m = { ...before };
  for (const p of positions) {
    const atOrigin = origin !== null && greatCircleKm(p, origin) <= GEOFENCE_KM;
    const atDestination = destination !== null && greatCircleKm(p, destination) <= GEOFENCE_KM;
    if (atOrigin) {
      if (!m.arrived_pickup) m.arrived_pickup = p.at;
    } else if (m.arrived_pickup && !m.departed_pickup && p.at > m.arrived_pickup) {
      m.departed_pickup = p.at;
    }
    if (atDestination && !atOrigin && !m.arrived_delivery) m.arrived_delivery = p.at;
  }
  return m;
}
