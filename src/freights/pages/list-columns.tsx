import type { Caller, Ctx } from '../../kernel/context.ts';
import { formatKg, formatMoney, formatStamp, formatWindow } from '../../kernel/locale.ts';
import { Badge, type Column } from '../../kernel/ui.tsx';
import { placeLabel } from './freight-page.tsx';
import { namesOfCompanies } from '../../accounts/companies.ts';
import { bidSummaries, cityOf, ownBids } from './page-data.ts';
import type { FreightView } from '../fields.ts';
import { listInfo, type ListSide } from '../lists/registry.ts';
import { isRecord } from '../../kernel/params.ts';

/**
 * The columns of the freight lists (enlistPage in views.tsx): places with their cities, both
 * ends of the windows, deadlines without seconds, and what each side needs at a glance: the
 * owner sees how many bids came in and the best one, a bidder its own bid, both the other party.
 * The extra data is read for the page's rows only (page-data.ts); the JSON lists stay as they are.
 */

/** What the caller is to a list's rows (lists/registry.ts), and so which columns it sees. */
const sideOf = (filterId: number): ListSide | undefined => listInfo(filterId)?.side;
/** Foreign freights: the owner's name is shown. */
const FOREIGN_SIDES: readonly (ListSide | undefined)[] = ['foreign', 'bidder', 'winner'];

export interface SortLinks {
  href: (key: string) => string;
  sorted: (key: string) => Column<FreightView>['sorted'];
}

/**
 * A row of a freight list: a presented freight, or a shipment of TMS lists 51 and 52 (another
 * module's rows, arriving as `unknown`), which the same columns show by the names they share.
 */
export const isListedFreight = (row: unknown): row is FreightView => isRecord(row) && typeof row.id === 'number';

export async function freightListColumns(
  routes: FreightView[],
  filterId: number,
  ctx: Ctx<Caller>,
  sort: SortLinks,
): Promise<Column<FreightView>[]> {
  const t = ctx.t;
  const lang = ctx.language;
  const ids = routes.map((r) => Number(r.id));
  const side = sideOf(filterId);
  const none = '–';
  const [summaries, mine, winners, cities] = await Promise.all([
    side === 'ownMarket' ? bidSummaries(ctx.db, ctx.caller.companyId, ids) : Promise.resolve(new Map()),
    side === 'bidder' ? ownBids(ctx.db, ctx.caller.companyId, ids) : Promise.resolve(new Map()),
    side === 'ownAwarded'
      ? namesOfCompanies(
          ctx.db,
          routes.map((r) => r.winner),
        )
      : Promise.resolve(new Map<number, string>()),
    Promise.all(
      routes.map(
        async (r) => [await cityOf(r.from, r.from_latitude, r.from_longitude), await cityOf(r.to, r.to_latitude, r.to_longitude)] as const,
      ),
    ),
  ]);
  const cityBy = new Map(routes.map((r, i) => [r.id, cities[i]!]));
  const view = (r: FreightView) => `/freights/view/${r.id}`;
  // A window breaks between its ends, never inside one (a day and its time stay together).
  const window = (a: unknown, b: unknown) => {
    const text = formatWindow(a, b, lang);
    return text ? text.split(' – ').map((end, i) => [i ? ' – ' : null, <span class="nowrap">{end}</span>]) : none;
  };
  const columns: Column<FreightView>[] = [
    {
      label: t('fv.col.id'),
      cell: (r) => <a href={view(r)}>{String(r.display_id ?? r.id)}</a>,
      sortHref: sort.href('id'),
      sorted: sort.sorted('id'),
    },
    {
      label: t('fv.col.route'),
      wrap: true,
      lead: true,
      cell: (r) => {
        const [from, to] = cityBy.get(r.id) ?? [null, null];
        return (
          <a href={view(r)} class="route">
            {placeLabel(r, 'from', from, none)} → {placeLabel(r, 'to', to, none)}
          </a>
        );
      },
    },
    { label: t('fv.col.status'), cell: (r) => <Badge value={r.status} t={t} /> },
    { label: t('fv.col.etd'), cell: (r) => window(r.etd, r.etd_end), wrap: true, sortHref: sort.href('etd'), sorted: sort.sorted('etd') },
    { label: t('fv.col.eta'), cell: (r) => window(r.eta, r.eta_end), wrap: true, sortHref: sort.href('eta'), sorted: sort.sorted('eta') },
    {
      label: t('fv.weight'),
      cell: (r) => formatKg(r.weight, lang) || none,
      numeric: true,
      sortHref: sort.href('weight'),
      sorted: sort.sorted('weight'),
    },
    {
      label: t('fv.col.deadline'),
      cell: (r) => formatStamp(r.deadline, lang) || none,
      sortHref: sort.href('deadline'),
      sorted: sort.sorted('deadline'),
    },
  ];
  if (FOREIGN_SIDES.includes(side))
    columns.push({ label: t('fv.owner'), cell: (r) => (r._company?.name ? String(r._company.name) : none) });
  if (side === 'ownMarket') {
    columns.push({ label: t('fv.col.bids'), cell: (r) => String(summaries.get(r.id)?.count ?? 0), numeric: true });
    columns.push({
      label: t('fv.col.best'),
      cell: (r) => {
        const best = summaries.get(r.id)?.best;
        return best ? formatMoney(best.amount, best.currency, lang) : none;
      },
      numeric: true,
    });
  }
  if (side === 'bidder') {
    columns.push({
      label: t('fv.col.my_bid'),
      cell: (r) => {
        const bid = mine.get(r.id);
        return bid ? [formatMoney(bid.amount, bid.currency, lang), ' ', <Badge value={bid.status} t={t} />] : none;
      },
      numeric: true,
    });
  }
  if (side === 'ownAwarded') columns.push({ label: t('fv.winner'), cell: (r) => (r.winner ? (winners.get(r.winner) ?? none) : none) });
  if (side === 'ownAwarded' || side === 'winner')
    columns.push({ label: t('fv.col.price'), cell: (r) => formatMoney(r.price, null, lang) || none, numeric: true });
  return columns;
}
