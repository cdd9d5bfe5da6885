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

