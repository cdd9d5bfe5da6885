import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../../kernel/context.ts';
import { formatDay, formatKg, formatMoney, formatNumber, formatStamp, formatWindow } from '../../kernel/locale.ts';
import { Badge, PostButton, type Column } from '../../kernel/ui.tsx';
import { CsrfField } from '../../kernel/html.tsx';
import { distanceCell, loadParts, OutcomeBadge, placeLabel, YourMove } from './freight-page.tsx';
import { namesOfCompanies, CompanyName } from '../../accounts/index.ts';
import { bidSummaries, ownBids, priceCurrencies, type OwnBid } from './page-data.ts';
import { bidOutcome } from './page-parts.ts';
import { cityOf } from '../../places/index.ts';
import type { FreightView } from '../../freights/index.ts';
import { isCallersMove } from '../../freights/index.ts';
import { isMarketStatus } from '../../freights/index.ts';
import { listInfo, type ListSide } from '../../freights/index.ts';
import { isRecord } from '../../kernel/params.ts';

/**
 * The columns of the freight lists (enlistPage in list-page.tsx): places with their cities, both
 * ends of the windows, the distance, deadlines without seconds, and what each side needs at a
 * glance: the owner sees how many bids came in and the best one, a bidder its own bid and what
 * became of it, both the other party; awarded lists the price with its currency and the delivery
 * status. A row waiting for the caller says so ("your move", lists/moves.ts). The extra data is
 * read for the page's rows only (page-data.ts); the JSON lists stay as they are.
 */

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

/** A masked freight (a former bidder's view, docs/reference.md#freights): no places. */
const isMasked = (r: FreightView) => r.f_from === 'xxx (XX)' && (r.from === null || r.from === undefined);

/** Marks under a row's route from modules above, by freight id (app.ts passes src/positions': late and the last milestone). */
export type RowMarks = (
  ctx: Ctx<Caller>,
  rows: ReadonlyArray<{ id: number; company: number; winner: number | null }>,
) => Promise<Map<number, ComponentChildren>>;

/**
 * The user's own marks of the market list (issue 47, item 11): the loads it opened before (`seen`,
 * muted with a word), and the address a row's hide button comes back to (`hideBack`); on the
 * hidden loads' page, a row's button shows it again instead (`unhide`).
 */
export interface UserMarks {
  seen: ReadonlySet<number>;
  hideBack?: string;
  unhide?: boolean;
}

export async function freightListColumns(
  routes: FreightView[],
  filterId: number,
  ctx: Ctx<Caller>,
  sort: SortLinks,
  rowMarks?: RowMarks,
  userMarks?: UserMarks,
): Promise<Column<FreightView>[]> {
  const t = ctx.t;
  const lang = ctx.language;
  const me = ctx.caller.companyId;
  const list = listInfo(filterId);
  const side = list?.side;
  const phase = list?.phase;
  const none = '–';
  const own = routes.filter((r) => r.company === me).map((r) => r.id);
  const foreign = routes.filter((r) => r.company !== me).map((r) => r.id);
  const awarded = routes.filter((r) => r.winner !== null && r.price !== null).map((r) => r.id);
  const [summaries, mine, winners, currencies, cities, marks] = await Promise.all([
    bidSummaries(ctx.db, me, own),
    ownBids(ctx.db, me, foreign),
    side === 'ownAwarded'
      ? namesOfCompanies(
          ctx.db,
          routes.map((r) => r.winner),
        )
      : Promise.resolve(new Map<number, string>()),
    priceCurrencies(ctx.db, me, awarded),
    Promise.all(
      routes.map(
        async (r) =>
          [
            await cityOf(r.from, r.from_latitude, r.from_longitude, r.from_country, lang),
            await cityOf(r.to, r.to_latitude, r.to_longitude, r.to_country, lang),
          ] as const,
      ),
    ),
    rowMarks ? rowMarks(ctx, routes) : Promise.resolve(new Map<number, ComponentChildren>()),
  ]);
  const cityBy = new Map(routes.map((r, i) => [r.id, cities[i]!]));
  const view = (r: FreightView) => `/freights/view/${r.id}`;
  const yours = (r: FreightView) => isCallersMove(r, me, summaries.get(r.id)?.live, mine.get(r.id));
  // A window breaks between its ends, never inside one (a day and its time stay together); a
  // window of one day between the day and its hours (`03.12.2026` / `07:00–16:00`).
  const window = (a: unknown, b: unknown) => {
    const text = formatWindow(a, b, lang);
    if (!text) return none;
    const ends = text.includes(' – ') ? text.split(' – ') : null;
    if (ends) return ends.map((end, i) => [i ? ' – ' : null, <span class="nowrap">{end}</span>]);
    const space = text.indexOf(' ');
    return space < 0
      ? text
      : [<span class="nowrap">{text.slice(0, space)}</span>, ' ', <span class="nowrap">{text.slice(space + 1)}</span>];
  };
  const price = (r: FreightView) => {
    if (r.price === null || r.price === undefined) return none;
    const refs = isRecord(r.refs) ? r.refs : {};
    return formatMoney(r.price, currencies.get(r.id) ?? refs.target_currency ?? mine.get(r.id)?.currency, lang) || none;
  };
  const route = (r: FreightView): ComponentChildren => {
    if (isMasked(r)) {
      // A lost load shows what identifies it to its bidder: its number and day, not its places.
      const day = typeof r.etd === 'string' ? formatDay(r.etd.slice(0, 10), lang) : '';
      return (
        <a href={view(r)} class="route" data-testid="masked-route">
          {day ? t('fv.masked_route', { id: String(r.display_id ?? r.id), date: day }) : t('fv.masked_route.no_date', { id: String(r.id) })}
          <span class="muted"> · {t('fv.masked_route.hint')}</span>
        </a>
      );
    }
    const [from, to] = cityBy.get(r.id) ?? [null, null];
    return [
      <a href={view(r)} class="route">
        {placeLabel(r, 'from', from, none)} → {placeLabel(r, 'to', to, none)}
      </a>,
      sharedLine(r),
      loadLine(r),
      ageLine(r),
      seenLine(r),
      marks.get(r.id),
    ];
  };
  // A load the user opened before (its page): said in words, the row muted (app.css tr.seen).
  const seenLine = (r: FreightView): ComponentChildren =>
    userMarks?.seen.has(r.id) ? (
      <div class="seen-mark" data-testid="seen-mark" title={t('fv.seen.label')}>
        {t('fv.seen')}
      </div>
    ) : null;
  // The load's description (body, loading metres, ADR, …) under the route, only when the freight says any: no column of its own at 1366 px.
  // How long a load has been on the board (issue 47, item 11): "vor 2 Std.", "2 h ago", since it was created ("just now" in its first minute, not "0 min ago").
  const now = ctx.clock.now().getTime();
  const ageLine = (r: FreightView): ComponentChildren => {
    const created = ctx.clock.parse(r.created);
    if (!created || r.company === me || !isMarketStatus(r.status)) return null;
    const minutes = Math.max(0, Math.floor((now - created.getTime()) / 60_000));
    const text =
      minutes < 1
        ? t('fv.age.now')
        : minutes < 60
          ? t('fv.age.minutes', { n: String(minutes) })
          : minutes < 24 * 60
            ? t('fv.age.hours', { n: String(Math.floor(minutes / 60)) })
            : Math.floor(minutes / 1440) === 1
              ? t('fv.age.day')
              : t('fv.age.days', { n: formatNumber(Math.floor(minutes / 1440), lang) });
    return (
      <div class="muted" data-testid="load-age">
        <time datetime={created.toISOString()}>{text}</time>
      </div>
    );
  };
  const loadLine = (r: FreightView): ComponentChildren => {
    const parts = loadParts(r, t, lang);
    return parts.length ? (
      <div class="muted wrap-text" data-testid="load-line">
        {parts.join(' · ')}
      </div>
    ) : null;
  };
  // What the owner shares with carriers (goods, target price), under the route of another company's freight.
  const sharedLine = (r: FreightView): ComponentChildren => {
    const shared = r.company === me ? null : r.shared;
    if (!shared) return null;
    const parts = [
      shared.commodity ? shared.commodity : null,
      shared.target_rate !== null && shared.target_rate !== undefined
        ? t('fv.shared.target', { price: formatMoney(shared.target_rate, shared.target_currency, lang) })
        : null,
    ].filter((p): p is string => Boolean(p));
    return parts.length ? (
      <div class="muted wrap-text" data-testid="shared">
        {parts.join(' · ')}
      </div>
    ) : null;
  };
  const columns: Column<FreightView>[] = [
    {
      label: t('fv.col.id'),
      cell: (r) => <a href={view(r)}>{String(r.display_id ?? r.id)}</a>,
      sortHref: sort.href('id'),
      sorted: sort.sorted('id'),
    },
    // The route is read first (on a phone it heads the card): a row waiting for the caller says so beside it.
    { label: t('fv.col.route'), wrap: true, lead: true, cell: (r) => [route(r), yours(r) ? [' ', <YourMove t={t} />] : null] },
  ];
  // A bidder's lists say what became of its bid instead of the freight's status (a freight awaiting
  // another carrier's confirmation is no news to it); every other list shows the status.
  if (side !== 'bidder') columns.push({ label: t('fv.col.status'), cell: (r) => <Badge value={r.status} t={t} /> });
  columns.push(
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
      label: t('fv.col.distance'),
      cell: (r) => distanceCell(r, t, lang) ?? none,
      numeric: true,
      sortHref: sort.href('distance'),
      sorted: sort.sorted('distance'),
    },
  );
  if (phase === 'market' || phase === 'other')
    columns.push({
      label: t('fv.col.deadline'),
      cell: (r) => formatStamp(r.deadline, lang) || none,
      sortHref: sort.href('deadline'),
      sorted: sort.sorted('deadline'),
    });
  if (FOREIGN_SIDES.includes(side))
    columns.push({ label: t('fv.owner'), wrap: true, cell: (r) => (r._company?.name ? <CompanyName company={r._company} t={t} /> : none) });
  if (side === 'ownMarket')
    // One column for both (the count and the best), so every column fits at 1366 px.
    columns.push({
      label: t('fv.col.bids_best'),
      cell: (r) => {
        const summary = summaries.get(r.id);
        const best = summary?.best;
        return [
          <span data-testid="bid-count">{String(summary?.count ?? 0)}</span>,
          best ? [' · ', <strong class="nowrap">{formatMoney(best.amount, best.currency, lang)}</strong>] : null,
        ];
      },
      numeric: true,
    });
  if (side === 'bidder') {
    const myBid = (r: FreightView): ComponentChildren => {
      const bid: OwnBid | undefined = mine.get(r.id);
      if (!bid) return none;
      const outcome = bidOutcome(bid, r.status, r.winner === me);
      return [
        <span class="nowrap">{formatMoney(bid.amount, bid.currency, lang) || none}</span>,
        ' ',
        <OutcomeBadge outcome={outcome} t={t} />,
      ];
    };
    columns.push({ label: t('fv.col.my_bid'), wrap: true, cell: myBid });
  }
  // Book Now (docs/reference.md#one-step) in the row of a freight the caller may take at once: another
  // company's, in the market, with a price. One click books (the price is on the button; the
  // freight page keeps its confirmation step, docs/choices.md "Book Now in list rows"). The column
  // is there only when a row of the page has such a price.
  const bookable = (r: FreightView) =>
    r.company !== me && !isMasked(r) && isMarketStatus(r.status) && r.book_now !== null && r.book_now !== undefined;
  if (routes.some(bookable)) {
    const csrf = ctx.reply.generateCsrf();
    columns.push({
      label: t('fv.col.book_now'),
      cell: (r) =>
        bookable(r) ? (
          <span data-testid="row-book-now">
            <PostButton
              action={`/quotes/book/${r.id}`}
              label={t('fv.book_now', { price: formatMoney(r.book_now, r.book_now_currency, lang) })}
              csrf={csrf}
            />
          </span>
        ) : (
          none
        ),
    });
  }
  // Hide a load of the market from this user's market, or show a hidden one again (the hidden loads' page).
  if (userMarks?.hideBack !== undefined || userMarks?.unhide) {
    const csrf = ctx.reply.generateCsrf();
    const unhide = userMarks.unhide === true;
    columns.push({
      label: t(unhide ? 'fv.unhide' : 'fv.col.hide'),
      hideLabel: true,
      cell: (r) =>
        r.company === me ? (
          none
        ) : (
          <form
            class="inline"
            method="post"
            action={`/freights/${unhide ? 'unhide' : 'hide'}/${r.id}`}
            data-testid={unhide ? 'unhide' : 'hide'}
          >
            <CsrfField token={csrf} />
            <input type="hidden" name="back" value={unhide ? '/freights/hidden' : userMarks.hideBack} />
            <button
              type="submit"
              class="secondary"
              aria-label={t(unhide ? 'fv.unhide.label' : 'fv.hide.label', { id: String(r.display_id ?? r.id) })}
            >
              {t(unhide ? 'fv.unhide' : 'fv.hide')}
            </button>
          </form>
        ),
    });
  }
  if (side === 'ownAwarded')
    columns.push({ label: t('fv.winner'), wrap: true, cell: (r) => (r.winner ? (winners.get(r.winner) ?? none) : none) });
  if (side === 'ownAwarded' || side === 'winner') columns.push({ label: t('fv.col.price'), cell: price, numeric: true });
  if (phase === 'awarded' && (side === 'ownAwarded' || side === 'winner'))
    columns.push({ label: t('fv.delivery'), cell: (r) => (r.status === 'taken' ? String(r.delivery_status_in_words) : none) });
  return columns;
}
