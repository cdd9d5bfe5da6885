import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { addMessages } from '../kernel/i18n.ts';
import type { Warning } from '../kernel/outcome.ts';
import { DataTable, Pager, Select, Tabs, columnsFor, type Column, type Tab } from '../kernel/ui.tsx';
import { cityNear } from '../places/cities.ts';
import { formatDay, formatNumber } from '../kernel/locale.ts';
import type { Translate } from '../kernel/i18n.ts';
import { LISTS, listInfo, listLabel, listPath } from './lists/registry.ts';
import { freightListColumns, isListedFreight } from './list-columns.tsx';
import type { FreightView } from './fields.ts';
import { readLoadSearch, searchToParams, DEFAULT_RADIUS_KM, type LoadSearch, type SearchParamName } from '../market/index.ts';

/**
 * HTML pages of the freight endpoints. They render the same presented freights the JSON
 * answers carry (`data.route`, `data.routes`), so both renderings show the same truth.
 */

addMessages('eng', {
  'fv.group.provider': 'As carrier',
  'fv.group.principal': 'As shipper',
  'fv.group.booking': 'Booking requests',
  'fv.group.tms': 'TMS',
  'fv.f8': 'Open requests',
  'fv.f7': 'My bids',
  'fv.f6': 'Lost',
  'fv.f2': 'Won orders',
  'fv.f9': 'Archive',
  'fv.f20': 'Drafts',
  'fv.f10': 'Open tenders',
  'fv.f17': 'With bids',
  'fv.f18': 'Without bids',
  'fv.f12': 'Awarded',
  'fv.f19': 'Archive',
  'fv.f200': 'Outgoing',
  'fv.f201': 'Confirmed',
  'fv.f209': 'Archive',
  'fv.f210': 'Incoming',
  'fv.f211': 'Accepted',
  'fv.f219': 'Archive',
  'fv.f51': 'Not planned',
  'fv.f52': 'Planned',
  'fv.f53': 'Tours',
  'fv.new': 'New freight',
  'fv.currency': 'Currency',
  'fv.col.base': 'Base rate',
  'fv.col.fsc': 'Fuel surcharge',
  'fv.col.ssc': 'Security surcharge',
  'fv.category': 'Category',
  'fv.depth': 'Length (cm)',
  'fv.width': 'Width (cm)',
  'fv.height': 'Height (cm)',
  'fv.new_tour': 'Plan a tour',
  'fv.empty': 'No freights in this list.',
  'fv.col.id': 'Ref.',
  'fv.col.route': 'Route',
  'fv.col.status': 'Status',
  'fv.col.weight': 'Weight (kg)',
  'fv.col.etd': 'Pick-up',
  'fv.col.eta': 'Delivery',
  'fv.col.deadline': 'Bidding until',
  'fv.col.price': 'Price',
  'fv.col.company': 'Company',
  'fv.col.amount': 'Amount',
  'fv.col.rates': 'Base / fuel / security',
  'fv.col.note': 'Note',
  'fv.col.pieces': 'Pieces',
  'fv.col.dims': 'L × W × H (cm)',
  'fv.details': 'Details',
  'fv.pieces': 'Pieces',
  'fv.bids': 'Bids',
  'fv.no_bids': 'No bids yet.',
  'fv.no_pieces': 'No piece lines.',
  'fv.actions': 'Actions',
  'fv.publish': 'Publish',
  'fv.visibility': 'Visibility',
  'fv.vis.0': 'Whole exchange',
  'fv.vis.-1': 'Own company only',
  'fv.vis.-2': 'Only the companies listed',
  'fv.whitelist': 'Company ids (comma separated)',
  'fv.deadline': 'Bidding until',
  'fv.deadline.hint': 'YYYY-MM-DD HH:MM or +48 hours; empty: 24 hours from now',
  'fv.revoke': 'Withdraw freight',
  'fv.archive': 'Archive',
  'fv.delivery': 'Delivery status',
  'fv.delivery.save': 'Save status',
  'fv.edit': 'Edit',
  'fv.bid': 'Place a bid',
  'fv.bid.update': 'Update my bid',
  'fv.bid.submit': 'Submit bid',
  'fv.confirm': 'Confirm',
  'fv.revoke_bid': 'Withdraw bid',
  'fv.from': 'From',
  'fv.to': 'To',
  'fv.owner': 'Shipper',
  'fv.winner': 'Carrier',
  'fv.type': 'Type',
  'fv.form.title.add': 'New freight',
  'fv.form.title.edit': 'Edit freight',
  'fv.form.save': 'Save',
  'fv.form.customer': 'Your reference',
  'fv.form.commodity': 'Goods',
  'fv.form.pieces': 'Piece lines',
  'fv.form.latitude': 'latitude',
  'fv.form.postal_placeholder': 'postal code, e.g. 60311',
  'fv.form.longitude': 'longitude',
  'fv.form.place.hint': 'a city, a postal code (60311 or DE-60311) or an airport; a city fills country, address and coordinates',
  'fv.search.title': 'Find freights',
  'fv.search.none': 'all freights of this list',
  'fv.search.summary.near': '{km} km around {place}',
  'fv.search.from': 'From',
  'fv.search.to': 'To',
  'fv.search.place.hint': 'country, postal area or airport: DE, DE-60, airport:FRA',
  'fv.search.near': 'Around',
  'fv.search.near.hint': 'a city or airport (or lat,lon)',
  'fv.search.radius': 'Radius',
  'fv.search.near_city': 'near {city}',
  'fv.search.pickup': 'Pick-up between',
  'fv.search.delivery': 'Delivery between',
  'fv.search.weight': 'Weight (kg)',
  'fv.search.weight_min': 'from',
  'fv.search.weight_max': 'to',
  'fv.search.media': 'Transport',
  'fv.search.media.any': 'any',
  'fv.search.media.road': 'road',
  'fv.search.media.air': 'air',
  'fv.search.q': 'Text',
  'fv.search.q.hint': 'reference, postal code, your refs',
  'fv.search.more': 'Dates, weight, transport',
  'fv.search.submit': 'Search',
  'fv.search.reset': 'Reset',
  'fv.search.ignored': 'Ignored:',
  'fv.search.save': 'Save this search',
  'fv.search.save.name': 'Name',
  'fv.search.save.alert': 'Notify me of new matching freights',
  'fv.search.save.submit': 'Save',
  'fv.search.saved_searches': 'Saved searches',
  'fv.search.not_here': 'These lists take no search parameters.',
});

addMessages('deu', {
  'fv.group.provider': 'Als Frachtführer',
  'fv.group.principal': 'Als Auftraggeber',
  'fv.group.booking': 'Buchungsanfragen',
  'fv.group.tms': 'TMS',
  'fv.f8': 'Offene Anfragen',
  'fv.f7': 'Meine Gebote',
  'fv.f6': 'Verloren',
  'fv.f2': 'Gewonnene Aufträge',
  'fv.f9': 'Archiv',
  'fv.f20': 'Entwürfe',
  'fv.f10': 'Offene Ausschreibungen',
  'fv.f17': 'Mit Geboten',
  'fv.f18': 'Ohne Gebote',
  'fv.f12': 'Vergeben',
  'fv.f19': 'Archiv',
  'fv.f200': 'Ausgehend',
  'fv.f201': 'Bestätigt',
  'fv.f209': 'Archiv',
  'fv.f210': 'Eingehend',
  'fv.f211': 'Angenommen',
  'fv.f219': 'Archiv',
  'fv.f51': 'Nicht geplant',
  'fv.f52': 'Geplant',
  'fv.f53': 'Touren',
  'fv.new': 'Neue Fracht',
  'fv.currency': 'Währung',
  'fv.col.base': 'Grundpreis',
  'fv.col.fsc': 'Treibstoffzuschlag',
  'fv.col.ssc': 'Sicherheitszuschlag',
  'fv.category': 'Kategorie',
  'fv.depth': 'Länge (cm)',
  'fv.width': 'Breite (cm)',
  'fv.height': 'Höhe (cm)',
  'fv.new_tour': 'Tour planen',
  'fv.empty': 'Keine Frachten in dieser Liste.',
  'fv.col.id': 'Ref.',
  'fv.col.route': 'Strecke',
  'fv.col.status': 'Status',
  'fv.col.weight': 'Gewicht (kg)',
  'fv.col.etd': 'Abholung',
  'fv.col.eta': 'Zustellung',
  'fv.col.deadline': 'Gebote bis',
  'fv.col.price': 'Preis',
  'fv.col.company': 'Firma',
  'fv.col.amount': 'Betrag',
  'fv.col.rates': 'Basis / Treibstoff / Sicherheit',
  'fv.col.note': 'Notiz',
  'fv.col.pieces': 'Stück',
  'fv.col.dims': 'L × B × H (cm)',
  'fv.details': 'Details',
  'fv.pieces': 'Packstücke',
  'fv.bids': 'Gebote',
  'fv.no_bids': 'Noch keine Gebote.',
  'fv.no_pieces': 'Keine Packstücke.',
  'fv.actions': 'Aktionen',
  'fv.publish': 'Veröffentlichen',
  'fv.visibility': 'Sichtbarkeit',
  'fv.vis.0': 'Gesamte Börse',
  'fv.vis.-1': 'Nur eigene Firma',
  'fv.vis.-2': 'Nur die genannten Firmen',
  'fv.whitelist': 'Firmen-IDs (durch Komma getrennt)',
  'fv.deadline': 'Gebote bis',
  'fv.deadline.hint': 'JJJJ-MM-TT HH:MM oder +48 hours; leer: 24 Stunden ab jetzt',
  'fv.revoke': 'Fracht zurückziehen',
  'fv.archive': 'Archivieren',
  'fv.delivery': 'Lieferstatus',
  'fv.delivery.save': 'Status speichern',
  'fv.edit': 'Bearbeiten',
  'fv.bid': 'Gebot abgeben',
  'fv.bid.update': 'Mein Gebot ändern',
  'fv.bid.submit': 'Gebot senden',
  'fv.confirm': 'Bestätigen',
  'fv.revoke_bid': 'Gebot zurückziehen',
  'fv.from': 'Von',
  'fv.to': 'Nach',
  'fv.owner': 'Auftraggeber',
  'fv.winner': 'Frachtführer',
  'fv.type': 'Art',
  'fv.form.title.add': 'Neue Fracht',
  'fv.form.title.edit': 'Fracht bearbeiten',
  'fv.form.save': 'Speichern',
  'fv.form.customer': 'Ihre Referenz',
  'fv.form.commodity': 'Ware',
  'fv.form.pieces': 'Packstücke',
  'fv.form.latitude': 'Breitengrad',
  'fv.form.postal_placeholder': 'PLZ, z. B. 60311',
  'fv.form.longitude': 'Längengrad',
  'fv.form.place.hint': 'ein Ort, eine PLZ (60311 oder DE-60311) oder ein Flughafen; ein Ort füllt Land, Adresse und Koordinaten',
  'fv.search.title': 'Frachten finden',
  'fv.search.none': 'alle Frachten dieser Liste',
  'fv.search.summary.near': '{km} km um {place}',
  'fv.search.from': 'Von',
  'fv.search.to': 'Nach',
  'fv.search.place.hint': 'Land, PLZ-Gebiet oder Flughafen: DE, DE-60, airport:FRA',
  'fv.search.near': 'Umkreis von',
  'fv.search.near.hint': 'ein Ort oder Flughafen (oder Breite,Länge)',
  'fv.search.radius': 'Radius',
  'fv.search.near_city': 'bei {city}',
  'fv.search.pickup': 'Abholung zwischen',
  'fv.search.delivery': 'Zustellung zwischen',
  'fv.search.weight': 'Gewicht (kg)',
  'fv.search.weight_min': 'von',
  'fv.search.weight_max': 'bis',
  'fv.search.media': 'Verkehrsträger',
  'fv.search.media.any': 'alle',
  'fv.search.media.road': 'Straße',
  'fv.search.media.air': 'Luft',
  'fv.search.q': 'Text',
  'fv.search.q.hint': 'Referenz, PLZ, eigene Referenzen',
  'fv.search.more': 'Termine, Gewicht, Verkehrsträger',
  'fv.search.submit': 'Suchen',
  'fv.search.reset': 'Zurücksetzen',
  'fv.search.ignored': 'Ignoriert:',
  'fv.search.save': 'Diese Suche speichern',
  'fv.search.save.name': 'Name',
  'fv.search.save.alert': 'Bei neuen passenden Frachten benachrichtigen',
  'fv.search.save.submit': 'Speichern',
  'fv.search.saved_searches': 'Gespeicherte Suchen',
  'fv.search.not_here': 'Diese Listen haben keine Suchparameter.',
});

export interface ListState {
  filterId: number;
  page: number;
  limit: number;
  sort: string;
  direction: 'asc' | 'desc';
}

type SearchQuery = Partial<Record<SearchParamName, string>>;

/** A list URL: paging, sort and the search, so every link keeps the search (bookmarkable). */
function listHref(s: ListState, change: Partial<ListState>, search: SearchQuery = {}): string {
  const n = { ...s, ...change };
  const q = new URLSearchParams({ ...search, page: String(n.page), limit: String(n.limit), sort: n.sort, direction: n.direction });
  return `${listPath(n.filterId)}?${q}`;
}

/** A tab: another list with the same search (its own default order and first page). */
function tabHref(filterId: number, search: SearchQuery): string {
  const q = new URLSearchParams(search).toString();
  return `${listPath(filterId)}${q ? `?${q}` : ''}`;
}
const RADII = ['10', '25', '50', '75', '100', '150', '200', '300', '500'];

/** "Frankfurt am Main (DE)" for a radius input holding coordinates (when the city data is loaded). */
async function nearCity(value: string | undefined): Promise<string | undefined> {
  const m = value && /^(-?[\d.]+),(-?[\d.]+)$/.exec(value);
  if (!m) return undefined;
  const city = await cityNear(Number(m[1]), Number(m[2]), 15, 250);
  return city ? `${city.name} (${city.country})` : undefined;
}

/** The search bar: a GET form whose fields are the API's parameters, so its URL is the search. */
function SearchBar({
  state,
  search,
  ctx,
  warnings,
  notes,
}: {
  state: ListState;
  search: SearchQuery;
  ctx: Ctx<Caller>;
  warnings: Warning[];
  notes: { from?: string; to?: string };
}) {
  const t = ctx.t;
  const v = (name: SearchParamName) => search[name] ?? '';
  const more = ['pickup_from', 'pickup_to', 'delivery_from', 'delivery_to', 'weight_min', 'weight_max', 'media'].some(
    (k) => search[k as SearchParamName],
  );
  const side = (name: 'from' | 'to') => (
    <div class="search-side">
      <label>
        {t(`fv.search.${name}`)}
        <input
          name={name}
          value={v(name)}
          data-place="filter"
          data-near={`${name}_near`}
          autocomplete="off"
          placeholder="DE-60, IT, airport:MXP"
        />
        <span class="hint">{t('fv.search.place.hint')}</span>
      </label>
      <label>
        {t('fv.search.near')}
        <input
          name={`${name}_near`}
          value={v(`${name}_near`)}
          data-place="near"
          autocomplete="off"
          placeholder={name === 'from' ? 'Frankfurt' : 'Milano'}
        />
        <span class="hint" data-near-note={`${name}_near`}>
          {notes[name] ?? t('fv.search.near.hint')}
        </span>
      </label>
      <label class="radius">
        {t('fv.search.radius')}
        <Select
          name={`${name}_radius`}
          value={v(`${name}_radius`) || String(DEFAULT_RADIUS_KM)}
          options={[...new Set([...RADII, v(`${name}_radius`) || String(DEFAULT_RADIUS_KM)])]
            .sort((a, b) => Number(a) - Number(b))
            .map((r) => [r, `${r} km`])}
        />
      </label>
    </div>
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is too new for some browsers dispatchers use; role=search on the form is the established equivalent
    <form class="panel search-bar" method="get" action={`/freights/enlist/${state.filterId}`} role="search" data-testid="search-bar">
      <input type="hidden" name="limit" value={String(state.limit)} />
      <input type="hidden" name="sort" value={state.sort} />
      <input type="hidden" name="direction" value={state.direction} />
      <div class="search-grid">
        {side('from')}
        {side('to')}
      </div>
      <details class="search-more" open={more}>
        <summary>{t('fv.search.more')}</summary>
        <div class="form-grid">
          <fieldset class="pair">
            <legend>{t('fv.search.pickup')}</legend>
            <input
              type="date"
              name="pickup_from"
              value={v('pickup_from')}
              aria-label={`${t('fv.search.pickup')} (${t('fv.search.weight_min')})`}
            />
            <input
              type="date"
              name="pickup_to"
              value={v('pickup_to')}
              aria-label={`${t('fv.search.pickup')} (${t('fv.search.weight_max')})`}
            />
          </fieldset>
          <fieldset class="pair">
            <legend>{t('fv.search.delivery')}</legend>
            <input
              type="date"
              name="delivery_from"
              value={v('delivery_from')}
              aria-label={`${t('fv.search.delivery')} (${t('fv.search.weight_min')})`}
            />
            <input
              type="date"
              name="delivery_to"
              value={v('delivery_to')}
              aria-label={`${t('fv.search.delivery')} (${t('fv.search.weight_max')})`}
            />
          </fieldset>
          <fieldset class="pair">
            <legend>{t('fv.search.weight')}</legend>
            <input
              name="weight_min"
              inputMode="decimal"
              value={v('weight_min')}
              placeholder={t('fv.search.weight_min')}
              aria-label={`${t('fv.search.weight')} ${t('fv.search.weight_min')}`}
            />
            <input
              name="weight_max"
              inputMode="decimal"
              value={v('weight_max')}
              placeholder={t('fv.search.weight_max')}
              aria-label={`${t('fv.search.weight')} ${t('fv.search.weight_max')}`}
            />
          </fieldset>
          <label>
            {t('fv.search.media')}
            <Select
              name="media"
              value={v('media')}
              options={[
                ['', t('fv.search.media.any')],
                ['road', t('fv.search.media.road')],
                ['air', t('fv.search.media.air')],
              ]}
            />
          </label>
        </div>
      </details>
      <div class="toolbar search-actions">
        <label class="grow">
          {t('fv.search.q')}
          <input name="q" type="search" value={v('q')} placeholder={t('fv.search.q.hint')} />
        </label>
        <button type="submit">{t('fv.search.submit')}</button>
        <a class="button secondary" href={`/freights/enlist/${state.filterId}`}>
          {t('fv.search.reset')}
        </a>
      </div>
      {warnings.length > 0 && (
        <p class="hint warnings" role="status">
          {t('fv.search.ignored')} {warnings.map((w) => `${w.field}: ${w.reason}`).join('; ')}
        </p>
      )}
    </form>
  );
}

/**
 * The search on screen in one line, for the folded search bar on a phone: `From DE-6 · 50 km
 * around Frankfurt am Main (DE) · To IT · Pick-up 01.12.2026–05.12.2026 · 1,000–12,000 kg`.
 */
export function searchSummary(search: SearchQuery, t: Ctx['t'], lang: string, notes: { from?: string; to?: string }): string {
  const parts: string[] = [];
  for (const side of ['from', 'to'] as const) {
    const place = search[side];
    const near = search[`${side}_near`];
    const where: string[] = [];
    if (place) where.push(place.split(',').join(', '));
    if (near)
      where.push(t('fv.search.summary.near', { km: search[`${side}_radius`] ?? String(DEFAULT_RADIUS_KM), place: notes[side] ?? near }));
    if (where.length) parts.push(`${t(`fv.search.${side}`)}: ${where.join(', ')}`);
  }
  for (const w of ['pickup', 'delivery'] as const) {
    const from = search[`${w}_from`];
    const to = search[`${w}_to`];
    if (from || to)
      parts.push(
        `${t(`fv.col.${w === 'pickup' ? 'etd' : 'eta'}`)}: ${[from ? formatDay(from, lang) : '…', to ? formatDay(to, lang) : '…'].join('–')}`,
      );
  }
  if (search.weight_min || search.weight_max) {
    const kg = (v?: string) => (v ? formatNumber(v, lang) : '…');
    parts.push(`${kg(search.weight_min)}–${kg(search.weight_max)} kg`);
  }
  if (search.media) parts.push(t(`fv.search.media.${search.media}`));
  if (search.q) parts.push(`„${search.q}“`);
  return parts.join(' · ');
}

/** Saves the current search (POST /searches/add with the normalised parameters). */
function SaveSearch({ state, search, ctx }: { state: ListState; search: SearchQuery; ctx: Ctx<Caller> }) {
  const t = ctx.t;
  return (
    <details class="save-search">
      <summary>{t('fv.search.save')}</summary>
      <form class="inline" method="post" action="/searches/add">
        <CsrfField token={ctx.reply.generateCsrf()} />
        <input type="hidden" name="filter" value={String(state.filterId)} />
        <input type="hidden" name="back" value={listHref(state, { page: 1 }, search)} />
        {Object.entries(search).map(([k, value]) => (
          <input type="hidden" name={`params[${k}]`} value={value} />
        ))}
        <label>
          {t('fv.search.save.name')}
          <input
            name="name"
            required
            maxLength={200}
            value={[search.from, search.to].filter(Boolean).join(' → ') || t(`fv.f${state.filterId}`)}
          />
        </label>
        <label class="check">
          <input type="checkbox" name="alert" value="1" checked />
          {t('fv.search.save.alert')}
        </label>
        <button type="submit" class="secondary">
          {t('fv.search.save.submit')}
        </button>
      </form>
    </details>
  );
}

/**
 * The enlist page: the search bar (its state is the URL), every filter as a tab with its count
 * for the current search, a sortable table (arrows, aria-sort), previous/next paging.
 */
export interface ListPageParts {
  /** The count of every list for the current search (src/searches/counts.ts), keyed by filter id. */
  countLists: (db: Ctx['db'], companyId: number, now: Date, search: LoadSearch) => Promise<Record<string, number>>;
  /** Columns of lists that show no freights (53: tours, src/tms/views.tsx); they take any row. */
  listColumns: ReadonlyMap<number, (t: Translate, language: string) => Column<unknown>[]>;
  /** Other modules' lists (TMS 51-53), by filter id: they take no load search, so their tabs carry none. */
  otherLists: ReadonlyMap<number, unknown>;
}

export async function enlistPage(routes: unknown[], state: ListState, ctx: Ctx<Caller>, parts: ListPageParts): Promise<Page> {
  const t = ctx.t;
  const warnings: Warning[] = [];
  const freightSearch = readLoadSearch(ctx.params, ctx.clock.zone, warnings);
  const search = searchToParams(freightSearch);
  const [counts, fromNote, toNote] = await Promise.all([
    parts.countLists(ctx.db, ctx.caller.companyId, ctx.clock.now(), freightSearch),
    nearCity(search.from_near),
    nearCity(search.to_near),
  ]);
  const tabs: Tab[] = LISTS.map((list, i) => ({
    href: tabHref(list.id, list.searchable ? search : {}),
    label: counts[String(list.id)] === undefined ? t(listLabel(list.id)) : `${t(listLabel(list.id))} (${counts[String(list.id)]})`,
    active: list.id === state.filterId,
    // The first tab of a group names it.
    group: LISTS[i - 1]?.group !== list.group ? t(`fv.group.${list.group}`) : undefined,
  }));
  const key = (k: string) => `Routes.${k}`;
  const sortable = (k: string) =>
    listHref(state, { sort: key(k), direction: state.sort === key(k) && state.direction === 'desc' ? 'asc' : 'desc', page: 1 }, search);
  const sorted = (k: string): Column<FreightView>['sorted'] =>
    state.sort === key(k) ? (state.direction === 'asc' ? 'ascending' : 'descending') : undefined;
  // The TMS lists (the only other lists) take no search and offer a new tour.
  const tms = listInfo(state.filterId)?.servedBy === 'other';
  const summary = searchSummary(search, t, ctx.language, { from: fromNote, to: toNote });
  // Filter 53 lists tours, not freights: their columns come from the TMS module's views.
  const otherColumns = parts.listColumns.get(state.filterId);
  const columns: Column<unknown>[] = otherColumns
    ? otherColumns(t, ctx.language)
    : columnsFor(
        isListedFreight,
        await freightListColumns(routes.filter(isListedFreight), state.filterId, ctx, { href: sortable, sorted }),
      );
  return {
    title: t(listLabel(state.filterId)),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t(listLabel(state.filterId))}</h1>
          <span class="spacer" />
          <a href="/searches/index">{t('fv.search.saved_searches')}</a>
          {tms && (
            <a class="button secondary" href="/tours/add">
              {t('fv.new_tour')}
            </a>
          )}
          <a class="button" href="/freights/add">
            {t('fv.new')}
          </a>
        </div>
        {tms ? (
          <p class="muted">{t('fv.search.not_here')}</p>
        ) : (
          // On a phone the search folds into one line saying what is searched, so the list comes
          // first (no script: <details>); at the desk it is always open (app.css).
          <details class="search-fold" open={warnings.length > 0 ? true : undefined} data-testid="search-fold">
            <summary>
              <span class="search-fold-title">{t('fv.search.title')}</span>
              <span class="search-summary">{summary || t('fv.search.none')}</span>
            </summary>
            <SearchBar
              state={state}
              search={search}
              ctx={ctx}
              warnings={warnings}
              notes={{
                from: fromNote && t('fv.search.near_city', { city: fromNote }),
                to: toNote && t('fv.search.near_city', { city: toNote }),
              }}
            />
            <SaveSearch state={state} search={search} ctx={ctx} />
          </details>
        )}
        <Tabs tabs={tabs} label={t('fv.lists')} />
        <DataTable columns={columns} rows={routes} empty={t('fv.empty')} testId="freight-list" />
        <Pager page={state.page} limit={state.limit} count={routes.length} href={(page) => listHref(state, { page }, search)} t={t} />
      </section>
    ),
  };
}
