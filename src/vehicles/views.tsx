import { CompanyName, namesOfCompanies } from '../accounts/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { formatKg, formatNumber, formatStamp } from '../kernel/locale.ts';
import { DEFAULT_LIMIT, isOneOf, type PageWindow } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Facts, Field, Pager, PostButton, Tabs, text, type Column } from '../kernel/ui.tsx';
import { partnerCompanies, type FreightView } from '../freights/index.ts';
import { CompanyPicker } from '../freights-http/index.ts';
import { searchToParams, type LoadSearch } from '../market/index.ts';
import type { Sort } from './store.ts';
import { cityNameIn, cityNear, roadEstimateKm, townOfCode } from '../places/index.ts';
import type { OfferField, VehicleView } from './fields.ts';
import { BODIES, VEHICLE_STATUSES } from './tables.ts';

/**
 * The vehicle offers' pages (routes.tsx), in English and German, at the desk and on a phone
 * (DataTable turns rows into cards): the offers list with its search bar and count, the own
 * offers, the offer with its fitting freights, the form, and the fitting trucks on a freight's
 * page. They render the JSON answers' data; forms post to the same API paths.
 */

export interface FormState {
  values: Record<string, string>;
  problems: Record<string, string>;
}

export const backTo = (_ctx: Ctx, to: string, message: string): PageResult => ({ redirect: to, ok: false, message });

function tabs(ctx: Ctx, active: 'market' | 'mine' | 'add') {
  const t = ctx.t;
  return (
    <Tabs
      label={t('nav.vehicles')}
      tabs={[
        { href: '/vehicles/index', label: t('vv.tab.market'), active: active === 'market' },
        { href: '/vehicles/mine', label: t('vv.tab.mine'), active: active === 'mine' },
        { href: '/vehicles/add', label: t('vv.tab.add'), active: active === 'add' },
      ]}
    />
  );
}

const bodyLabel = (ctx: Ctx, body: string) => (isOneOf(BODIES, body) ? ctx.t(`vv.body.${body}`) : body);
const statusLabel = (ctx: Ctx, status: string) => (isOneOf(VEHICLE_STATUSES, status) ? ctx.t(`vv.status.${status}`) : status);

/**
 * A place as dispatchers name it: `60311 Frankfurt am Main (DE)` (the town of a postal code the
 * packaged data knows), `FRA Frankfurt` (an airport and its city), else the code and country.
 */
function placeName(location: unknown, countryCode: unknown): string {
  const code = (typeof location === 'string' ? location : '').replace(/^(city|airport):/, '').trim();
  if (!code) return '–';
  const country = typeof countryCode === 'string' && countryCode ? countryCode : null;
  const town = townOfCode(code, country);
  return `${code}${town ? ` ${town}` : ''}${country ? ` (${country})` : ''}`;
}

/** How long a page waits for the town at an offer's point (the city worker answers at once once loaded). */
const CITY_WAIT_MS = 500;

/**
 * Where an offer waits, as dispatchers say it (issue 47, item 6): `München (DE) +100 km`, the town
 * in the reader's language (Munich on English pages, Warschau on German ones): the town at the
 * offer's point (within 25 km; every offer is stored with one), else the town of its postal code,
 * else the code; never bare coordinates while a town is known.
 */
async function offerFrom(ctx: Ctx, v: VehicleView): Promise<string> {
  const lat = Number(v.from_latitude);
  const lon = Number(v.from_longitude);
  const city = Number.isFinite(lat) && Number.isFinite(lon) ? await cityNear(lat, lon, 25, CITY_WAIT_MS) : null;
  const country = v.from_country || city?.country || null;
  const code = (typeof v.from === 'string' ? v.from : '').replace(/^(city|airport):/, '').trim();
  const town = city ? cityNameIn(city, ctx.language) : code ? (townOfCode(code, country) ?? code) : null;
  const place = town
    ? `${town}${country ? ` (${country})` : ''}`
    : `${formatNumber(lat, ctx.language, 3)}, ${formatNumber(lon, ctx.language, 3)}`;
  return `${place} ${ctx.t('vv.radius', { km: v.from_radius })}`;
}

/** The offers' places, read once per page (by offer id). */
export async function offerPlaces(ctx: Ctx, vehicles: readonly VehicleView[]): Promise<Map<number, string>> {
  return new Map(await Promise.all(vehicles.map(async (v) => [v.id, await offerFrom(ctx, v)] as const)));
}

/** Where an offer goes: `PL`, `FR-75`, `JFK`, comma-separated; empty: anywhere. */
const offerTo = (ctx: Ctx, v: VehicleView) =>
  v.to
    ? v.to
        .split(',')
        .map((p) => p.trim().replace(/^airport:/, ''))
        .join(', ')
    : ctx.t('vv.anywhere');

/** `München (DE) +100 km → PL`. */
const offerRoute = (ctx: Ctx, v: VehicleView, places: Map<number, string>) => `${places.get(v.id) ?? ''} → ${offerTo(ctx, v)}`;

/**
 * The estimated road km of a great-circle distance between origins (places ROAD_FACTOR; docs/choices.md,
 * "Road distances"): `≈ 13` (the sign read out as "estimated"); none: a dash. The JSON keeps the
 * great circle (`distance_km`).
 */
const km = (ctx: Ctx, value: number | null) =>
  value === null ? (
    '–'
  ) : (
    <span data-distance="estimate">
      <span aria-hidden="true">≈ </span>
      <span class="visually-hidden">{ctx.t('vv.estimated')} </span>
      {formatNumber(Math.round(roadEstimateKm(value)), ctx.language, 0, 0)}
    </span>
  );

/** `1 offer`, `2 offers`. */
const offerCount = (ctx: Ctx, count: number) => (count === 1 ? ctx.t('vv.count.one') : ctx.t('vv.count', { count }));

const window = (ctx: Ctx, v: VehicleView) =>
  `${formatStamp(v.available_from, ctx.language)} – ${formatStamp(v.available_to, ctx.language)}`;

function offerColumns<R extends VehicleView>(ctx: Ctx, places: Map<number, string>, extra: Column<R>[] = []): Column<R>[] {
  const t = ctx.t;
  return [
    {
      label: t('vv.col.from'),
      lead: true,
      wrap: true,
      cell: (v) => <a href={`/vehicles/view/${v.id}`}>{offerRoute(ctx, v, places)}</a>,
    },
    { label: t('vv.col.window'), wrap: true, cell: (v) => window(ctx, v) },
    { label: t('vv.col.body'), cell: (v) => bodyLabel(ctx, v.body) },
    { label: t('vv.col.capacity'), numeric: true, cell: (v) => formatKg(String(v.capacity), ctx.language) },
    { label: t('vv.col.company'), wrap: true, cell: (v) => <CompanyName company={v.company} t={t} /> },
    ...extra,
  ];
}

/** GET /vehicles/index: the search bar, the count, the offers. */
export async function listPage(
  ctx: Ctx<Caller>,
  vehicles: VehicleView[],
  read: { search: LoadSearch; bodies: string[]; total: number; page: number; limit: number; sort: Sort; direction: 'asc' | 'desc' },
): Promise<Page> {
  const t = ctx.t;
  const places = await offerPlaces(ctx, vehicles);
  const params = searchToParams(read.search);
  // A page of the same search in the same order (the defaults left out of the address).
  const pageHref = (page: number) => {
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
    if (read.bodies.length) query.set('body', read.bodies.join(','));
    if (read.sort !== 'created' || read.direction !== 'desc') query.set('sort', `Vehicles.${read.sort} ${read.direction}`);
    if (read.limit !== DEFAULT_LIMIT) query.set('limit', String(read.limit));
    if (page > 1) query.set('page', String(page));
    const text = query.toString();
    return text ? `/vehicles/index?${text}` : '/vehicles/index';
  };
  const input = (name: keyof typeof params, label: string, extra: Record<string, string> = {}) => (
    <Field id={`vs-${name}`} label={label}>
      <input id={`vs-${name}`} name={name} value={params[name] ?? ''} {...extra} />
    </Field>
  );
  return {
    title: t('vv.title.market'),
    body: (
      <section>
        <h1>{t('vv.title.market')}</h1>
        {tabs(ctx, 'market')}
        <form class="search-bar stack" method="get" action="/vehicles/index" data-testid="vehicle-search">
          <div class="form-grid">
            {input('from', t('vv.search.from'), { 'data-place': 'filter', 'data-near': 'from_near', autocomplete: 'off' })}
            {input('from_near', t('vv.search.near'), { 'data-place': 'near', autocomplete: 'off' })}
            {input('from_radius', t('vv.search.radius'), { inputmode: 'numeric' })}
            {input('to', t('vv.search.to'), { 'data-place': 'filter', autocomplete: 'off' })}
            {input('pickup_from', t('vv.search.pickup_from'), { type: 'date' })}
            {input('pickup_to', t('vv.search.pickup_to'), { type: 'date' })}
            {input('weight_min', t('vv.search.weight_min'), { inputmode: 'decimal' })}
            <Field id="vs-body" label={t('vv.search.body')}>
              <select id="vs-body" name="body">
                <option value="">{t('vv.search.any')}</option>
                {BODIES.map((b) => (
                  <option value={b} selected={read.bodies.length === 1 && read.bodies[0] === b}>
                    {bodyLabel(ctx, b)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <button type="submit">{t('vv.search')}</button>
        </form>
        <p class="muted" data-testid="vehicle-count">
          {offerCount(ctx, read.total)}
        </p>
        <DataTable
          testId="vehicles"
          caption={t('vv.title.market')}
          rows={vehicles}
          empty={t('vv.empty')}
          columns={offerColumns(ctx, places)}
        />
        <Pager page={read.page} limit={read.limit} count={vehicles.length} href={pageHref} t={t} />
      </section>
    ),
  };
}

/** GET /vehicles/mine: the own offers, every status. */
export async function minePage(ctx: Ctx<Caller>, vehicles: VehicleView[]): Promise<Page> {
  const places = await offerPlaces(ctx, vehicles);
  const t = ctx.t;
  return {
    title: t('vv.title.mine'),
    body: (
      <section>
        <h1>{t('vv.title.mine')}</h1>
        {tabs(ctx, 'mine')}
        <p class="muted">{offerCount(ctx, vehicles.length)}</p>
        <DataTable
          testId="my-vehicles"
          caption={t('vv.title.mine')}
          rows={vehicles}
          empty={t('vv.empty')}
          columns={offerColumns(ctx, places, [
            { label: t('vv.col.status'), cell: (v) => <span class={`badge ${v.status}`}>{statusLabel(ctx, v.status)}</span> },
          ])}
        />
      </section>
    ),
  };
}

type MatchedFreight = FreightView & { distance_km: number | null };

/** The fitting freights of an offer as a table (the offer's page, the page of its matches). */
function matchesTable(ctx: Ctx<Caller>, matches: MatchedFreight[]) {
  const t = ctx.t;
  return (
    <DataTable
      testId="vehicle-matches"
      caption={t('vv.matches')}
      rows={matches}
      empty={t('vv.matches.none')}
      columns={[
        {
          label: t('vv.col.freight'),
          lead: true,
          wrap: true,
          cell: (f) => (
            <a
              href={`/freights/view/${f.id}`}
            >{`${placeName(f.from, f.from_country)} → ${placeName(f.to, f.to_country)} · ${f.display_id}`}</a>
          ),
        },
        { label: t('vv.col.loading'), wrap: true, cell: (f) => formatStamp(f.etd, ctx.language) || '–' },
        {
          label: t('vv.col.weight'),
          numeric: true,
          cell: (f) => formatKg(f.weight === null ? null : String(f.weight), ctx.language),
        },
        { label: t('vv.col.distance'), numeric: true, cell: (f) => km(ctx, f.distance_km) },
      ]}
    />
  );
}

/**
 * The first page of a list shown inside another page: its rows (read one more than a page) and,
 * when there are more, a link to the list's own page 2.
 */
function firstPage<R>(rows: R[], more: string, label: string) {
  const shown = rows.slice(0, DEFAULT_LIMIT);
  const link =
    rows.length > DEFAULT_LIMIT ? (
      <p>
        <a href={more} data-testid="more-matches">
          {label} →
        </a>
      </p>
    ) : null;
  return { shown, link };
}

/** GET /vehicles/view/{id}: the offer; for its company, its actions and the first page of fitting freights. */
export async function offerPage(ctx: Ctx<Caller>, v: VehicleView, matches: MatchedFreight[] | undefined): Promise<Page> {
  const places = await offerPlaces(ctx, [v]);
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const own = v.company.id === ctx.caller.companyId;
  const first = matches && firstPage(matches, `/vehicles/matches/${v.id}?page=2`, t('vv.matches.more'));
  return {
    title: t('vv.title.view', { id: v.id }),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t('vv.title.view', { id: v.id })}</h1>
          <span class={`badge ${v.status}`} data-testid="vehicle-status">
            {statusLabel(ctx, v.status)}
          </span>
          <span class="spacer" />
          {own &&
            v.status === 'open' && [
              <a class="button secondary" href={`/vehicles/edit/${v.id}`}>
                {t('vv.edit')}
              </a>,
              <PostButton action={`/vehicles/withdraw/${v.id}`} label={t('vv.withdraw')} csrf={csrf} variant="danger" />,
            ]}
        </div>
        <Facts
          items={[
            [t('vv.col.company'), <CompanyName company={v.company} t={t} />],
            [t('vv.col.from'), places.get(v.id) ?? '–'],
            [t('vv.col.to'), offerTo(ctx, v)],
            [t('vv.col.window'), window(ctx, v)],
            [t('vv.col.body'), bodyLabel(ctx, v.body)],
            [t('vv.col.capacity'), formatKg(String(v.capacity), ctx.language)],
            [t('vv.loading_meters'), text(v.loading_meters)],
            [t('vv.price'), v.price_per_km === null ? '–' : `${v.price_per_km} €`],
            [t('vv.note'), text(v.note)],
          ]}
        />
        {first && [<h2>{t('vv.matches')}</h2>, matchesTable(ctx, first.shown), first.link]}
      </section>
    ),
  };
}

/** GET /vehicles/matches/{id}: a page of the fitting freights of an own offer, nearest first. */
export function matchesPage(ctx: Ctx<Caller>, vehicleId: number, matches: MatchedFreight[], page: PageWindow): Page {
  const t = ctx.t;
  const title = t('vv.matches.title', { id: vehicleId });
  return {
    title,
    body: (
      <section>
        <h1>{title}</h1>
        <p>
          <a href={`/vehicles/view/${vehicleId}`}>← {t('vv.matches.back')}</a>
        </p>
        {matchesTable(ctx, matches)}
        <Pager page={page.page} limit={page.limit} count={matches.length} href={(n) => `/vehicles/matches/${vehicleId}?page=${n}`} t={t} />
      </section>
    ),
  };
}

type FittingVehicle = VehicleView & { distance_km: number };

/** The fitting trucks of an own freight as a table, each with an Invite button. */
function fittingTable(ctx: Ctx<Caller>, freightId: number, vehicles: FittingVehicle[], places: Map<number, string>) {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  return (
    <DataTable
      caption={t('vv.fitting')}
      rows={vehicles}
      empty={t('vv.fitting.none')}
      columns={offerColumns<FittingVehicle>(ctx, places, [
        { label: t('vv.col.distance'), numeric: true, cell: (v) => km(ctx, v.distance_km) },
        {
          label: '',
          cell: (v) => (
            <PostButton action={`/vehicles/invite/${v.id}`} label={t('vv.invite')} csrf={csrf} fields={{ freight: String(freightId) }} />
          ),
        },
      ])}
    />
  );
}

/** The first page of fitting trucks on the page of an own freight in the market, with a link to more. */
export async function fittingSection(ctx: Ctx<Caller>, freightId: number, vehicles: FittingVehicle[]) {
  const t = ctx.t;
  const first = firstPage(vehicles, `/freights/vehicles/${freightId}?page=2`, t('vv.fitting.more'));
  const places = await offerPlaces(ctx, first.shown);
  return (
    <section class="panel" data-testid="fitting-vehicles">
      <h2>{t('vv.fitting')}</h2>
      {fittingTable(ctx, freightId, first.shown, places)}
      {first.link}
    </section>
  );
}

/** GET /freights/vehicles/{id}: a page of the trucks fitting an own freight, nearest first, each with an Invite button. */
export async function fittingPage(ctx: Ctx<Caller>, freightId: number, vehicles: FittingVehicle[], page: PageWindow): Promise<Page> {
  const places = await offerPlaces(ctx, vehicles);
  const t = ctx.t;
  const title = t('vv.fitting.title', { id: freightId });
  return {
    title,
    body: (
      <section data-testid="fitting-vehicles">
        <h1>{title}</h1>
        <p>
          <a href={`/freights/view/${freightId}`}>← {t('vv.fitting.back')}</a>
        </p>
        {fittingTable(ctx, freightId, vehicles, places)}
        <Pager
          page={page.page}
          limit={page.limit}
          count={vehicles.length}
          href={(n) => `/freights/vehicles/${freightId}?page=${n}`}
          t={t}
        />
      </section>
    ),
  };
}

/** GET /vehicles/add and /vehicles/edit/{id}: the offer form; a refused one comes back with each problem beside its field. */
export async function formPage(ctx: Ctx<Caller>, form: { mode: 'add' | 'edit'; vehicle?: VehicleView; state?: FormState }): Promise<Page> {
  const t = ctx.t;
  const v = form.vehicle;
  // The whitelist by company names with suggestions: the freight form's picker (issue 47, item 9).
  const [partners, chosen] = await Promise.all([
    partnerCompanies(ctx.db, ctx.caller.companyId),
    namesOfCompanies(ctx.db, v?.whitelist ?? []),
  ]);
  const typed = form.state?.values ?? {};
  const problems = form.state?.problems ?? {};
  const local = (s: string | null | undefined) => (s ? s.slice(0, 16).replace(' ', 'T') : '');
  const value = (name: OfferField, stored: string | number | null | undefined) =>
    name in typed ? typed[name]! : stored === null || stored === undefined ? '' : String(stored);
  const field = (name: OfferField, label: string, input: Record<string, unknown>, required = false, hint?: string) => (
    <Field id={`vf-${name}`} label={label} error={problems[name]} required={required} hint={hint}>
      <input
        id={`vf-${name}`}
        name={name}
        aria-invalid={problems[name] ? 'true' : undefined}
        aria-describedby={problems[name] ? `vf-${name}-error` : undefined}
        {...input}
      />
    </Field>
  );
  const title = form.mode === 'add' ? t('vv.title.add') : t('vv.title.edit');
  const action = form.mode === 'add' ? '/vehicles/add' : `/vehicles/edit/${v?.id ?? 0}`;
  const fromValue = v?.from ?? '';
  return {
    title,
    body: (
      <section>
        <h1>{title}</h1>
        {form.mode === 'add' && tabs(ctx, 'add')}
        {Object.keys(problems).length > 0 && (
          <p class="flash error" role="alert">
            {t('vv.not_saved')}
          </p>
        )}
        <form class="stack panel" method="post" action={action} data-testid="vehicle-form" noValidate>
          <CsrfField token={ctx.reply.generateCsrf()} />
          <div class="form-grid">
            {field(
              'from',
              t('vv.field.from'),
              {
                value: value('from', fromValue),
                'data-place': 'freight',
                'data-side': 'from',
                autocomplete: 'off',
              },
              true,
              t('vv.field.from.hint'),
            )}
            {field('from_country', t('fv.form.country'), { value: value('from_country', v?.from_country), maxLength: 2, size: 3 })}
            {field('from_radius', t('vv.field.from_radius'), { value: value('from_radius', v?.from_radius ?? 50), inputmode: 'numeric' })}
          </div>
          <input type="hidden" name="from_latitude" value={value('from_latitude', v?.from_latitude)} />
          <input type="hidden" name="from_longitude" value={value('from_longitude', v?.from_longitude)} />
          {field('to', t('vv.field.to'), { value: value('to', v?.to) })}
          <div class="form-grid">
            {field(
              'available_from',
              t('vv.field.available_from'),
              { type: 'datetime-local', value: local(value('available_from', v?.available_from)) },
              true,
            )}
            {field(
              'available_to',
              t('vv.field.available_to'),
              { type: 'datetime-local', value: local(value('available_to', v?.available_to)) },
              true,
            )}
          </div>
          <div class="form-grid">
            <Field id="vf-body" label={t('vv.field.body')} error={problems.body} required>
              <select id="vf-body" name="body">
                {BODIES.map((b) => (
                  <option value={b} selected={value('body', v?.body ?? 'tautliner') === b}>
                    {bodyLabel(ctx, b)}
                  </option>
                ))}
              </select>
            </Field>
            {field('capacity', t('vv.field.capacity'), { value: value('capacity', v?.capacity), inputmode: 'decimal' }, true)}
            {field('loading_meters', t('vv.field.loading_meters'), {
              value: value('loading_meters', v?.loading_meters),
              inputmode: 'decimal',
            })}
            {field('price_per_km', t('vv.field.price_per_km'), { value: value('price_per_km', v?.price_per_km), inputmode: 'decimal' })}
            {/* docs/choices.md, "Loads described as trucks are": only an offer that carries ADR fits a dangerous load. */}
            <Field id="vf-adr" label={t('vv.field.adr')} error={problems.adr}>
              <select id="vf-adr" name="adr">
                {(['0', '1'] as const).map((a) => (
                  <option value={a} selected={value('adr', v?.adr ?? 0) === a}>
                    {t(a === '1' ? 'vv.field.adr.yes' : 'vv.field.adr.no')}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field id="vf-note" label={t('vv.field.note')} error={problems.note}>
            <textarea id="vf-note" name="note" maxLength={500}>
              {value('note', v?.note)}
            </textarea>
          </Field>
          <Field id="vf-whitelist" label={t('vv.field.whitelist')} error={problems.whitelist} hint={t('vv.field.whitelist.hint')}>
            <CompanyPicker
              id="vf-whitelist"
              partners={partners}
              value={form.state?.values.whitelist_names ?? (v?.whitelist ?? []).map((id) => chosen.get(id) ?? String(id)).join(', ')}
            />
          </Field>
          <div>
            <button type="submit">{form.mode === 'add' ? t('vv.save') : t('vv.save.edit')}</button>
          </div>
        </form>
      </section>
    ),
  };
}
