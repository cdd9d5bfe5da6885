import type { Kysely, Transaction } from 'kysely';
import { contactOf } from '../accounts/companies.ts';
import { companyProfile } from '../accounts/profile.ts';
import type { DB } from '../db/schema.ts';
import { withPieces, type BidRow, type FreightRow } from '../freights/index.ts';
import type { Clock } from '../kernel/time.ts';

/**
 * The transport order's content (decisions.md §13; docs/decisions.md, "The transport order"):
 * what both parties agreed when the second side confirmed the carrier's bid, read in the award's
 * transaction and stored as JSON text exactly as issued (table deal_orders). The PDF is rendered
 * from this content (pdf.ts) and carries it as an embedded file, so the PDF's SHA-256 proves both.
 *
 * The field names follow the CMR consignment note as the e-CMR (UN/CEFACT) and the EU eFTI common
 * data set carry it on: consignor (CMR box 1), consignee (box 2), place of delivery (box 3), place
 * of taking over (box 4), number of packages (box 7), goods description (box 9), gross weight
 * (box 11), carrier (box 16). What a freight exchange adds (the agreed price, the references, who
 * confirmed) has its own plain names. Times are the API's (`YYYY-MM-DD HH:MM:SS` in `timezone`),
 * weights kg, lengths cm.
 */

export const ORDER_FORMAT = 'freight-exchange/transport-order/1';

export interface OrderUser {
  id: number;
  name: string;
  email: string;
}

/** A party of the contract: the company with its address and VAT id, and who confirmed for it. */
export interface OrderParty {
  id: number;
  name: string;
  address: { postcode: string | null; city: string | null; country: string | null };
  vat_id: string | null;
  /** the user who confirmed the bid for this company; null for bids confirmed before this was kept */
  confirmed_by: OrderUser | null;
  confirmed: string | null;
}

/** Where the goods are taken over or delivered, and when (the freight's window). */
export interface OrderPlace {
  /** the freight's place code (`city:10115`, an airport, a country) */
  location: string | null;
  country: string | null;
  address: string | null;
  window: { from: string | null; until: string | null };
}

export interface OrderPackage {
  number_of_packages: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
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
  carrier: OrderParty;
  /** the exchange records no consignee: the place of delivery names where the goods go */
  consignee: null;
  place_of_taking_over: OrderPlace;
  place_of_delivery: OrderPlace;
  goods: {
    description: string | null;
    /** kg */
    gross_weight: number | null;
    number_of_packages: number | null;
    packages: OrderPackage[];
    dangerous_goods: string | null;
  };
  agreed_price: { amount: string | null; currency: string | null };
  /** the freight's references (refs): customer, external_ref, awb, incoterm, incoterm_place, as given */
  references: Record<string, string>;
}

/** The refs keys the order carries (api.md, "refs container keys"), in this order. */
const REFERENCE_KEYS = ['customer', 'external_ref', 'awb', 'uld', 'incoterm', 'incoterm_place'] as const;

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

type Db = Kysely<DB> | Transaction<DB>;

async function party(db: Db, clock: Clock, companyId: number, userId: number | null, at: Date | null): Promise<OrderParty> {
  const profile = await companyProfile(db, companyId);
  const user = userId === null ? null : await contactOf(db, userId);
  return {
    id: companyId,
    name: profile?.name ?? '',
    address: { postcode: profile?.postcode ?? null, city: profile?.city ?? null, country: profile?.country ?? null },
    vat_id: profile?.vat_id ?? null,
    confirmed_by: user && userId !== null ? { id: userId, name: user.realname || user.email, email: user.email } : null,
    confirmed: clock.format(at),
  };
}

function place(f: FreightRow, side: 'from' | 'to', clock: Clock): OrderPlace {
  const [start, end] = side === 'from' ? [f.etd, f.etd_end] : [f.eta, f.eta_end];
  return {
    location: f[`${side}_code`],
    country: f[`${side}_country`],
    address: f[`${side}_addr`],
    window: { from: clock.format(start), until: clock.format(end ?? start) },
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
  return {
    format: ORDER_FORMAT,
    freight: freight.id,
    bid: bid.id,
    issued: clock.format(freight.modified) ?? '', // the award's instant (quotes/award.ts writes it as the freight's modified), as the confirmation's
    timezone: clock.zone,
    consignor: await party(db, clock, freight.company_id, bid.owner_confirmed_by, bid.owner_confirmed_at),
    carrier: await party(db, clock, bid.company_id, bid.bidder_confirmed_by, bid.bidder_confirmed_at),
    consignee: null,
    place_of_taking_over: place(freight, 'from', clock),
    place_of_delivery: place(freight, 'to', clock),
    goods: {
      description: text(refs.commodity),
      gross_weight: num(freight.weight),
      number_of_packages: packages,
      packages: lines.map((l) => ({
        number_of_packages: num(l.pieces),
        length: num(l.depth),
        width: num(l.width),
        height: num(l.height),
        gross_weight: num(l.weight),
        weight_per_package: l.weight_per_piece === 1,
        stackable: l.stackable === null || l.stackable === undefined ? null : l.stackable === 1,
      })),
      dangerous_goods: text(freight.dangerous_goods) ?? (freight.dangerous && freight.dangerous !== '0' ? text(freight.dangerous) : null),
    },
    agreed_price: { amount: bid.amount === null ? null : String(bid.amount), currency: bid.currency_code },
    references,
  };
}
