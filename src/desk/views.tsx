import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { formatDay, formatMoney, formatStamp } from '../kernel/locale.ts';
import { profilePath } from '../accounts/index.ts';
import { DELIVERY, DELIVERY_STATUSES, listPath, type DeliveryStatus } from '../freights/index.ts';
import { CHANGED_PARTS, EXPIRED_PARTS, QUEUE_LISTS, WAITING_PARTS, type QueueEntry, type QueuePart, type WorkQueue } from './queue.ts';

/**
 * The dispatcher's start page: what waits for the company's move, then what changed since the
 * user last looked, each part with its count and its freights (the first eight, the rest in their
 * list). Every entry links to its freight, whose page offers the move; a counterpart to rate links
 * to its profile's rate form too, a rating to answer to the company's own profile, where the reply
 * form is.
 */

export interface DeskData {
  queue: WorkQueue;
  /** the start of "what changed" (`YYYY-MM-DD HH:MM:SS`); null on the first look (the last seven days) */
  since: string | null;
}

const isDeliveryStatus = (n: number): n is DeliveryStatus => (DELIVERY_STATUSES as readonly number[]).includes(n);

export function deskPage(data: DeskData, ctx: Ctx<Caller>): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const { queue } = data;
  const me = ctx.caller.companyId;
  const money = (amount: unknown, currency: unknown) => formatMoney(amount, currency, lang) || '–';
  const stamp = (value: string | null | undefined) => formatStamp(value, lang) || t('desk.unknown');

  /** What an entry says beside its freight, by part. */
  const detail = (part: QueuePart, e: QueueEntry): string => {
    const company = e.company ?? '–';
    const amount = money(e.amount, e.currency);
    switch (part) {
      case 'yourTurn':
        return `${company}: ${t('desk.turn', { until: stamp(e.at), price: amount })}`;
      case 'answerCounters':
        return t('desk.item.answerCounters', { company, amount, bid: money(e.bidAmount, e.currency) });
      case 'confirmBids':
        return t('desk.item.confirmBids', { company, amount });
      case 'chooseBids':
        return t(e.bids === 1 ? 'desk.item.chooseBids.one' : 'desk.item.chooseBids', { count: e.bids ?? 0, amount, deadline: stamp(e.at) });
      case 'expiredBids':
        return t(e.bids === 1 ? 'desk.item.expiredBids.one' : 'desk.item.expiredBids', {
          count: e.bids ?? 0,
          amount,
          deadline: stamp(e.at),
        });
      case 'confirmMine':
        return t('desk.item.confirmMine', { company, amount });
      case 'answerRequests':
        return t('desk.item.answerRequests', { company, deadline: stamp(e.at) });
      case 'deliveries': {
        const state = e.delivery ?? DELIVERY.notStarted;
        return t('desk.item.deliveries', {
          status: isDeliveryStatus(state) ? t(`freight.delivery.${state}`) : String(state),
          etd: stamp(e.freight.etd),
          company,
        });
      }
      case 'drafts':
        return t('desk.item.drafts', { gaps: (e.gaps ?? []).map((g) => t(`fv.gap.${g}`)).join(', ') });
      case 'newBids':
        return t('desk.item.newBids', { company, amount });
      case 'won':
        return t('desk.item.won', { company, amount });
      case 'lost':
        return t('desk.item.lost', { amount });
      case 'rateCounterparts':
        return t('desk.item.rateCounterparts', { company, at: stamp(e.at) });
      case 'answerRatings':
        return t('desk.item.answerRatings', { company, score: e.score ?? 0 });
      case 'late':
        return t('desk.item.late', { eta: stamp(e.at), company });
      case 'milestones':
        return e.milestone ? t(`desk.item.milestone.${e.milestone}`, { company }) : '';
    }
  };
  /** A link that makes the move where it is not on the freight's page: the counterpart's rate form. */
  const action = (part: QueuePart, e: QueueEntry): ComponentChildren =>
    part === 'rateCounterparts' && e.companyId ? (
      // On a line of its own, a target of its own size (WCAG 2.5.8), apart from the freight's link.
      <div class="desk-action">
        <a href={`${profilePath(e.companyId)}#rate`} data-testid="desk-rate">
          {t('desk.rate', { company: e.company ?? '–' })}
        </a>
      </div>
    ) : null;

  /** The freight's name in an entry: its reference and route; a lost load its number and day (masked); a rating its freight's number. */
  const freightLink = (part: QueuePart, e: QueueEntry): ComponentChildren => {
    if (part === 'answerRatings') return <a href={profilePath(me)}>{t('desk.rating_freight', { id: e.freight.ref })}</a>;
    const href = `/freights/view/${e.freight.id}`;
    if (e.freight.route === null) {
      const day = e.freight.etd ? formatDay(e.freight.etd.slice(0, 10), lang) : '';
      return (
        <a href={href}>
          {day ? t('desk.lost_freight', { id: e.freight.ref, date: day }) : t('desk.lost_freight.no_date', { id: e.freight.ref })}
        </a>
      );
    }
    return [
      <a href={href}>
        <strong>{e.freight.ref}</strong> {e.freight.route}
      </a>,
    ];
  };

  /** Where all of a part are: its list, the own profile for ratings; none for the deliveries to rate (no one list holds them). */
  const more = (name: QueuePart): string | null =>
    name === 'answerRatings'
      ? profilePath(me)
      : name === 'rateCounterparts' || name === 'late' || name === 'milestones'
        ? null
        : listPath(QUEUE_LISTS[name]);
  const part = (name: QueuePart, changes: boolean) => {
    const s = queue[name];
    if (!s.count) return null;
    return (
      <div class="panel" data-testid={`desk-${name}`}>
        <h3>
          {t(`desk.part.${name}`)} <span data-testid="desk-count">({s.count})</span>
        </h3>
        <ul>
          {s.entries.map((e) => (
            <li data-testid="desk-entry">
              {freightLink(name, e)}
              <br />
              <span>{detail(name, e)}</span>
              {action(name, e)}
              {changes && e.at && <span class="muted"> {t('desk.when', { time: stamp(e.at) })}</span>}
            </li>
          ))}
        </ul>
        {s.count > s.entries.length && more(name) !== null && <a href={more(name) ?? undefined}>{t('desk.more', { count: s.count })}</a>}
      </div>
    );
  };

  const waiting = WAITING_PARTS.reduce((n, p) => n + queue[p].count, 0);
  const changed = CHANGED_PARTS.reduce((n, p) => n + queue[p].count, 0);
  const expired = EXPIRED_PARTS.reduce((n, p) => n + queue[p].count, 0);
  return {
    title: t('desk.title'),
    body: (
      <section data-testid="desk">
        <div class="toolbar">
          <h1>{t('desk.title')}</h1>
          <span class="spacer" />
          <a class="button" href="/freights/add">
            {t('desk.new_freight')}
          </a>
        </div>
        <p class={waiting ? 'next-step yours' : 'next-step'} role="status" data-testid="desk-summary">
          {waiting ? t(waiting === 1 ? 'desk.summary.one' : 'desk.summary', { count: waiting }) : t('desk.summary.none')}
        </p>
        <h2>
          {t('desk.waiting')} ({waiting})
        </h2>
        {waiting ? <div class="columns">{WAITING_PARTS.map((p) => part(p, false))}</div> : <p class="muted">{t('desk.nothing')}</p>}
        {expired > 0 && [
          <h2 data-testid="desk-expired">
            {t('desk.expired')} ({expired})
          </h2>,
          <div class="columns">{EXPIRED_PARTS.map((p) => part(p, false))}</div>,
        ]}
        <h2 data-testid="desk-changed">
          {data.since ? t('desk.changed', { since: stamp(data.since) }) : t('desk.changed.first')} ({changed})
        </h2>
        {changed ? <div class="columns">{CHANGED_PARTS.map((p) => part(p, true))}</div> : <p class="muted">{t('desk.no_changes')}</p>}
      </section>
    ),
  };
}
