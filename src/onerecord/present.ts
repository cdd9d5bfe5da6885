import type { MilkrunRow } from '../milkrun/index.ts';
import type { EventRow } from '../files/index.ts';

/**
 * IATA ONE Record logistics objects (data model 3.2, cargo ontology
 * https://onerecord.iata.org/ns/cargo; API 2.2 conventions) in JSON-LD. Each object has a
 * stable IRI on this server: `{base}/onerecord/logistics-objects/{shipment|waybill}-{id}`,
 * `piece-{id}-{n}`, and `shipment-{id}/logistics-events/{eventId}` for its events.
 */
export const CARGO = 'https://onerecord.iata.org/ns/cargo#';
export const API = 'https://onerecord.iata.org/ns/api#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const STATUS_CODE = 'https://onerecord.iata.org/ns/code-lists/StatusCode#';
const KGM = 'https://onerecord.iata.org/ns/code-lists/MeasurementUnitCode#KGM';

/** Status codes of the ONE Record StatusCode code list (cXML code list 1.18). */
const LISTED_CODES = new Set([
  'ARR',
  'AWD',
  'AWR',
  'BKD',
  'CCD',
  'CRC',
  'DDL',
  'DEP',
  'DLV',
  'DOC',
  'DPU',
  'FIW',
  'FOH',
  'FOW',
  'MAN',
  'NFD',
  'OCI',
  'OSI',
  'PRE',
  'RCF',
  'RCS',
  'RCT',
  'TFD',
  'TGC',
  'TRM',
]);

export const CONTEXT = { cargo: CARGO, api: API, xsd: XSD };

/** Pieces listed for one shipment at most (Cargo-IMP counts up to 9999). */
export const MAX_PIECES = 9999;

export class Iris {
  constructor(readonly base: string) {}
  shipment = (id: number) => `${this.base}/onerecord/logistics-objects/shipment-${id}`;
  waybill = (id: number) => `${this.base}/onerecord/logistics-objects/waybill-${id}`;
  piece = (id: number, n: number) => `${this.base}/onerecord/logistics-objects/piece-${id}-${n}`;
  events = (id: number) => `${this.shipment(id)}/logistics-events`;
  event = (shipmentId: number, eventId: number) => `${this.events(shipmentId)}/${eventId}`;
  shipments = () => `${this.base}/onerecord/shipments`;
}

const dateTime = (d: Date) => ({ '@type': 'xsd:dateTime', '@value': d.toISOString() });
const kilograms = (kg: string) => ({ '@type': 'cargo:Value', 'cargo:numericalValue': Number(kg), 'cargo:unit': { '@id': KGM } });
const airport = (code: string) => ({
  '@type': 'cargo:Location',
  'cargo:locationCodes': [{ '@type': 'cargo:CodeListElement', 'cargo:code': code, 'cargo:codeListName': 'IATA airport code' }],
});

export interface Totals {
  pieces: number | null;
  weight: string | null;
}

export function presentShipment(iris: Iris, row: MilkrunRow, totals: Totals, events: EventRow[]) {
  return {
    '@context': CONTEXT,
    '@id': iris.shipment(row.id),
    '@type': 'cargo:Shipment',
    'cargo:waybill': { '@id': iris.waybill(row.id), '@type': 'cargo:Waybill' },
    'cargo:pieces': Array.from({ length: Math.min(totals.pieces ?? 0, MAX_PIECES) }, (_, i) => ({
      '@id': iris.piece(row.id, i + 1),
      '@type': 'cargo:Piece',
    })),
    ...(totals.weight !== null ? { 'cargo:totalGrossWeight': kilograms(totals.weight) } : {}),
    'cargo:events': events.map((e) => ({ '@id': iris.event(row.id, e.id), '@type': 'cargo:LogisticsEvent' })),
  };
}

export function presentWaybill(iris: Iris, row: MilkrunRow) {
  const [prefix, serial] = row.awb.split('-');
  return {
    '@context': CONTEXT,
    '@id': iris.waybill(row.id),
    '@type': 'cargo:Waybill',
    'cargo:waybillType': { '@id': 'cargo:MASTER' },
    'cargo:waybillPrefix': prefix,
    'cargo:waybillNumber': serial,
    'cargo:shipment': { '@id': iris.shipment(row.id), '@type': 'cargo:Shipment' },
    ...(row.location ? { 'cargo:arrivalLocation': airport(row.location) } : {}),
  };
}

/** A piece known only by its place in the count: a skeleton (no piece-level data is received). */
export function presentPiece(iris: Iris, row: MilkrunRow, n: number) {
  return {
    '@context': CONTEXT,
    '@id': iris.piece(row.id, n),
    '@type': 'cargo:Piece',
    'cargo:skeletonIndicator': true,
    'cargo:ofShipment': { '@id': iris.shipment(row.id), '@type': 'cargo:Shipment' },
  };
}

function eventBody(iris: Iris, row: MilkrunRow, totals: Totals, e: EventRow) {
  return {
    '@id': iris.event(row.id, e.id),
    '@type': 'cargo:LogisticsEvent',
    'cargo:eventCode': LISTED_CODES.has(e.code)
      ? { '@id': `${STATUS_CODE}${e.code}`, '@type': 'cargo:CodeListElement' }
      : { '@type': 'cargo:CodeListElement', 'cargo:code': e.code, 'cargo:codeListName': 'IATA status code' },
    ...(e.event_time ? { 'cargo:eventDate': dateTime(e.event_time) } : {}),
    'cargo:creationDate': dateTime(e.created),
    'cargo:eventTimeType': { '@id': 'cargo:ACTUAL' },
    'cargo:eventFor': { '@id': iris.shipment(row.id), '@type': 'cargo:Shipment' },
    ...(e.location ? { 'cargo:eventLocation': airport(e.location) } : {}),
    // A part of a split shipment reports fewer pieces than the shipment has.
    'cargo:partialEventIndicator': e.pieces !== null && totals.pieces !== null && e.pieces < totals.pieces,
  };
}

export function presentEvent(iris: Iris, row: MilkrunRow, totals: Totals, e: EventRow) {
  return { '@context': CONTEXT, ...eventBody(iris, row, totals, e) };
}

export function presentEvents(iris: Iris, row: MilkrunRow, totals: Totals, events: EventRow[]) {
  return {
    '@context': CONTEXT,
    '@id': iris.events(row.id),
    '@type': 'api:Collection',
    'api:hasTotalItems': events.length,
    'api:hasItem': events.map((e) => eventBody(iris, row, totals, e)),
  };
}

/** An empty collection: the events of a waybill or piece (status events belong to the shipment). */
export function presentNoEvents(id: string) {
  return { '@context': CONTEXT, '@id': id, '@type': 'api:Collection', 'api:hasTotalItems': 0, 'api:hasItem': [] };
}

export function presentShipmentList(iris: Iris, ids: number[], page: number) {
  return {
    '@context': CONTEXT,
    '@id': page > 1 ? `${iris.shipments()}?page=${page}` : iris.shipments(),
    '@type': 'api:Collection',
    'api:hasTotalItems': ids.length,
    'api:hasItem': ids.map((id) => ({ '@id': iris.shipment(id), '@type': 'cargo:Shipment' })),
  };
}

/** ONE Record's error object (api:Error with one api:ErrorDetail). */
export function presentError(code: number, title: string, message: string, resource?: string) {
  return {
    '@context': CONTEXT,
    '@type': 'api:Error',
    'api:hasTitle': title,
    'api:hasErrorDetail': [
      {
        '@type': 'api:ErrorDetail',
        'api:hasCode': String(code),
        'api:hasMessage': message,
        ...(resource ? { 'api:hasResource': { '@value': resource, '@type': 'xsd:anyURI' } } : {}),
      },
    ],
  };
}
