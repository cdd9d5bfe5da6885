import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { addMessages } from '../kernel/i18n.ts';
import { DataTable, PostButton, Select, type Column } from '../kernel/ui.tsx';
import { formatMoney, formatNumber, formatStamp } from '../kernel/locale.ts';
import type { CombinationOut, RateOut, SearchResult, SearchView } from './search.ts';
import { isRecord } from '../kernel/params.ts';

/**
 * HTML pages of rate search: the search form, results (direct rates and two-leg combinations)
 * with a Book action per rate, and the search history. They render the JSON answers' data.
 */

addMessages('eng', {
  'pv.title': 'Rate search',
  'pv.origin': 'Origin',
  'pv.destination': 'Destination',
  'pv.location.hint': 'a city, postal code or airport: Frankfurt, 60311, FRA (airport:FRA or city:DE-60311)',
  'pv.weight': 'Weight (kg)',
  'pv.direction': 'Direction',
  'pv.direction.auto': 'any',
  'pv.direction.export': 'export (to the airport)',
  'pv.direction.import': 'import (from the airport)',
  'pv.combinations': 'Also combinations through a hub airport',
  'pv.pieces': 'Pieces',
  'pv.depth': 'Length',
  'pv.width': 'Width',
  'pv.height': 'Height',
  'pv.unit': 'Unit',
  'pv.search_type': 'Pricing',
  'pv.search_type.standard': 'by weight',
  'pv.search_type.uld': 'per ULD',
  'pv.uld_count': 'ULDs',
  'pv.submit': 'Search',
  'pv.history': 'Search history',
  'pv.rates': 'Direct rates',
  'pv.combis': 'Combinations',
  'pv.no_rates': 'No rate matches this search.',
  'pv.no_combis': 'No combination matches this search.',
  'pv.col.carrier': 'Carrier',
  'pv.col.lane': 'Lane',
  'pv.col.via': 'Via',
  'pv.col.days': 'Days',
  'pv.col.cw': 'Chargeable kg',
  'pv.col.base': 'Base',
  'pv.col.fsc': 'Fuel',
  'pv.col.ssc': 'Security',
  'pv.col.amount': 'Amount',
  'pv.col.created': 'Searched',
  'pv.col.results': 'Results',
  'pv.book': 'Book',
  'pv.book_leg': 'Book leg {n}',
  'pv.rerun': 'Run again',
  'pv.searched': 'Search #{id} of {created}',
  'pv.no_history': 'No searches yet.',
  'pv.change_search': 'Change the search',
  'pv.postal_area': '{zone} (postal area)',
});

addMessages('deu', {
  'pv.title': 'Ratensuche',
  'pv.origin': 'Von',
  'pv.destination': 'Nach',
  'pv.location.hint': 'ein Ort, eine PLZ oder ein Flughafen: Frankfurt, 60311, FRA (airport:FRA oder city:DE-60311)',
  'pv.weight': 'Gewicht (kg)',
  'pv.direction': 'Richtung',
  'pv.direction.auto': 'beliebig',
  'pv.direction.export': 'Export (zum Flughafen)',
  'pv.direction.import': 'Import (vom Flughafen)',
  'pv.combinations': 'Auch Kombinationen über einen Hub-Flughafen',
  'pv.pieces': 'Packstücke',
  'pv.depth': 'Länge',
  'pv.width': 'Breite',
  'pv.height': 'Höhe',
  'pv.unit': 'Einheit',
  'pv.search_type': 'Preisbasis',
  'pv.search_type.standard': 'nach Gewicht',
  'pv.search_type.uld': 'je ULD',
  'pv.uld_count': 'ULDs',
  'pv.submit': 'Suchen',
  'pv.history': 'Suchverlauf',
  'pv.rates': 'Direkte Raten',
  'pv.combis': 'Kombinationen',
  'pv.no_rates': 'Keine Rate passt zu dieser Suche.',
  'pv.no_combis': 'Keine Kombination passt zu dieser Suche.',
  'pv.col.carrier': 'Frachtführer',
  'pv.col.lane': 'Relation',
  'pv.col.via': 'Über',
  'pv.col.days': 'Tage',
  'pv.col.cw': 'Frachtpfl. kg',
  'pv.col.base': 'Basis',
  'pv.col.fsc': 'Treibstoff',
  'pv.col.ssc': 'Sicherheit',
  'pv.col.amount': 'Betrag',
  'pv.col.created': 'Gesucht',
  'pv.col.results': 'Treffer',
  'pv.book': 'Buchen',
  'pv.book_leg': 'Abschnitt {n} buchen',
  'pv.rerun': 'Erneut suchen',
  'pv.searched': 'Suche #{id} vom {created}',
  'pv.no_history': 'Noch keine Suchen.',
  'pv.change_search': 'Suche ändern',
  'pv.postal_area': '{zone} (PLZ-Gebiet)',
});

/** The form's values: a stored search as presented, or the parameters as typed (a refused search). */
type SearchFormValues = Readonly<Record<string, unknown>>;

function SearchForm({ ctx, entity }: { ctx: Ctx<Caller>; entity: SearchFormValues }) {
  const t = ctx.t;
  const first: unknown = Array.isArray(entity.pieces_json) ? entity.pieces_json[0] : undefined;
  const piece = isRecord(first) ? first : {};
  const value = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return (
    <form class="stack panel" method="post" action="/pricing/search/results">
      <CsrfField token={ctx.reply.generateCsrf()} />
      <div class="form-grid">
        <label>
          {t('pv.origin')}
          <input
            name="origin"
            required
            value={value(entity.origin)}
            list="locations"
            data-place="rate"
            autocomplete="off"
            placeholder="city:DE-60311"
          />
          <span class="hint">{t('pv.location.hint')}</span>
        </label>
        <label>
          {t('pv.destination')}
          <input
            name="destination"
            required
            value={value(entity.destination)}
            list="locations"
            data-place="rate"
            autocomplete="off"
            placeholder="airport:FRA"
          />
        </label>
        <label>
          {t('pv.weight')}
          <input name="weight" inputMode="decimal" value={value(entity.weight)} />
        </label>
        <label>
          {t('pv.direction')}
          <Select
            name="direction"
            value={String(entity.direction ?? 'auto')}
            options={['auto', 'export', 'import'].map((d) => [d, t(`pv.direction.${d}`)])}
          />
        </label>
        <label>
          {t('pv.search_type')}
          <Select
            name="search_type"
            value={String(entity.search_type ?? 'standard')}
            options={['standard', 'uld'].map((d) => [d, t(`pv.search_type.${d}`)])}
          />
        </label>
        <label>
          {t('pv.uld_count')}
          <input name="uld_count" inputMode="numeric" value={value(entity.uld_count)} />
        </label>
      </div>
      <div class="form-grid">
        {(['pieces', 'depth', 'width', 'height'] as const).map((f) => (
          <label>
            {t(`pv.${f}`)}
            <input name={`pieces_json[0][${f}]`} inputMode={f === 'pieces' ? 'numeric' : 'decimal'} value={value(piece[f])} />
          </label>
        ))}
        <label>
          {t('pv.unit')}
          <Select
            name="unitOfLength"
            value={String(entity.unitOfLength ?? 'cm')}
            options={[
              ['cm', 'cm'],
              ['in', 'in'],
            ]}
          />
        </label>
      </div>
      <label class="check">
        <input
          type="checkbox"
          name="allow_combinations"
          value="1"
          checked={entity.allow_combinations === 1 || entity.allow_combinations === undefined}
        />
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
export function searchPage(ctx: Ctx<Caller>, result: (SearchResult & { searchEntity: SearchView }) | null, error?: string): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const csrf = ctx.reply.generateCsrf();
  const entity: SearchFormValues = result?.searchEntity ?? (error ? ctx.params : {});
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
          <SearchForm ctx={ctx} entity={entity} />
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
