/**
 * E-mail (docs/reference.md#mail): per-user settings per kind, mails derived from the outbox of events
 * (a trigger writes `mail_events` in each event's transaction, migration 0300), fanned out to
 * users, sent by any server process, daily digests at 07:00 and one-click unsubscribe. The
 * module's public surface: what app.ts wires, the CLI's commands, the SQL piece the outbox's
 * pruning asks.
 */
import type { FastifyInstance } from 'fastify';
import { sendsMail } from '../config/mail.ts';
import type { Services } from '../kernel/context.ts';
import { mailStatus, routeEvents, type MailStatus } from './outbox.ts';
import { registerUnsubscribeRoutes } from './routes.tsx';
import { UnsubscribeTokens } from './unsubscribe.ts';
import { MailWorker, smtpTransport, type MailTransport } from './worker.ts';

export { mailEndpoints } from './routes.tsx';
export { MAIL_ERRORS, MAIL_MESSAGES } from './messages.ts';
export { mailKeepsEvent, mailQueueStats, type MailStatus } from './outbox.ts';
export { mailCommands } from './cli.ts';
export type { MailWorker } from './worker.ts';

/** The e-mail settings in the menu (beside the company's settings). */
export const MAIL_SECTION = { prefix: '/users/settings', href: '/users/settings', label: 'nav.mail' } as const;

export interface MailOptions {
  /** The key of the unsubscribe tokens (accounts/tokens.ts derivedKey). */
  unsubscribeKey: Buffer;
  /** Another SMTP side than SMTP_URL's (benchmarks); tests use a real SMTP server through SMTP_URL. */
  transport?: MailTransport;
}

/**
 * Wires mail into the app: the event types to mail (none without SMTP_URL: then nothing is queued
 * and nothing else changes), the unsubscribe routes, and, while the server listens, the worker
 * (null without SMTP_URL). Answers the worker (tests drain it) and the status for /healthz.
 */
export async function attachMail(
  http: FastifyInstance,
  services: Services,
  options: MailOptions,
): Promise<{ worker: MailWorker | null; status: () => Promise<MailStatus> }> {
  const settings = services.config.mail;
  const sending = sendsMail(settings);
  await routeEvents(services.db, sending);
  const tokens = new UnsubscribeTokens(options.unsubscribeKey);
  registerUnsubscribeRoutes(http, services, tokens);
  const status = () => mailStatus(services.db, services.clock.now(), sending, (d) => services.clock.format(d));
  if (!sending) return { worker: null, status };
  const worker = new MailWorker({
    db: services.db,
    clock: services.clock,
    from: settings.from,
    publicUrl: settings.publicUrl,
    tokens,
    transport: options.transport ?? smtpTransport(settings.smtpUrl),
    log: http.log,
  });
  http.addHook('onListen', async () => worker.start());
  http.addHook('onClose', async () => worker.stop());
  return { worker, status };
}
