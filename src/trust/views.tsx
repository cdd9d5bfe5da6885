import { BlockAction, CompanyName, VerifiedMark, profilePath, PROFILE_LIMITS } from '../accounts/index.ts';
import type { Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { formatDay, formatStamp, numberFormatFor } from '../kernel/locale.ts';
import { Facts, Field, Pager } from '../kernel/ui.tsx';
import type { ProfileView, RatingView } from './schema.ts';
import { SCORE_MAX, SCORE_MIN, TEXT_MAX } from './tables.ts';

/** The trust module's pages: a company's profile (ratings, rate form, block), the own profile's form, the blocked companies. */

export interface ProfilePageData {
  profile: ProfileView;
  ratings: RatingView[];
  page: number;
  /** delivered freights between the caller's company and this one that the caller has not rated yet */
  ratable: Array<{ id: number; display_id: string }>;
  blocked: boolean;
  own: boolean;
}

const stars = (score: number) => '★'.repeat(score) + '☆'.repeat(SCORE_MAX - score);

function number(ctx: Ctx, n: number): string {
  return numberFormatFor(ctx.language, { maximumFractionDigits: 1 }).format(n);
}

function RatingItem({ ctx, rating, canReply }: { ctx: Ctx; rating: RatingView; canReply: boolean }) {
  const t = ctx.t;
  return (
    <li class="rating" data-testid="rating">
      <p>
        <span class="stars" role="img" aria-label={`${rating.score} / ${SCORE_MAX}`}>
          {stars(rating.score)}
        </span>{' '}
        <span class="muted">{formatStamp(rating.created, ctx.language) || rating.created}</span>
      </p>
      <p class="muted">
        <CompanyName company={rating.company} t={t} /> · {t('company.ratings.freight', { freight: rating.display_id })}
      </p>
      {rating.comment && <p class="wrap-text">{rating.comment}</p>}
      {rating.reply && (
        <blockquote class="reply">
          <strong>{t('company.reply')}:</strong> <span class="wrap-text">{rating.reply}</span>
        </blockquote>
      )}
      {!rating.reply && canReply && (
        <details>
          <summary>{t('company.reply.write')}</summary>
          <form method="post" action={`/companies/reply/${rating.id}`} class="stack">
            <CsrfField token={ctx.reply.generateCsrf()} />
            <input type="hidden" name="back" value={profilePath(rating.rated)} />
            <label for={`reply-${rating.id}`}>{t('company.reply')}</label>
            <textarea id={`reply-${rating.id}`} name="reply" maxLength={TEXT_MAX} rows={3} required />
            <div>
              <button type="submit">{t('company.reply.send')}</button>
            </div>
          </form>
        </details>
      )}
    </li>
  );
}

export function profilePage(ctx: Ctx, data: ProfilePageData): Page {
  const t = ctx.t;
  const p = data.profile;
  const none = t('company.none');
  const show = (v: string | number | null) => (v === null || v === '' ? none : String(v));
  const here = profilePath(p.id);
  const rating =
    p.ratings.average === null
      ? t('company.rating.none', { count: p.ratings.count })
      : t('company.rating.value', { average: number(ctx, p.ratings.average), count: p.ratings.count });
  return {
    title: `${p.name} · ${t('company.title')}`,
    body: (
      <section class="company-profile" data-testid="company-profile">
        <h1>
          {p.name}
          {p.verified && (
            <>
              {' '}
              <VerifiedMark t={t} />
            </>
          )}
        </h1>
        <p class="muted" data-testid="verification">
          {p.verified
            ? t('company.verified_since', { date: formatDay((p.verified_at ?? '').slice(0, 10), ctx.language) })
            : t('company.not_verified')}
        </p>
        {data.blocked && <p class="flash warn">{t('company.blocked_note')}</p>}
        <Facts
          items={[
            [t('company.country'), show(p.country)],
            [t('company.field.city'), [p.postcode, p.city].filter(Boolean).join(' ') || none],
            [t('company.field.vat_id'), show(p.vat_id)],
            [t('company.field.phone'), p.phone ? <a href={`tel:${p.phone.replace(/[^+\d]/g, '')}`}>{p.phone}</a> : none],
            [
              t('company.field.website'),
              p.website ? (
                <a href={p.website} rel="nofollow noopener noreferrer" class="wrap-text">
                  {p.website}
                </a>
              ) : (
                none
              ),
            ],
            [t('company.field.fleet_size'), show(p.fleet_size)],
            [t('company.field.founded'), show(p.founded)],
            [t('company.member_since'), formatDay(p.member_since.slice(0, 10), ctx.language)],
            [t('company.completed'), t('company.completed.value', { owner: p.completed.as_owner, carrier: p.completed.as_carrier })],
            [t('company.rating'), <span data-testid="rating-summary">{rating}</span>],
          ]}
        />
        {p.description && <p class="wrap-text company-description">{p.description}</p>}
        {!data.own && (
          <p class="toolbar">
            <BlockAction t={t} csrf={ctx.reply.generateCsrf()} company={p} blocked={data.blocked} back={here} />
          </p>
        )}
        {data.own && (
          <p>
            <a class="button secondary" href="/companies/edit">
              {t('company.edit.title')}
            </a>
          </p>
        )}
        {data.ratable.length > 0 && (
          <form method="post" action={`/companies/rate/${data.ratable[0]!.id}`} class="stack rate-form" id="rate" data-testid="rate-form">
            <h2>{t('company.rate.title')}</h2>
            <CsrfField token={ctx.reply.generateCsrf()} />
            <input type="hidden" name="back" value={here} />
            {/* One freight at a time, the newest: after its rating the next one is offered. */}
            <p>
              {t('company.rate.freight')}: <strong>{data.ratable[0]!.display_id}</strong>
            </p>
            <fieldset class="score">
              <legend>{t('company.rate.score')}</legend>
              {Array.from({ length: SCORE_MAX - SCORE_MIN + 1 }, (_, i) => SCORE_MAX - i).map((s) => (
                <label class="check">
                  <input type="radio" name="score" value={String(s)} required checked={s === SCORE_MAX} /> {stars(s)}
                </label>
              ))}
            </fieldset>
            <Field id="rate-comment" label={t('company.rate.comment')}>
              <textarea id="rate-comment" name="comment" maxLength={TEXT_MAX} rows={3} />
            </Field>
            <div>
              <button type="submit">{t('company.rate.send')}</button>
            </div>
          </form>
        )}
        <h2>{t('company.ratings')}</h2>
        {data.ratings.length ? (
          <ul class="ratings" data-testid="ratings">
            {data.ratings.map((r) => (
              <RatingItem ctx={ctx} rating={r} canReply={data.own} />
            ))}
          </ul>
        ) : (
          <p class="muted">{t('company.ratings.none')}</p>
        )}
        <Pager page={data.page} limit={20} count={p.ratings.count} href={(n) => `${here}?page=${n}`} t={t} />
      </section>
    ),
  };
}

const EDIT_FIELDS = [
  ['country', 'text', 2],
  ['city', 'text', PROFILE_LIMITS.city],
  ['postcode', 'text', PROFILE_LIMITS.postcode],
  ['vat_id', 'text', 40],
  ['phone', 'tel', PROFILE_LIMITS.phone],
  ['website', 'url', PROFILE_LIMITS.website],
  ['fleet_size', 'number', 6],
  ['founded', 'number', 4],
] as const;

export function editPage(
  ctx: Ctx,
  profile: ProfileView | undefined,
  error?: string,
  form?: { typed: Record<string, unknown>; problems: Record<string, string> },
): Page {
  const t = ctx.t;
  const value = (key: string) => {
    const typed = form?.typed[key];
    if (typeof typed === 'string') return typed;
    const v = profile?.[key as keyof ProfileView];
    return v === null || v === undefined ? '' : String(v);
  };
  return {
    title: t('company.edit.title'),
    body: (
      <section>
        <h1>{t('company.edit.title')}</h1>
        {profile && (
          <p>
            <CompanyName company={profile} t={t} /> · <a href="/companies/blocked">{t('company.blocked.title')}</a>
          </p>
        )}
        <p class="muted">{t('company.edit.intro')}</p>
        {error && (
          <p class="flash error" role="alert" data-testid="form-problems">
            {error}
          </p>
        )}
        <form method="post" action="/companies/edit" class="stack profile-form" data-testid="profile-form">
          <CsrfField token={ctx.reply.generateCsrf()} />
          {EDIT_FIELDS.map(([key, type, max]) => (
            <Field id={`company-${key}`} label={t(`company.field.${key}`)} error={form?.problems[key]}>
              <input
                id={`company-${key}`}
                name={key}
                type={(type === 'number' ? 'text' : type) as 'text'}
                inputMode={type === 'number' ? 'numeric' : 'text'}
                maxLength={max}
                value={value(key)}
                aria-invalid={form?.problems[key] ? 'true' : undefined}
                aria-describedby={`company-${key}-error`}
              />
            </Field>
          ))}
          <Field id="company-description" label={t('company.field.description')} error={form?.problems.description}>
            <textarea id="company-description" name="description" maxLength={PROFILE_LIMITS.description} rows={5}>
              {value('description')}
            </textarea>
          </Field>
          <div>
            <button type="submit">{t('company.edit.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

export function blockedPage(ctx: Ctx, companies: Array<{ id: number; name: string }>): Page {
  const t = ctx.t;
  return {
    title: t('company.blocked.title'),
    body: (
      <section>
        <h1>{t('company.blocked.title')}</h1>
        {companies.length ? (
          <ul class="blocked" data-testid="blocked-companies">
            {companies.map((c) => (
              <li>
                <a href={profilePath(c.id)}>{c.name}</a>{' '}
                <BlockAction t={t} csrf={ctx.reply.generateCsrf()} company={c} blocked={true} back="/companies/blocked" />
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">{t('company.blocked.none')}</p>
        )}
      </section>
    ),
  };
}
