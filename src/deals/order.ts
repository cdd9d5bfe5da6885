import type { Kysely } from 'kysely';
import { type CompanyProfileRow, type Contact, companyProfiles, contactsOf } from '../accounts/index.ts';
import type { DB, Db } from '../db/schema.ts';
import { withPieces, type BidRow, type FreightRow } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';

/**
 * The transport order's content (docs/reference.md#deal-room; docs/choices.md, "The transport order"):
 * what both parties agreed when the second side confirmed the carrier's bid, read in the award's
 * transaction and stored as JSON text exactly as issued (table deal_orders). The PDF is rendered
 * from this content (pdf.ts) and carries it as an embedded file, so the PDF's SHA-256 proves both.
 *
 * Its members are named as the EU eFTI common data set names them (the consignment of the eFTI
 * reference implementation's consignment-common.xsd, its camelCase written in snake_case; the
 * element ids in docs/choices.md), and the CMR consignment note's box is noted beside each:
 * consignor (box 1), consignee (box 2), consignee_receipt_location (box 3),
 * carrier_acceptance_location (box 4), number_of_packages (box 7), nature_identification_cargo
 * (box 9), gross_weight (box 11), carrier (box 16), applicable_service_charge (the freight
 * charge). What eFTI has no element for keeps a plain name of the exchange's own: the order's
 * own facts (format, freight, bid, issued, timezone), who confirmed for each party, the window's
 * place in each location, a package line's weight per package and stackability, the references.
 * Times are the API's (`YYYY-MM-DD HH:MM:SS` in `timezone`), weights kg, lengths cm.
 */

export const ORDER_FORMAT = 'freight-exchange/transport-order/3';

export interface OrderUser {
  id: number;
  name: string;
  email: string;
}

/** A party of the contract (eFTI TradeParty): the company with its address and VAT id, and who confirmed for it. */
export interface OrderParty {
  id: number;
  name: string;
  /** eFTI postalAddress: postcode, cityName, countryCode */
  postal_address: { postcode: string | null; city_name: string | null; country_code: string | null };
  /** eFTI taxRegistration: the VAT id */
  tax_registration: { id: string } | null;
  /** the user who confirmed the bid for this company; null for bids confirmed before this was kept */
  confirmed_by: OrderUser | null;
  confirmed: string | null;
  /**
   * eFTI definedTradeContact (TradeContact: personName, telephone, email): the side's dispatcher,
   * the user who published the freight (consignor) or made the accepted bid (carrier). A user
   * keeps no phone of its own in accounts: `telephone` is the company's (its profile). Format 3.
   */
  defined_trade_contact?: OrderContact | null;
}

/** A side's contact person (eFTI TradeContact). */
export interface OrderContact {
  person_name: string;
  telephone: string | null;
  email: string;
}

/** The consignee as the freight names it (`refs.consignee`, free text: name and address lines). */
export interface OrderConsignee {
  /** eFTI name */
  name: string;
}

/** The truck and the driver, filled by the carrier after the award (a new version of the order). */
export interface OrderTransport {
  /** eFTI usedTransportMeans id: the vehicle's registration (plate), with the trailer's when given */
  used_transport_means: { id: string };
  /** the driver (no eFTI element of the common data set: the exchange's own name) */
  driver: { name: string; telephone: string | null };
}

/** Where the goods are taken over or delivered (eFTI LogisticsLocation), and when (the freight's window). */
export interface OrderPlace {
  /** eFTI id: the freight's place code (`city:10115`, an airport, a country) */
  id: string | null;
  /** eFTI name: the freight's address text */
  name: string | null;
  /** eFTI postalAddress */
  postal_address: { country_code: string | null };
  /** eFTI scheduledOccurrencePeriod (SpecifiedPeriod): the freight's window */
  scheduled_occurrence_period: { start_date_time: string | null; end_date_time: string | null };
}

/** A piece line (eFTI includedConsignmentItem). */
export interface OrderItem {
  /** eFTI goodsUnitQuantity */
  goods_unit_quantity: number | null;
  /** eFTI dimensions (SpatialDimension), cm */
  dimensions: { length: number | null; width: number | null; height: number | null };
  /** kg: of each package when `weight_per_package`, else of the line */
  gross_weight: number | null;
  weight_per_package: boolean;
  stackable: boolean | null;
}

export interface TransportOrder {
  format: typeof ORDER_FORMAT | 'freight-exchange/transport-order/2';
  freight: number;
  /** the order's version: 1 on award, one more each time it is re-issued (plate and driver); format 3 */
  version?: number;
  /** when this version was issued (the award for version 1); format 3 */
  version_issued?: string;
  /** the accepted bid */
  bid: number;
  /** the award: when the second side confirmed */
  issued: string;
  timezone: string;
  consignor: OrderParty;
  /** eFTI consignee: the freight's `refs.consignee`; null when it names none (the receipt location says where) */
  consignee: OrderConsignee | null;
  consignee_receipt_location: OrderPlace;
  carrier_acceptance_location: OrderPlace;
  number_of_packages: number | null;
  /** eFTI natureIdentificationCargo: the description of the goods (identificationText) */
  nature_identification_cargo: { identification_text: string } | null;
  /** kg */
  gross_weight: number | null;
  included_consignment_item: OrderItem[];
  /** eFTI dangerousGoods: the freight's dangerous goods text (information) */
  dangerous_goods: { information: string } | null;
  carrier: OrderParty;
  /** eFTI applicableServiceCharge: the freight charge agreed (appliedAmount with its currencyId) */
  applicable_service_charge: { applied_amount: string | null; currency_id: string | null };
  /** the freight's references (refs): customer, external_ref, awb, incoterm, incoterm_place, as given */
  references: Record<string, string>;
  /** the payment term: days after the invoice (the freight's `refs.payment_days`); null when none; format 3 */
  payment_terms?: { due_days: number } | null;
  /** plate and driver, filled by the carrier after the award; null until then; format 3 */
  transport?: OrderTransport | null;
}

/** The refs keys the order carries (docs/reference.md#refs), in this order. */
const REFERENCE_KEYS = ['customer', 'external_ref', 'loading_ref', 'awb', 'uld', 'incoterm', 'incoterm_place'] as const;

/** Characters of the carrier's plate, driver's name and driver's phone (code points, trimmed). */
export const TRANSPORT_LIMITS = { plate: 40, driver: 100, phone: 40 } as const;

const PLATE = /^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u;
const PHONE = /^\+?[0-9 ()/.-]{3,}$/;
const chars = (t: string) => [...t].length;

export type TransportProblem = 'order.plate_invalid' | 'order.driver_invalid' | 'order.phone_invalid';

/** Reads `plate`, `driver` and `driver_phone` (empty: none): the truck and driver, or the first field's problem. */
export function readTransport(
  params: Record<string, unknown>,
): { ok: true; transport: OrderTransport } | { ok: false; problem: TransportProblem; field: string } {
  const trimmed = (v: unknown, max: number) => (typeof v === 'string' && v.length <= 4 * max ? v.trim().replace(/\s+/g, ' ') : undefined);
  const plate = trimmed(params.plate, TRANSPORT_LIMITS.plate);
  if (plate === undefined || chars(plate) < 2 || chars(plate) > TRANSPORT_LIMITS.plate || !PLATE.test(plate))
    return { ok: false, problem: 'order.plate_invalid', field: 'plate' };
  const driver = trimmed(params.driver, TRANSPORT_LIMITS.driver);
  if (driver === undefined || chars(driver) < 1 || chars(driver) > TRANSPORT_LIMITS.driver)
    return { ok: false, problem: 'order.driver_invalid', field: 'driver' };
  const raw = params.driver_phone;
  const phone = raw === undefined || raw === null ? '' : trimmed(raw, TRANSPORT_LIMITS.phone);
  if (phone === undefined || (phone !== '' && (chars(phone) > TRANSPORT_LIMITS.phone || !PHONE.test(phone))))
    return { ok: false, problem: 'order.phone_invalid', field: 'driver_phone' };
  return { ok: true, transport: { used_transport_means: { id: plate }, driver: { name: driver, telephone: phone === '' ? null : phone } } };
}

/** The longest payment term the order takes from `refs.payment_days` (a year). */
export const PAYMENT_DAYS_MAX = 365;

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The parties' profiles and contacts, read once for an order (readTransportOrder). */
interface Parties {
  profiles: Map<number, CompanyProfileRow>;
  contacts: Map<number, Contact>;
}

function party(
  known: Parties,
  clock: Clock,
  companyId: number,
  userId: number | null,
  at: Date | null,
  contactId: number | null,
): OrderParty {
  const profile = known.profiles.get(companyId);
  const user = userId === null ? null : (known.contacts.get(userId) ?? null);
  const contact = contactId === null ? null : (known.contacts.get(contactId) ?? null);
  return {
    id: companyId,
    name: profile?.name ?? '',
    postal_address: { postcode: profile?.postcode ?? null, city_name: profile?.city ?? null, country_code: profile?.country ?? null },
    tax_registration: profile?.vat_id ? { id: profile.vat_id } : null,
    confirmed_by: user && userId !== null ? { id: userId, name: user.realname || user.email, email: user.email } : null,
    confirmed: clock.format(at),
    defined_trade_contact: contact
      ? { person_name: contact.realname || contact.email, telephone: profile?.phone ?? null, email: contact.email }
      : null,
  };
}

/** The payment term in days from `refs.payment_days`: a whole number 0 to PAYMENT_DAYS_MAX, else none. */
export function paymentDays(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,3}\s*$/.test(v) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= 0 && n <= PAYMENT_DAYS_MAX ? n : null;
}

function place(f: FreightRow, side: 'from' | 'to', clock: Clock): OrderPlace {
  const [start, end] = side === 'from' ? [f.etd, f.etd_end] : [f.eta, f.eta_end];
  return {
    id: f[`${side}_code`],
    name: f[`${side}_addr`],
    postal_address: { country_code: f[`${side}_country`] },
    scheduled_occurrence_period: { start_date_time: clock.format(start), end_date_time: clock.format(end ?? start) },
  };
}

/**
 * The order of an awarded freight (the row as the award wrote it) and its accepted bid, read in
 * the award's transaction: both companies' profiles, the confirming users, the piece lines.
 */
export async function readTransportOrder(
  db: Db,
  clock: Clock,
  freight: FreightRow,
  bid: Pick<
    BidRow,
    | 'id'
    | 'company_id'
    | 'user_id'
    | 'amount'
    | 'currency_code'
    | 'owner_confirmed_by'
    | 'owner_confirmed_at'
    | 'bidder_confirmed_by'
    | 'bidder_confirmed_at'
  >,
): Promise<TransportOrder> {
  const [withLines] = await withPieces(db as Kysely<DB>, [{ row: freight }]);
  // Both parties' companies and people, one statement each.
  const known: Parties = {
    profiles: await companyProfiles(db, [freight.company_id, bid.company_id]),
    contacts: await contactsOf(db, [bid.owner_confirmed_by, freight.user_id, bid.bidder_confirmed_by, bid.user_id]),
  };
  const lines = withLines?.pieces ?? [];
  const refs = (freight.refs && typeof freight.refs === 'object' ? freight.refs : {}) as Record<string, unknown>;
  const references: Record<string, string> = {};
  for (const key of REFERENCE_KEYS) {
    const value = text(refs[key]);
    if (value !== null) references[key] = value;
  }
  const counted = lines.map((l) => num(l.pieces)).filter((n): n is number => n !== null);
  const packages = counted.length ? counted.reduce((a, b) => a + b, 0) : num(refs.pieces);
  const description = text(refs.commodity);
  const consignee = text(refs.consignee);
  const days = paymentDays(refs.payment_days);
  const dangerous = text(freight.dangerous_goods) ?? (freight.dangerous && freight.dangerous !== '0' ? text(freight.dangerous) : null);
  const issued = clock.format(freight.modified) ?? ''; // the award's instant (freights/award.ts writes it as the freight's modified), as the confirmation's
  return {
    format: ORDER_FORMAT,
    freight: freight.id,
    version: 1,
    version_issued: issued,
    bid: bid.id,
    issued,
    timezone: clock.zone,
    consignor: party(known, clock, freight.company_id, bid.owner_confirmed_by, bid.owner_confirmed_at, freight.user_id),
    consignee: consignee === null ? null : { name: consignee },
    consignee_receipt_location: place(freight, 'to', clock),
    carrier_acceptance_location: place(freight, 'from', clock),
    number_of_packages: packages,
    nature_identification_cargo: description === null ? null : { identification_text: description },
    gross_weight: num(freight.weight),
    included_consignment_item: lines.map((l) => ({
      goods_unit_quantity: num(l.pieces),
      dimensions: { length: num(l.depth), width: num(l.width), height: num(l.height) },
      gross_weight: num(l.weight),
      weight_per_package: l.weight_per_piece === 1,
      stackable: l.stackable === null || l.stackable === undefined ? null : l.stackable === 1,
    })),
    dangerous_goods: dangerous === null ? null : { information: dangerous },
    carrier: party(known, clock, bid.company_id, bid.bidder_confirmed_by, bid.bidder_confirmed_at, bid.user_id),
    applicable_service_charge: { applied_amount: bid.amount === null ? null : String(bid.amount), currency_id: bid.currency_code },
    references,
    payment_terms: days === null ? null : { due_days: days },
    transport: null,
  };
}

/**
 * The next version of an issued order with the carrier's truck and driver: everything else as
 * agreed (the text as issued, never read again from the freight or the profiles). An order
 * issued in format 2 becomes format 3 with what format 2 did not record as none.
 */
export function amendedOrder(previous: TransportOrder, transport: OrderTransport, at: string): TransportOrder {
  const { consignor, carrier } = previous;
  return {
    ...previous,
    format: ORDER_FORMAT,
    version: (previous.version ?? 1) + 1,
    version_issued: at,
    consignor: { ...consignor, defined_trade_contact: consignor.defined_trade_contact ?? null },
    carrier: { ...carrier, defined_trade_contact: carrier.defined_trade_contact ?? null },
    payment_terms: previous.payment_terms ?? null,
    transport,
  };
}

/** The display id of the order's freight: its customer reference, else its number (as lists show it). */
export const orderDisplayId = (o: Pick<TransportOrder, 'references' | 'freight'>) => o.references.customer ?? String(o.freight);
