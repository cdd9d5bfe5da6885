import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { formatDay, formatKg, formatNumber, formatStamp, formatWindow } from '../kernel/locale.ts';
import { isOneOf } from '../kernel/params.ts';
import { ConfirmAction, DataTable, Field, PostButton } from '../kernel/ui.tsx';
import { FREIGHT_LIST_IDS, type FreightView } from '../freights/index.ts';
import { listLabel } from '../freights-http/index.ts';
import { BODIES, DEFAULT_RADIUS_KM, parseCenter, parsePlacePattern, type SearchParamName } from '../market/index.ts';
import { cityNear, cityNameIn, countryName } from '../places/index.ts';
import { TYPED, type SearchFormState } from './form-input.ts';
import type { PresentedSearch } from './present.ts';
import type { NotificationView } from './notifications.ts';

/**
 * Pages of saved searches and notifications; they render the JSON answers' data in a
 * dispatcher's words: places by name ("50 km around Frankfurt am Main (DE)", "Germany", "airport
 * FRA"), weights, days and times in the reader's language, no parameter names.
 */

/** How long a page waits for the city data on its first use before it names a point by its coordinates. */
const CITY_WAIT_MS = 250;

/** The town a point lies in, in the reader's language: `Frankfurt am Main (DE)`; null while the city data loads. */
async function townOf(latitude: number, longitude: number, language: string, km: number): Promise<string | null> {
  const city = await cityNear(latitude, longitude, km, CITY_WAIT_MS);
  return city ? `${cityNameIn(city, language)} (${city.country})` : null;
}

/** A search's centre (`lat,lon` or `airport:FRA`) by name. */
async function centreName(value: string, ctx: Ctx): Promise<string> {
  const centre = parseCenter(value);
  if (typeof centre === 'string') return value;
  if (centre.airport) return ctx.t('searches.airport', { code: centre.airport });
  const { latitude, longitude } = centre.center;
  return (
    (await townOf(latitude, longitude, ctx.language, 15)) ??
    `${formatNumber(latitude, ctx.language, 4)}, ${formatNumber(longitude, ctx.language, 4)}`
  );
}

/** A place pattern of `from`/`to` as a dispatcher says it: a country by name, `DE-60`, `airport FRA`. */
function patternName(text: string, ctx: Ctx): string {
  const p = parsePlacePattern(text);
  if (typeof p === 'string') return text;
  if (p.kind === 'country') return countryName(p.country, ctx.language);
  if (p.kind === 'postal') return `${p.country}-${p.prefix}`;
  return ctx.t('searches.airport', { code: p.code });
}

/**
 * A saved search's parameters in words: `From: Germany, 50 km around Frankfurt am Main (DE) ·
 * To: Italy · Pick-up: 01.12.2026–05.12.2026 · 5.000–… kg · road · „PO-4711“`.
 */
export async function describeSearch(params: Record<string, string>, ctx: Ctx): Promise<string> {
  const t = ctx.t;
  const lang = ctx.language;
  const parts: string[] = [];
  for (const side of ['from', 'to'] as const) {
    const where: string[] = [];
    const places = params[side];
    if (places)
      where.push(
        places
          .split(',')
          .filter(Boolean)
          .map((p) => patternName(p, ctx))
          .join(', '),
      );
    const near = params[`${side}_near`];
    if (near) {
      const km = formatNumber(params[`${side}_radius`] ?? DEFAULT_RADIUS_KM, lang);
      where.push(t('fv.search.summary.near', { km, place: await centreName(near, ctx) }));
    }
    if (where.length) parts.push(`${t(`fv.search.${side}`)}: ${where.join(', ')}`);
  }
  for (const w of ['pickup', 'delivery'] as const) {
    const from = params[`${w}_from`];
    const to = params[`${w}_to`];
    if (from || to)
      parts.push(
        `${t(w === 'pickup' ? 'fv.col.etd' : 'fv.col.eta')}: ${from ? formatDay(from, lang) : '…'}–${to ? formatDay(to, lang) : '…'}`,
      );
  }
  if (params.weight_min || params.weight_max) {
    const kg = (v?: string) => (v ? formatNumber(v, lang) : '…');
    parts.push(`${kg(params.weight_min)}–${kg(params.weight_max)} kg`);
  }
  if (isOneOf(['road', 'air'] as const, params.media)) parts.push(t(`fv.search.media.${params.media}`));
  if (params.body)
    parts.push(
      params.body
        .split(',')
        .map((b) => (isOneOf(BODIES, b) ? t(`vv.body.${b}`) : b))
        .join(', '),
    );
  if (params.loading_meters_max) parts.push(`≤ ${t('fv.load.ldm', { meters: formatNumber(params.loading_meters_max, lang) })}`);
  if (params.adr === '1' || params.adr === '0') parts.push(t(params.adr === '1' ? 'search.load.adr.yes' : 'search.load.adr.no'));
  if (params.pallet_exchange === '1') parts.push(t('fv.load.pallets'));
  if (params.q) parts.push(`„${params.q}“`);
  return parts.length ? parts.join(' · ') : t('searches.everything');
}

/** Which saved search the page opens for a change, as typed when a change came back with problems. */
export interface EditState {
  id: number;
  form?: SearchFormState;
  /** per form field: the API's warnings of the change, in the user's words */
  warnings?: Record<string, string>;
  /** the change was refused (the reason) */
  error?: string;
  /** the change was saved, but not all of it */
  saved?: boolean;
}

/** The saved search form: name, list, the search's fields as the list page's search bar has them, the alert. */
async function SearchForm({ ctx, search, edit }: { ctx: Ctx<Caller>; search: PresentedSearch; edit: EditState }) {
  const t = ctx.t;
  const lang = ctx.language;
  const typed = edit.form?.typed ?? {};
  const problems = { ...(edit.warnings ?? {}), ...(edit.form?.problems ?? {}) };
  const params = search.params as Partial<Record<SearchParamName, string>>;
  const id = (name: string) => `s-${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}`;
  let focused = !!edit.error;
  /** A field: the text as typed when the form came back, else the saved value in the reader's language; its problem beside it. */
  const field = (name: string, label: string, input: (attrs: Record<string, unknown>) => ComponentChildren, hint?: ComponentChildren) => {
    const autofocus = !focused && !!problems[name];
    if (autofocus) focused = true;
    return (
      <Field id={id(name)} label={label} hint={hint} error={problems[name]}>
        {input({
          id: id(name),
          name,
          'aria-describedby': [hint ? `${id(name)}-hint` : null, `${id(name)}-error`].filter(Boolean).join(' '),
          'aria-invalid': problems[name] ? 'true' : undefined,
          autofocus: autofocus ? true : undefined,
        })}
      </Field>
    );
  };
  const param = (name: SearchParamName, number = false) => {
    const key = `params[${name}]`;
    if (key in typed) return typed[key]!;
    const value = params[name] ?? '';
    return number && value ? formatNumber(value, lang) : value;
  };
  const notes = await Promise.all(
    (['from', 'to'] as const).map(async (side) => {
      const near = params[`${side}_near`];
      return near && !(`params[${side}_near]` in typed) ? t('fv.search.near_city', { city: await centreName(near, ctx) }) : undefined;
    }),
  );
  const side = (s: 'from' | 'to', i: number) => {
    const radius = param(`${s}_radius`, true) || String(DEFAULT_RADIUS_KM);
    return (
      <div class="form-grid">
        {field(
          `params[${s}]`,
          t(`fv.search.${s}`),
          (a) => (
            <input {...a} value={param(s)} data-place="filter" data-near={`params[${s}_near]`} autocomplete="off" />
          ),
          t('fv.search.place.hint'),
        )}
        {field(
          `params[${s}_near]`,
          `${t(`fv.search.${s}`)} – ${t('fv.search.near')}`,
          (a) => (
            <input {...a} value={param(`${s}_near`)} data-place="near" autocomplete="off" />
          ),
          <span data-near-note={`params[${s}_near]`}>{notes[i] ?? t('fv.search.near.hint')}</span>,
        )}
        {field(`params[${s}_radius]`, t('fv.search.radius'), (a) => (
          <select {...a}>
            {[...new Set(['10', '25', '50', '75', '100', '150', '200', '300', '500'].map((r) => formatNumber(r, lang)).concat(radius))].map(
              (r) => (
                <option value={r} selected={r === radius}>{`${r} km`}</option>
              ),
            )}
          </select>
        ))}
      </div>
    );
  };
  const choice = (name: SearchParamName, label: string, options: Array<[string, string]>) =>
    field(`params[${name}]`, label, (a) => (
      <select {...a}>
        {options.map(([value, text]) => (
          <option value={value} selected={value === param(name)}>
            {text}
          </option>
        ))}
      </select>
    ));
  const day = (name: SearchParamName, label: string) =>
    field(`params[${name}]`, label, (a) => <input {...a} type="date" value={param(name)} />);
  const alertOn = 'alert' in typed ? typed.alert === '1' : search.alert === 1;
  const filter = typed.filter ?? String(search.filter);
  return (
    <form class="stack panel" method="post" action={`/searches/edit/${search.id}`} id="edit" data-testid="search-form" noValidate>
      <h2>{t('searches.edit.title', { name: search.name })}</h2>
      {edit.error && (
        <p class="flash error" role="alert">
          {edit.error}
        </p>
      )}
      {!edit.error && Object.keys(problems).length > 0 && (
        <p class="flash error" role="alert" data-testid="form-problems">
          {edit.saved ? t('searches.updated_partly') : t('form.invalid')}
        </p>
      )}
      <CsrfField token={ctx.reply.generateCsrf()} />
      <input type="hidden" name={TYPED} value="1" />
      <input type="hidden" name="back" value="/searches/index" />
      <div class="form-grid">
        {field('name', t('searches.col.name'), (a) => (
          <input {...a} value={typed.name ?? search.name} required maxLength={200} />
        ))}
        {field('filter', t('searches.col.list'), (a) => (
          <select {...a}>
            {FREIGHT_LIST_IDS.map((listId) => (
              <option value={String(listId)} selected={String(listId) === filter}>
                {t(listLabel(listId))}
              </option>
            ))}
          </select>
        ))}
      </div>
      {side('from', 0)}
      {side('to', 1)}
      <div class="form-grid">
        {day('pickup_from', `${t('fv.search.pickup')} (${t('fv.search.weight_min')})`)}
        {day('pickup_to', `${t('fv.search.pickup')} (${t('fv.search.weight_max')})`)}
        {day('delivery_from', `${t('fv.search.delivery')} (${t('fv.search.weight_min')})`)}
        {day('delivery_to', `${t('fv.search.delivery')} (${t('fv.search.weight_max')})`)}
        {field(
          'params[weight_min]',
          `${t('fv.search.weight')} ${t('fv.search.weight_min')}`,
          (a) => (
            <input {...a} value={param('weight_min', true)} inputMode="decimal" />
          ),
          t('searches.weight.hint'),
        )}
        {field('params[weight_max]', `${t('fv.search.weight')} ${t('fv.search.weight_max')}`, (a) => (
          <input {...a} value={param('weight_max', true)} inputMode="decimal" />
        ))}
        {field('params[media]', t('fv.search.media'), (a) => (
          <select {...a}>
            {(['', 'road', 'air'] as const).map((m) => (
              <option value={m} selected={m === param('media')}>
                {t(m ? `fv.search.media.${m}` : 'fv.search.media.any')}
              </option>
            ))}
          </select>
        ))}
        {/* The load described as trucks are (docs/choices.md, "Loads described as trucks are"). */}
        {choice('body', t('search.load.body'), [
          ['', t('fv.form.body.any')],
          ...(param('body') && !isOneOf(BODIES, param('body')) ? [[param('body'), param('body')] as [string, string]] : []),
          ...BODIES.map((b) => [b, t(`vv.body.${b}`)] as [string, string]),
        ])}
        {field('params[loading_meters_max]', t('search.load.loading_meters_max'), (a) => (
          <input {...a} value={param('loading_meters_max', true)} inputMode="decimal" />
        ))}
        {choice('adr', t('search.load.adr'), [
          ['', t('search.load.adr.any')],
          ['1', t('search.load.adr.yes')],
          ['0', t('search.load.adr.no')],
        ])}
        {choice('pallet_exchange', t('fv.form.pallet_exchange'), [
          ['', t('search.load.adr.any')],
          ['1', t('fv.form.pallet_exchange.yes')],
          ['0', t('fv.form.pallet_exchange.no')],
        ])}
        {field(
          'params[q]',
          t('fv.search.q'),
          (a) => (
            <input {...a} value={param('q')} />
          ),
          t('fv.search.q.hint'),
        )}
      </div>
      <label class="check">
        <input type="checkbox" name="alert" value="1" checked={alertOn} />
        {t('fv.search.save.alert')}
      </label>
      <div class="toolbar">
        <button type="submit">{t('searches.edit.save')}</button>
        <a class="button secondary" href="/searches/index">
          {t('ui.cancel')}
        </a>
      </div>
    </form>
  );
}

export async function searchesPage(ctx: Ctx<Caller>, searches: PresentedSearch[], edit?: EditState): Promise<Page> {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const described = new Map(await Promise.all(searches.map(async (s) => [s.id, await describeSearch(s.params, ctx)] as const)));
  const editing = edit && searches.find((s) => s.id === edit.id);
  return {
    title: t('searches.title'),
    body: (
      <section>
        <h1>{t('searches.title')}</h1>
        {editing && (await SearchForm({ ctx, search: editing, edit: edit! }))}
        <DataTable
          testId="saved-searches"
          empty={t('searches.none')}
          rows={searches}
          columns={[
            { label: t('searches.col.name'), cell: (s) => <a href={s.url}>{s.name}</a> },
            { label: t('searches.col.list'), cell: (s) => t(listLabel(s.filter)) },
            { label: t('searches.col.params'), cell: (s) => <span class="wrap-text">{described.get(s.id)}</span>, wrap: true },
            { label: t('searches.col.alert'), cell: (s) => (s.alert ? t('searches.alert.on') : t('searches.alert.off')) },
            {
              label: t('searches.col.actions'),
              cell: (s) => (
                <span class="toolbar">
                  <a class="button secondary" href={`/searches/index?edit=${s.id}#edit`}>
                    {t('searches.change')}
                  </a>
                  <PostButton
                    action={`/searches/edit/${s.id}`}
                    label={s.alert ? t('searches.alert.disable') : t('searches.alert.enable')}
                    csrf={csrf}
                    fields={{ alert: s.alert ? '0' : '1' }}
                    variant="secondary"
                  />
                  <ConfirmAction
                    action={`/searches/delete/${s.id}`}
                    label={t('searches.delete')}
                    question={t('searches.delete.question', { name: s.name })}
                    confirmLabel={t('searches.delete.confirm')}
                    csrf={csrf}
                    variant="danger"
                    testId={`delete-search-${s.id}`}
                  />
                </span>
              ),
            },
          ]}
        />
      </section>
    ),
  };
}

/** A freight's end as a dispatcher reads it: `60311 Frankfurt am Main (DE)`; a masked one as the API shows it. */
async function freightEnd(route: FreightView, side: 'from' | 'to', ctx: Ctx): Promise<string> {
  const code = route[side];
  const country = route[`${side}_country`];
  if (code === null || code === undefined || code === '') return String(route[`f_${side}`] ?? '–');
  const lat = route[`${side}_latitude`];
  const lon = route[`${side}_longitude`];
  const city =
    lat !== null && lat !== undefined && lon !== null && lon !== undefined && Number.isFinite(Number(lat)) && Number.isFinite(Number(lon))
      ? await cityNear(Number(lat), Number(lon), 3, CITY_WAIT_MS)
      : null;
  return [code, city ? cityNameIn(city, ctx.language) : null, country ? `(${country})` : null].filter(Boolean).join(' ');
}

/**
 * A notification's freight as the lists name it: its places, or for a lost load (masked for its
 * former bidder, docs/reference.md#freights) the lists' words, `Freight 412 of 2030-05-05`, never `xxx (XX)`.
 */
async function routeWords(route: FreightView, ctx: Ctx): Promise<string> {
  if (route.f_from === 'xxx (XX)' && (route.from === null || route.from === undefined)) {
    const day = typeof route.etd === 'string' ? formatDay(route.etd.slice(0, 10), ctx.language) : '';
    const id = String(route.display_id ?? route.id);
    return `${day ? ctx.t('fv.masked_route', { id, date: day }) : ctx.t('fv.masked_route.no_date', { id })} · ${ctx.t('fv.masked_route.hint')}`;
  }
  return `${await freightEnd(route, 'from', ctx)} → ${await freightEnd(route, 'to', ctx)}`;
}

/** A tender's invitation: the tender as its events name it (src/tenders tenderHead), linked through the notification. */
function tenderLink(n: NotificationView, ctx: Ctx<Caller>) {
  const tender = ('tender' in n ? n.tender : null) as { name?: string; company?: { name?: string }; deadline?: string | null } | null;
  if (!tender) return <span class="muted">{ctx.t('notifications.gone')}</span>;
  const deadline = tender.deadline ? formatStamp(tender.deadline, ctx.language) : '–';
  return (
    <a href={`/notifications/open/${n.id}`} class="route">
      {ctx.t('notifications.tender_link', { name: tender.name ?? '', company: tender.company?.name ?? '', deadline })}
    </a>
  );
}

export async function notificationsPage(ctx: Ctx<Caller>, data: { notifications: NotificationView[]; unread: number }): Promise<Page> {
  const t = ctx.t;
  const lang = ctx.language;
  const csrf = ctx.reply.generateCsrf();
  const routes = new Map(
    await Promise.all(data.notifications.map(async (n) => [n.id, n.route ? await routeWords(n.route, ctx) : null] as const)),
  );
  return {
    title: t('notifications.title'),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t('notifications.title')}</h1>
          <span class="spacer" />
          {data.unread > 0 && (
            <PostButton action="/notifications/read" label={t('notifications.read_all')} csrf={csrf} variant="secondary" />
          )}
          <a href="/searches/index">{t('nav.searches')}</a>
        </div>
        <DataTable
          testId="notifications"
          empty={t('notifications.none')}
          rows={data.notifications}
          columns={[
            {
              label: t('notifications.col.created'),
              cell: (n) => [formatStamp(n.created, lang), n.read ? null : [' ', <span class="badge open">{t('notifications.new')}</span>]],
            },
            {
              label: t('notifications.col.search'),
              // One alert per load: every reason it matched (saved searches, own vehicle offers), one per line.
              cell: (n) => {
                if ('tender_id' in n) return t('notifications.tender');
                const reasons = (('matched_by' in n && n.matched_by) || [n]) as ReadonlyArray<{
                  search?: { name: string; url?: string } | null;
                  vehicle_id?: number | null;
                }>;
                const said = reasons.map((r) =>
                  r.search ? (
                    r.search.url ? (
                      <a href={r.search.url}>{r.search.name}</a>
                    ) : (
                      r.search.name
                    )
                  ) : r.vehicle_id !== undefined && r.vehicle_id !== null ? (
                    <a href={`/vehicles/view/${r.vehicle_id}`}>
                      {t(n.type === 'freight.invited' ? 'notifications.invited' : 'notifications.vehicle', { id: r.vehicle_id })}
                    </a>
                  ) : null,
                );
                return said.length > 1 ? (
                  <ul class="reasons" data-testid={`reasons-${n.id}`}>
                    {said.map((r) => (
                      <li>{r}</li>
                    ))}
                  </ul>
                ) : (
                  said[0]
                );
              },
            },
            {
              label: t('notifications.col.freight'),
              wrap: true,
              lead: true,
              cell: (n) =>
                'tender_id' in n ? (
                  tenderLink(n, ctx)
                ) : n.route ? (
                  <a href={`/notifications/open/${n.id}`} class="route">{`${routes.get(n.id)} · ${n.route.display_id}`}</a>
                ) : (
                  <span class="muted">{t('notifications.gone')}</span>
                ),
            },
            { label: t('fv.col.weight'), cell: (n) => (n.route ? formatKg(n.route.weight, lang) || '–' : '–'), numeric: true },
            {
              label: t('fv.col.etd'),
              cell: (n) => (n.route ? formatWindow(n.route.etd, n.route.etd_end, lang) || '–' : '–'),
              wrap: true,
            },
          ]}
        />
      </section>
    ),
  };
}
