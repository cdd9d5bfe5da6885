import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import type { Translate } from '../kernel/i18n.ts';
import type { Answer } from '../kernel/outcome.ts';
import type { PageResult } from '../kernel/route.tsx';
import type { MailSettingsView } from './settings.ts';
import { MAIL_KINDS, MAIL_MODES, type MailKind } from './tables.ts';

/** The e-mail settings page (GET /users/settings) and the unsubscribe pages (routes.tsx). */

export const SETTINGS_PATH = '/users/settings';

type Settings = { email: MailSettingsView; sending: boolean };

/** One choice per kind: three radio buttons in a fieldset, usable by keyboard and at 390 px. */
export function settingsPage(outcome: Answer<Settings>, ctx: Ctx<Caller>): Page {
  const t = ctx.t;
  const data = outcome.kind === 'ok' ? outcome.data : null;
  return {
    title: t('mail.settings.title'),
    body: (
      <section class="narrow">
        <h1>{t('mail.settings.title')}</h1>
        <p class="hint">{t('mail.settings.intro', { zone: ctx.clock.zone, email: ctx.caller.email })}</p>
        {data && !data.sending && (
          <p class="flash warn" data-testid="mail-not-sending">
            {t('mail.settings.not_sending')}
          </p>
        )}
        {outcome.kind === 'error' && <p class="flash error">{outcome.message}</p>}
        <form method="post" action={SETTINGS_PATH} class="stack" data-testid="mail-settings">
          <CsrfField token={ctx.reply.generateCsrf()} />
          {MAIL_KINDS.map((kind) => (
            <fieldset class="checks" data-testid={`mail-kind-${kind}`}>
              <legend>{t(`mail.kind.${kind}`)}</legend>
              <p class="hint">{t(`mail.kind.${kind}.hint`)}</p>
              {MAIL_MODES.map((mode) => (
                <label class="check">
                  <input type="radio" name={`email[${kind}]`} value={mode} checked={data?.email[kind] === mode} />
                  <span>{t(`mail.mode.${mode}`)}</span>
                </label>
              ))}
            </fieldset>
          ))}
          <div>
            <button type="submit">{t('mail.settings.save')}</button>
          </div>
        </form>
        <p>
          <a href="/webhooks/index">{t('mail.settings.webhooks')}</a>
        </p>
      </section>
    ),
  };
}

/** After saving: back to the page, with what happened. */
export function settingsSavedPage(outcome: Answer<Settings>, ctx: Ctx<Caller>): PageResult {
  return outcome.kind === 'ok'
    ? { redirect: SETTINGS_PATH, message: ctx.t('mail.settings.saved') }
    : { redirect: SETTINGS_PATH, ok: false, message: outcome.message };
}

/** GET /mail/unsubscribe/{token}: asks; only the button (a POST) unsubscribes. */
export function unsubscribeQuestion(t: Translate, kind: MailKind, email: string, action: string): Page {
  return {
    title: t('mail.unsub.title'),
    body: (
      <section class="narrow">
        <h1>{t('mail.unsub.title')}</h1>
        <p>{t('mail.unsub.question', { kind: t(`mail.kind.${kind}`), email })}</p>
        {/* No CSRF token: the link's token is the authority (RFC 8058), and the POST does only this. */}
        <form method="post" action={action}>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" data-testid="unsubscribe">
            {t('mail.unsub.confirm')}
          </button>
        </form>
        <p>
          <a href={SETTINGS_PATH}>{t('mail.unsub.settings')}</a>
        </p>
      </section>
    ),
  };
}

export function unsubscribeDone(t: Translate, kind: MailKind, email: string): Page {
  return {
    title: t('mail.unsub.title'),
    body: (
      <section class="narrow">
        <h1>{t('mail.unsub.title')}</h1>
        <p class="flash ok" data-testid="unsubscribed">
          {t('mail.unsub.done', { kind: t(`mail.kind.${kind}`), email })}
        </p>
        <p>
          <a href={SETTINGS_PATH}>{t('mail.unsub.settings')}</a>
        </p>
      </section>
    ),
  };
}

export function unsubscribeInvalid(t: Translate): Page {
  return {
    title: t('mail.unsub.title'),
    body: (
      <section class="narrow">
        <h1>{t('mail.unsub.title')}</h1>
        <p>{t('mail.unsub.invalid')}</p>
        <p>
          <a href={SETTINGS_PATH}>{t('mail.unsub.settings')}</a>
        </p>
      </section>
    ),
  };
}
