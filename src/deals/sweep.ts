import type { FastifyInstance } from 'fastify';
import type { Services } from '../kernel/context.ts';
import { sweepAbandonedUploads, uploadsStatus } from './store.ts';

/** How often each process sweeps what killed uploads left. */
export const UPLOAD_SWEEP_MS = 5 * 60_000;

/**
 * The leftovers of killed uploads (store.ts sweepAbandonedUploads) are removed when the server
 * starts listening and every UPLOAD_SWEEP_MS after, by every process (each sweep deletes a row
 * once, whoever runs it); /healthz shows what is under way and what was left
 * (`uploads`: running, abandoned, their parts and bytes). Answers the sweep, for tests.
 */
export function attachUploadSweeper(http: FastifyInstance, services: Pick<Services, 'db' | 'clock'>) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const sweep = async () => {
    const swept = await sweepAbandonedUploads(services.db, services.clock.now());
    if (swept.uploads) http.log.warn({ swept }, 'uploads left by a killed process removed');
    return swept;
  };
  const tick = () => {
    running ??= sweep()
      .catch((err) => http.log.error({ err }, 'upload sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  http.addHook('onListen', async () => {
    tick();
    timer = setInterval(tick, UPLOAD_SWEEP_MS);
    timer.unref();
  });
  http.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
  return { sweep, status: () => uploadsStatus(services.db, services.clock.now()) };
}
