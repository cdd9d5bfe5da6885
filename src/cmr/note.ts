import { Decimal } from 'decimal.js';
import type { OrderParty, TransportOrder } from '../deals/index.ts';
import type { SignatureEntry } from './chain.ts';
import type { CmrStatus } from './tables.ts';

/**
 * The consignment note's content (docs/reference.md#ecmr), filled from the transport order as issued
 * on award (deals/order.ts, whose members are named as eFTI names them): each member of the note
 * is a box of the CMR consignment note, and its parts keep the eFTI names of the order
 * (docs/choices.md, "The e-CMR": the table of boxes and eFTI elements). Only strings, integers
 * and null, so that its canonical JSON (chain.ts) is the same in any language: weights are exact
 * decimal text in kg.
 */

export const CMR_FORMAT = 'freight-exchange/e-cmr/1';

/** A party (eFTI TradeParty): name, postal address, VAT id. */
export interface CmrParty {
  name: string | null;
  postal_address: { postcode: string | null; city_name: string | null; country_code: string | null };
  tax_registration: { id: string } | null;
}

/** A place (eFTI LogisticsLocation): the freight's place code, its address text, its country. */
export interface CmrPlace {
  id: string | null;
  name: string | null;
  country_code: string | null;
}

/** A goods line (CMR boxes 6, 7, 9, 11). */
export interface CmrGoodsLine {
  /** box 6, marks and numbers: the freight's customer reference */
  marks: string | null;
  /** box 7, number of packages (eFTI goodsUnitQuantity) */
  packages: number | null;
  /** box 9, nature of the goods (eFTI natureIdentificationCargo) */
  nature: string | null;
  /** box 11, gross weight of the line in kg, exact decimal text (eFTI grossWeight) */
  gross_weight: string | null;
}

export interface CmrNote {
  format: typeof CMR_FORMAT;
  /** box "number": unique on the exchange */
  number: string;
  freight: number;
  /** when it was issued (the award): `YYYY-MM-DD HH:MM:SS` in `timezone` */
  issued: string;
  timezone: string;
  /** box 1, eFTI consignor */
  sender: CmrParty;
  /** box 2, eFTI consignee: the exchange records no consignee's name; it signs at delivery with its name */
  consignee: CmrParty;
  /** box 3, eFTI consigneeReceiptLocation */
  delivery_place: CmrPlace;
  /** box 4, eFTI carrierAcceptanceLocation, with the date of the loading window's start */
  taking_over: CmrPlace & { date: string | null };
  /** boxes 6-11, eFTI includedConsignmentItem */
  goods: CmrGoodsLine[];
  /** box 11's total, kg, exact decimal text (eFTI grossWeight of the consignment) */
  gross_weight: string | null;
  /** box 9's dangerous goods (ADR) text, eFTI dangerousGoods */
  dangerous_goods: string | null;
  /** box 16, eFTI carrier */
  carrier: CmrParty;
  /**
   * the vehicle's registration (plate) beside box 16, as the usual forms' "Registration No. /
   * amtl. Kennzeichen": the transport order's eFTI usedTransportMeans id, once the carrier gave
   * it (a note from an order without it: null). Notes issued before issue 47 lack the member.
   */
  vehicle_registration?: string | null;
}

const party = (p: OrderParty): CmrParty => ({
  name: p.name,
  postal_address: { ...p.postal_address },
  tax_registration: p.tax_registration ? { id: p.tax_registration.id } : null,
});

/** A weight as exact decimal text (the order's numbers are the freight's exact decimals read as numbers). */
const weight = (kg: number | null | undefined, times = 1): string | null =>
  kg === null || kg === undefined ? null : new Decimal(kg).times(times).toString();

export function noteFromOrder(order: TransportOrder, number: string): CmrNote {
  const marks = order.references.customer ?? order.references.external_ref ?? null;
  const nature = order.nature_identification_cargo?.identification_text ?? null;
  const items = order.included_consignment_item;
  const goods: CmrGoodsLine[] = items.length
    ? items.map((i) => ({
        marks,
        packages: i.goods_unit_quantity,
        nature,
        gross_weight: weight(i.gross_weight, i.weight_per_package ? (i.goods_unit_quantity ?? 1) : 1),
      }))
    : [{ marks, packages: order.number_of_packages, nature, gross_weight: weight(order.gross_weight) }];
  const from = order.carrier_acceptance_location;
  const to = order.consignee_receipt_location;
  return {
    format: CMR_FORMAT,
    number,
    freight: order.freight,
    issued: order.issued,
    timezone: order.timezone,
    sender: party(order.consignor),
    consignee: {
      name: order.consignee?.name ?? null,
      postal_address: { postcode: null, city_name: null, country_code: to.postal_address.country_code },
      tax_registration: null,
    },
    delivery_place: { id: to.id, name: to.name, country_code: to.postal_address.country_code },
    taking_over: {
      id: from.id,
      name: from.name,
      country_code: from.postal_address.country_code,
      date: from.scheduled_occurrence_period.start_date_time?.slice(0, 10) ?? null,
    },
    goods,
    gross_weight: weight(order.gross_weight),
    dangerous_goods: order.dangerous_goods?.information ?? null,
    carrier: party(order.carrier),
    vehicle_registration: order.transport?.used_transport_means.id ?? null,
  };
}

/** The note's number: unique on the exchange, from its id and the year it was issued. */
export const noteNumber = (id: number, issued: string) => `CMR-${issued.slice(0, 4)}-${String(id).padStart(6, '0')}`;

/** A signature as the API shows it. */
export interface SignatureView extends SignatureEntry {
  hash: string;
}

/** The note as the API shows it (`data.cmr`): the issued note, its status, signatures and the chain's head. */
export type CmrView = CmrNote & { status: CmrStatus; signatures: SignatureView[]; hash: string };
