import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import { addMessages } from '../kernel/i18n.ts';
import { Badge, DataTable, Facts, Pager, PostButton, Select, Tabs, type Column, type Tab } from '../kernel/ui.tsx';
import { tourColumns } from '../tms/views.tsx';

/**
 * HTML pages of the freight endpoints. They render the same presented freights the JSON
 * answers carry (`data.route`, `data.routes`), so both renderings show the same truth.
 */

/** A freight as presented by fields.ts (the JSON shape of api.md). */
export type FreightView = Record<string, any>;

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
  'fv.info': 'Info',
  'fv.currency': 'Currency',
  'fv.col.base': 'Base rate',
  'fv.col.fsc': 'Fuel surcharge',
  'fv.col.ssc': 'Security surcharge',
  'fv.from_country': 'From: country (CC)',
  'fv.from_addr': 'From: address',
  'fv.to_country': 'To: country (CC)',
  'fv.to_addr': 'To: address',
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
  'fv.col.actions': '',
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
  'fv.waiting_other_side': 'Confirmed – waiting for the other side',
  'fv.revoke_bid': 'Revoke',
  'fv.from': 'From',
  'fv.to': 'To',
  'fv.owner': 'Shipper',
  'fv.winner': 'Carrier',
  'fv.type': 'Type',
  'fv.class': 'Class',
  'fv.form.title.add': 'New freight',
  'fv.form.title.edit': 'Edit freight',
  'fv.form.save': 'Save',
  'fv.form.location.hint': 'airport:FRA, city:60311 or an IATA code',
  'fv.form.range.hint': 'YYYY-MM-DD HH:MM to YYYY-MM-DD HH:MM',
  'fv.form.customer': 'Your reference',
  'fv.form.commodity': 'Goods',
  'fv.form.pieces': 'Piece lines',
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
  'fv.info': 'Info',
  'fv.currency': 'Währung',
  'fv.col.base': 'Grundpreis',
  'fv.col.fsc': 'Treibstoffzuschlag',
  'fv.col.ssc': 'Sicherheitszuschlag',
  'fv.from_country': 'Von: Land (CC)',
  'fv.from_addr': 'Von: Adresse',
  'fv.to_country': 'Nach: Land (CC)',
  'fv.to_addr': 'Nach: Adresse',
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
  'fv.col.actions': '',
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
  'fv.waiting_other_side': 'Bestätigt – warte auf die Gegenseite',
  'fv.revoke_bid': 'Zurückziehen',
  'fv.from': 'Von',
  'fv.to': 'Nach',
  'fv.owner': 'Auftraggeber',
  'fv.winner': 'Frachtführer',
  'fv.type': 'Art',
  'fv.class': 'Klasse',
  'fv.form.title.add': 'Neue Fracht',
  'fv.form.title.edit': 'Fracht bearbeiten',
  'fv.form.save': 'Speichern',
  'fv.form.location.hint': 'airport:FRA, city:60311 oder ein IATA-Code',
  'fv.form.range.hint': 'JJJJ-MM-TT HH:MM to JJJJ-MM-TT HH:MM',
  'fv.form.customer': 'Ihre Referenz',
  'fv.form.commodity': 'Ware',
  'fv.form.pieces': 'Packstücke',
});

const FILTER_GROUPS: [string, number[]][] = [
  ['fv.group.principal', [20, 10, 17, 18, 12, 19]],
  ['fv.group.provider', [8, 7, 6, 2, 9]],
  ['fv.group.booking', [200, 201, 209, 210, 211, 219]],
  ['fv.group.tms', [51, 52, 53]],
];

export interface ListState {
  filterId: number;
  page: number;
  limit: number;
  sort: string;
  direction: 'asc' | 'desc';
}

function listHref(s: ListState, change: Partial<ListState>): string {
  const n = { ...s, ...change };
  const q = new URLSearchParams({ page: String(n.page), limit: String(n.limit), sort: n.sort, direction: n.direction });
  return `/freights/enlist/${n.filterId}?${q}`;
}

const money = (v: unknown, currency?: unknown) => (v === null || v === undefined ? '–' : `${Number(v).toFixed(2)}${currency ? ` ${currency}` : ''}`);
const text = (v: unknown) => (v === null || v === undefined || v === '' ? '–' : String(v));

/** The enlist page: every filter as a tab, a sortable table, previous/next paging. */
export function enlistPage(routes: FreightView[], state: ListState, ctx: Ctx<Caller>): Page {
  const t = ctx.t;
  const tabs: Tab[] = FILTER_GROUPS.flatMap(([group, ids]) =>
    ids.map((id, i) => ({ href: `/freights/enlist/${id}`, label: t(`fv.f${id}`), active: id === state.filterId, group: i === 0 ? t(group) : undefined })),
  );
  const sortable = (key: string) => listHref(state, { sort: `Routes.${key}`, direction: state.sort === `Routes.${key}` && state.direction === 'desc' ? 'asc' : 'desc', page: 1 });
  const tms = state.filterId === 53;
  // Filter 53 lists tours, not freights: their columns come from the TMS module's views.
  const columns: Column<FreightView>[] = tms
    ? tourColumns(t)
    : [
        { label: t('fv.col.id'), cell: (r) => <a href={`/freights/view/${r.id}`}>{text(r.display_id ?? r.id)}</a>, sortHref: sortable('id') },
        { label: t('fv.col.route'), cell: (r) => <a href={`/freights/view/${r.id}`}>{`${text(r.f_from ?? r.from)} → ${text(r.f_to ?? r.to)}`}</a> },
        { label: t('fv.col.status'), cell: (r) => <Badge value={r.status} /> },
        { label: t('fv.col.weight'), cell: (r) => text(r.weight), numeric: true, sortHref: sortable('weight') },
        { label: t('fv.col.etd'), cell: (r) => text(r.f_etd), sortHref: sortable('etd') },
        { label: t('fv.col.eta'), cell: (r) => text(r.f_eta), sortHref: sortable('eta') },
        { label: t('fv.col.deadline'), cell: (r) => text(r.deadline), sortHref: sortable('deadline') },
        { label: t('fv.col.price'), cell: (r) => money(r.price), numeric: true },
      ];
  return {
    title: t(`fv.f${state.filterId}`),
    body: (
      <section>
        <div class="toolbar">
          <h1>{t(`fv.f${state.filterId}`)}</h1>
          <span class="spacer" />
          {[51, 52, 53].includes(state.filterId) && (
            <a class="button secondary" href="/tours/add">
              {t('fv.new_tour')}
            </a>
          )}
          <a class="button" href="/freights/add">
            {t('fv.new')}
          </a>
        </div>
        <Tabs tabs={tabs} />
        <DataTable columns={columns} rows={routes} empty={t('fv.empty')} testId="freight-list" />
        <Pager page={state.page} limit={state.limit} count={routes.length} href={(page) => listHref(state, { page })} t={t} />
      </section>
    ),
  };
}

/** The freight page: facts, pieces, bids, and the actions the caller's role allows. */
export function freightPage(route: FreightView, ctx: Ctx<Caller>, companyNames: Map<number, string> = new Map()): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const me = ctx.caller.companyId;
  const owner = route.company === me;
  const winner = route.winner === me;
  const market = route.status === 'open' || route.status === 'pending';
  const bids: FreightView[] = Array.isArray(route._bids) ? route._bids : [];
  const ownBid = bids.find((b) => b.company === me && b.status !== 'revoked' && b.status !== 'accepted');

  const bidColumns: Column<FreightView>[] = [
    { label: t('fv.col.company'), cell: (b) => companyNames.get(b.company) ?? `#${b.company}` },
    { label: t('fv.col.amount'), cell: (b) => money(b.amount, b.currency_code), numeric: true },
    { label: t('fv.col.rates'), cell: (b) => `${money(b.rate_base)} / ${money(b.rate_fsc)} / ${money(b.rate_ssc)}` },
    { label: t('fv.col.note'), cell: (b) => text(b.note) },
    { label: t('fv.col.status'), cell: (b) => <Badge value={b.status} /> },
    {
      label: t('fv.col.actions'),
      cell: (b) => {
        if (!market || (b.status !== 'open' && b.status !== 'pending')) return null;
        // Each side confirms once; the page offers the button only to a side that has not.
        // (An owner bidding on its own freight holds both sides and confirms twice.)
        const canConfirm = (owner && !b.owner_confirmed) || (b.company === me && !b.bidder_confirmed);
        const mySideConfirmed = !canConfirm && (owner || b.company === me);
        return (
          <span class="toolbar">
            {canConfirm && <PostButton action={`/quotes/confirm/${b.id}`} label={t('fv.confirm')} csrf={csrf} />}
            {mySideConfirmed && <span class="muted">{t('fv.waiting_other_side')}</span>}
            {b.company === me && b.status !== 'accepted' && <PostButton action={`/quotes/revoke/${b.id}`} label={t('fv.revoke_bid')} csrf={csrf} variant="secondary" />}
          </span>
        );
      },
    },
  ];
  const pieces: FreightView[] = Array.isArray(route._route_pieces) ? route._route_pieces : [];

  return {
    title: String(route.caption ?? route.id),
    body: (
      <section>
        <div class="toolbar">
          <h1>
            {text(route.f_from)} → {text(route.f_to)} <span class="muted">#{text(route.display_id)}</span>
          </h1>
          <Badge value={route.status} />
          <span class="spacer" />
          {route.editable && (
            <a class="button secondary" href={`/freights/edit/${route.id}`}>
              {t('fv.edit')}
            </a>
          )}
        </div>
        <div class="columns">
          <div class="panel">
            <h2>{t('fv.details')}</h2>
            <Facts
              items={[
                [t('fv.type'), `${text(route.type)} · ${text(route.class)}`],
                [t('fv.from'), [text(route.f_from), route.from_addr ? <div class="muted">{route.from_addr}</div> : null]],
                [t('fv.to'), [text(route.f_to), route.to_addr ? <div class="muted">{route.to_addr}</div> : null]],
                [t('fv.col.etd'), `${text(route.f_etd)} – ${text(route.f_etd_end)}`],
                [t('fv.col.eta'), `${text(route.f_eta)} – ${text(route.f_eta_end)}`],
                [t('fv.col.weight'), text(route.weight)],
                [t('fv.col.deadline'), text(route.deadline)],
                [t('fv.col.price'), money(route.price)],
                [t('fv.owner'), route._company ? text(route._company.name) : `#${route.company}`],
                [t('fv.winner'), route.winner ? (companyNames.get(route.winner) ?? `#${route.winner}`) : '–'],
                [t('fv.delivery'), text(route.delivery_status_in_words)],
                [t('fv.info'), text(route.info)],
              ]}
            />
          </div>
          <div class="panel">
            <h2>{t('fv.actions')}</h2>
            {owner && route.status === 'draft' && (
              <form class="stack" method="post" action={`/freights/view/${route.id}`}>
                <CsrfField token={csrf} />
                <input type="hidden" name="action" value="publish" />
                <label>
                  {t('fv.visibility')}
                  <Select name="visibility" value={String(route.visibility ?? 0)} options={['0', '-1', '-2'].map((v) => [v, t(`fv.vis.${v}`)])} />
                </label>
                <label>
                  {t('fv.whitelist')}
                  <input name="whitelist" value={(route.whitelist ?? []).join(', ')} />
                </label>
                <label>
                  {t('fv.deadline')}
                  <input name="deadline" placeholder="+24 hours" />
                  <span class="hint">{t('fv.deadline.hint')}</span>
                </label>
                <button type="submit">{t('fv.publish')}</button>
              </form>
            )}
            {!owner && market && (
              <form class="stack" method="post" action="/quotes/add">
                <CsrfField token={csrf} />
                <input type="hidden" name="route" value={String(route.id)} />
                {ownBid && <input type="hidden" name="id" value={String(ownBid.id)} />}
                <div class="form-grid">
                  <label>
                    {t('fv.col.amount')}
                    <input name="amount" inputMode="decimal" required value={ownBid ? String(ownBid.amount ?? '') : ''} />
                  </label>
                  <label>
                    {t('fv.currency')}
                    <input name="currency_code" value={ownBid?.currency_code ?? 'EUR'} maxLength={3} />
                  </label>
                  <label>
                    {t('fv.col.base')}
                    <input name="rate_base" inputMode="decimal" value={ownBid?.rate_base ?? ''} />
                  </label>
                  <label>
                    {t('fv.col.fsc')}
                    <input name="rate_fsc" inputMode="decimal" value={ownBid?.rate_fsc ?? ''} />
                  </label>
                  <label>
                    {t('fv.col.ssc')}
                    <input name="rate_ssc" inputMode="decimal" value={ownBid?.rate_ssc ?? ''} />
                  </label>
                </div>
                <label>
                  {t('fv.col.note')}
                  <input name="note" value={ownBid?.note ?? ''} />
                </label>
                <button type="submit">{ownBid ? t('fv.bid.update') : t('fv.bid.submit')}</button>
              </form>
            )}
            {(owner || winner) && route.status === 'taken' && (
              <form class="inline" method="post" action={`/freights/delivery/${route.id}`}>
                <CsrfField token={csrf} />
                <label>
                  {t('fv.delivery')}
                  <Select name="delivery_status" value={String(route.delivery_status)} options={['0', '1', '2', '3'].map((v) => [v, t(`freight.delivery.${v}`)])} />
                </label>
                <button type="submit">{t('fv.delivery.save')}</button>
              </form>
            )}
            {owner && ['draft', 'open', 'pending'].includes(route.status) && (
              <p>
                <PostButton action={`/freights/revoke/${route.id}`} label={t('fv.revoke')} csrf={csrf} variant="danger" />
              </p>
            )}
            {owner && ['expired', 'revoked', 'closed'].includes(route.status) && <PostButton action={`/freights/archive/${route.id}`} label={t('fv.archive')} csrf={csrf} variant="secondary" />}
          </div>
        </div>
        <h2>{t('fv.pieces')}</h2>
        <DataTable
          columns={[
            { label: t('fv.col.pieces'), cell: (p) => text(p.pieces), numeric: true },
            { label: t('fv.col.dims'), cell: (p) => `${text(p.depth)} × ${text(p.width)} × ${text(p.height)}` },
            { label: t('fv.col.weight'), cell: (p) => text(p.weight), numeric: true },
          ]}
          rows={pieces}
          empty={t('fv.no_pieces')}
        />
        {route._bids !== undefined && [
          <h2>{t('fv.bids')}</h2>,
          <DataTable columns={bidColumns} rows={bids} empty={t('fv.no_bids')} testId="bids" />,
        ]}
      </section>
    ),
  };
}

/** The form behind /freights/add and /freights/edit/{id}: field names exactly as the API's. */
export function freightFormPage(ctx: Ctx<Caller>, route?: FreightView): Page {
  const t = ctx.t;
  const r = route ?? {};
  const refs = (r.refs && typeof r.refs === 'object' ? r.refs : {}) as Record<string, unknown>;
  const pieces: FreightView[] = Array.isArray(r._route_pieces) && r._route_pieces.length ? r._route_pieces : [{}];
  const range = (a: unknown, b: unknown) => (a ? `${String(a).slice(0, 16)}${b ? ` to ${String(b).slice(0, 16)}` : ''}` : '');
  const input = (name: string, label: string, value: unknown, hint?: string, location = false) => (
    <label>
      {label}
      <input
        name={name}
        value={value === null || value === undefined ? '' : String(value)}
        list={location ? 'locations' : undefined}
        data-autocomplete={location ? 'location' : undefined}
      />
      {hint && <span class="hint">{hint}</span>}
    </label>
  );
  const title = route ? t('fv.form.title.edit') : t('fv.form.title.add');
  return {
    title,
    body: (
      <section>
        <h1>{title}</h1>
        <form class="stack panel" method="post" action={route ? `/freights/edit/${r.id}` : '/freights/add'}>
          <CsrfField token={ctx.reply.generateCsrf()} />
          <div class="form-grid">
            {input('from', t('fv.from'), r.from, t('fv.form.location.hint'), true)}
            {input('from_country', t('fv.from_country'), r.from_country)}
            {input('from_addr', t('fv.from_addr'), r.from_addr)}
            {input('to', t('fv.to'), r.to, t('fv.form.location.hint'), true)}
            {input('to_country', t('fv.to_country'), r.to_country)}
            {input('to_addr', t('fv.to_addr'), r.to_addr)}
            {input('etd_range', t('fv.col.etd'), range(r.etd, r.etd_end), t('fv.form.range.hint'))}
            {input('eta_range', t('fv.col.eta'), range(r.eta, r.eta_end), t('fv.form.range.hint'))}
            {input('weight', t('fv.col.weight'), r.weight)}
            {input('category', t('fv.category'), r.category ?? 'ftl')}
            {input('refs[customer]', t('fv.form.customer'), refs.customer)}
            {input('refs[commodity]', t('fv.form.commodity'), refs.commodity)}
          </div>
          <datalist id="locations" />
          <h2>{t('fv.form.pieces')}</h2>
          {pieces.map((p, i) => (
            <div class="form-grid">
              {input(`pieces[${i}][pieces]`, t('fv.col.pieces'), p.pieces)}
              {input(`pieces[${i}][depth]`, t('fv.depth'), p.depth)}
              {input(`pieces[${i}][width]`, t('fv.width'), p.width)}
              {input(`pieces[${i}][height]`, t('fv.height'), p.height)}
              {input(`pieces[${i}][weight]`, t('fv.col.weight'), p.weight)}
            </div>
          ))}
          <div>
            <button type="submit">{t('fv.form.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}
