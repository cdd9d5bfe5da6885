import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import type { Answer } from '../kernel/outcome.ts';
import { isRecord } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Field, PostButton, text, type Column } from '../kernel/ui.tsx';
import { formatKg, formatStamp, readLocaleWeightKg } from '../kernel/locale.ts';
import { freightFields, problemsFromWarnings, type FormState } from '../freights-http/index.ts';
import type { TemplateView } from './present.ts';
import { isAirportCode } from '../places/index.ts';

/**
 * HTML pages of templates (routes.ts). They render the JSON answers' data (`data.templates`); forms post to the same API paths and land
 * back on the index with a flash message (post/redirect/get).
 */

/** A stored template field as text: only scalars are shown. */
const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() || '–' : '–');

/** A template's place as stored (`city:DE-60311`, `airport:FRA`) in words: `DE-60311 Frankfurt am Main`, `FRA`. */
function templatePlace(f: Record<string, unknown>, side: 'from' | 'to'): string {
  const place = f[side];
  const country = f[`${side}_country`];
  const address = f[`${side}_addr`];
  const raw = typeof place === 'string' ? place.replace(/^(city|airport):/i, '').trim() : '';
  const withCountry = /^([A-Za-z]{2})[-\s]+(\d.*)$/.exec(raw);
  const code = withCountry ? withCountry[2]! : raw;
  const cc = withCountry ? withCountry[1]!.toUpperCase() : typeof country === 'string' && !isAirportCode(code) ? country : '';
  const addr = typeof address === 'string' ? address.trim() : '';
  // As the freight page and lists name a place: `04159 Leipzig (DE)` (freight-page.tsx placeLabel).
  return [code, addr, cc && code ? `(${cc})` : ''].filter(Boolean).join(' ') || '–';
}

export interface TemplateFormState {
  state?: FormState;
  /** field name -> message (the name, the API's warnings) */
  problems?: Record<string, string>;
  name?: string;
}

/**
 * GET /templates/index: the company's templates, a Create-freight button each, and the add
 * form: the freight form's own fields (place suggestions, native dates, German numbers, checks
 * while typing) under a name. A form with problems comes back with what was typed.
 */
export function templatesPage(ctx: Ctx<Caller>, templates: TemplateView[], form: TemplateFormState = {}): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const csrf = ctx.reply.generateCsrf();
  const fields = (r: TemplateView): Record<string, unknown> => (isRecord(r.fields) ? r.fields : {});
  const columns: Column<TemplateView>[] = [
    { label: t('tv.col.name'), cell: (r) => <strong>{text(r.name)}</strong> },
    {
      label: t('tv.col.route'),
      cell: (r) => <span class="wrap-text">{`${templatePlace(fields(r), 'from')} → ${templatePlace(fields(r), 'to')}`}</span>,
    },
    {
      label: t('tv.col.weight'),
      cell: (r) => formatKg(readLocaleWeightKg(fields(r).weight, 'eng'), lang) || scalar(fields(r).weight),
      numeric: true,
    },
    { label: t('tv.col.created'), cell: (r) => formatStamp(r.created, lang) || '–' },
    {
      label: '',
      cell: (r) => (
        <PostButton action="/freights/create-from-template" label={t('tv.use')} csrf={csrf} fields={{ template_id: String(r.id) }} />
      ),
    },
  ];
  const { fieldsets, formAttrs, problems } = freightFields(ctx, { state: form.state, warnings: form.problems, markRequired: false });
  const nameProblem = form.problems?.name;
  const hasProblems = Object.keys(problems).length > 0;
  return {
    title: t('tv.title'),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t('tv.title')}</h1>
          <span class="spacer" />
          <a class="button" href="#new-template">
            {t('tv.add')}
          </a>
        </div>
        <p class="hint">{t('tv.hint')}</p>
        <DataTable columns={columns} rows={templates} empty={t('tv.empty')} testId="templates" />
        <h2 id="new-template">{t('tv.add')}</h2>
        {hasProblems && (
          <p class="flash error" role="alert" data-testid="form-problems">
            {t('tv.not_saved')}
          </p>
        )}
        <form class="stack panel" method="post" action="/templates/add" noValidate {...formAttrs} data-testid="template-form">
          <CsrfField token={csrf} />
          <div class="form-grid">
            <Field id="t-name" label={t('tv.name')} error={nameProblem} required requiredLabel={t('tv.name.required')}>
              <input
                id="t-name"
                name="name"
                required
                maxLength={200}
                value={form.name ?? ''}
                aria-describedby="t-name-error"
                aria-invalid={nameProblem ? 'true' : undefined}
                aria-required="true"
                autofocus={nameProblem ? true : undefined}
                autocomplete="off"
              />
            </Field>
          </div>
          {fieldsets}
          <div>
            <button type="submit">{t('tv.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

/** POST /templates/add: back to the index with a flash; refused, the form itself with what was typed and each problem. */
export async function templateAdded(
  outcome: Answer<{ template: TemplateView }>,
  ctx: Ctx<Caller>,
  state: FormState | undefined,
  list: () => Promise<TemplateView[]>,
): Promise<PageResult> {
  if (outcome.kind === 'error') {
    const problems = problemsFromWarnings(state?.warnings, ctx.t);
    if (outcome.message === ctx.t('template.name_required')) problems.name = outcome.message;
    // A refusal no field explains (none known today) is still said, above the form.
    if (!Object.keys(problems).length && !Object.keys(state?.problems ?? {}).length) problems.name = outcome.message;
    return templatesPage(ctx, await list(), { state, problems, name: typeof ctx.params.name === 'string' ? ctx.params.name : '' });
  }
  const name = outcome.data.template.name;
  return { redirect: '/templates/index', message: ctx.t('tv.saved', { name }) };
}

/** POST /freights/create-from-template: to the new freight. */
export function createdFromTemplate(outcome: Answer<{ route_id: number }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: '/templates/index', ok: false, message: outcome.message };
  return { redirect: `/freights/view/${outcome.data.route_id}`, message: ctx.t('tv.created') };
}
