import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../../kernel/context.ts';
import type { Page } from '../../kernel/html.tsx';
import { CsrfField } from '../../kernel/html.tsx';
import { formatNumber, toDateTimeLocal } from '../../kernel/locale.ts';
import { Field } from '../../kernel/ui.tsx';
import { countryName } from '../../places/index.ts';
import { centreOfPostalPlace, type FormState } from './form-input.ts';
import { SHARE_KEYS, type FreightView, type PresentedPiece, type ShareKey } from '../../freights/index.ts';
import { ADR_CLASSES, BODIES } from '../../market/index.ts';
import { isOneOf, isRecord } from '../../kernel/params.ts';

/**
 * The freight form behind /freights/add and /freights/edit/{id}. Field names are the API's
 * (`from`, `etd`, `pieces[0][weight]`, `refs[customer]`), values shown in the user's language;
 * form-input.ts reads them back before the same handler runs. Each problem is shown next to its
 * field with the text as typed; public/app.js checks the same rules while typing (data-check).
 */

/** What publishing needs (freight-page.tsx publishGaps): marked with * in the form. */
const REQUIRED = new Set(['from', 'to', 'etd', 'weight']);

export interface FormPageOptions {
  /** the saved freight (edit), or a freight to copy (add) */
  route?: Partial<FreightView>;
  mode: 'add' | 'edit';
  state?: FormState;
  /** per field: the API's warnings of the save, as messages */
  warnings?: Record<string, string>;
  copyOf?: number;
  /** the lane's market price, shown beside the price field (src/lanes, through routes.tsx) */
  marketPrice?: ComponentChildren;
}

const CATEGORIES = ['ftl', 'ltl', 'express', 'air'] as const;

/**
 * What a freight's `refs.target_rate` is called: a booking request made from a rate (`refs.entity`
 * `rate`, the rate search's Book button) carries the rate's price, "Price (from the rate)"; any
 * other is the shipper's own non-binding target price. The form and the freight page say the same.
 */
export function targetPriceLabel(refs: unknown, t: Ctx['t']): string {
  return t(isRecord(refs) && refs.entity === 'rate' ? 'fv.target_rate' : 'fv.form.target_rate');
}

export interface FreightFieldsOptions {
  route?: Partial<FreightView>;
  state?: FormState;
  /** per field: the API's warnings of the save, as messages */
  warnings?: Record<string, string>;
  /** mark what publishing needs with * (the freight form; a template is never published) */
  markRequired: boolean;
  /** the lane's market price beside the price field (the freight form) */
  marketPrice?: ComponentChildren;
}

/**
 * The freight's fields as the freight form and the template form show them: route (place with
 * suggestions, country, address, coordinates), dates (native inputs), load and piece lines,
 * each with its problem beside it and the first problem focused; plus the form attributes
 * public/app.js checks with while typing.
 */
export function freightFields(
  ctx: Ctx<Caller>,
  options: FreightFieldsOptions,
): { fieldsets: ComponentChildren; formAttrs: Record<string, string>; problems: Record<string, string> } {
  const t = ctx.t;
  const lang = ctx.language;
  const r: Partial<FreightView> = options.route ?? {};
  const typed = options.state?.typed ?? {};
  const problems = { ...(options.warnings ?? {}), ...(options.state?.problems ?? {}) };
  const required = (name: string) => options.markRequired && REQUIRED.has(name);
  const refs = (r.refs && typeof r.refs === 'object' ? r.refs : {}) as Record<string, unknown>;
  const stored: Partial<PresentedPiece>[] = Array.isArray(r._route_pieces) ? r._route_pieces : Array.isArray(r.pieces) ? r.pieces : [];
  const typedLines = Object.keys(typed)
    .map((k) => /^pieces\[(\d+)\]/.exec(k)?.[1])
    .filter((i): i is string => i !== undefined)
    .map(Number);
  const lineCount = Math.min(Math.max(stored.length, typedLines.length ? Math.max(...typedLines) + 1 : 0) + 1, 50);
  const number = (v: unknown, max = 3) => formatNumber(v, lang, max);
  // The shown value: as typed when the form comes back, else the stored one in the user's format.
  const value = (name: string, storedValue: unknown): string =>
    name in typed ? typed[name]! : storedValue === null || storedValue === undefined ? '' : String(storedValue);
  const id = (name: string) => `f-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const describedBy = (name: string, hint?: unknown) => [hint ? `${id(name)}-hint` : null, `${id(name)}-error`].filter(Boolean).join(' ');
  // Fields render in the form's order: the first one with a problem takes the focus (no script needed).
  let focusTaken = false;
  const field = (name: string, label: string, input: (attrs: Record<string, unknown>) => ComponentChildren, hint?: ComponentChildren) => {
    const focus = !focusTaken && !!problems[name];
    if (focus) focusTaken = true;
    return (
      <Field id={id(name)} label={label} hint={hint} error={problems[name]} required={required(name)} requiredLabel={t('form.required')}>
        {input({
          id: id(name),
          name,
          'aria-describedby': describedBy(name, hint),
          'aria-invalid': problems[name] ? 'true' : undefined,
          'aria-required': required(name) ? 'true' : undefined,
          autofocus: focus ? true : undefined,
        })}
      </Field>
    );
  };
  const checks = {
    weight: t('form.error.weight', { example: lang === 'deu' ? '12,5 t' : '12.5 t' }),
    number: t('form.error.number', { example: lang === 'deu' ? '1.745,50' : '1,745.50' }),
    integer: t('form.error.integer'),
    // The time fields are date pickers: the message asks to pick, it shows no format to type.
    datetime: t('fv.form.error.datetime_pick'),
    end: t('form.error.end_before_start'),
    past: t('form.error.past'),
  };
  // Coordinates and an address that are only the stored postal code's centre and town (the form
  // fills them on save, form-input.ts) are shown as placeholders, not as values: saved with another
  // code, they follow that code instead of staying where the old one was.
  const fromPostal = (s: 'from' | 'to') => {
    const centre = centreOfPostalPlace(r[s], r[`${s}_country`]);
    const same = (v: unknown, n: number) => v !== null && v !== undefined && v !== '' && Math.abs(Number(v) - n) < 1e-6;
    return centre && same(r[`${s}_latitude`], centre.latitude) && same(r[`${s}_longitude`], centre.longitude) ? centre : undefined;
  };
  // A town without a postal code (docs/choices.md, Typed places) reads as its name and country,
  // which the form resolves to the same town when saved again.
  const townWithoutCode = (s: 'from' | 'to') => {
    const [addr, country] = [r[`${s}_addr`], r[`${s}_country`]];
    return (r[s] === null || r[s] === undefined || r[s] === '') && addr && country && r[`${s}_latitude`] !== null
      ? `${String(addr)} (${String(country)})`
      : undefined;
  };
  // A place input offers cities, postal codes and airports as you type (public/app.js, the load
  // search's place suggestions); a city fills the side's country, address and coordinates.
  const side = (s: 'from' | 'to') => [
    field(
      s,
      t(`fv.${s}`),
      (a) => (
        <input
          {...a}
          value={value(s, townWithoutCode(s) ?? r[s])}
          data-place="freight"
          data-side={s}
          data-postal-placeholder={t('fv.form.postal_placeholder')}
          autocomplete="off"
        />
      ),
      t('fv.form.place.hint'),
    ),
    field(`${s}_country`, t('fv.form.country'), (a) => (
      <input
        {...a}
        value={value(`${s}_country`, r[`${s}_country`] ? countryName(String(r[`${s}_country`]), lang) : '')}
        list="countries"
        autocomplete="off"
        data-check="country"
      />
    )),
    field(`${s}_addr`, t('fv.form.addr'), (a) => {
      const town = fromPostal(s)?.city;
      const filled = town !== undefined && r[`${s}_addr`] === town;
      return (
        <input {...a} value={value(`${s}_addr`, filled ? '' : r[`${s}_addr`])} placeholder={filled ? town : undefined} autocomplete="off" />
      );
    }),
  ];
  const coords = (s: 'from' | 'to') =>
    (['latitude', 'longitude'] as const).map((c) =>
      field(`${s}_${c}`, `${t(`fv.${s}`)}: ${t(`fv.form.${c}`)}`, (a) => {
        const centre = fromPostal(s);
        return (
          <input
            {...a}
            value={value(`${s}_${c}`, centre ? '' : r[`${s}_${c}`])}
            placeholder={centre ? String(centre[c]) : undefined}
            inputMode="decimal"
          />
        );
      }),
    );
  const time = (name: 'etd' | 'etd_end' | 'eta' | 'eta_end') =>
    field(name, t(`fv.form.${name}`), (a) => (
      <input
        {...a}
        type="datetime-local"
        value={name in typed ? typed[name] : toDateTimeLocal(r[name])}
        data-check="datetime"
        data-after={name.endsWith('_end') ? id(name.replace('_end', '')) : undefined}
        data-future={name === 'etd' ? '1' : undefined}
      />
    ));
  const pieceField = (i: number, key: 'pieces' | 'depth' | 'width' | 'height' | 'weight', label: string, check: string) => {
    const name = `pieces[${i}][${key}]`;
    const p = stored[i] ?? {};
    return field(name, label, (a) => (
      <input
        {...a}
        value={value(name, key === 'pieces' ? (p.pieces ?? '') : number(p[key]))}
        inputMode={key === 'pieces' ? 'numeric' : 'decimal'}
        data-check={check}
        size={6}
      />
    ));
  };
  // A select of the load's description: as chosen when the form comes back, else as stored.
  const choice = (name: 'body' | 'adr_class' | 'pallet_exchange', label: string, options: Array<[string, string]>) => {
    const current = name in typed ? typed[name] : r[name] === null || r[name] === undefined ? '' : String(r[name]);
    return field(name, label, (a) => (
      <select {...a}>
        {options.map(([v, text]) => (
          <option value={v} selected={v === current}>
            {text}
          </option>
        ))}
      </select>
    ));
  };
  const category = String(r.category ?? 'ftl');
  // What carriers see of the refs before the award: as ticked when the form comes back, else as
  // stored (edit, a copy); a new freight shows its goods, never its price (docs/choices.md).
  const shared = (key: ShareKey): boolean =>
    'share' in typed ? typed.share!.split(',').includes(key) : Array.isArray(r.share) ? r.share.includes(key) : key === 'goods';
  const fieldsets = [
    options.markRequired && <p class="hint">{t('form.required.legend')}</p>,
    <fieldset>
      <legend>{t('fv.form.section.route')}</legend>
      <div class="form-grid">{side('from')}</div>
      <div class="form-grid">{side('to')}</div>
      <details class="more" open={['from_latitude', 'from_longitude', 'to_latitude', 'to_longitude'].some((k) => problems[k])}>
        <summary>{t('fv.form.coordinates')}</summary>
        <div class="form-grid">
          {coords('from')}
          {coords('to')}
        </div>
      </details>
    </fieldset>,
    <fieldset>
      <legend>{t('fv.form.section.dates')}</legend>
      <div class="form-grid">
        {time('etd')}
        {time('etd_end')}
        {time('eta')}
        {time('eta_end')}
      </div>
    </fieldset>,
    <fieldset>
      <legend>{t('fv.form.section.goods')}</legend>
      <div class="form-grid">
        {field(
          'weight',
          t('fv.col.weight'),
          (a) => (
            <input {...a} value={value('weight', number(r.weight))} inputMode="decimal" data-check="weight" autocomplete="off" />
          ),
          t('fv.form.weight.hint'),
        )}
        {field('category', t('fv.category'), (a) => (
          <select {...a}>
            {[...new Set([...CATEGORIES, category])].map((c) => (
              <option value={c} selected={c === (typed.category ?? category)}>
                {isOneOf(CATEGORIES, c) ? t(`fv.form.cat.${c}`) : c}
              </option>
            ))}
          </select>
        ))}
        {field('refs[commodity]', t('fv.form.commodity'), (a) => (
          <input {...a} value={value('refs[commodity]', refs.commodity)} />
        ))}
        {field('refs[customer]', t('fv.form.customer'), (a) => (
          <input {...a} value={value('refs[customer]', refs.customer)} />
        ))}
        {/* For the transport order (docs/choices.md, "The transport order in versions"): its loading reference, consignee and payment term. */}
        {field('refs[loading_ref]', t('order.form.loading_ref'), (a) => (
          <input {...a} value={value('refs[loading_ref]', refs.loading_ref)} autocomplete="off" />
        ))}
        {field('refs[consignee]', t('order.form.consignee'), (a) => (
          <input {...a} value={value('refs[consignee]', refs.consignee)} />
        ))}
        {field(
          'refs[payment_days]',
          t('order.form.payment_days'),
          (a) => (
            <input {...a} value={value('refs[payment_days]', refs.payment_days)} inputMode="numeric" pattern="[0-9]{1,3}" />
          ),
          t('order.form.payment_days_hint'),
        )}
        {field(
          'refs[target_rate]',
          targetPriceLabel(refs, t),
          (a) => (
            <input {...a} value={value('refs[target_rate]', number(refs.target_rate, 2))} inputMode="decimal" data-check="number" />
          ),
          options.marketPrice,
        )}
        {field('refs[target_currency]', t('fv.currency'), (a) => (
          <input {...a} value={value('refs[target_currency]', refs.target_currency ?? 'EUR')} maxLength={3} />
        ))}
      </div>
      <div class="form-grid" data-testid="one-step-prices">
        {field(
          'book_now',
          t('fv.form.book_now'),
          (a) => (
            <input {...a} value={value('book_now', number(r.book_now, 2))} inputMode="decimal" data-check="number" autocomplete="off" />
          ),
          t('fv.form.book_now.hint'),
        )}
        {field(
          'auto_award',
          t('fv.form.auto_award'),
          (a) => (
            <input {...a} value={value('auto_award', number(r.auto_award, 2))} inputMode="decimal" data-check="number" autocomplete="off" />
          ),
          t('fv.form.auto_award.hint'),
        )}
        {field('book_now_currency', t('fv.form.book_now_currency'), (a) => (
          <input {...a} value={value('book_now_currency', r.book_now_currency ?? 'EUR')} maxLength={3} />
        ))}
      </div>
      <fieldset class="checks share" data-testid="share" aria-describedby="f-share-hint">
        <legend>{t('fv.form.share')}</legend>
        {/* Sent with the boxes, so that none ticked says "share nothing" (an unticked box sends nothing). */}
        <input type="hidden" name="share" value="" />
        {SHARE_KEYS.map((key) => (
          <label class="check">
            <input type="checkbox" name="share" value={key} checked={shared(key)} />
            {t(`fv.form.share.${key}`)}
          </label>
        ))}
        <span class="hint" id="f-share-hint">
          {t('fv.form.share.hint')}
        </span>
        {problems.share && (
          <span class="field-error" role="alert">
            {problems.share}
          </span>
        )}
      </fieldset>
    </fieldset>,
    // The load described as trucks are (docs/choices.md, "Loads described as trucks are"): what matching reads.
    <fieldset data-testid="load-description">
      <legend>{t('fv.form.section.load')}</legend>
      <div class="form-grid">
        {choice('body', t('fv.form.body'), [['', t('fv.form.body.any')], ...BODIES.map((b) => [b, t(`vv.body.${b}`)] as [string, string])])}
        {field(
          'loading_meters',
          t('fv.form.loading_meters'),
          (a) => (
            <input
              {...a}
              value={value('loading_meters', number(r.loading_meters, 2))}
              inputMode="decimal"
              data-check="number"
              autocomplete="off"
            />
          ),
          t('fv.form.loading_meters.hint'),
        )}
        {choice('adr_class', t('fv.form.adr_class'), [
          ['', t('fv.form.adr_class.none')],
          ...ADR_CLASSES.map((c) => [c, t('fv.form.adr_class.option', { class: c })] as [string, string]),
        ])}
        {choice('pallet_exchange', t('fv.form.pallet_exchange'), [
          ['', t('fv.form.pallet_exchange.unset')],
          ['1', t('fv.form.pallet_exchange.yes')],
          ['0', t('fv.form.pallet_exchange.no')],
        ])}
        {(['temperature_min', 'temperature_max'] as const).map((name) =>
          field(
            name,
            t(`fv.form.${name}`),
            (a) => <input {...a} value={value(name, number(r[name], 1))} inputMode="decimal" data-check="number" autocomplete="off" />,
            t('fv.form.temperature.hint'),
          ),
        )}
      </div>
    </fieldset>,
    <fieldset data-pieces>
      <legend>{t('fv.form.pieces')}</legend>
      {Array.from({ length: lineCount }, (_, i) => (
        <div class="form-grid piece-line" data-piece-line={String(i)}>
          {pieceField(i, 'pieces', t('fv.col.pieces'), 'integer')}
          {pieceField(i, 'depth', t('fv.depth'), 'number')}
          {pieceField(i, 'width', t('fv.width'), 'number')}
          {pieceField(i, 'height', t('fv.height'), 'number')}
          {pieceField(i, 'weight', t('fv.col.weight'), 'weight')}
        </div>
      ))}
      <button type="button" class="secondary" data-add-piece hidden>
        {t('fv.form.add_piece')}
      </button>
    </fieldset>,
    <datalist id="countries">
      {searchCountriesForList(lang).map((c) => (
        <option value={c} />
      ))}
    </datalist>,
  ];
  const formAttrs: Record<string, string> = {
    'data-validate': 'freight',
    'data-msg-weight': checks.weight,
    'data-msg-number': checks.number,
    'data-msg-integer': checks.integer,
    'data-msg-datetime': checks.datetime,
    'data-msg-end': checks.end,
    'data-msg-past': checks.past,
    'data-msg-invalid': t('form.invalid'),
    'data-lang': lang,
  };
  return { fieldsets, formAttrs, problems };
}

export function freightFormPage(ctx: Ctx<Caller>, options: FormPageOptions): Page {
  const t = ctx.t;
  const r: Partial<FreightView> = options.route ?? {};
  const { fieldsets, formAttrs, problems } = freightFields(ctx, {
    route: options.route,
    state: options.state,
    warnings: options.warnings,
    markRequired: true,
    marketPrice: options.marketPrice,
  });
  const title = options.mode === 'edit' ? t('fv.form.title.edit') : t('fv.form.title.add');
  const hasProblems = Object.keys(problems).length > 0;
  return {
    title,
    body: (
      <section class="freight-form">
        <h1>{title}</h1>
        {options.copyOf && <p class="flash ok">{t('fv.form.copy_of', { id: options.copyOf })}</p>}
        {hasProblems && (
          <p class="flash error" role="alert" data-testid="form-problems">
            {options.mode === 'edit' && options.state ? t('fv.saved.problems') : t('form.invalid')}
          </p>
        )}
        <form
          class="stack panel"
          method="post"
          action={options.mode === 'edit' ? `/freights/edit/${r.id}` : '/freights/add'}
          noValidate
          {...formAttrs}
        >
          <CsrfField token={ctx.reply.generateCsrf()} />
          {fieldsets}
          <div class="toolbar">
            <button type="submit">{t('fv.form.save')}</button>
            {options.mode === 'edit' && (
              <a class="button secondary" href={`/freights/view/${r.id}`}>
                {t('ui.cancel')}
              </a>
            )}
          </div>
        </form>
      </section>
    ),
  };
}

/** Country names in the user's language for the country inputs' suggestions. */
function searchCountriesForList(lang: string): string[] {
  return COMMON.map((code) => countryName(code, lang));
}

/** The countries a European road exchange deals with most; any other is typed by name or code. */
const COMMON = [
  'DE',
  'AT',
  'CH',
  'NL',
  'BE',
  'LU',
  'FR',
  'IT',
  'ES',
  'PT',
  'PL',
  'CZ',
  'SK',
  'HU',
  'SI',
  'HR',
  'RO',
  'BG',
  'DK',
  'SE',
  'NO',
  'FI',
  'GB',
  'IE',
  'LT',
  'LV',
  'EE',
  'GR',
  'TR',
  'US',
];
