/**
 * Tracking by permission (docs/reference.md#tracking): where an awarded freight's load is, for its two
 * parties only, until delivery. Positions (from the winner's telematics or the driver's phone
 * through a link without an account, src/links), milestones from 1 km geofences, the ETA
 * (eta.ts, its method), the events `freight.milestone` and `freight.late`, the owner's reads
 * logged for the winner, the server-drawn map, and the sweeper (lateness, delivery, retention).
 * Not to be mixed with src/tracking: the public AWB status tracking of air cargo. The module's
 * public surface.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../kernel/context.ts';
import { TrackingSweeper } from './store.ts';

export { positionEndpoints, trackingSection } from './routes.tsx';
export { POSITION_ERRORS, POSITION_MESSAGES } from './messages.ts';
export { POSITION_EVENT_DOCS } from './schema.ts';
export { sweepTracking, TrackingSweeper, KEPT_AFTER_DELIVERY_DAYS, MAX_POSITIONS, SWEEP_INTERVAL_MS } from './store.ts';
export { etaFrom, greatCircleKm, foldMilestones, AVERAGE_SPEED_KMH, ROAD_FACTOR, GEOFENCE_KM } from './eta.ts';
export { MILESTONE_TYPES, type MilestoneType, type PositionTables } from './tables.ts';
export { trackingStates, type TrackingState } from './queue.ts';
export { trackingMarks } from './list-marks.tsx';

/** Sweeps lateness, delivery and retention while the server listens, on every process (the sweep is safe at once on several). */
export function attachTrackingSweeper(
  http: FastifyInstance,
  services: Pick<Services, 'db' | 'clock'>,
  intervalMs?: number,
): TrackingSweeper {
  const sweeper = new TrackingSweeper(services.db, services.clock, {
    intervalMs,
    onError: (err) => http.log.error({ err }, 'tracking sweep failed'),
  });
  http.addHook('onListen', async () => sweeper.start());
  http.addHook('onClose', async () => sweeper.stop());
  return sweeper;
}
