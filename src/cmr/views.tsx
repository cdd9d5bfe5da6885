import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import type { Answer } from '../kernel/outcome.ts';
import { Facts } from '../kernel/ui.tsx';
import type { CmrView } from './cmr.ts';
import type { CmrParty, CmrPlace } from './note.ts';
import { NAME_MAX, RESERVATIONS_MAX, type CmrRole } from './tables.ts';

/**
 * The e-CMR's pages (English and German, one column on a phone): the note of a freight for its
 * two parties with the loading signatures' forms, and the inspector's verify page.
 */

const or = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '–' : String(v));

function partyText(p: CmrParty) {
  const a = p.postal_address;
  const place = [[a.postcode, a.city_name].filter(Boolean).join(' '), a.country_code].filter(Boolean).join(', ');
  return (
    <span>
      {or(p.name)}
      {place && <br />}
      {place}
      {p.tax_registration && <br />}
      {p.tax_registration?.id}
    </span>
  );
}
const placeText = (p: CmrPlace) => [p.name, p.id, p.country_code].filter(Boolean).join(' · ') || '–';

/** The note's boxes and signatures, as on the PDF (shared by the parties' page and the consignee's). */
export function NoteBody({ ctx, cmr }: { ctx: Ctx<Caller | null>; cmr: CmrView }) {
  const t = ctx.t;
  return (
    <div class="cmr-note">
      <Facts
        items={[
          [t('cmr.status'), <strong data-testid="cmr-status">{t(`cmr.status.${cmr.status}`)}</strong>],
          [`1 ${t('cmr.sender')}`, partyText(cmr.sender)],
          [`2 ${t('cmr.consignee')}`, cmr.consignee.name ? partyText(cmr.consignee) : t('cmr.consignee_at_delivery')],
          [`3 ${t('cmr.delivery_place')}`, placeText(cmr.delivery_place)],
          [`4 ${t('cmr.taking_over')}`, `${placeText(cmr.taking_over)} · ${or(cmr.taking_over.date)}`],
          [`16 ${t('cmr.carrier')}`, partyText(cmr.carrier)],
          ...(cmr.vehicle_registration ? [[t('cmr.vehicle'), cmr.vehicle_registration] as [string, string]] : []),
          [`11 ${t('cmr.gross_weight_total')}`, cmr.gross_weight === null ? '–' : `${cmr.gross_weight} kg`],
          [t('cmr.dangerous'), or(cmr.dangerous_goods)],
        ]}
      />
      <h2>{t('cmr.goods')}</h2>
      <ol class="cmr-goods">
        {cmr.goods.map((g) => (
          <li>
            {t('cmr.marks')}: {or(g.marks)} · {t('cmr.packages')}: {or(g.packages)} · {t('cmr.nature')}: {or(g.nature)} ·{' '}
            {t('cmr.gross_weight')}: {g.gross_weight === null ? '–' : `${g.gross_weight} kg`}
          </li>
        ))}
      </ol>
      <h2>{t('cmr.signatures')}</h2>
      {cmr.signatures.length === 0 && <p class="muted">{t('cmr.unsigned')}</p>}
      <ul class="cmr-signatures">
        {cmr.signatures.map((s) => (
          <li data-testid={`cmr-signature-${s.role}`}>
            <strong>{t(`cmr.role.${s.role as CmrRole}`)}</strong>: {s.name}, {s.at} ({cmr.timezone})
            <br />
            {t('cmr.reservations')}: {s.reservations ?? t('cmr.page.none')}
            <br />
            <span class="hint wrap-text">
              {t('cmr.page.hash')}: <code>{s.hash}</code>
            </span>
          </li>
        ))}
      </ul>
      <p class="hint wrap-text">
        {t('cmr.head')}: <code data-testid="cmr-head">{cmr.hash}</code>
      </p>
    </div>
  );
}

/** A signature's form: the name and the reservations, large on a phone. */
export function SignForm({ ctx, action, role, csrf }: { ctx: Ctx<Caller | null>; action: string; role?: CmrRole; csrf?: string }) {
  const t = ctx.t;
  const id = role ?? 'consignee';
  return (
    <form method="post" action={action} class="panel cmr-sign" data-testid={`cmr-sign-${id}`}>
      {csrf && <CsrfField token={csrf} />}
      {role && <input type="hidden" name="role" value={role} />}
      <h2>{t('cmr.page.sign_as', { role: t(`cmr.role.${role ?? 'consignee'}`) })}</h2>
      <div class="field">
        <label for={`${id}-name`}>{t('cmr.page.name')}</label>
        <input id={`${id}-name`} name="name" required maxLength={NAME_MAX} autocomplete="name" />
      </div>
      <div class="field">
        <label for={`${id}-reservations`}>{t('cmr.reservations')}</label>
        <textarea
          id={`${id}-reservations`}
          name="reservations"
          rows={4}
          maxLength={RESERVATIONS_MAX}
          aria-describedby={`${id}-reservations-hint`}
        />
        <span class="hint" id={`${id}-reservations-hint`}>
          {t('cmr.page.reservations_hint', { max: RESERVATIONS_MAX })}
        </span>
      </div>
      <button type="submit">{t('cmr.page.sign')}</button>
    </form>
  );
}

/** GET /freights/cmr/{id}: the note, and the caller's signature form while its role has not signed. */
export function cmrPage(
  ctx: Ctx<Caller>,
  outcome: Answer<{ cmr: CmrView }>,
  sides: { owner: boolean; winner: boolean },
  freightId: number,
): Page {
  const t = ctx.t;
  if (outcome.kind !== 'ok') return { title: t('cmr.title'), body: <p class="flash error">{outcome.message}</p> };
  const { cmr } = outcome.data;
  const csrf = ctx.reply.generateCsrf();
  const signed = new Set(cmr.signatures.map((s) => s.role));
  const mine: CmrRole[] = [...(sides.owner ? (['sender'] as const) : []), ...(sides.winner ? (['carrier'] as const) : [])];
  const open = cmr.status === 'issued' ? mine.filter((r) => !signed.has(r)) : [];
  const waiting = cmr.status === 'issued' ? (['sender', 'carrier'] as const).filter((r) => !signed.has(r) && !mine.includes(r)) : [];
  return {
    title: t('cmr.page.title', { number: cmr.number }),
    body: (
      <div class="cmr-page">
        <h1>{t('cmr.page.title', { number: cmr.number })}</h1>
        <p>
          <a href={`/freights/view/${freightId}#documents`}>{t('cmr.page.back')}</a>
        </p>
        {open.map((role) => (
          <SignForm ctx={ctx} action={`/freights/cmr-sign/${freightId}`} role={role} csrf={csrf} />
        ))}
        {waiting.map((role) => (
          <p class="next-step">{t('cmr.page.waiting', { role: t(`cmr.role.${role}`) })}</p>
        ))}
        {sides.winner && cmr.status !== 'delivered' && (
          <form method="post" action={`/freights/cmr-link/${freightId}`} class="panel" data-testid="cmr-link">
            <CsrfField token={csrf} />
            <h2>{t('cmr.link.title')}</h2>
            <p>{t('cmr.link.intro')}</p>
            <button type="submit" class="secondary">
              {t('cmr.link.make')}
            </button>
          </form>
        )}
        <NoteBody ctx={ctx} cmr={cmr} />
      </div>
    ),
  };
}

/** GET /cmr/verify/{number}: the hash's field and, when one was given, valid or not and the status; nothing else. */
export function verifyPage(
  ctx: Ctx<Caller | null>,
  number: string,
  hash: string,
  outcome: Answer<{ valid: boolean; status: string }>,
): Page {
  const t = ctx.t;
  const result = outcome.kind === 'ok' && hash !== '' ? outcome.data : undefined;
  return {
    title: t('cmr.verify.title'),
    body: (
      <div class="cmr-verify">
        <h1>{t('cmr.verify.title')}</h1>
        <p>{t('cmr.verify.intro', { number })}</p>
        <form method="get" action={`/cmr/verify/${encodeURIComponent(number)}`} class="panel">
          <div class="field">
            <label for="hash">{t('cmr.verify.hash')}</label>
            <input id="hash" name="hash" value={hash} maxLength={200} autocomplete="off" spellcheck={false} />
          </div>
          <button type="submit">{t('cmr.verify.check')}</button>
        </form>
        {result && (
          <div class={`flash ${result.valid ? 'ok' : 'error'}`} role="status" data-testid="cmr-verify-result">
            <p>{t(result.valid ? 'cmr.verify.valid' : 'cmr.verify.invalid', { number })}</p>
            <p>{t('cmr.verify.status', { status: t(`cmr.status.${result.status}` as 'cmr.status.issued') })}</p>
          </div>
        )}
      </div>
    ),
  };
}

/**
 * GET /cmr/consignee/{token}: the consignee's page on the driver's phone, without an account: the
 * language chosen on the page (`lang`), the note, and the signature's large fields. With the
 * script (public/app.js, `data-offline-sign`) the signature is kept on the phone while there is
 * no connection and sent when there is again; without it the form posts as any form.
 */
export function consigneePage(ctx: Ctx<Caller | null>, token: string, cmr: CmrView): Page {
  const t = ctx.t;
  const self = `/cmr/consignee/${token}`;
  const lang = ctx.language;
  return {
    title: t('cmr.consignee.title', { number: cmr.number }),
    body: (
      <div class="cmr-consignee" lang={lang === 'deu' ? 'de' : 'en'}>
        <nav class="cmr-languages" aria-label={t('cmr.consignee.language')}>
          {(['eng', 'deu'] as const).map((l) => (
            <a
              href={`${self}?lang=${l}`}
              aria-current={l === lang ? 'true' : undefined}
              lang={l === 'deu' ? 'de' : 'en'}
              hreflang={l === 'deu' ? 'de' : 'en'}
            >
              {l === 'deu' ? 'Deutsch' : 'English'}
            </a>
          ))}
        </nav>
        <h1>{t('cmr.consignee.title', { number: cmr.number })}</h1>
        {cmr.status === 'loaded' && (
          <form
            method="post"
            action={`${self}?lang=${lang}`}
            class="panel cmr-sign cmr-sign-large"
            data-testid="cmr-sign-consignee"
            data-offline-sign={`${self}.json`}
            data-saved={t('cmr.consignee.saved')}
            data-sending={t('cmr.consignee.sending')}
            data-done={t('cmr.consignee.done')}
            data-delivered={t('cmr.status.delivered')}
          >
            <CsrfField token={ctx.reply.generateCsrf()} />
            <p>{t('cmr.consignee.intro')}</p>
            <div class="field">
              <label for="consignee-name">{t('cmr.page.name')}</label>
              <input id="consignee-name" name="name" required maxLength={NAME_MAX} autocomplete="name" />
            </div>
            <div class="field">
              <label for="consignee-reservations">{t('cmr.reservations')}</label>
              <textarea
                id="consignee-reservations"
                name="reservations"
                rows={5}
                maxLength={RESERVATIONS_MAX}
                aria-describedby="consignee-reservations-hint"
              />
              <span class="hint" id="consignee-reservations-hint">
                {t('cmr.page.reservations_hint', { max: RESERVATIONS_MAX })}
              </span>
            </div>
            <p class="offline-state" role="status" aria-live="polite" />
            <button type="submit">{t('cmr.page.sign')}</button>
          </form>
        )}
        {cmr.status === 'issued' && <p class="next-step">{t('cmr.consignee.not_yet')}</p>}
        {cmr.status === 'delivered' && (
          <p class="flash ok" data-testid="cmr-consignee-done">
            {t('cmr.consignee.done')}
          </p>
        )}
        <NoteBody ctx={ctx} cmr={cmr} />
      </div>
    ),
  };
}

/** The freight page's line for its two parties: the note's number and status, linking to its page. */
export function cmrLine(ctx: Ctx<Caller>, freightId: number, cmr: CmrView) {
  const t = ctx.t;
  return (
    <section class="panel" id="cmr" data-testid="cmr-section">
      <h2>{t('cmr.page.open')}</h2>
      <p class="cmr-line">
        <a href={`/freights/cmr/${freightId}`} data-testid="cmr-open">
          {cmr.number}
        </a>{' '}
        · {t('cmr.status')}: {t(`cmr.status.${cmr.status}`)}
      </p>
    </section>
  );
}
