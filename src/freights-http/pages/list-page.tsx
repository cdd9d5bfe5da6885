import type { Caller, Ctx } from '../../kernel/context.ts';
import { CsrfField } from '../../kernel/html.tsx';
import type { Warning } from '../../kernel/outcome.ts';
import type { PageResult } from '../../kernel/route.tsx';
import { DataTable, Pager, Select, Tabs, columnsFor, type Column, type Tab } from '../../kernel/ui.tsx';
import { cityNear, cityNameIn, isKnownAirport, pointText, resolvePlaceText, type ResolvedPlace } from '../../places/index.ts';
import { formatDay, formatNumber, readLocaleDecimal, readLocaleWeightKg } from '../../kernel/locale.ts';
import type { Translate } from '../../kernel/i18n.ts';
import { LIST, LISTS, listInfo, listPath, seenAmong } from '../../freights/index.ts';
import { listLabel } from '../list-names.ts';
import { freightListColumns, isListedFreight, type RowMarks } from './list-columns.tsx';
import type { FreightView } from '../../freights/index.ts';
import { BODIES, searchToParams, DEFAULT_RADIUS_KM, SEARCH_PARAMS, type LoadSearch, type SearchParamName } from '../../market/index.ts';
import { DEFAULT_LIMIT, isOneOf } from '../../kernel/params.ts';
import { countryCode, problemsFromWarnings } from './form-input.ts';

/**
 * HTML pages of the freight endpoints. They render the same presented freights the JSON
 * answers carry (`data.route`, `data.routes`), so both renderings show the same truth.
 */

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

/** A tab: another list with the same search and page size (its own default order and first page). */
function tabHref(filterId: number, search: SearchQuery, limit: number): string {
  const q = new URLSearchParams({ ...search, ...(limit !== DEFAULT_LIMIT ? { limit: String(limit) } : {}) }).toString();
  return `${listPath(filterId)}${q ? `?${q}` : ''}`;
}
const RADII = ['10', '25', '50', '75', '100', '150', '200', '300', '500'];

/** "Frankfurt am Main (DE)" (as the reader's language names it) for a radius input holding coordinates (when the city data is loaded). */
async function nearCity(value: string | undefined, language: string): Promise<string | undefined> {
  const m = value && /^(-?[\d.]+),(-?[\d.]+)$/.exec(value);
  if (!m) return undefined;
  const city = await cityNear(Number(m[1]), Number(m[2]), 15, 250);
  return city ? `${cityNameIn(city, language)} (${city.country})` : undefined;
}

/** A radius centre the API reads as it is: `lat,lon` or an airport (`airport:FRA`, `FRA`). */
function isCentre(value: string): boolean {
  if (/^-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?$/.test(value) || /^airport:/i.test(value)) return true;
  // "FRA" is an airport; "Rom" (Rome in German) is a town: three letters count as an airport's when one has that code.
  return /^[A-Za-z]{3}$/.test(value) && isKnownAirport(value) && (value === value.toUpperCase() || !/^[A-Z][a-z]/.test(value));
}

/** A `from`/`to` place the API reads as it is: a country (code or name), a postal area, an airport. */
function isFilterPlace(value: string): boolean {
  return countryCode(value) !== undefined || /^[A-Za-z]{2}-/.test(value) || /^airport:/i.test(value) || /^[A-Za-z]{3}$/.test(value);
}

/** The hidden companion of an "Around" field that shows a town's name: `<lat,lon> <the name shown>` (public/app.js sets it on a pick). */
const AT = '_at';

/**
 * Places typed into the bar as people write them (docs/choices.md, Typed places), before the
 * API's plain form is made of the query: an "Around" field holding a town's name ("München",
 * "PL Warszawa", "Warschau / Warszawa (PL)", a postal area "PL-00") takes the point it names,
 * the point the page or a picked suggestion put beside the name while the name is unchanged; a
 * town typed as the only `from`/`to` place (not a country, area or airport) becomes that side's
 * radius centre when it has none. A name that names no single place stays as typed, so the page
 * says so and offers the choices (nearChoices). Only the bar's queries (the typed mark).
 */
export async function resolveTypedPlaces(query: string, language: string): Promise<string> {
  const given = new URLSearchParams(query);
  if (!given.has(TYPED)) return query;
  let changed = false;
  for (const side of ['from', 'to'] as const) {
    const name = `${side}_near`;
    const at = given.get(name + AT) ?? '';
    if (given.has(name + AT)) {
      given.delete(name + AT);
      changed = true;
    }
    const value = given.get(name)?.trim() ?? '';
    const place = given.get(side)?.trim() ?? '';
    if (!value && place && !place.includes(',') && !isFilterPlace(place)) {
      const found = await resolvePlaceText(place, language);
      if ('place' in found && found.place.kind === 'city') {
        given.set(name, pointText(found.place));
        given.delete(side);
        changed = true;
      }
      continue;
    }
    if (!value || isCentre(value)) continue;
    const shown = /^(-?[\d.]+,-?[\d.]+) (.+)$/.exec(at);
    if (shown && shown[2] === value) {
      given.set(name, shown[1]!);
      changed = true;
      continue;
    }
    const found = await resolvePlaceText(value, language);
    if ('place' in found) {
      given.set(name, pointText(found.place));
      changed = true;
    }
  }
  return changed ? given.toString() : query;
}

/** The places an "Around" field's name may mean (several towns of that name, or those beginning with it); [] for a centre. */
async function nearChoices(value: unknown, language: string): Promise<ResolvedPlace[]> {
  if (typeof value !== 'string' || !value.trim() || isCentre(value.trim())) return [];
  const found = await resolvePlaceText(value, language);
  return 'choices' in found ? found.choices : [];
}

/**
 * The search bar's mark: what it sends is as a person typed it, numbers in the page's language
 * (`5.000` kg in German, `5,000` in English). A URL without it is the API's plain form (the page's
 * links, bookmarks, a saved search's url) and is read exactly as the JSON API reads it.
 */
const TYPED = 'typed';
const WEIGHT_PARAMS: readonly string[] = ['weight_min', 'weight_max'];
const RADIUS_PARAMS: readonly string[] = ['from_radius', 'to_radius', 'loading_meters_max'];
/** The bar's fields always in sight; every other search parameter sits under "More", opened when one is set or wrong. */
const ALWAYS_SHOWN: ReadonlySet<SearchParamName> = new Set(['from', 'to', 'from_near', 'from_radius', 'to_near', 'to_radius', 'q']);
const UNDER_MORE = SEARCH_PARAMS.filter((name) => !ALWAYS_SHOWN.has(name));

/**
 * The list page's own reading of its query, before anything is shown (docs/choices.md, Load
 * search): the bar's weights (kg, or with t) and radii read in the user's language with the
 * freight form's reader, country names typed as places turned into codes, and nothing left that
 * the API would warn about although the person did not ask for it: no empty parameter, no radius
 * without a centre (the bar always sends its radius). Answers the query in the API's plain form
 * to redirect to, or undefined when the request already is that form, so the page redirects at
 * most once. What cannot be read stays as typed, so the API's warning names it on the page.
 */
export function plainListQuery(query: string, language: string): string | undefined {
  const given = new URLSearchParams(query);
  const typed = given.has(TYPED);
  let changed = typed;
  const out = new URLSearchParams();
  for (const [key, raw] of given) {
    if (key === TYPED) continue;
    const value = raw.trim();
    if (value === '') {
      changed = true;
      continue;
    }
    let plain = value;
    if (typed && WEIGHT_PARAMS.includes(key)) plain = readLocaleWeightKg(value, language) ?? value;
    else if (typed && RADIUS_PARAMS.includes(key)) plain = readLocaleDecimal(value, language) ?? value;
    else if (typed && (key === 'from' || key === 'to'))
      plain = value
        .split(',')
        .map((place) => (place.trim() ? (countryCode(place) ?? place.trim()) : ''))
        .filter(Boolean)
        .join(',');
    if (plain !== raw) changed = true;
    if (plain !== '') out.append(key, plain);
  }
  for (const side of ['from', 'to']) {
    if (out.has(`${side}_radius`) && !out.has(`${side}_near`)) {
      out.delete(`${side}_radius`);
      changed = true;
    }
  }
  return changed ? out.toString() : undefined;
}

/** A search field's name as the bar labels it, for its problem under the bar. */
function fieldLabel(name: string, t: Ctx['t']): string {
  const side = /^(from|to)_(near|radius)$/.exec(name);
  if (side) return `${t(`fv.search.${side[1] as 'from' | 'to'}`)} – ${t(side[2] === 'near' ? 'fv.search.near' : 'fv.search.radius')}`;
  const day = /^(pickup|delivery)_(from|to)$/.exec(name);
  if (day)
    return `${t(`fv.search.${day[1] as 'pickup' | 'delivery'}`)} (${t(day[2] === 'from' ? 'fv.search.weight_min' : 'fv.search.weight_max')})`;
  if (name === 'weight_min' || name === 'weight_max') return `${t('fv.search.weight')} ${t(`fv.search.${name}`)}`;
  if (name === 'from' || name === 'to' || name === 'media' || name === 'q') return t(`fv.search.${name}`);
  if (name === 'body' || name === 'adr' || name === 'loading_meters_max') return t(`search.load.${name}`);
  if (name === 'pallet_exchange') return t('fv.form.pallet_exchange');
  return name;
}

/** The search bar: a GET form whose fields are the API's parameters, so its URL is the search. */
function SearchBar({
  state,
  search,
  typed,
  ctx,
  problems,
  notes,
  towns,
  choices,
}: {
  state: ListState;
  search: SearchQuery;
  /** the request's parameters: a field whose value could not be read shows it as typed */
  typed: Record<string, unknown>;
  ctx: Ctx<Caller>;
  /** per parameter: what could not be read, in the user's words */
  problems: Record<string, string>;
  notes: { from?: string; to?: string };
  /** the town at an "Around" field's point, shown in the field instead of its coordinates */
  towns: { from?: string; to?: string };
  /** per side: the places a typed name may mean, as links */
  choices: Partial<Record<'from' | 'to', Array<{ label: string; href: string }>>>;
}) {
  const t = ctx.t;
  const lang = ctx.language;
  const v = (name: SearchParamName) => {
    const raw = typed[name];
    if (problems[name] && typeof raw === 'string') return raw;
    const value = search[name] ?? '';
    // Numbers in the reader's language, as they are read back (the bar's mark).
    return value && (WEIGHT_PARAMS.includes(name) || RADIUS_PARAMS.includes(name)) ? formatNumber(value, lang) : value;
  };
  const invalid = (name: SearchParamName) => (problems[name] ? 'true' : undefined);
  const more = UNDER_MORE.some((name) => search[name] || problems[name]);
  /** A day of a window: pick-up or delivery, from or to. */
  const day = (name: SearchParamName) => (
    <input type="date" name={name} value={v(name)} aria-label={fieldLabel(name, t)} aria-invalid={invalid(name)} />
  );
  /** A bound of the weight: at least, at most. */
  const weight = (name: 'weight_min' | 'weight_max') => (
    <input
      name={name}
      inputMode="decimal"
      value={v(name)}
      placeholder={t(`fv.search.${name}`)}
      aria-label={fieldLabel(name, t)}
      aria-invalid={invalid(name)}
    />
  );
  const side = (name: 'from' | 'to') => {
    const radius = v(`${name}_radius`) || String(DEFAULT_RADIUS_KM);
    return (
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
            aria-invalid={invalid(name)}
          />
          <span class="hint">{t('fv.search.place.hint')}</span>
        </label>
        <label>
          {t('fv.search.near')}
          <input
            name={`${name}_near`}
            value={towns[name] && !problems[`${name}_near`] ? towns[name] : v(`${name}_near`)}
            data-place="near"
            autocomplete="off"
            placeholder={name === 'from' ? 'Frankfurt' : 'Milano'}
            aria-invalid={invalid(`${name}_near`)}
          />
          <span class="hint" data-near-note={`${name}_near`}>
            {notes[name] ?? t('fv.search.near.hint')}
          </span>
        </label>
        {/* The point the town's name in the field stands for, while it is unchanged (resolveTypedPlaces). */}
        <input
          type="hidden"
          name={`${name}_near${AT}`}
          value={towns[name] && !problems[`${name}_near`] ? `${search[`${name}_near`]} ${towns[name]}` : ''}
        />
        {choices[name] && (
          <div class="place-choices" data-testid={`${name}-near-choices`}>
            <p>{problems[`${name}_near`]}</p>
            <ul>
              {choices[name].map((c) => (
                <li>
                  <a href={c.href}>{c.label}</a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <label class="radius">
          {t('fv.search.radius')}
          {/* Sent always; the page drops it while "Around" is empty (plainListQuery). */}
          <Select
            name={`${name}_radius`}
            value={radius}
            options={[...new Set([...RADII.map((r) => formatNumber(r, lang)), radius])]
              .sort((a, b) => Number(readLocaleDecimal(a, lang) ?? 0) - Number(readLocaleDecimal(b, lang) ?? 0))
              .map((r) => [r, `${r} km`])}
          />
        </label>
      </div>
    );
  };
  const shown = Object.entries(problems).filter(([name]) => (SEARCH_PARAMS as readonly string[]).includes(name));
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is too new for some browsers dispatchers use; role=search on the form is the established equivalent
    <form class="panel search-bar" method="get" action={`/freights/enlist/${state.filterId}`} role="search" data-testid="search-bar">
      <input type="hidden" name="limit" value={String(state.limit)} />
      <input type="hidden" name="sort" value={state.sort} />
      <input type="hidden" name="direction" value={state.direction} />
      <input type="hidden" name={TYPED} value="1" />
      <div class="search-grid">
        {side('from')}
        {side('to')}
      </div>
      <details class="search-more" open={more}>
        <summary>{t('fv.search.more')}</summary>
        <div class="form-grid">
          <fieldset class="pair">
            <legend>{t('fv.search.pickup')}</legend>
            {day('pickup_from')}
            {day('pickup_to')}
          </fieldset>
          <fieldset class="pair">
            <legend>{t('fv.search.delivery')}</legend>
            {day('delivery_from')}
            {day('delivery_to')}
          </fieldset>
          <fieldset class="pair">
            <legend>{t('fv.search.weight')}</legend>
            {weight('weight_min')}
            {weight('weight_max')}
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
          {/* The load described as trucks are (docs/choices.md, "Loads described as trucks are"). */}
          <label>
            {t('search.load.body')}
            <Select
              name="body"
              value={v('body')}
              options={[
                ['', t('fv.form.body.any')],
                ...(v('body') && !isOneOf(BODIES, v('body')) ? [[v('body'), v('body')] as [string, string]] : []),
                ...BODIES.map((b) => [b, t(`vv.body.${b}`)] as [string, string]),
              ]}
            />
          </label>
          <label>
            {t('search.load.loading_meters_max')}
            <input
              name="loading_meters_max"
              inputMode="decimal"
              value={v('loading_meters_max')}
              placeholder="13,6"
              aria-invalid={invalid('loading_meters_max')}
            />
          </label>
          <label>
            {t('search.load.adr')}
            <Select
              name="adr"
              value={v('adr')}
              options={[
                ['', t('search.load.adr.any')],
                ['1', t('search.load.adr.yes')],
                ['0', t('search.load.adr.no')],
              ]}
            />
          </label>
          <label>
            {t('fv.form.pallet_exchange')}
            <Select
              name="pallet_exchange"
              value={v('pallet_exchange')}
              options={[
                ['', t('search.load.adr.any')],
                ['1', t('fv.form.pallet_exchange.yes')],
                ['0', t('fv.form.pallet_exchange.no')],
              ]}
            />
          </label>
        </div>
      </details>
      <div class="toolbar search-actions">
        <label class="grow">
          {t('fv.search.q')}
          <input name="q" type="search" value={v('q')} placeholder={t('fv.search.q.hint')} aria-invalid={invalid('q')} />
        </label>
        <button type="submit">{t('fv.search.submit')}</button>
        <a class="button secondary" href={`/freights/enlist/${state.filterId}`}>
          {t('fv.search.reset')}
        </a>
      </div>
      {shown.length > 0 && (
        <p class="hint warnings" role="status" data-testid="search-problems">
          {t('fv.search.ignored')} {shown.map(([name, message]) => `${fieldLabel(name, t)}: ${message}`).join(' ')}
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
      where.push(
        t('fv.search.summary.near', { km: formatNumber(search[`${side}_radius`] ?? DEFAULT_RADIUS_KM, lang), place: notes[side] ?? near }),
      );
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
  if (isOneOf(['road', 'air'] as const, search.media)) parts.push(t(`fv.search.media.${search.media}`));
  if (search.body)
    parts.push(
      search.body
        .split(',')
        .map((b) => (isOneOf(BODIES, b) ? t(`vv.body.${b}`) : b))
        .join(', '),
    );
  if (search.loading_meters_max) parts.push(`≤ ${t('fv.load.ldm', { meters: formatNumber(search.loading_meters_max, lang) })}`);
  if (search.adr === '1' || search.adr === '0') parts.push(t(search.adr === '1' ? 'search.load.adr.yes' : 'search.load.adr.no'));
  if (search.pallet_exchange === '1') parts.push(t('fv.load.pallets'));
  if (search.q) parts.push(`„${search.q}“`);
  return parts.join(' · ');
}

/**
 * Saves the current search (POST /searches/add with the normalised parameters: the numbers as the
 * page read them). Its name is proposed in words, as the folded bar says what is searched.
 */
function SaveSearch({ state, search, ctx, name }: { state: ListState; search: SearchQuery; ctx: Ctx<Caller>; name: string }) {
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
          <input name="name" required maxLength={200} value={name} />
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
  /** Marks under a row's route from modules above, by freight id (src/positions: late and the last milestone, the two parties' rows only). */
  rowMarks?: RowMarks;
}

export async function enlistPage(
  routes: unknown[],
  state: ListState,
  ctx: Ctx<Caller>,
  parts: ListPageParts,
  read: { search: LoadSearch; warnings: Warning[] },
): Promise<PageResult> {
  const t = ctx.t;
  // The bar's input in the user's language, and nothing the person did not ask for: first the
  // API's plain form of the query (one redirect; the list and its links then carry that form).
  const url = ctx.req.url;
  const asked = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const plain = plainListQuery(await resolveTypedPlaces(asked, ctx.language), ctx.language);
  if (plain !== undefined) return { redirect: `${listPath(state.filterId)}${plain ? `?${plain}` : ''}` };
  const { warnings } = read;
  // What could not be read, in the user's words (the JSON answer keeps the API's English warnings).
  const problems = problemsFromWarnings(warnings, t);
  // A town's name that names several: which one, as links that search around each.
  const choices: Partial<Record<'from' | 'to', Array<{ label: string; href: string }>>> = {};
  for (const side of ['from', 'to'] as const) {
    const name = `${side}_near` as const;
    if (!problems[name]) continue;
    const options = await nearChoices(ctx.params[name], ctx.language);
    if (!options.length) continue;
    problems[name] = t('fv.search.near.which', { place: String(ctx.params[name]).trim() });
    choices[side] = options.map((o) => ({
      label: o.label,
      href: listHref(state, { page: 1 }, { ...searchToParams(read.search), [name]: pointText(o) }),
    }));
  }
  const freightSearch = read.search;
  const search = searchToParams(freightSearch);
  // The market is the user's own board: the loads it opened before read as seen, each row can be hidden (issue 47, item 11).
  const market = state.filterId === LIST.market;
  const [counts, fromNote, toNote, seen] = await Promise.all([
    parts.countLists(ctx.db, ctx.caller.companyId, ctx.clock.now(), freightSearch),
    nearCity(search.from_near, ctx.language),
    nearCity(search.to_near, ctx.language),
    market
      ? seenAmong(
          ctx.db,
          ctx.caller.userId,
          routes.filter(isListedFreight).map((r) => r.id),
        )
      : Promise.resolve(new Set<number>()),
  ]);
  const tabs: Tab[] = LISTS.map((list, i) => ({
    href: tabHref(list.id, list.searchable ? search : {}, state.limit),
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
        await freightListColumns(
          routes.filter(isListedFreight),
          state.filterId,
          ctx,
          { href: sortable, sorted },
          parts.rowMarks,
          market ? { seen, hideBack: listHref(state, {}, search) } : undefined,
        ),
      );
  return {
    title: t(listLabel(state.filterId)),
    body: (
      // The live board (public/app.js, docs/reference.md#live-board): on a freight event the script reads this
      // page again and puts the rows it does not show yet at the top, marked new.
      <section data-live-list data-live-new={t('fv.live.new')}>
        <div class="toolbar">
          <h1>{t(listLabel(state.filterId))}</h1>
          <span class="spacer" />
          <a href="/searches/index">{t('fv.search.saved_searches')}</a>
          {market && (
            <a href="/freights/hidden" data-testid="hidden-link">
              {t('fv.hidden.link')}
            </a>
          )}
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
          <details class="search-fold" open={Object.keys(problems).length > 0 ? true : undefined} data-testid="search-fold">
            <summary>
              <span class="search-fold-title">{t('fv.search.title')}</span>
              <span class="search-summary">{summary || t('fv.search.none')}</span>
            </summary>
            <SearchBar
              state={state}
              search={search}
              typed={ctx.params}
              ctx={ctx}
              problems={problems}
              choices={choices}
              notes={{
                from: fromNote && t('fv.search.near_city', { city: fromNote }),
                to: toNote && t('fv.search.near_city', { city: toNote }),
              }}
              towns={{ from: fromNote, to: toNote }}
            />
            <SaveSearch state={state} search={search} ctx={ctx} name={(summary || t(listLabel(state.filterId))).slice(0, 200)} />
          </details>
        )}
        <Tabs tabs={tabs} label={t('fv.lists')} />
        <DataTable
          columns={columns}
          rows={routes}
          empty={t('fv.empty')}
          testId="freight-list"
          rowKey={(r) => (isListedFreight(r) ? r.id : undefined)}
          rowClass={(r) => (isListedFreight(r) && seen.has(r.id) ? 'seen' : undefined)}
        />
        <Pager
          page={state.page}
          limit={state.limit}
          count={routes.length}
          href={(page) => listHref(state, { page }, search)}
          sizeHref={(limit, page) => listHref(state, { limit, page }, search)}
          t={t}
        />
      </section>
    ),
  };
}
