import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { FreightView } from '../freights/index.ts';
import { placeLabel } from '../freights-http/index.ts';
import type { Language, Translate } from '../kernel/i18n.ts';
import { formatDay, formatKg, formatMoney, formatWindow } from '../kernel/locale.ts';
import { isRecord } from '../kernel/params.ts';
import { cityOf } from '../places/index.ts';
import type { EventData } from './kinds.ts';
import type { MailKind, MailMode } from './tables.ts';

/**
 * What a mail says (docs/reference.md#mail), from the event as its recipient company received it: the
 * freight named as the lists name it (places with their towns, loading and delivery windows,
 * weight; a masked freight by its number and day only), the price only where the event carries
 * it (it carries what the company may see: docs/reference.md#freights, #events), and a link to the page. Plain
 * text and HTML of the same words; the HTML is one column with inline styles (mail clients drop
 * style sheets), readable on a phone.
 */

/** One event as a mail tells it. */
export interface MailItem {
  subject: string;
  headline: string;
  route: { name: string; facts: string[] } | null;
  /** words of the other company (a message), quoted as written */
  quote?: string;
  link: { href: string; label: string };
  more?: { href: string; label: string };
}

/** One event to tell: its type, its data as the recipient company received it, and the freight it concerns. */
export interface Told {
  type: string;
  data: EventData;
  company: number;
  /** the freight as the company may see it now, for events whose data carries none (messages, documents, vehicle matches) */
  freight: FreightView | null;
  /** a `freight.matched`: the further reasons of the user's one alert of the load (other searches, own offers), as said */
  alsoMatched?: string[];
}

export interface Telling {
  t: Translate;
  language: Language;
  publicUrl: string;
  /** company names by id (bidders, winners) */
  names: Map<number, string>;
}

const part = (data: EventData, key: string): EventData => (isRecord(data[key]) ? (data[key] as EventData) : {});
const idOf = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A masked freight (a former bidder's view, docs/reference.md#freights): no places. */
const isMasked = (r: FreightView) => r.f_from === 'xxx (XX)' && (r.from === null || r.from === undefined);

/** The freight as a dispatcher names it: `60311 Frankfurt am Main (DE) → 75001 Paris (FR)` and its facts. */
export async function nameFreight(route: FreightView, tell: Telling): Promise<{ name: string; facts: string[] }> {
  const { t, language } = tell;
  if (isMasked(route)) {
    const day = typeof route.etd === 'string' ? formatDay(route.etd.slice(0, 10), language) : '';
    const id = String(route.display_id ?? route.id);
    return { name: day ? t('fv.masked_route', { id, date: day }) : t('fv.masked_route.no_date', { id }), facts: [] };
  }
  const [from, to] = await Promise.all([
    cityOf(route.from, route.from_latitude, route.from_longitude, route.from_country),
    cityOf(route.to, route.to_latitude, route.to_longitude, route.to_country),
  ]);
  const none = '–';
  const facts = [
    route.etd || route.etd_end ? t('mail.loading', { window: formatWindow(route.etd, route.etd_end, language) }) : '',
    route.eta || route.eta_end ? t('mail.delivery', { window: formatWindow(route.eta, route.eta_end, language) }) : '',
    formatKg(route.weight, language),
  ].filter(Boolean);
  return { name: `${placeLabel(route, 'from', from, none)} → ${placeLabel(route, 'to', to, none)}`, facts };
}

/** The freight of the event: the one it carries (as the company saw it then), else the one read for it now. */
const freightOf = (told: Told): FreightView | null => (isRecord(told.data.route) ? (told.data.route as FreightView) : told.freight);

/** What the mail says of one event; null when there is nothing to say (the freight is no longer visible to the company). */
export async function describe(told: Told, tell: Telling): Promise<MailItem | null> {
  const { t, language, publicUrl, names } = tell;
  const { data, company } = told;
  const route = freightOf(told);
  const named = route ? await nameFreight(route, tell) : null;
  const routeText = named?.name ?? t('mail.route.unknown');
  const link = { href: route ? `${publicUrl}/freights/view/${route.id}` : `${publicUrl}/`, label: t('mail.open') };
  const bid = part(data, 'bid');
  const amount = formatMoney(bid.amount, bid.currency_code, language);
  const nameOf = (id: number | null) => (id === null ? t('mail.someone') : (names.get(id) ?? t('mail.someone')));
  const bidder = nameOf(idOf(bid.company));
  const price =
    route && route.price !== null && route.price !== undefined ? formatMoney(route.price, currencyOf(route, data), language) : '';
  const facts = [...(named?.facts ?? []), ...(price ? [t('mail.price', { price })] : [])];
  const item = (subject: string, headline: string, extra: Partial<MailItem> = {}): MailItem => ({
    subject,
    headline,
    route: named ? { name: named.name, facts } : null,
    link,
    ...extra,
  });
  const owner = route ? idOf(route.company) === company : false;
  switch (told.type) {
    case 'freight.matched': {
      // One alert per load: the mail names every further reason the load matched for its reader.
      if (told.alsoMatched?.length) facts.push(t('mail.matched.also', { reasons: told.alsoMatched.join('; ') }));
      const search = part(data, 'search');
      if (idOf(search.id) !== null) {
        const name = textOf(search.name);
        const more = textOf(search.url) ? { href: `${publicUrl}${textOf(search.url)}`, label: t('mail.open.search') } : undefined;
        return item(
          t('mail.matched.search.subject', { search: name, route: routeText }),
          t('mail.matched.search.headline', { search: name }),
          {
            more,
          },
        );
      }
      return item(t('mail.matched.vehicle.subject', { route: routeText }), t('mail.matched.vehicle.headline'));
    }
    case 'vehicle.matched': {
      if (!route) return null;
      const offerer = textOf(part(part(data, 'vehicle'), 'company').name) || t('mail.someone');
      return item(t('mail.vehicle_matched.subject', { route: routeText }), t('mail.vehicle_matched.headline', { company: offerer }), {
        link: { href: `${publicUrl}/freights/vehicles/${route.id}`, label: t('mail.open') },
      });
    }
    case 'bid.created':
      return item(t('mail.bid_created.subject', { route: routeText, amount }), t('mail.bid_created.headline', { company: bidder, amount }));
    case 'bid.updated':
      return item(t('mail.bid_updated.subject', { route: routeText, amount }), t('mail.bid_updated.headline', { company: bidder, amount }));
    case 'bid.revoked':
      return item(t('mail.bid_revoked.subject', { route: routeText }), t('mail.bid_revoked.headline', { company: bidder, amount }));
    case 'bid.confirmed':
      return idOf(bid.company) === company
        ? item(t('mail.bid_confirmed.bidder.subject', { route: routeText }), t('mail.bid_confirmed.bidder.headline', { amount }))
        : item(
            t('mail.bid_confirmed.owner.subject', { company: bidder, route: routeText }),
            t('mail.bid_confirmed.owner.headline', { company: bidder, amount }),
          );
    case 'freight.awarded': {
      const winner = route ? idOf(route.winner) : null;
      if (winner === company)
        return item(t('mail.awarded.winner.subject', { route: routeText }), t('mail.awarded.winner.headline', { price }));
      if (owner) {
        const name = nameOf(winner);
        return item(
          t('mail.awarded.owner.subject', { route: routeText, company: name }),
          t('mail.awarded.owner.headline', { company: name, price }),
        );
      }
      return item(t('mail.awarded.other.subject', { route: routeText }), t('mail.awarded.other.headline'));
    }
    case 'freight.revoked':
      return item(t('mail.revoked.subject', { route: routeText }), t('mail.revoked.headline'));
    case 'freight.expired':
      return owner
        ? item(t('mail.expired.owner.subject', { route: routeText }), t('mail.expired.owner.headline'))
        : item(t('mail.expired.other.subject', { route: routeText }), t('mail.expired.other.headline'));
    case 'booking.requested': {
      const requester = textOf(route?._company?.name) || nameOf(route ? idOf(route.company) : null);
      return item(t('mail.booking.subject', { company: requester, route: routeText }), t('mail.booking.headline', { company: requester }));
    }
    case 'bid.countered': {
      const counter = part(bid, 'counter');
      const offered = formatMoney(counter.amount, counter.currency_code, language);
      const owner = textOf(route?._company?.name) || nameOf(route ? idOf(route.company) : null);
      return item(
        t('mail.countered.subject', { route: routeText, amount: offered }),
        t('mail.countered.headline', { company: owner, amount: offered, bid: amount }),
        {
          quote: textOf(counter.note),
        },
      );
    }
    case 'freight.offered': {
      const offerer = textOf(route?._company?.name) || nameOf(route ? idOf(route.company) : null);
      const at =
        route?.book_now !== null && route?.book_now !== undefined ? formatMoney(route.book_now, route.book_now_currency, language) : '';
      const until = textOf(data.step_until);
      return item(
        t('mail.offered.subject', { company: offerer, route: routeText }),
        t('mail.offered.headline', { company: offerer, price: at, until }),
      );
    }
    case 'freight.invited': {
      const inviter = textOf(route?._company?.name) || nameOf(route ? idOf(route.company) : null);
      return item(t('mail.invited.subject', { company: inviter, route: routeText }), t('mail.invited.headline', { company: inviter }));
    }
    case 'message.created': {
      const message = part(data, 'message');
      const from = textOf(part(message, 'from').name) || t('mail.someone');
      return item(t('mail.message.subject', { company: from, route: routeText }), t('mail.message.headline', { company: from }), {
        quote: textOf(message.text),
      });
    }
    case 'document.added': {
      const document = part(data, 'document');
      const from = textOf(part(document, 'company').name) || t('mail.someone');
      const name = textOf(document.name);
      return item(
        t('mail.document.subject', { route: routeText, name }),
        t('mail.document.headline', { company: from, kind: textOf(document.kind), name }),
      );
    }
    case 'freight.milestone': {
      const milestone = part(data, 'milestone');
      const type = textOf(milestone.type);
      const name =
        type === 'arrived_pickup' || type === 'departed_pickup' || type === 'arrived_delivery' ? t(`mail.milestone.${type}`) : type;
      return item(
        t('mail.milestone.subject', { milestone: name, route: routeText }),
        t('mail.milestone.headline', { milestone: name, at: textOf(milestone.at) }),
      );
    }
    case 'freight.late':
      return item(
        t('mail.late.subject', { route: routeText }),
        t('mail.late.headline', { eta: textOf(part(data, 'eta').at), end: textOf(data.window_end) }),
      );
    case 'cmr.signed': {
      const cmr = part(data, 'cmr');
      const signature = part(cmr, 'signature');
      const number = textOf(cmr.number);
      const role = textOf(signature.role);
      return item(
        t('mail.cmr.subject', { route: routeText, number, role }),
        t('mail.cmr.headline', { name: textOf(signature.name), number, role, status: textOf(cmr.status) }),
      );
    }
    // Lane tenders (docs/reference.md#tenders): no freight; the link leads to the tender.
    case 'tender.published':
    case 'tender.awarded':
    case 'tender.lost': {
      const tender = part(data, 'tender');
      const name = textOf(tender.name);
      const shipper = textOf(part(tender, 'company').name) || t('mail.someone');
      const lanes = Array.isArray(data.contracts) ? data.contracts.length : 0;
      const key = told.type === 'tender.published' ? 'published' : told.type === 'tender.awarded' ? 'awarded' : 'lost';
      return {
        subject: t(`mail.tender.${key}.subject`, { tender: name, company: shipper }),
        headline: t(`mail.tender.${key}.headline`, { tender: name, company: shipper, deadline: textOf(tender.deadline), lanes }),
        route: null,
        link: { href: `${publicUrl}/tenders/view/${idOf(tender.id) ?? 0}`, label: t('mail.open') },
      };
    }
    default:
      return null;
  }
}

/** The currency of a freight's price: its accepted bid's (in `_bids` where the company sees it), else the target price's. */
function currencyOf(route: FreightView, data: EventData): unknown {
  const bids = Array.isArray(route._bids) ? (route._bids as EventData[]) : [];
  const accepted = bids.find((b) => b.status === 'accepted');
  if (accepted) return accepted.currency_code;
  const bid = part(data, 'bid');
  if (bid.currency_code) return bid.currency_code;
  return isRecord(route.refs) ? route.refs.target_currency : undefined;
}

/** A whole mail: its subject, plain text and HTML. */
export interface Composed {
  subject: string;
  text: string;
  html: string;
}

export interface Letter {
  tell: Telling;
  /** the reader's name ('' when none) */
  name: string;
  kind: MailKind;
  mode: MailMode;
  unsubscribe: string;
  /** a digest: its day (`YYYY-MM-DD`) and how many items there were in all (more than shown) */
  digest?: { day: string; total: number };
}

const COLORS = { text: '#1f2933', muted: '#52606d', line: '#d9dee4', accent: '#1d4ed8', page: '#f3f4f6' };
const FONT = 'Arial, Helvetica, sans-serif';

/** One mail of one item (instant) or of several (a digest). */
export function compose(letter: Letter, items: readonly MailItem[]): Composed {
  const { t, language, publicUrl } = letter.tell;
  const kindName = t(`mail.kind.${letter.kind}`);
  const digest = letter.digest;
  const subject = digest
    ? t('mail.digest.subject', { kind: kindName, day: formatDay(digest.day, language), count: digest.total })
    : (items[0]?.subject ?? kindName);
  const hello = letter.name ? t('mail.hello', { name: letter.name }) : '';
  const intro = digest ? t('mail.digest.intro', { count: digest.total }) : '';
  const more = digest && digest.total > items.length ? t('mail.digest.more', { count: digest.total - items.length }) : '';
  const why = t('mail.footer.why', { kind: kindName, mode: t(`mail.mode.${letter.mode}`) });
  const settings = `${publicUrl}/users/settings`;
  const unsubscribeLabel = t('mail.footer.unsubscribe', { kind: kindName });

  const textItem = (i: MailItem) =>
    [
      digest ? `* ${i.headline}` : i.headline,
      i.route ? i.route.name : '',
      i.route?.facts.length ? i.route.facts.join(' · ') : '',
      i.quote ? i.quote.replace(/^/gm, '> ') : '',
      `${i.link.label}: ${i.link.href}`,
      i.more ? `${i.more.label}: ${i.more.href}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  // The footer after the usual signature separator ("-- "), so clients fold it away from the reply.
  const text = `${[hello, intro, items.map(textItem).join('\n\n'), more].filter(Boolean).join('\n\n')}\n\n-- \n${[
    why,
    `${t('mail.footer.settings')}: ${settings}`,
    `${unsubscribeLabel}: ${letter.unsubscribe}`,
  ].join('\n')}\n`;

  const button = (href: string, label: string, primary: boolean): ComponentChildren => (
    <a
      href={href}
      style={`display:inline-block;margin:4px 8px 4px 0;padding:10px 16px;border-radius:4px;font-weight:bold;text-decoration:none;${primary ? `background:${COLORS.accent};color:#ffffff;` : `color:${COLORS.accent};border:1px solid ${COLORS.accent};`}`}
    >
      {label}
    </a>
  );
  const htmlItem = (i: MailItem) => (
    <div style={`margin:0 0 20px;${digest ? `padding-bottom:16px;border-bottom:1px solid ${COLORS.line};` : ''}`}>
      <p style={`margin:0 0 8px;font-size:${digest ? 15 : 17}px;line-height:1.4;font-weight:bold;`}>{i.headline}</p>
      {i.route && (
        <div style={`margin:0 0 12px;padding:8px 12px;border-left:4px solid ${COLORS.accent};background:#f8fafc;`}>
          <p style="margin:0;font-size:16px;line-height:1.4;font-weight:bold;">{i.route.name}</p>
          {i.route.facts.length > 0 && (
            <p style={`margin:4px 0 0;font-size:14px;line-height:1.4;color:${COLORS.muted};`}>{i.route.facts.join(' · ')}</p>
          )}
        </div>
      )}
      {i.quote && (
        <blockquote
          style={`margin:0 0 12px;padding:8px 12px;border-left:4px solid ${COLORS.line};white-space:pre-wrap;font-size:15px;line-height:1.5;`}
        >
          {i.quote}
        </blockquote>
      )}
      <p style="margin:0;">
        {button(i.link.href, i.link.label, true)}
        {i.more && button(i.more.href, i.more.label, false)}
      </p>
    </div>
  );
  const html = `<!DOCTYPE html>${renderToString(
    <html lang={language === 'deu' ? 'de' : 'en'}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{subject}</title>
      </head>
      <body style={`margin:0;padding:0;background:${COLORS.page};`}>
        <div style={`padding:16px 8px;font-family:${FONT};color:${COLORS.text};`}>
          <div style={`max-width:600px;margin:0 auto;padding:20px;background:#ffffff;border:1px solid ${COLORS.line};border-radius:6px;`}>
            {hello && <p style="margin:0 0 12px;font-size:15px;">{hello}</p>}
            {intro && <p style="margin:0 0 16px;font-size:15px;">{intro}</p>}
            {items.map(htmlItem)}
            {more && <p style="margin:0;font-size:15px;">{more}</p>}
          </div>
          <p style={`max-width:600px;margin:12px auto 0;font-size:12px;line-height:1.5;color:${COLORS.muted};`}>
            {why}
            <br />
            <a href={settings} style={`color:${COLORS.muted};`}>
              {t('mail.footer.settings')}
            </a>
            {' · '}
            <a href={letter.unsubscribe} style={`color:${COLORS.muted};`}>
              {unsubscribeLabel}
            </a>
          </p>
        </div>
      </body>
    </html>,
  )}`;
  return { subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 250), text, html };
}
