import type { EventType } from '../events/index.ts';
import { isRecord } from '../kernel/params.ts';
import type { MailKind, MailMode } from './tables.ts';

/**
 * Which event is which kind of mail (docs/reference.md#mail), in one table: every event type is named,
 * with its kind or null (not mailed), so a new event type fails the typecheck until it is
 * decided here. The recipients are always the event's own (the outbox row's company: the
 * planning's entitlement, masking and blocks, docs/reference.md#events, #trust); a rule only narrows them:
 * - `tells`: whether the recipient company hears of it by mail at all: an event caused by the
 *   recipient itself (its own bid, its own withdrawal) is no news to it;
 * - `addressee`: an alert is mailed to the user it alerted (the saved search's user, the vehicle
 *   offer's or the freight's creator: whom the notification went to), not to every colleague.
 * Otherwise every user of the company whose setting for the kind is not `off` gets it.

 */

/** The event's `data`, as its recipient company received it. */
export type EventData = Record<string, unknown>;

/** The users an alert is for, by what it names. */
export type Addressee = { search: number } | { offer: number } | { freights: number[] };

export interface MailRule {
  kind: MailKind;
  tells?: (data: EventData, company: number) => boolean;
  addressee?: (data: EventData, company: number) => Addressee | null;
}

/** The defaults of docs/reference.md#mail. */
export const DEFAULT_MODES: Readonly<Record<MailKind, MailMode>> = {
  alerts: 'daily',
  bids: 'instant',
  messages: 'instant',
  offers: 'instant',
  documents: 'off',
};

const idOf = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
const part = (data: EventData, key: string): EventData => (isRecord(data[key]) ? (data[key] as EventData) : {});
/** The company that owns the event's freight. */
const ownerOf = (data: EventData) => idOf(part(data, 'route').company);
/** The bidder of the event's bid. */
const bidderOf = (data: EventData) => idOf(part(data, 'bid').company);

const notByBidder = (data: EventData, company: number) => bidderOf(data) !== company;
const notByOwner = (data: EventData, company: number) => ownerOf(data) !== company;
/** A confirmation is news to the side that has not confirmed yet; once both have, the award's mail says it. */
const awaitsConfirmation = (data: EventData, company: number) => {
  const bid = part(data, 'bid');
  if (bid.owner_confirmed === true && bid.bidder_confirmed === true) return false;
  return company === idOf(bid.company) ? bid.bidder_confirmed !== true : bid.owner_confirmed !== true;
};

export const MAIL_OF_EVENT: Readonly<Record<EventType, MailRule | null>> = {
  'freight.published': null,
  'freight.updated': null,
  'freight.revoked': { kind: 'bids', tells: notByOwner },
  'freight.expired': { kind: 'bids' },
  'freight.awarded': { kind: 'bids' },
  'freight.delivery_status': null,
  'bid.created': { kind: 'bids', tells: notByBidder },
  'bid.updated': { kind: 'bids', tells: notByBidder },
  'bid.confirmed': { kind: 'bids', tells: awaitsConfirmation },
  'bid.revoked': { kind: 'bids', tells: notByBidder },
  'booking.requested': { kind: 'offers', tells: notByOwner },
  'shipment.status': null,
  'freight.matched': {
    kind: 'alerts',
    addressee: (data) => {
      const search = idOf(part(data, 'search').id);
      if (search !== null) return { search };
      const offer = idOf(part(data, 'vehicle').id);
      return offer === null ? null : { offer };
    },
  },
  'freight.invited': { kind: 'offers' },
  // docs/reference.md#one-step: the owner's counter-offer, to the bidder (its only recipient); a waterfall's
  // turn starting, to the carrier whose turn it is.
  'bid.countered': { kind: 'bids', tells: notByOwner },
  'freight.offered': { kind: 'offers' },
  'vehicle.published': null,
  'vehicle.withdrawn': null,
  // To the owners of the fitting freights (their creators were notified); the offer's own company
  // hears of its matches through `freight.matched`, or published the offer itself.
  'vehicle.matched': {
    kind: 'alerts',
    tells: (data, company) => idOf(part(part(data, 'vehicle'), 'company').id) !== company,
    addressee: (data) => {
      const matches = Array.isArray(data.matches) ? data.matches : [];
      const freights = matches.map((m) => (isRecord(m) ? idOf(m.route_id) : null)).filter((id): id is number => id !== null);
      return freights.length ? { freights } : null;
    },
  },
  'rating.received': null,
  'message.created': { kind: 'messages' },
  'document.added': { kind: 'documents' },
  // Tracking (docs/reference.md#tracking): to the freight's owner and winner, who follow the order as they follow its bids and award.
  'freight.milestone': { kind: 'bids' },
  'freight.late': { kind: 'bids' },
  'cmr.signed': { kind: 'documents' },
  // Lane tenders (docs/reference.md#tenders, #mail): an invitation is an offer; an award or a loss answers the company's bids.
  'tender.published': { kind: 'offers' },
  'tender.awarded': { kind: 'bids' },
  'tender.lost': { kind: 'bids' },
};

/** The mailed event types and their kinds (what the trigger routes). */
export function mailRoutes(): Array<{ type: EventType; kind: MailKind }> {
  return Object.entries(MAIL_OF_EVENT).flatMap(([type, rule]) => (rule ? [{ type: type as EventType, kind: rule.kind }] : []));
}
