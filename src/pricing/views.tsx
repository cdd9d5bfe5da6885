import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { DataTable, PostButton, Select, type Column } from '../kernel/ui.tsx';
import { formatMoney, formatNumber, formatStamp } from '../kernel/locale.ts';
import type { CombinationOut, RateOut, SearchResult, SearchView } from './search.ts';
import { isRecord } from '../kernel/params.ts';
import type { SearchFormState } from './fields.ts';

/**
 * HTML pages of rate search: the search form, results (direct rates and two-leg combinations)
 * with a Book action per rate, and the search history. They render the JSON answers' data.
 */

/** The form's values: a stored search as presented, or nothing (a new search). */
type SearchFormValues = Readonly<Record<string, unknown>>;

/**
 * The search form. Its values are a stored search's (numbers in the reader's language) or, after a
 * refused search, the text as typed (`form`), each problem next to its field and the combinations
 * box as it was ticked.
 */
function SearchForm({ ctx, entity, form }: { ctx: Ctx<Caller>; entity: SearchFormValues; form?: SearchFormState }) {
  const t = ctx.t;
  const lang = ctx.language;
  const first: unknown = Array.isArray(entity.pieces_json) ? entity.pieces_json[0] : undefined;
  const piece = isRecord(first) ? first : {};
  const typed = form?.typed;
  const problems = form?.problems ?? {};
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  /** The text as typed when the form came back, else the stored value (a number in the reader's language). */
  const value = (name: string, stored: unknown, number = false) =>
    typed ? (typed[name] ?? '') : number ? formatNumber(stored, lang) || text(stored) : text(stored);
  const err = (name: string) => `pv-${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}-error`;
  let focused = false;
  /** The attributes of an input with its problem: described by it, marked, the first one focused. */
  const checked = (name: string) => {
    const problem = problems[name];
    const autofocus = !!problem && !focused;
    if (autofocus) focused = true;
    return {
      name,
      'aria-invalid': problem ? ('true' as const) : undefined,
      'aria-describedby': problem ? err(name) : undefined,
      autofocus: autofocus || undefined,
    };
  };
  const problem = (name: string) =>
    problems[name] ? (
      <span class="field-error" id={err(name)} role="alert">
        {problems[name]}
      </span>
    ) : null;
  const combinations = typed
    ? typed.allow_combinations === '1'
    : entity.allow_combinations === 1 || entity.allow_combinations === undefined;
  return (
    <form class="stack panel" method="post" action="/pricing/search/results" noValidate>
      <CsrfField token={ctx.reply.generateCsrf()} />
      <div class="form-grid">
        <label>
          {t('pv.origin')}
          <input
            {...checked('origin')}
            required
            value={value('origin', entity.origin)}
            list="locations"
            data-place="rate"
            autocomplete="off"
            placeholder="city:DE-60311"
          />
          <span class="hint">{t('pv.location.hint')}</span>
          {problem('origin')}
        </label>
        <label>
          {t('pv.destination')}
          <input
            {...checked('destination')}
            required
            value={value('destination', entity.destination)}
            list="locations"
            data-place="rate"
            autocomplete="off"
            placeholder="airport:FRA"
          />
          {problem('destination')}
        </label>
        <label>
          {t('pv.weight')}
          <input {...checked('weight')} inputMode="decimal" value={value('weight', entity.weight, true)} />
          {problem('weight')}
        </label>
        <label>
          {t('pv.direction')}
          <Select
            name="direction"
            value={String((typed ? typed.direction : entity.direction) ?? 'auto')}
            options={(['auto', 'export', 'import'] as const).map((d) => [d, t(`pv.direction.${d}`)])}
          />
        </label>
        <label>
          {t('pv.search_type')}
          <Select
            name="search_type"
            value={String((typed ? typed.search_type : entity.search_type) ?? 'standard')}
            options={(['standard', 'uld'] as const).map((d) => [d, t(`pv.search_type.${d}`)])}
          />
        </label>
        <label>
          {t('pv.uld_count')}
          <input {...checked('uld_count')} inputMode="numeric" value={value('uld_count', entity.uld_count)} />
          {problem('uld_count')}
        </label>
      </div>
      <div class="form-grid">
        {(['pieces', 'depth', 'width', 'height'] as const).map((f) => {
          const name = `pieces_json[0][${f}]`;
          return (
            <label>
              {t(`pv.${f}`)}
              <input {...checked(name)} inputMode={f === 'pieces' ? 'numeric' : 'decimal'} value={value(name, piece[f], f !== 'pieces')} />
              {problem(name)}
            </label>
          );
        })}
        <label>
          {t('pv.unit')}
          <Select
            name="unitOfLength"
            value={String((typed ? typed.unitOfLength : entity.unitOfLength) ?? 'cm')}
            options={[
              ['cm', 'cm'],
              ['in', 'in'],
            ]}
          />
        </label>
      </div>
      <label class="check">
        <input type="checkbox" name="allow_combinations" value="1" checked={combinations} />
        {t('pv.combinations')}
      </label>
      <datalist id="locations" />
      <div class="toolbar">
        <button type="submit">{t('pv.submit')}</button>
        <span class="spacer" />
        <a href="/pricing/search/history">{t('pv.history')}</a>
      </div>
    </form>
  );
}

/** `airport:FRA` -> `FRA`, `city:DE-60` -> `DE-60`: the zone as a dispatcher writes it. */
const zone = (v: unknown) => String(v ?? '').replace(/^(airport|city):/i, '');

/**
 * The search page: the form alone, or the results of a search with the form folded above them
 * (a phone shows the rates first). Book carries the search (its pieces, weight and exact places)
 * and the rate's price into the booking request.
 */
export function searchPage(
  ctx: Ctx<Caller>,
  result: (SearchResult & { searchEntity: SearchView }) | null,
  error?: string,
  form?: SearchFormState,
): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const csrf = ctx.reply.generateCsrf();
  const entity: SearchFormValues = result?.searchEntity ?? {};
  const price = (v: unknown, currency?: unknown) => formatMoney(v, currency, lang);
  const book = (r: RateOut, leg?: number) => (
    <PostButton
      action={`/freights/request/rate/${r.id}`}
      label={leg === undefined ? t('pv.book') : t('pv.book_leg', { n: leg + 1 })}
      csrf={csrf}
      fields={{
        ...(result?.searchEntity.weight ? {} : { weight: String(r.chargeable_weight) }),
        ...(result ? { pricing_search_id: String(result.searchEntity.id) } : {}),
        'refs[target_rate]': String(r.amount),
        'refs[target_currency]': String(r.currency),
      }}
    />
  );
  const rateColumns: Column<RateOut>[] = [
    { label: t('pv.col.carrier'), cell: (r) => r.company.name },
    { label: t('pv.col.lane'), cell: (r) => `${zone(r.origin)} → ${zone(r.destination)}` },
    { label: t('pv.col.days'), cell: (r) => r.transit_days ?? '–', numeric: true },
    { label: t('pv.col.cw'), cell: (r) => formatNumber(r.chargeable_weight, lang), numeric: true },
    { label: t('pv.col.base'), cell: (r) => price(r.rate_base), numeric: true },
    { label: t('pv.col.fsc'), cell: (r) => price(r.rate_fsc), numeric: true },
    { label: t('pv.col.ssc'), cell: (r) => price(r.rate_ssc), numeric: true },
    { label: t('pv.col.amount'), cell: (r) => <strong>{price(r.amount, r.currency)}</strong>, numeric: true },
    { label: '', cell: (r) => book(r) },
  ];
  const combiColumns: Column<CombinationOut>[] = [
    { label: t('pv.col.via'), cell: (c) => zone(c.via) },
    {
      label: t('pv.col.lane'),
      cell: (c) => (
        <span class="wrap-text">
          {c.legs.map((l) => `${zone(l.origin)} → ${zone(l.destination)} (${l.company.name}, ${price(l.amount, l.currency)})`).join(' · ')}
        </span>
      ),
    },
    { label: t('pv.col.days'), cell: (c) => c.transit_days ?? '–', numeric: true },
    { label: t('pv.col.amount'), cell: (c) => <strong>{price(c.amount, c.currency)}</strong>, numeric: true },
    { label: '', cell: (c) => <span class="toolbar">{c.legs.map((l, i) => book(l, i))}</span> },
  ];
  const searched = result
    ? `${zone(result.searchEntity.origin)} → ${zone(result.searchEntity.destination)}${result.searchEntity.weight ? `, ${formatNumber(result.searchEntity.weight, lang)} kg` : ''}`
    : '';
  return {
    title: t('pv.title'),
    body: (
      <section>
        <h1>{t('pv.title')}</h1>
        {error && <p class="flash error">{error}</p>}
        {result ? (
          <details class="search-again">
            <summary>
              {t('pv.change_search')}: <strong>{searched}</strong>
            </summary>
            <SearchForm ctx={ctx} entity={entity} />
          </details>
        ) : (
          <SearchForm ctx={ctx} entity={entity} form={form} />
        )}
        {result && [
          <p class="muted">{t('pv.searched', { id: result.searchEntity.id, created: formatStamp(result.searchEntity.created, lang) })}</p>,
          <h2>{t('pv.rates')}</h2>,
          <DataTable columns={rateColumns} rows={result.rates} empty={t('pv.no_rates')} testId="rates" />,
          result.searchEntity.allow_combinations === 1 && [
            <h2>{t('pv.combis')}</h2>,
            <DataTable columns={combiColumns} rows={result.combinations} empty={t('pv.no_combis')} testId="combinations" />,
          ],
        ]}
      </section>
    ),
  };
}

export function historyPage(ctx: Ctx<Caller>, searches: SearchView[]): Page {
  const t = ctx.t;
  return {
    title: t('pv.history'),
    body: (
      <section>
        <h1>{t('pv.history')}</h1>
        <DataTable
          columns={[
            { label: '#', cell: (s) => s.id },
            { label: t('pv.col.created'), cell: (s) => formatStamp(s.created, ctx.language) },
            { label: t('pv.col.lane'), cell: (s) => `${zone(s.origin)} → ${zone(s.destination)}` },
            { label: t('pv.weight'), cell: (s) => formatNumber(s.weight, ctx.language) || '–', numeric: true },
            { label: t('pv.col.results'), cell: (s) => s.result_count, numeric: true },
            { label: '', cell: (s) => <a href={`/pricing/search/results?search_id=${s.id}`}>{t('pv.rerun')}</a> },
          ]}
          rows={searches}
          empty={t('pv.no_history')}
        />
      </section>
    ),
  };
}
