import type { FastifyInstance } from 'fastify';
import type { Services } from '../kernel/context.ts';
import { WebhookDispatcher, type EventsKept } from './dispatcher.ts';
import type { WebhookSettings } from '../config/webhooks.ts';

/**
 * The dispatcher lives as long as the listening server: it starts when the server listens and
 * stops (in-flight attempts recorded) when it closes, before the database is closed. Apps that
 * never listen (tests through inject) run none; tests drive `deliverDue` themselves.
 */
export function attachWebhookDispatcher(
  http: FastifyInstance,
  services: Services,
  options: { settings?: WebhookSettings; keeps?: EventsKept } = {},
): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher({
    db: services.db,
    clock: services.clock,
    settings: options.settings ?? services.config.webhooks,
    log: http.log,
    keeps: options.keeps,
  });
  http.addHook('onListen', async () => dispatcher.start());
  http.addHook('onClose', async () => dispatcher.stop());
  return dispatcher;
}
