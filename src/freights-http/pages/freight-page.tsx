import { CompanyPicker } from './company-picker.tsx';
import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../../kernel/context.ts';
import type { Page } from '../../kernel/html.tsx';
import { CsrfField } from '../../kernel/html.tsx';
import { formatDay, formatKg, formatMoney, formatNumber, formatStamp, formatWindow } from '../../kernel/locale.ts';
import { Badge, ConfirmAction, DataTable, Facts, Field, PostButton, Select, type Column } from '../../kernel/ui.tsx';
import { type Contact, BlockAction, CompanyName, profilePath, type CompanyRef } from '../../accounts/index.ts';
import type { BidView } from '../../freights/index.ts';
import { BODIES, routeRoadDistance, type RoadDistance } from '../../market/index.ts';
import { ROAD_FACTOR } from '../../places/index.ts';
import { BIDS_IN_PLAY, isAwardedStatus, isMarketStatus, MARKET_STATUSES } from '../../freights/index.ts';
import { ARCHIVABLE_STATUSES, REVOCABLE_STATUSES } from '../../freights/index.ts';
import type { FreightView, PresentedPiece, ShareKey } from '../../freights/index.ts';
import { targetPriceLabel } from './form-page.tsx';
import { isRecord } from '../../kernel/params.ts';
import { type BidStatus, DELIVERY, DELIVERY_STATUSES, type FreightStatus, VISIBILITY } from '../../freights/index.ts';
import { isOneOf } from '../../kernel/params.ts';
import { CLASSES, TYPES } from '../../freights/index.ts';
import { bidOutcome, type BidOffer, type BidOutcome } from './page-parts.ts';
import type { Translate } from '../../kernel/i18n.ts';

/**
 * The freight page: what the freight is, whose move it is, and only the actions that can
 * succeed for this caller now. The rules mirror the state machines (bidding.ts: a bid is
 * confirmed by the owner first, then by the bidder; an open bid changes, a pending one does not;
 * freights/lifecycle.ts: publish a draft, revoke draft/open/pending, archive
 * expired/revoked/closed, delivery forward only). Binding actions ask again before they post.
 */

export interface FreightPageData {
  companyNames: Map<number, string>;
  /** the companies named on the page, with the verified mark */
  companies: Map<number, CompanyRef>;
  /** the caller's company blocked the freight's company */
  blocked: boolean;
  /** the other side's person after the award (owner and winner only) */
  contact: Contact | null;
  /** publish requirements not met yet (field keys), for the owner's draft */
  gaps: PublishGap[];
  /** companies to address a tender to, by name (owner's draft) */
  partners: Array<{ id: number; name: string }>;
  fromCity: string | null;
  toCity: string | null;
  /** the bids the JSON no longer carries (page-data.ts pastBidsOf), shown without actions */
  pastBids?: BidView[];
  /** a former bidder's freight went to another company (page only: the JSON masks the winner) */
  awardedToOther?: boolean;
  /** each shown bid's history (page-data.ts; docs/reference.md#one-step) */
  history?: Map<number, BidOffer[]>;
  /** a refused bid (HTML): the form as typed, each problem by field, and what to say above it */
  bidForm?: { typed: Record<string, string>; problems: Record<string, string>; message?: string };
  /** sections of modules above freights, after the pieces (the owner's fitting trucks; routes.tsx FreightSections) */
  sections?: ComponentChildren;
  /** the lane's market price (src/lanes; routes.tsx MarketPrice), shown beside the price */
  marketPrice?: ComponentChildren;
  /** the partners' ratings (src/trust; routes.tsx PartnerRatings), beside their names in the waterfall's picker */
  partnerRatings?: Map<number, { count: number; average: number | null }>;
  /** the owner's bids table: each bidder's rating, completed loads and member since (src/trust; routes.tsx BidderFigures) */
  bidders?: Map<number, BidderFigure>;
}

/** A bidder as the owner compares bids (issue 47, item 5): the trust module's figures, passed in by app.ts. */
export interface BidderFigure {
  rating: number | null;
  ratings: number;
  completed: number;
  memberSince: Date;
}

/** How the owner may sort the bids table (`?bids_sort=rating`, `-rating` descending). */
const BID_SORTS = ['amount', 'rating', 'completed', 'since'] as const;

/** The bid form's fields in the order a problem is looked for (the first one gets the focus). */
const BID_FIELDS = ['amount', 'currency_code', 'rate_base', 'rate_fsc', 'rate_ssc', 'note'];

/** Freights in the market, and bids that can still take part in an award (in-market.ts). */
const MARKET: readonly FreightStatus[] = MARKET_STATUSES;
const LIVE: readonly BidStatus[] = BIDS_IN_PLAY;

/** `60311 Frankfurt am Main (DE)`, `AMS Amsterdam (NL)`; a masked place as the API shows it. */
export function placeLabel(route: FreightView, side: 'from' | 'to', city: string | null, none: string): string {
  const code = route[side];
  const country = route[`${side}_country`];
  // A town without a postal code (docs/choices.md, Typed places): its name and country.
  if ((code === null || code === undefined || code === '') && city)
    return [city, country ? `(${country})` : null].filter(Boolean).join(' ');
  if (code === null || code === undefined || code === '') return String(route[`f_${side}`] ?? none);
  return [code, city, country ? `(${country})` : null].filter(Boolean).join(' ');
}

/** "1.234 km" in the user's language. */
const kmText = (km: number, language: string) => `${formatNumber(km, language, 0, 0)} km`;

/**
 * The road distance as a list cell (market/distance.ts, docs/choices.md "Road distances"):
 * `≈ 1.029 km` for the estimate (the sign read out as "estimated"), `1.002 km` for the routing
 * server's route; null when the distance is unknown.
 */
export function distanceCell(route: FreightView, t: Translate, language: string) {
  const d = routeRoadDistance(route);
  if (!d) return null;
  if (d.routed) return <span data-distance="routed">{kmText(d.km, language)}</span>;
  return (
    <span data-distance="estimate">
      <span aria-hidden="true">≈ </span>
      <span class="visually-hidden">{t('fv.distance.estimated')} </span>
      {kmText(d.km, language)}
    </span>
  );
}

/** The freight page's distance: "≈ 1.029 km (estimate: great circle 810 km × 1.27)", or "1.002 km (route)". */
export function distanceFact(d: RoadDistance, t: Translate, language: string): string {
  return d.routed
    ? t('fv.distance.routed', { km: kmText(d.km, language) })
    : t('fv.distance.value', {
        km: kmText(d.km, language),
        circle: kmText(d.circleKm, language),
        factor: formatNumber(ROAD_FACTOR, language, 2, 2),
      });
}

/** The marker of a row that waits for the caller's move. */
export const YourMove = ({ t }: { t: Translate }) => (
  <span class="badge draft your-move nowrap" data-testid="your-move">
    {t('fv.your_move')}
  </span>
);

/** What became of the caller's own bid, as a badge (colours of the bid statuses: in play, won, ended). */
export function OutcomeBadge({ outcome, t }: { outcome: BidOutcome | 'not_chosen'; t: Translate }) {
  const tone = outcome === 'open' || outcome === 'pending' ? 'open' : outcome === 'won' ? 'accepted' : 'expired';
  return (
    <span class={`badge ${tone} nowrap`} data-testid="bid-outcome">
      {t(`fv.outcome.${outcome}`)}
    </span>
  );
}

/** Categories with a name in both languages; any other value is shown as sent. */
const CATEGORIES = ['ftl', 'ltl', 'express'] as const;

export function categoryLabel(category: unknown, t: Ctx['t']): string | null {
  if (typeof category !== 'string' || category.trim() === '') return null;
  const key = category.trim().toLowerCase();
  return isOneOf(CATEGORIES, key) ? t(`fv.category.${key}`) : category;
}

/** The piece lines' volume in m³ (length × width × height × count), when every line has its dimensions. */
export function piecesVolumeM3(pieces: readonly PresentedPiece[]): number | null {
  if (!pieces.length) return null;
  let cm3 = 0;
  for (const p of pieces) {
    const dims = [p.depth, p.width, p.height];
    if (dims.some((d) => d === null || !(Number(d) > 0))) return null;
    cm3 += Number(p.depth) * Number(p.width) * Number(p.height) * (Number(p.pieces) || 1);
  }
  return cm3 / 1_000_000;
}

/** What a carrier must know to handle the goods: dangerous goods, stacking, security, customs (stored flags only). */
function handlingOf(route: FreightView, t: Ctx['t']): string[] {
  const out: string[] = [];
  const dangerous = typeof route.dangerous === 'string' ? route.dangerous.trim().toLowerCase() : '';
  const goods = typeof route.dangerous_goods === 'string' ? route.dangerous_goods.trim() : '';
  if ((dangerous && !['no', 'n', '0', 'false', 'nein'].includes(dangerous)) || goods)
    out.push(goods ? `${t('fv.flag.dangerous')}: ${goods}` : t('fv.flag.dangerous'));
  if (route.stackable === 1) out.push(t('fv.flag.stackable'));
  else if (route.stackable === 0) out.push(t('fv.flag.not_stackable'));
  if (route.secured === 1) out.push(t('fv.flag.secured'));
  if (route.dutiable === 1) out.push(t('fv.flag.dutiable'));
  return out;
}

export function typeLabel(route: FreightView, t: Ctx['t']): string {
  const type = isOneOf(TYPES, route.type) ? t(`fv.type.${route.type}`) : route.type;
  const kind = isOneOf(CLASSES, route.class) ? t(`fv.class.${route.class}`) : route.class;
  return `${type} · ${kind}`;
}

// What publishing needs is a rule of the freight's moves (the desk counts drafts with gaps too).
export { publishGaps, type PublishGap } from '../../freights/index.ts';
import type { PublishGap } from '../../freights/index.ts';

/**
 * The load described as trucks are, in one line (docs/choices.md, "Loads described as trucks
 * are"): body, loading metres, ADR class, a reefer's range, pallet exchange, each only when said;
 * empty when none is. The freight page's fact and the lists' line under the route.
 */
export function loadParts(r: Partial<FreightView>, t: Translate, lang: string): string[] {
  const given = (v: unknown) => v !== null && v !== undefined && v !== '';
  const parts: string[] = [];
  if (typeof r.body === 'string' && isOneOf(BODIES, r.body)) parts.push(t(`vv.body.${r.body}`));
  if (given(r.loading_meters)) parts.push(t('fv.load.ldm', { meters: formatNumber(r.loading_meters, lang, 2) }));
  if (given(r.adr_class)) parts.push(t('fv.load.adr', { class: String(r.adr_class) }));
  if (given(r.temperature_min) || given(r.temperature_max))
    parts.push(
      t('fv.load.temperature', {
        min: given(r.temperature_min) ? formatNumber(r.temperature_min, lang, 1) : '…',
        max: given(r.temperature_max) ? formatNumber(r.temperature_max, lang, 1) : '…',
      }),
    );
  if (r.pallet_exchange === 1) parts.push(t('fv.load.pallets'));
  return parts;
}

export function freightPage(route: FreightView, ctx: Ctx<Caller>, data: FreightPageData): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const csrf = ctx.reply.generateCsrf();
  const me = ctx.caller.companyId;
  const owner = route.company === me;
  const winner = route.winner !== null && route.winner === me;
  const status = route.status;
  const among = (statuses: readonly FreightStatus[]) => statuses.includes(status);
  const market = among(MARKET);
  // While the JSON leaves `_bids` out (expired, revoked, closed, archived), the page reads them itself.
  const bids: BidView[] = route._bids ?? data.pastBids ?? [];
  const live = bids.filter((b) => LIVE.includes(b.status));
  const mine = bids.filter((b) => b.company === me && LIVE.includes(b.status));
  const myOpenBid = mine.find((b) => b.status === 'open');
  /** The caller's bid the owner answered with a counter-offer (docs/reference.md#one-step): its move. */
  const myCountered = owner ? undefined : mine.find((b) => b.counter);
  const myPendingBid = mine.find((b) => b.status === 'pending');
  const name = (id: unknown) => (typeof id === 'number' ? (data.companyNames.get(id) ?? t('fv.company_unknown')) : '–');
  /** A company on the page: its name linking to its profile, with the verified mark (accounts/mark.tsx). */
  const who = (id: unknown): ComponentChildren => {
    const ref = typeof id === 'number' ? data.companies.get(id) : undefined;
    return ref ? <CompanyName company={ref} t={t} /> : name(id);
  };
  const money = (v: unknown, c?: unknown) => formatMoney(v, c, lang) || '–';
  const none = t('placeholder.undefined');
  const booking = route.type === 'FFR';
  const refs: Record<string, unknown> = isRecord(route.refs) ? route.refs : {};
  const pieces: PresentedPiece[] = route._route_pieces ?? [];
  const totalPieces = pieces.reduce((sum, p) => sum + (Number(p.pieces) || 0), 0);
  const addressedTo: number[] = Array.isArray(route.whitelist) ? route.whitelist : [];

  /** Owner confirms first; the bidder confirms a bid the owner accepted (bidding.ts allows both orders, the page leads one way). */
  const ownerMayConfirm = (b: BidView) => owner && market && LIVE.includes(b.status) && !b.owner_confirmed;
  const bidderMayConfirm = (b: BidView) =>
    b.company === me && market && LIVE.includes(b.status) && b.owner_confirmed && !b.bidder_confirmed;
  // Several bids may be accepted at once (bidding.ts): the first carrier to confirm gets the freight; say so.
  const ownerQuestion = (b: BidView) => {
    const accepted = bids.filter((o) => o.id !== b.id && LIVE.includes(o.status) && o.owner_confirmed);
    const values = { company: name(b.company), amount: money(b.amount, b.currency_code) };
    return accepted.length
      ? t('fv.confirm.owner_q_also', { ...values, other: accepted.map((o) => name(o.company)).join(', ') })
      : t('fv.confirm.owner_q', values);
  };
  const confirmButton = (b: BidView) => (
    <ConfirmAction
      action={`/quotes/confirm/${b.id}`}
      label={t('fv.confirm')}
      question={owner && b.company !== me ? ownerQuestion(b) : t('fv.confirm.bidder_q', { amount: money(b.amount, b.currency_code) })}
      confirmLabel={t('fv.confirm.yes')}
      csrf={csrf}
      fields={{ route: String(route.id) }}
      testId="confirm-bid"
    />
  );
  const revokeBidButton = (b: BidView) => (
    <ConfirmAction
      action={`/quotes/revoke/${b.id}`}
      label={t('fv.revoke_bid')}
      question={t('fv.revoke_bid.q', { amount: money(b.amount, b.currency_code) })}
      confirmLabel={t('fv.revoke_bid.yes')}
      csrf={csrf}
      fields={{ route: String(route.id) }}
      variant="secondary"
      testId="revoke-bid"
    />
  );

  // ----- deals in one step (docs/reference.md#one-step): counters, Book Now, the waterfall
  const counterForm = (b: BidView) => (
    <form class="inline counter" method="post" action={`/quotes/counter/${b.id}`} data-testid="counter-form">
      <CsrfField token={csrf} />
      <input type="hidden" name="route" value={String(route.id)} />
      <label>
        {t('fv.counter.amount')}
        <input name="amount" inputMode="decimal" required size={8} autocomplete="off" />
      </label>
      <button type="submit" class="secondary">
        {t('fv.counter')}
      </button>
    </form>
  );
  /** A standing counter-offer in words, with the owner's note: "Counter-offer: €950.50 · Tolls included". */
  const counterText = (b: BidView) =>
    b.counter
      ? `${t('fv.counter.standing', { amount: money(b.counter.amount, b.counter.currency_code) })}${b.counter.note ? ` · ${b.counter.note}` : ''}`
      : '';
  const acceptButton = (b: BidView) => (
    <ConfirmAction
      action={`/quotes/accept/${b.id}`}
      label={t('fv.counter.accept', { amount: money(b.counter?.amount, b.counter?.currency_code) })}
      question={t('fv.counter.accept.q', { amount: money(b.counter?.amount, b.counter?.currency_code) })}
      confirmLabel={t('fv.counter.accept.yes')}
      csrf={csrf}
      fields={{ route: String(route.id) }}
      testId="accept-counter"
    />
  );
  const fall = route.waterfall ?? null;
  const bookPrice = money(route.book_now, route.book_now_currency);
  const mayBook = !owner && market && route.book_now !== null && route.book_now !== undefined;
  /** The owner's running waterfall in words: "C. Transport has until 14:30, then Alpen Cargo, then the market". */
  const offerChain =
    owner && fall?.carriers && fall.state === 'running'
      ? [
          t('fv.waterfall.now', { company: name(fall.carriers[fall.step ?? 0]), until: formatStamp(fall.step_until, lang) }),
          ...fall.carriers.slice((fall.step ?? 0) + 1).map((c) => t('fv.waterfall.next', { company: name(c) })),
          t(fall.then === 'market' ? 'fv.waterfall.after.market' : 'fv.waterfall.after.stop'),
        ].join(', ')
      : null;

  // ----- whose move it is
  /** `offer`: the line tells the owner's running waterfall, so the actions do not say it again. */
  let next: { text: string; yours: boolean | null; offer?: boolean };
  /** The one bid in play, when there is only one. */
  const lone = live.length === 1 ? live[0] : undefined;
  const pendingMine = live.find((b) => b.owner_confirmed && !b.bidder_confirmed);
  const pendingTheirs = live.find((b) => b.bidder_confirmed && !b.owner_confirmed);
  if (owner) {
    if (status === 'draft')
      next = {
        text: data.gaps.length
          ? t('fv.next.owner.draft_gaps')
          : booking
            ? t('fv.next.owner.draft_booking', { company: addressedTo.map(name).join(', ') })
            : t('fv.next.owner.draft'),
        yours: true,
      };
    else if (market && pendingTheirs)
      next = {
        text: t('fv.next.owner.confirm_theirs', {
          company: name(pendingTheirs.company),
          amount: money(pendingTheirs.amount, pendingTheirs.currency_code),
        }),
        yours: true,
      };
    else if (market && pendingMine)
      next = {
        text: t('fv.next.owner.waiting', {
          company: name(pendingMine.company),
          amount: money(pendingMine.amount, pendingMine.currency_code),
        }),
        yours: false,
      };
    // The one bid in play answered with a counter-offer: the bidder's move.
    else if (market && lone?.counter)
      next = {
        text: t('fv.next.owner.countered', {
          company: name(lone.company),
          amount: money(lone.amount, lone.currency_code),
          counter: money(lone.counter.amount, lone.counter.currency_code),
        }),
        yours: false,
      };
    else if (market && live.length)
      next = {
        text: t(live.length === 1 ? 'fv.next.owner.choose.one' : 'fv.next.owner.choose', {
          count: live.length,
          deadline: formatStamp(route.deadline, lang),
        }),
        yours: true,
      };
    // A running waterfall: whose turn, until when, who follows (the carriers bid on it no more than on any freight).
    else if (market && offerChain) next = { text: t('fv.next.owner.waterfall', { offer: offerChain }), yours: false, offer: true };
    else if (market) next = { text: t('fv.next.owner.no_bids', { deadline: formatStamp(route.deadline, lang) }), yours: false };
    else if (status === 'taken')
      next = {
        text: t('fv.next.owner.taken', {
          company: name(route.winner),
          price: money(route.price, bids.find((b) => b.status === 'accepted')?.currency_code),
        }),
        yours: false,
      };
    else if (status === 'expired') next = { text: t('fv.next.owner.expired'), yours: true };
    else next = { text: t(`fv.next.${status}`), yours: null };
  } else if (winner) {
    next =
      status === 'taken'
        ? {
            text: t('fv.next.winner.taken', { price: money(route.price, bids.find((b) => b.status === 'accepted')?.currency_code) }),
            yours: true,
          }
        : { text: t(`fv.next.${status}`), yours: null };
  } else if (market) {
    const awaited = mine.find((b) => b.owner_confirmed && !b.bidder_confirmed);
    const confirmedByMe = mine.find((b) => b.bidder_confirmed && !b.owner_confirmed);
    if (awaited) next = { text: t('fv.next.bidder.confirm', { amount: money(awaited.amount, awaited.currency_code) }), yours: true };
    else if (myCountered?.counter)
      next = {
        text: t('fv.next.bidder.countered', {
          amount: money(myCountered.amount, myCountered.currency_code),
          counter: money(myCountered.counter.amount, myCountered.counter.currency_code),
        }),
        yours: true,
      };
    else if (confirmedByMe)
      next = {
        text: t('fv.next.bidder.waiting_owner', { amount: money(confirmedByMe.amount, confirmedByMe.currency_code) }),
        yours: false,
      };
    else if (myOpenBid)
      next = { text: t('fv.next.bidder.with_owner', { amount: money(myOpenBid.amount, myOpenBid.currency_code) }), yours: false };
    // Its turn in a waterfall: the turn's end is what counts, not the bidding deadline.
    else if (fall?.step_until && mayBook)
      next = { text: t('fv.next.carrier.turn', { price: bookPrice, until: formatStamp(fall.step_until, lang) }), yours: true };
    else next = { text: t('fv.next.bidder.bid', { deadline: formatStamp(route.deadline, lang) }), yours: true };
  } else {
    next = {
      text: t(isAwardedStatus(status) ? 'fv.next.lost' : `fv.next.${status}`),
      yours: null,
    };
  }

  // ----- the bids table
  /** A bid in play or withdrawn shows its status; once the freight left the market, what became of it. */
  const bidStatus = (b: BidView): ComponentChildren => {
    if (market || b.status === 'revoked') return <Badge value={b.status} t={t} />;
    if (owner) {
      if (b.status === 'accepted') return <Badge value={b.status} t={t} />;
      const ended: BidOutcome | 'not_chosen' =
        route.winner !== null ? 'not_chosen' : status === 'expired' ? 'expired' : status === 'revoked' ? 'withdrawn' : 'not_awarded';
      return <OutcomeBadge outcome={ended} t={t} />;
    }
    return <OutcomeBadge outcome={bidOutcome({ status: b.status, lost: Boolean(data.awardedToOther) }, status, winner)} t={t} />;
  };
  // The bidders' figures (owner only) and the order the owner chose: `?bids_sort=rating` (best first), `since` (longest first).
  const figures = data.bidders;
  const sortParam = typeof ctx.params.bids_sort === 'string' ? ctx.params.bids_sort : '';
  const sortKey = (BID_SORTS as readonly string[]).includes(sortParam.replace(/^-/, '')) ? sortParam.replace(/^-/, '') : null;
  const reversed = sortParam.startsWith('-');
  const sortValue = (b: BidView): number | null => {
    const f = figures?.get(b.company);
    if (sortKey === 'amount') return Number(b.amount);
    if (sortKey === 'rating') return f?.rating ?? null;
    if (sortKey === 'completed') return f?.completed ?? null;
    if (sortKey === 'since') return f ? f.memberSince.getTime() : null;
    return null;
  };
  /** Best first: the cheapest bid, the highest rating, the most loads, the longest member; unknown last. */
  const better = (a: BidView, b: BidView) => {
    const [x, y] = [sortValue(a), sortValue(b)];
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    const ascending = sortKey === 'amount' || sortKey === 'since';
    return (ascending ? x - y : y - x) * (reversed ? -1 : 1);
  };
  const sortColumn = (key: (typeof BID_SORTS)[number]) =>
    figures
      ? {
          sortHref: `/freights/view/${route.id}?bids_sort=${sortKey === key && !reversed ? '-' : ''}${key}#bids`,
          sorted:
            sortKey === key
              ? (key === 'amount' || key === 'since') !== reversed
                ? ('ascending' as const)
                : ('descending' as const)
              : undefined,
        }
      : {};
  const figureColumns: Column<BidView>[] = figures
    ? [
        {
          label: t('fv.col.rating'),
          numeric: true,
          ...sortColumn('rating'),
          cell: (b) => {
            const f = figures.get(b.company);
            if (!f) return '–';
            return f.rating === null
              ? t('fv.rating.few', { count: f.ratings })
              : t('fv.rating.value', { rating: formatNumber(f.rating, lang, 1), count: f.ratings });
          },
        },
        {
          label: t('fv.col.completed'),
          numeric: true,
          ...sortColumn('completed'),
          cell: (b) => {
            const f = figures.get(b.company);
            return f ? formatNumber(f.completed, lang, 0) : '–';
          },
        },
        {
          label: t('fv.col.member_since'),
          ...sortColumn('since'),
          cell: (b) => {
            const f = figures.get(b.company);
            return f ? formatDay((ctx.clock.format(f.memberSince) ?? '').slice(0, 10), lang) : '–';
          },
        },
      ]
    : [];
  const bidColumns: Column<BidView>[] = [
    {
      label: t('fv.col.company'),
      cell: (b) =>
        b.company === me ? (
          <>
            {who(b.company)} ({t('fv.you')})
          </>
        ) : (
          who(b.company)
        ),
    },
    {
      label: t('fv.col.amount'),
      ...sortColumn('amount'),
      cell: (b) => {
        // The bid's history for its two parties (docs/reference.md#one-step): who offered what, when.
        const offers = data.history?.get(b.id) ?? [];
        return (
          <>
            <strong>{money(b.amount, b.currency_code)}</strong>
            {offers.length > 1 && (
              <details class="more" data-testid="bid-history">
                <summary>{t('fv.history', { count: offers.length })}</summary>
                <ol class="history">
                  {offers.map((o) => (
                    <li>
                      {t(o.side === 'owner' ? 'fv.history.owner' : 'fv.history.bidder', {
                        amount: money(o.amount, o.currency_code),
                        at: formatStamp(ctx.clock.format(o.created), lang),
                      })}
                    </li>
                  ))}
                </ol>
              </details>
            )}
          </>
        );
      },
      numeric: true,
    },
    ...figureColumns,
    {
      label: t('fv.col.rates'),
      cell: (b) =>
        b.rate_base === null && b.rate_fsc === null && b.rate_ssc === null
          ? '–'
          : `${formatMoney(b.rate_base, null, lang) || '–'} / ${formatMoney(b.rate_fsc, null, lang) || '–'} / ${formatMoney(b.rate_ssc, null, lang) || '–'}`,
    },
    { label: t('fv.col.note'), cell: (b) => <span class="wrap-text">{b.note || '–'}</span> },
    { label: t('fv.col.status'), cell: (b) => bidStatus(b) },
    {
      label: t('fv.col.next'),
      cell: (b) => {
        if (!market || !LIVE.includes(b.status)) return null;
        const parts: ComponentChildren[] = [];
        if (ownerMayConfirm(b)) parts.push(confirmButton(b));
        else if (owner && b.owner_confirmed) parts.push(<span class="muted">{t('fv.waiting_for', { company: name(b.company) })}</span>);
        if (owner && b.company !== me) parts.push(counterForm(b));
        if (b.counter) parts.push(<span class="muted wrap-text">{counterText(b)}</span>);
        if (b.company === me && !owner && b.counter) parts.push(acceptButton(b));
        if (b.company === me) {
          if (bidderMayConfirm(b)) parts.push(confirmButton(b));
          // A standing counter-offer is the bidder's move, not a wait for the shipper.
          else if (!owner && !b.counter && (b.bidder_confirmed || !b.owner_confirmed))
            parts.push(<span class="muted">{t('fv.waiting_for_shipper')}</span>);
          parts.push(revokeBidButton(b));
        }
        return <div class="actions">{parts}</div>;
      },
    },
  ];

  // ----- actions
  const actions: ComponentChildren[] = [];
  // The confirmation that is awaited from this caller comes first (it is also in the bids table).
  const awaitedFromMe = owner ? pendingTheirs : mine.find((b) => bidderMayConfirm(b));
  if (market && awaitedFromMe && (owner ? ownerMayConfirm(awaitedFromMe) : bidderMayConfirm(awaitedFromMe)))
    actions.push(<div class="actions">{confirmButton(awaitedFromMe)}</div>);
  // The owner's counter-offer to this bidder: accepting it is the bidder's move (it is also in the bids table).
  if (market && myCountered && !awaitedFromMe)
    actions.push(
      <div class="stack counter-standing" data-testid="counter-standing">
        <p>{counterText(myCountered)}</p>
        <div class="actions">{acceptButton(myCountered)}</div>
      </div>,
    );
  // A carrier's turn in a waterfall, and Book Now: the deal in one click (after a confirming step).
  if (!owner && fall?.step_until)
    actions.push(
      <p class="flash" data-testid="your-turn">
        {t('fv.turn', { until: formatStamp(fall.step_until, lang) })}
      </p>,
    );
  if (mayBook)
    actions.push(
      <div class="actions">
        <ConfirmAction
          action={`/quotes/book/${route.id}`}
          label={t('fv.book_now', { price: bookPrice })}
          question={t('fv.book_now.q', { price: bookPrice })}
          confirmLabel={t('fv.book_now.yes')}
          csrf={csrf}
          testId="book-now"
        />
        {fall?.step_until && (
          <ConfirmAction
            action={`/quotes/decline/${route.id}`}
            label={t('fv.turn.decline')}
            question={t('fv.turn.decline.q')}
            confirmLabel={t('fv.turn.decline.yes')}
            csrf={csrf}
            variant="secondary"
            testId="decline-turn"
          />
        )}
      </div>,
    );
  // The owner's waterfall: whose turn, until when, who follows ("C. Transport has until 14:30, then Alpen Cargo, then the
  // market"), unless the line of whose move it is says so already; or how it ended.
  if (owner && fall?.carriers && !next.offer) {
    const text = offerChain ?? t(`fv.waterfall.${fall.state ?? 'ended'}` as 'fv.waterfall.ended');
    actions.push(
      <p data-testid="waterfall-state">
        <strong>{t('fv.waterfall.state')}:</strong> {text}
      </p>,
    );
  }
  if (owner && status === 'draft') {
    if (data.gaps.length) {
      actions.push(
        <div class="gaps" data-testid="publish-gaps">
          <p>{t('fv.publish.gaps')}</p>
          <ul>
            {data.gaps.map((g) => (
              <li>{t(`fv.gap.${g}`)}</li>
            ))}
          </ul>
          <a class="button" href={`/freights/edit/${route.id}`}>
            {t('fv.complete')}
          </a>
        </div>,
      );
    } else if (booking) {
      actions.push(
        <form class="stack" method="post" action={`/freights/view/${route.id}`} data-testid="publish">
          <CsrfField token={csrf} />
          <input type="hidden" name="action" value="publish" />
          {/* A booking request is no auction: the carrier answers until pick-up (docs/choices.md). */}
          {bookingDeadline(route, ctx) && <input type="hidden" name="deadline" value={bookingDeadline(route, ctx)!} />}
          <p class="muted">{t('fv.publish.booking_hint', { company: addressedTo.map(name).join(', ') || none })}</p>
          <div>
            <button type="submit">{t('fv.publish.booking')}</button>
          </div>
        </form>,
      );
    } else {
      const visibility = String(route.visibility ?? VISIBILITY.everyone);
      // Everyone first, then the companies listed, then the own company (the publish form's choice).
      const choices = [`${VISIBILITY.everyone}`, `${VISIBILITY.whitelist}`, `${VISIBILITY.ownCompany}`] as const;
      actions.push(
        <form class="stack" method="post" action={`/freights/view/${route.id}`} data-testid="publish">
          <CsrfField token={csrf} />
          <input type="hidden" name="action" value="publish" />
          <label>
            {t('fv.visibility')}
            <Select
              name="visibility"
              value={(choices as readonly string[]).includes(visibility) ? visibility : choices[0]}
              options={choices.map((v) => [v, t(`fv.vis.${v}`)])}
            />
          </label>
          <label for="publish-audience">
            {t('fv.audience')}
            <CompanyPicker id="publish-audience" partners={data.partners} value={addressedTo.map(name).join(', ')} />
            <span class="hint">{t('fv.whitelist.hint')}</span>
          </label>
          <label>
            {t('fv.deadline')}
            <input type="datetime-local" name="deadline" />
            <span class="hint">{t('fv.deadline.hint')}</span>
          </label>
          <div>
            <button type="submit">{t('fv.publish')}</button>
          </div>
        </form>,
      );
      // Or offered to partners one after the other before the market (docs/reference.md#one-step), each
      // named with its verified mark and rating (docs/reference.md#trust: the average from 3 ratings on).
      const partnerRating = (id: number) => {
        const r = data.partnerRatings?.get(id);
        if (!r) return '';
        return ` · ${
          r.average === null
            ? t('fv.waterfall.rating.few', { count: r.count })
            : t('fv.waterfall.rating', { average: formatNumber(r.average, lang, 1, 1), count: r.count })
        }`;
      };
      const slots = Math.min(5, Math.max(2, data.partners.length));
      actions.push(
        <details class="more" data-testid="waterfall-setup">
          <summary>{t('fv.waterfall')}</summary>
          <form class="stack" method="post" action={`/freights/waterfall/${route.id}`} data-testid="waterfall-form">
            <CsrfField token={csrf} />
            <p class="hint">{t('fv.waterfall.hint')}</p>
            <div class="form-grid">
              {Array.from({ length: slots }, (_, i) => (
                <label>
                  {t('fv.waterfall.carrier', { n: i + 1 })}
                  <select name="carriers" data-testid={`waterfall-carrier-${i}`}>
                    <option value="">{t('fv.waterfall.none')}</option>
                    {data.partners.map((c) => (
                      <option
                        value={String(c.id)}
                      >{`${c.name}${data.companies.get(c.id)?.verified ? ' ✓' : ''}${partnerRating(c.id)}`}</option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
            <div class="form-grid">
              <label>
                {t('fv.waterfall.price')}
                <input name="price" inputMode="decimal" required autocomplete="off" />
              </label>
              <label>
                {t('fv.currency')}
                <input name="currency" value="EUR" maxLength={3} class="short" />
              </label>
              <label>
                {t('fv.waterfall.minutes')}
                <input name="minutes" inputMode="numeric" value="60" required />
              </label>
              <label>
                {t('fv.waterfall.then')}
                <Select
                  name="then"
                  value="market"
                  options={[
                    ['market', t('fv.waterfall.then.market')],
                    ['stop', t('fv.waterfall.then.stop')],
                  ]}
                />
              </label>
            </div>
            <div>
              <button type="submit">{t('fv.waterfall.start')}</button>
            </div>
          </form>
        </details>,
      );
    }
  }
  const typed = data.bidForm?.typed ?? {};
  const problems = data.bidForm?.problems ?? {};
  const firstProblem = BID_FIELDS.find((k) => problems[k]);
  const bidFormShown = !owner && market && !myPendingBid;
  if (bidFormShown) {
    const amount = myOpenBid ? myOpenBid.amount : refs.target_rate;
    const example = lang === 'deu' ? '1.745,50' : '1,745.50';
    /** A bid field: the typed text after a refusal, else the stored bid in the user's format; its problem beside it. */
    const bidField = (name: string, label: string, stored: string, attrs: Record<string, unknown> = {}) => {
      const id = `bid-${name.replace(/_/g, '-')}`;
      return (
        <Field id={id} label={label} error={problems[name]}>
          <input
            id={id}
            name={name}
            value={name in typed ? typed[name] : stored}
            aria-describedby={`${id}-error`}
            aria-invalid={problems[name] ? 'true' : undefined}
            autofocus={firstProblem === name ? true : undefined}
            autocomplete="off"
            {...attrs}
          />
        </Field>
      );
    };
    const money = (v: unknown) => formatNumber(v, lang, 2, 2);
    const componentsOpen = ['rate_base', 'rate_fsc', 'rate_ssc'].some((k) => problems[k]);
    actions.push(
      <form
        class="stack"
        method="post"
        action="/quotes/add"
        data-testid="bid-form"
        data-validate="bid"
        data-lang={lang}
        data-msg-number={t('quotes.form.component', { example })}
        data-msg-invalid={t('quotes.form.problems')}
      >
        <CsrfField token={csrf} />
        <input type="hidden" name="route" value={String(route.id)} />
        {myOpenBid && <input type="hidden" name="id" value={String(myOpenBid.id)} />}
        <h3>{myOpenBid ? t('fv.bid.change') : t('fv.bid')}</h3>
        {data.bidForm?.message && (
          <p class="flash error" role="alert" data-testid="bid-problems">
            {data.bidForm.message}
          </p>
        )}
        <div class="form-grid">
          {bidField('amount', t('fv.bid.amount'), amount === null || amount === undefined ? '' : money(amount), {
            inputMode: 'decimal',
            required: true,
            'data-check': 'number',
            'data-msg': t('quotes.form.amount', { example }),
          })}
          {bidField('currency_code', t('fv.currency'), String(myOpenBid?.currency_code ?? refs.target_currency ?? 'EUR'), {
            maxLength: 3,
            required: true,
            pattern: '[A-Za-z]{3}',
            class: 'short',
          })}
        </div>
        <details class="more" open={componentsOpen}>
          <summary>{t('fv.bid.components')}</summary>
          <div class="form-grid">
            {bidField('rate_base', t('fv.col.base'), money(myOpenBid?.rate_base), { inputMode: 'decimal', 'data-check': 'number' })}
            {bidField('rate_fsc', t('fv.col.fsc'), money(myOpenBid?.rate_fsc), { inputMode: 'decimal', 'data-check': 'number' })}
            {bidField('rate_ssc', t('fv.col.ssc'), money(myOpenBid?.rate_ssc), { inputMode: 'decimal', 'data-check': 'number' })}
          </div>
        </details>
        {bidField('note', t('fv.col.note'), String(myOpenBid?.note ?? ''), { maxLength: 2000 })}
        <div>
          <button type="submit">{myOpenBid ? t('fv.bid.update') : t('fv.bid.submit')}</button>
        </div>
      </form>,
    );
  }
  if ((owner || winner) && status === 'taken') {
    const current = Number(route.delivery_status ?? DELIVERY.notStarted);
    actions.push(
      <form class="inline" method="post" action={`/freights/delivery/${route.id}`} data-testid="delivery">
        <CsrfField token={csrf} />
        <label>
          {t('fv.delivery')}
          <Select
            name="delivery_status"
            value={String(current)}
            options={DELIVERY_STATUSES.filter((v) => v >= current).map((v) => [String(v), t(`freight.delivery.${v}`)])}
          />
        </label>
        <button type="submit">{t('fv.delivery.save')}</button>
      </form>,
    );
  }
  const ownerLinks: ComponentChildren[] = [];
  if (owner && among(['expired', 'revoked', 'closed', 'archived'])) {
    ownerLinks.push(
      <a class="button" href={`/freights/add?copy=${route.id}`} data-testid="republish">
        {t('fv.republish')}
      </a>,
    );
  }
  if (owner && among(ARCHIVABLE_STATUSES)) {
    ownerLinks.push(<PostButton action={`/freights/archive/${route.id}`} label={t('fv.archive')} csrf={csrf} variant="secondary" />);
  }
  if (owner && among(REVOCABLE_STATUSES)) {
    ownerLinks.push(
      <ConfirmAction
        action={`/freights/revoke/${route.id}`}
        label={t('fv.revoke')}
        question={t(live.length === 1 ? 'fv.revoke.q_bids.one' : live.length ? 'fv.revoke.q_bids' : 'fv.revoke.q', { count: live.length })}
        confirmLabel={t('fv.revoke.yes')}
        csrf={csrf}
        variant="danger"
        testId="revoke-freight"
      />,
    );
  }
  if (ownerLinks.length) actions.push(<div class="actions">{ownerLinks}</div>);

  const deliveryWords = status === 'taken' || status === 'closed' ? route.delivery_status_in_words : null;
  const category = categoryLabel(route.category, t);
  const distance = routeRoadDistance(route);
  const volume = piecesVolumeM3(pieces);
  const capacity = Number(refs.capacity);
  const handling = handlingOf(route, t);
  const facts: [string, ComponentChildren][] = [
    [t('fv.type'), typeLabel(route, t)],
    [
      t('fv.from'),
      [
        placeLabel(route, 'from', data.fromCity, none),
        route.from_addr && route.from_addr !== data.fromCity ? <div class="muted">{route.from_addr}</div> : null,
      ],
    ],
    [
      t('fv.to'),
      [
        placeLabel(route, 'to', data.toCity, none),
        route.to_addr && route.to_addr !== data.toCity ? <div class="muted">{route.to_addr}</div> : null,
      ],
    ],
  ];
  // What a carrier prices a load by (docs/reference.md#freights shows it to every company the freight is open
  // to): category, distance, the windows, weight, pieces, volume and handling; the goods and the
  // target price where the owner shares them (below).
  if (category) facts.splice(1, 0, [t('fv.category'), <span data-testid="fact-category">{category}</span>]);
  if (distance) facts.push([t('fv.distance'), <span data-testid="fact-distance">{distanceFact(distance, t, lang)}</span>]);
  facts.push(
    [t('fv.col.etd'), formatWindow(route.etd, route.etd_end, lang) || none],
    [t('fv.col.eta'), formatWindow(route.eta, route.eta_end, lang) || none],
    [
      t('fv.weight'),
      [
        formatKg(route.weight, lang) || none,
        route.weight_actual !== null &&
        route.weight_volume !== null &&
        route.weight_actual !== undefined &&
        route.weight_volume !== undefined ? (
          <div class="muted">
            {t('fv.weight.parts', { actual: formatKg(route.weight_actual, lang), volumetric: formatKg(route.weight_volume, lang) })}
          </div>
        ) : null,
      ],
    ],
    [t('fv.col.pieces'), totalPieces ? formatNumber(totalPieces, lang) : none],
  );
  if (volume !== null)
    facts.push([t('fv.volume'), <span data-testid="fact-volume">{t('fv.volume.pieces', { m3: formatNumber(volume, lang, 1, 1) })}</span>]);
  else if (Number.isFinite(capacity) && capacity > 0) facts.push([t('fv.volume'), `${formatNumber(capacity, lang, 1)} m³`]);
  if (handling.length) facts.push([t('fv.handling'), handling.join(' · ')]);
  const load = loadParts(route, t, lang);
  if (load.length) facts.push([t('fv.form.section.load'), <span data-testid="fact-load">{load.join(' · ')}</span>]);
  // Goods, references and the target price are refs, the owner's and the winner's to see
  // (docs/reference.md#freights), except what the owner shares with carriers (`shared`; docs/choices.md,
  // "What a carrier prices a load by"); the owner is told what carriers see.
  const shared = route.shared ?? null;
  const sharedNote = (key: ShareKey) =>
    owner && Array.isArray(route.share) && route.share.includes(key) ? <span class="muted"> · {t('fv.shared.note')}</span> : null;
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  const goods = given(refs.commodity) ? refs.commodity : shared?.commodity;
  if (owner || given(goods))
    facts.push([
      t('fv.form.commodity'),
      [
        given(goods) ? (
          <span class="wrap-text" data-testid="fact-goods">
            {String(goods)}
          </span>
        ) : (
          none
        ),
        sharedNote('goods'),
      ],
    ]);
  if (owner || refs.customer) facts.push([owner ? t('fv.form.customer') : t('fv.reference'), refs.customer ? String(refs.customer) : none]);
  if (!booking || route.deadline) facts.push([t('fv.col.deadline'), formatStamp(route.deadline, lang) || none]);
  const target = given(refs.target_rate)
    ? { label: targetPriceLabel(refs, t), rate: refs.target_rate, currency: refs.target_currency }
    : given(shared?.target_rate)
      ? { label: t('fv.form.target_rate'), rate: shared?.target_rate, currency: shared?.target_currency }
      : null;
  if (target)
    facts.push([target.label, [<span data-testid="fact-target">{money(target.rate, target.currency)}</span>, sharedNote('target_price')]]);
  if (route.price !== null && route.price !== undefined)
    facts.push([t('fv.col.price'), money(route.price, bids.find((b) => b.status === 'accepted')?.currency_code ?? refs.target_currency)]);
  // docs/reference.md#one-step: the Book Now price is everyone's; the walk-away price the owner's alone (null for anyone else).
  if (route.book_now !== null && route.book_now !== undefined)
    facts.push([t('fv.book_now.fact'), <span data-testid="fact-book-now">{money(route.book_now, route.book_now_currency)}</span>]);
  if (owner && route.auto_award !== null && route.auto_award !== undefined)
    facts.push([t('fv.auto_award.fact'), money(route.auto_award, route.book_now_currency)]);
  if (data.marketPrice) facts.push([t('fv.market_price'), data.marketPrice]);
  facts.push([
    t('fv.owner'),
    <span data-testid="fact-owner">{route._company ? <CompanyName company={route._company} t={t} /> : who(route.company)}</span>,
  ]);
  if (owner && route.visibility === VISIBILITY.whitelist && addressedTo.length)
    facts.push([t('fv.addressed_to'), addressedTo.map(name).join(', ')]);
  if (route.winner) facts.push([t('fv.winner'), who(route.winner)]);
  // After delivery each party may rate the other (docs/reference.md#trust), on the other's profile.
  const delivered = route.delivery_status === DELIVERY.delivered && (route.status === 'closed' || route.status === 'archived');
  const ratedParty =
    delivered && route.winner !== null && route.winner !== route.company ? (owner ? route.winner : winner ? route.company : null) : null;
  if (deliveryWords) facts.push([t('fv.delivery'), String(deliveryWords)]);

  // The owner's decision is among the bids: while they are live, they come right after the next step.
  const bidsFirst = owner && market && live.length > 0;
  const bidsSection =
    route._bids !== undefined || data.pastBids !== undefined
      ? // One part the live board's script replaces when the freight changes (public/app.js).
        [
          <h2>{t('fv.bids')}</h2>,
          route._bids === undefined && (
            <p class="muted" data-testid="past-bids">
              {t('fv.past_bids')}
            </p>
          ),
          <DataTable
            columns={route._bids === undefined ? bidColumns.filter((c) => c.label !== t('fv.col.next')) : bidColumns}
            rows={sortKey ? bids.filter((b) => owner || b.company === me).sort(better) : bids.filter((b) => owner || b.company === me)}
            empty={owner ? t('fv.no_bids') : t('fv.no_own_bids')}
            testId="bids"
          />,
        ]
      : null;
  const bidsPart = bidsSection && <div data-live-part="bids">{bidsSection}</div>;
  const heading = `${placeLabel(route, 'from', data.fromCity, none)} → ${placeLabel(route, 'to', data.toCity, none)}`;
  return {
    title: heading,
    body: (
      // The live board (public/app.js, docs/reference.md#live-board): on an event of this freight the script
      // reads the page again and replaces its parts (data-live-part) that changed, unless the user
      // is typing in one.
      <section data-live-freight={route.id} data-live-updated={t('fv.live.updated')}>
        <div class="toolbar">
          <h1>
            {heading} <span class="muted">{refs.customer ? String(refs.customer) : `#${route.id}`}</span>
          </h1>
          <span data-live-part="status">
            <Badge value={status} t={t} />
          </span>
          <span class="spacer" />
          {route.editable && (
            <a class="button secondary" href={`/freights/edit/${route.id}`}>
              {t('fv.edit')}
            </a>
          )}
        </div>
        <p class={next.yours ? 'next-step yours' : 'next-step'} data-testid="next-step" role="status" data-live-part="next">
          {next.yours !== null && <strong>{next.yours ? t('fv.next.your_move') : t('fv.next.their_move')} </strong>}
          {next.yours === null ? capitalise(next.text) : next.text}
          {/* A taken freight's papers (the transport order, the proof of delivery) are in the deal room's documents, far down on a phone. */}
          {status === 'taken' && (owner || winner) && (
            <>
              {' '}
              <a href="#documents" data-testid="to-documents">
                {t('fv.next.documents')}
              </a>
            </>
          )}
        </p>
        {data.bidForm?.message && !bidFormShown && (
          <p class="flash error" role="alert" data-testid="bid-problems">
            {data.bidForm.message}
          </p>
        )}
        {bidsFirst && bidsPart}
        <div class="columns">
          <div class="panel">
            <h2>{t('fv.details')}</h2>
            <Facts items={facts} />
            {(ratedParty !== null || !owner) && (
              <p class="toolbar" data-testid="company-actions">
                {ratedParty !== null && (
                  <a class="button secondary" href={`${profilePath(ratedParty)}#rate`} data-testid="rate-link">
                    {t('company.rate.link', { company: name(ratedParty) })}
                  </a>
                )}
                {!owner && (
                  // Blocking is rare and grave: in the company's menu (and on its profile), not a red
                  // button beside the bid (issue 47, item 12).
                  <details class="more" data-testid="company-menu">
                    <summary>{t('fv.company.menu', { company: route._company?.name ?? name(route.company) })}</summary>
                    <p>
                      <a href={profilePath(route.company)}>{t('fv.company.profile')}</a>
                    </p>
                    <BlockAction
                      t={t}
                      csrf={ctx.reply.generateCsrf()}
                      company={{ id: route.company, name: route._company?.name ?? name(route.company) }}
                      blocked={data.blocked}
                      back={`/freights/view/${route.id}`}
                    />
                  </details>
                )}
              </p>
            )}
          </div>
          <div class="panel" data-live-part="actions">
            <h2>{t('fv.actions')}</h2>
            {data.contact && (
              <div class="contact" data-testid="contact">
                <h3>
                  {owner ? t('fv.contact.carrier') : isMarketStatus(route.status) ? t('fv.contact.publisher') : t('fv.contact.shipper')}
                </h3>
                <p>
                  {data.contact.realname ? `${data.contact.realname} · ` : ''}
                  {data.contact.company}
                  {data.contact.email && (
                    <>
                      <br />
                      <a href={`mailto:${data.contact.email}`}>{data.contact.email}</a>
                    </>
                  )}
                  {data.contact.phone && (
                    <>
                      <br />
                      <a href={`tel:${data.contact.phone.replace(/[^0-9+]/g, '')}`} data-testid="contact-phone">
                        {data.contact.phone}
                      </a>
                    </>
                  )}
                </p>
              </div>
            )}
            {actions.length ? actions : <p class="muted">{t('fv.no_actions')}</p>}
          </div>
        </div>
        <h2>{t('fv.pieces')}</h2>
        <DataTable
          columns={[
            { label: t('fv.col.pieces'), cell: (p) => formatNumber(p.pieces, lang) || '–', numeric: true },
            {
              label: t('fv.col.dims'),
              cell: (p) =>
                `${formatNumber(p.depth, lang) || '–'} × ${formatNumber(p.width, lang) || '–'} × ${formatNumber(p.height, lang) || '–'}`,
            },
            { label: t('fv.col.weight'), cell: (p) => formatNumber(p.weight, lang) || '–', numeric: true },
          ]}
          rows={pieces}
          empty={t('fv.no_pieces')}
          testId="pieces"
        />
        {!bidsFirst && bidsPart}
        {data.sections}
      </section>
    ),
  };
}

/** A booking request's answer window: until pick-up when that lies ahead, else three days. */
function bookingDeadline(route: FreightView, ctx: Ctx<Caller>): string | undefined {
  const etdText = route.etd;
  const etd = etdText !== null ? ctx.clock.parse(etdText) : null;
  if (etdText !== null && etd && etd.getTime() > ctx.clock.now().getTime() + 3600_000) return etdText.slice(0, 16);
  return '+72 hours';
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
