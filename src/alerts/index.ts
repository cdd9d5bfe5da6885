/**
 * Alerts after the commit: a queue of what entered the market, whose alerts (notifications and
 * events of matching saved searches, offers and freights) are computed by a worker in every
 * server process after the publishing transaction committed. The module owns `alert_jobs`; the
 * handlers come from the modules that know what fits (searches, vehicles), wired in app.ts.
 * The module's public surface.
 */
import type { FastifyInstance } from 'fastify';
import type { AlertWorker } from './queue.ts';

export { AlertWorker, alertQueueStats, enqueueAlert, enqueueAlerts, type AlertHandler, type AlertWritten } from './queue.ts';
export type { AlertSubject } from './tables.ts';

/** The worker sweeps while the server listens; closing waits for the alert under way (before the database closes). */
export function attachAlertWorker(http: FastifyInstance, worker: AlertWorker): void {
  http.addHook('onListen', async () => worker.start());
  http.addHook('onClose', async () => worker.stop());
}
