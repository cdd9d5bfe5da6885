import { Type, type TSchema } from '@sinclair/typebox';
import type { EndpointDoc } from '../kernel/doc.ts';

/**
 * The JSON-LD documents of ONE Record (present.ts) as JSON Schema, for the API description
 * (GET /openapi.json): what present.ts writes, compact form with its inline context.
 */

const iri = (description?: string) => Type.String({ format: 'uri', ...(description ? { description } : {}) });
const ref = (type: string) => Type.Object({ '@id': iri(), '@type': Type.Literal(type) });
const CONTEXT = Type.Object({ cargo: Type.String(), api: Type.String(), xsd: Type.String() }, { description: 'the inline context' });
const DATE_TIME = Type.Object({ '@type': Type.Literal('xsd:dateTime'), '@value': Type.String({ format: 'date-time' }) });
const CODE = Type.Object({
  '@type': Type.Literal('cargo:CodeListElement'),
  'cargo:code': Type.String(),
  'cargo:codeListName': Type.String(),
});
const LOCATION = Type.Object({ '@type': Type.Literal('cargo:Location'), 'cargo:locationCodes': Type.Array(CODE) });
const KILOGRAMS = Type.Object({
  '@type': Type.Literal('cargo:Value'),
  'cargo:numericalValue': Type.Number(),
  'cargo:unit': Type.Object({ '@id': iri() }),
});

/** A document of its own: the context, its IRI and type, and its properties. */
const document = (id: string, type: string, properties: Record<string, TSchema>, description: string) =>
  Type.Object({ '@context': CONTEXT, '@id': iri(), '@type': Type.Literal(type), ...properties }, { $id: id, description });

const EVENT_PROPERTIES = {
  'cargo:eventCode': Type.Union([
    Type.Object({ '@id': iri('a StatusCode of the ONE Record code list'), '@type': Type.Literal('cargo:CodeListElement') }),
    CODE,
  ]),
  'cargo:eventDate': Type.Optional(DATE_TIME),
  'cargo:creationDate': DATE_TIME,
  'cargo:eventTimeType': Type.Object({ '@id': Type.Literal('cargo:ACTUAL') }),
  'cargo:eventFor': ref('cargo:Shipment'),
  'cargo:eventLocation': Type.Optional(LOCATION),
  'cargo:partialEventIndicator': Type.Boolean({ description: 'a part of a split shipment' }),
};

const SHIPMENT = document(
  'OneRecordShipment',
  'cargo:Shipment',
  {
    'cargo:waybill': ref('cargo:Waybill'),
    'cargo:pieces': Type.Array(ref('cargo:Piece')),
    'cargo:totalGrossWeight': Type.Optional(KILOGRAMS),
    'cargo:events': Type.Array(ref('cargo:LogisticsEvent')),
  },
  'ONE Record Shipment: a milk-run import shipment',
);

const WAYBILL = document(
  'OneRecordWaybill',
  'cargo:Waybill',
  {
    'cargo:waybillType': Type.Object({ '@id': Type.Literal('cargo:MASTER') }),
    'cargo:waybillPrefix': Type.String(),
    'cargo:waybillNumber': Type.String(),
    'cargo:shipment': ref('cargo:Shipment'),
    'cargo:arrivalLocation': Type.Optional(LOCATION),
  },
  'ONE Record Waybill: the master AWB of a shipment',
);

const PIECE = document(
  'OneRecordPiece',
  'cargo:Piece',
  { 'cargo:skeletonIndicator': Type.Literal(true), 'cargo:ofShipment': ref('cargo:Shipment') },
  'ONE Record Piece: known only by its place in the count',
);

const EVENT = document('OneRecordLogisticsEvent', 'cargo:LogisticsEvent', EVENT_PROPERTIES, 'ONE Record LogisticsEvent: a status event');

const collection = (id: string, item: TSchema, description: string) =>
  document(id, 'api:Collection', { 'api:hasTotalItems': Type.Integer({ minimum: 0 }), 'api:hasItem': Type.Array(item) }, description);

/** ONE Record's error (api:Error), the answer to every failure under /onerecord. */
export const ERROR_SCHEMA = Type.Object(
  {
    '@context': CONTEXT,
    '@type': Type.Literal('api:Error'),
    'api:hasTitle': Type.String(),
    'api:hasErrorDetail': Type.Array(
      Type.Object({
        '@type': Type.Literal('api:ErrorDetail'),
        'api:hasCode': Type.String({ description: 'the HTTP status' }),
        'api:hasMessage': Type.String(),
        'api:hasResource': Type.Optional(Type.Object({ '@value': iri(), '@type': Type.Literal('xsd:anyURI') })),
      }),
    ),
  },
  { $id: 'OneRecordError', description: 'ONE Record api:Error' },
);

const OBJECT = Type.String({ description: 'shipment-{id}, waybill-{id} or piece-{id}-{n}' });
const AUTH =
  'Authenticated by the API token, as `Authorization: TokenPass <token>`, `Authorization: Bearer <token>` (as ONE Record clients send it) or `auth_token`.';

/** The API description of each ONE Record endpoint (paths under /onerecord). */
export const ONE_RECORD_DOCS = {
  shipments: {
    summary: 'The company’s shipments as ONE Record logistics objects',
    description: `${AUTH} Its milk-run import shipments and those dispatched to it, newest first, paged like every list.`,
    input: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    }),
    data: collection('OneRecordShipmentList', ref('cargo:Shipment'), 'the shipments (IRIs)'),
  },
  object: {
    summary: 'A logistics object: a shipment, its waybill or one of its pieces',
    description: `${AUTH} An object of another company's shipment is not found, like a missing one.`,
    path: { object: OBJECT },
    data: Type.Union([SHIPMENT, WAYBILL, PIECE]),
  },
  events: {
    summary: 'The logistics events of a logistics object',
    description: `${AUTH} A shipment's status events; a waybill or piece has none of its own (an empty collection).`,
    path: { object: OBJECT },
    data: collection(
      'OneRecordEventList',
      Type.Object({ '@id': iri(), '@type': Type.Literal('cargo:LogisticsEvent'), ...EVENT_PROPERTIES }),
      'the events, in full',
    ),
  },
  event: {
    summary: 'One logistics event of a shipment',
    description: AUTH,
    path: { object: OBJECT, event: Type.Integer({ description: 'the event' }) },
    data: EVENT,
  },
} satisfies Record<string, EndpointDoc>;
