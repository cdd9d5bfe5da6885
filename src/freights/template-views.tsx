import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { addMessages } from '../kernel/i18n.ts';
import type { Answer } from '../kernel/outcome.ts';
import { isRecord } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Field, Pager, PostButton, text, type Column } from '../kernel/ui.tsx';
import { formatKg, formatStamp, readLocaleWeightKg } from '../kernel/locale.ts';
import { formStateOf, problemsFromWarnings, type FormState } from './form-input.ts';
import { freightFields } from './form-page.tsx';
import { namesOfCompanies } from '../accounts/companies.ts';
import type { FlightView, TemplateView } from './templates.ts';

/**
 * HTML pages of templates and flights (src/freights/templates.ts). They render the JSON
 * answers' data (`data.templates`, `data.flights`); forms post to the same API paths and land
 * back on the index with a flash message (post/redirect/get).
 */

addMessages('eng', {
  'tv.title': 'Templates',
  'tv.empty': 'No templates yet.',
  'tv.col.name': 'Name',
  'tv.col.route': 'Route',
  'tv.col.weight': 'Weight (kg)',
  'tv.col.created': 'Created',
  'tv.use': 'Create freight',
  'tv.add': 'New template',
  'tv.name': 'Template name',
  'tv.save': 'Save template',
  'tv.not_saved': 'The template was not saved. Please check the marked fields.',
  'tv.name.required': 'needed',
  'tv.saved': 'Template “{name}” saved.',
  'tv.created': 'Freight created from the template.',
  'tv.hint': 'A freight made from a template starts as your own order (taken, your company as carrier).',
  'flv.title': 'Flights',
  'flv.empty': 'No flights in the schedule.',
  'flv.col.number': 'Flight',
  'flv.col.from': 'From',
  'flv.col.to': 'To',
  'flv.col.etd': 'Departure',
  'flv.col.eta': 'Arrival',
  'flv.col.provider': 'Provider',
  'flv.own': 'own company',
  'flv.request': 'Request booking',
  'flv.add': 'Add a flight',
  'flv.number': 'Flight number',
  'flv.iata.hint': 'IATA code, e.g. FRA',
  'flv.save': 'Add flight',
  'flv.saved': 'Flight {number} added.',
});

addMessages('deu', {
  'tv.title': 'Vorlagen',
  'tv.empty': 'Noch keine Vorlagen.',
  'tv.col.name': 'Name',
  'tv.col.route': 'Strecke',
  'tv.col.weight': 'Gewicht (kg)',
  'tv.col.created': 'Angelegt',
  'tv.use': 'Fracht anlegen',
  'tv.add': 'Neue Vorlage',
  'tv.name': 'Name der Vorlage',
  'tv.save': 'Vorlage speichern',
  'tv.not_saved': 'Die Vorlage wurde nicht gespeichert. Bitte die markierten Felder prüfen.',
  'tv.name.required': 'nötig',
  'tv.saved': 'Vorlage „{name}“ gespeichert.',
  'tv.created': 'Fracht aus der Vorlage angelegt.',
  'tv.hint': 'Eine Fracht aus einer Vorlage ist gleich Ihr eigener Auftrag (vergeben, Ihre Firma als Frachtführer).',
  'flv.title': 'Flüge',
  'flv.empty': 'Keine Flüge im Flugplan.',
  'flv.col.number': 'Flug',
  'flv.col.from': 'Von',
  'flv.col.to': 'Nach',
  'flv.col.etd': 'Abflug',
  'flv.col.eta': 'Ankunft',
  'flv.col.provider': 'Anbieter',
  'flv.own': 'eigene Firma',
  'flv.request': 'Buchung anfragen',
  'flv.add': 'Flug hinzufügen',
  'flv.number': 'Flugnummer',
  'flv.iata.hint': 'IATA-Code, z. B. FRA',
  'flv.save': 'Flug hinzufügen',
  'flv.saved': 'Flug {number} hinzugefügt.',
});

/** A stored template field as text: only scalars are shown. */
const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() || '–' : '–');

function field(name: string, label: string, hint?: string, extra: Record<string, unknown> = {}) {
  return (
    <label>
      {label}
      <input name={name} {...extra} />
      {hint && <span class="hint">{hint}</span>}
    </label>
  );
}

/** A template's place as stored (`city:DE-60311`, `airport:FRA`) in words: `DE-60311 Frankfurt am Main`, `FRA`. */
function templatePlace(f: Record<string, unknown>, side: 'from' | 'to'): string {
  const place = f[side];
  const country = f[`${side}_country`];
  const address = f[`${side}_addr`];
  const raw = typeof place === 'string' ? place.replace(/^(city|airport):/i, '').trim() : '';
  const withCountry = /^([A-Za-z]{2})[-\s]+(\d.*)$/.exec(raw);
  const code = withCountry ? withCountry[2]! : raw;
  const cc = withCountry ? withCountry[1]!.toUpperCase() : typeof country === 'string' && !/^[A-Za-z]{3}$/.test(code) ? country : '';
  const addr = typeof address === 'string' ? address.trim() : '';
  return [code, cc && code ? `(${cc})` : '', addr].filter(Boolean).join(' ') || '–';
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
  list: () => Promise<TemplateView[]>,
): Promise<PageResult> {
  if (outcome.kind === 'error') {
    const state = formStateOf(ctx);
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

/** GET /flights/index: the schedule, a booking request per flight, and the add form. */
export async function flightsPage(ctx: Ctx<Caller>, flights: FlightView[], paging: { page: number; limit: number }): Promise<Page> {
  const t = ctx.t;
  const lang = ctx.language;
  // Providers by name (the JSON gives company ids).
  const providers = await namesOfCompanies(
    ctx.db,
    flights.map((f) => f.company),
  );
  const csrf = ctx.reply.generateCsrf();
  const me = ctx.caller.companyId;
  const columns: Column<FlightView>[] = [
    { label: t('flv.col.number'), cell: (r) => text(r.flight_number) },
    { label: t('flv.col.from'), cell: (r) => text(r.from) },
    { label: t('flv.col.to'), cell: (r) => text(r.to) },
    { label: t('flv.col.etd'), cell: (r) => formatStamp(r.etd, lang) || '–' },
    { label: t('flv.col.eta'), cell: (r) => formatStamp(r.eta, lang) || '–' },
    { label: t('flv.col.provider'), cell: (r) => (r.company === me ? t('flv.own') : (providers.get(r.company) ?? '–')) },
    {
      label: '',
      cell: (r) => <PostButton action={`/freights/request/flight/${r.id}`} label={t('flv.request')} csrf={csrf} variant="secondary" />,
    },
  ];
  const href = (page: number) => `/flights/index?${new URLSearchParams({ page: String(page), limit: String(paging.limit) })}`;
  return {
    title: t('flv.title'),
    body: (
      <section>
        <h1>{t('flv.title')}</h1>
        <DataTable columns={columns} rows={flights} empty={t('flv.empty')} testId="flights" />
        <Pager page={paging.page} limit={paging.limit} count={flights.length} href={href} t={t} />
        <h2>{t('flv.add')}</h2>
        <form class="stack panel" method="post" action="/flights/add">
          <CsrfField token={csrf} />
          <div class="form-grid">
            {field('flight_number', t('flv.number'), undefined, { required: true, maxLength: 20 })}
            {field('from', t('flv.col.from'), t('flv.iata.hint'), { required: true })}
            {field('to', t('flv.col.to'), t('flv.iata.hint'), { required: true })}
            {field('etd', t('flv.col.etd'), undefined, { required: true, type: 'datetime-local' })}
            {field('eta', t('flv.col.eta'), undefined, { required: true, type: 'datetime-local' })}
          </div>
          <div>
            <button type="submit">{t('flv.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

/** POST /flights/add: back to the schedule with a flash either way. */
export function flightAdded(outcome: Answer<{ flight: FlightView }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: '/flights/index', ok: false, message: outcome.message };
  const number = outcome.data.flight.flight_number ?? '';
  return { redirect: '/flights/index', message: ctx.t('flv.saved', { number }) };
}
