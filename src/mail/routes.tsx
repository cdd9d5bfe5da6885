import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressees } from '../accounts/index.ts';
import { sendsMail } from '../config/mail.ts';
import type { Services } from '../kernel/context.ts';
import { isLanguage, translator, type Language } from '../kernel/i18n.ts';
import { fail, ok } from '../kernel/outcome.ts';
import { sendPage } from '../kernel/render.tsx';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { MAIL_DOCS } from './schema.ts';
import { readSettingsInput, setModes, settingsOf } from './settings.ts';
import type { UnsubscribeTokens } from './unsubscribe.ts';
import { SETTINGS_PATH, settingsPage, settingsSavedPage, unsubscribeDone, unsubscribeInvalid, unsubscribeQuestion } from './views.tsx';

/** docs/reference.md#mail: the caller's own e-mail settings (API and page on the same path). */
export function mailEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: SETTINGS_PATH,
      doc: MAIL_DOCS.get,
      async handle(ctx) {
        return ok({ email: await settingsOf(ctx.db, ctx.caller.userId), sending: sendsMail(ctx.services.config.mail) });
      },
      page: settingsPage,
    }),
    userEndpoint({
      method: 'POST',
      path: SETTINGS_PATH,
      doc: MAIL_DOCS.set,
      async handle(ctx) {
        const input = readSettingsInput(ctx.params);
        if (input.kind === 'invalid') return fail(ctx.t, input.key, input.vars);
        await setModes(ctx.db, ctx.caller.userId, input.modes, ctx.clock.now());
        return ok(
          { email: await settingsOf(ctx.db, ctx.caller.userId), sending: sendsMail(ctx.services.config.mail) },
          input.warnings.length ? input.warnings : undefined,
        );
      },
      page: settingsSavedPage,
    }),
  ];
}

export const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

/**
 * One-click unsubscribe (RFC 8058): the mail's List-Unsubscribe address. A GET (a person
 * following the link, or a scanner fetching it) only asks; a POST without login (the mail client's
 * one-click `List-Unsubscribe=One-Click`, or the page's button) sets the kind to `off`. Plain
 * routes, not endpoints: the link's token is the authority, so no session and no CSRF token are
 * asked for, and a mail client's multipart or form body is read as nothing (http.tsx).
 */
export function registerUnsubscribeRoutes(http: FastifyInstance, services: Services, tokens: UnsubscribeTokens): void {
  const answer = async (req: FastifyRequest, reply: FastifyReply, act: boolean) => {
    const token = String((req.params as { token?: unknown }).token ?? '').slice(0, 200);
    const claim = tokens.read(token);
    const [user] = claim ? await addressees(services.db, [claim.userId]) : [];
    const language: Language = user && isLanguage(user.language) ? user.language : 'eng';
    const t = translator(language);
    const h = { req, reply, caller: null, language };
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!claim || !user) return sendPage(h, 404, unsubscribeInvalid(t));
    if (!act) return sendPage(h, 200, unsubscribeQuestion(t, claim.kind, user.email, `${UNSUBSCRIBE_PATH}/${token}`));
    await setModes(services.db, user.id, { [claim.kind]: 'off' }, services.clock.now());
    return sendPage(h, 200, unsubscribeDone(t, claim.kind, user.email));
  };
  http.get(`${UNSUBSCRIBE_PATH}/:token`, (req, reply) => answer(req, reply, false));
  http.post(`${UNSUBSCRIBE_PATH}/:token`, { bodyLimit: 64 * 1024 }, (req, reply) => answer(req, reply, true));
}
