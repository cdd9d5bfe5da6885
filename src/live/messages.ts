import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The live board's texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const LIVE_MESSAGES = catalogue(
  {
    'live.too_many_streams':
      'Too many open event streams for this user ({max} on this server); close one (another tab or client) and try again.',
  },
  {
    'live.too_many_streams':
      'Zu viele offene Ereignis-Streams für diesen Benutzer ({max} auf diesem Server); schließen Sie einen (einen anderen Tab oder Client) und versuchen Sie es erneut.',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof LIVE_MESSAGES> {}
}

/** The codes of the live board's refusals (kernel/errors.ts): code -> its English text. */
export const LIVE_ERRORS = errorCodes(LIVE_MESSAGES, ['live.too_many_streams']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof LIVE_ERRORS> {}
}
