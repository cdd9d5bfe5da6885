import type { Kysely } from 'kysely';
import { contactOf, companyProfile } from '../accounts/index.ts';
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

export const ORDER_FORMAT = 'freight-exchange/transport-order/2';

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
  format: typeof ORDER_FORMAT;
  freight: number;
  /** the accepted bid */
  bid: number;
  /** the award: when the second side confirmed */
  issued: string;
  timezone: string;
  consignor: OrderParty;
  /** the exchange records no consignee: the consignee receipt location names where the goods go */
  consignee: null;
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
}

/** The refs keys the order carries (docs/reference.md#refs), in this order. */
const REFERENCE_KEYS = ['customer', 'external_ref', 'awb', 'uld', 'incoterm', 'incoterm_place'] as const;

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

async function party(db: Db, clock: Clock, companyId: number, userId: number | null, at: Date | null): Promise<OrderParty> {
  const profile = await companyProfile(db, companyId);
  const user = userId === null ? null : await contactOf(db, userId);
  return {
    id: companyId,
    name: profile?.name ?? '',
    postal_address: { postcode: profile?.postcode ?? null, city_name: profile?.city ?? null, country_code: profile?.country ?? null },
    tax_registration: profile?.vat_id ? { id: profile.vat_id } : null,
    confirmed_by: user && userId !== null ? { id: userId, name: user.realname || user.email, email: user.email } : null,
    confirmed: clock.format(at),
  };
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
    | 'amount'
    | 'currency_code'
    | 'owner_confirmed_by'
    | 'owner_confirmed_at'
    | 'bidder_confirmed_by'
    | 'bidder_confirmed_at'
  >,
): Promise<TransportOrder> {
  const [withLines] = await withPieces(db as Kysely<DB>, [{ row: freight }]);
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
  const dangerous = text(freight.dangerous_goods) ?? (freight.dangerous && freight.dangerous !== '0' ? text(freight.dangerous) : null);
  return {
    format: ORDER_FORMAT,
    freight: freight.id,
    bid: bid.id,
    issued: clock.format(freight.modified) ?? '', // the award's instant (freights/award.ts writes it as the freight's modified), as the confirmation's
    timezone: clock.zone,
    consignor: await party(db, clock, freight.company_id, bid.owner_confirmed_by, bid.owner_confirmed_at),
    consignee: null,
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
    carrier: await party(db, clock, bid.company_id, bid.bidder_confirmed_by, bid.bidder_confirmed_at),
    applicable_service_charge: { applied_amount: bid.amount === null ? null : String(bid.amount), currency_id: bid.currency_code },
    references,
  };
}
