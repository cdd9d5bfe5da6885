import { Type, type TSchema } from '@sinclair/typebox';
import type { EventDoc } from '../events/types.ts';
import { DELIVERY } from '../freights/index.ts';
import { field, presenter } from '../kernel/fields.ts';
import { MAX_BASE64_CHARS } from './content.ts';
import { ORDER_FORMAT } from './order.ts';
import type { DocumentRead, MessageRead } from './store.ts';
import { DOCUMENT_KINDS, MAX_DOCUMENT_BYTES, NAME_MAX, TEXT_MAX, TEXT_MIN, UPLOAD_KINDS } from './tables.ts';

/** The deal room (decisions.md §13): the field tables of messages and documents, and the API description. */

const COMPANY = (description: string) => Type.Object({ id: Type.Integer(), name: Type.String() }, { description });

export const MESSAGE = presenter<MessageRead>()('Message', 'A message of a freight’s conversation (decisions.md §13)', {
  id: field.id('id'),
  freight: field.id('freight_id', 'the freight id'),
  from: field.computed(COMPANY('the writing company'), (m) => ({ id: m.from_company_id, name: m.from_name })),
  to: field.computed(COMPANY('the receiving company'), (m) => ({ id: m.to_company_id, name: m.to_name })),
  text: field.text('text', `${TEXT_MIN} to ${TEXT_MAX} characters`),
  created: field.time('created'),
});

export type MessageView = ReturnType<typeof MESSAGE.present>;

export const CONVERSATION = Type.Object(
  {
    company: COMPANY('the company the freight’s owner talks to (never the owner)'),
    messages: Type.Array(MESSAGE.schema, { description: 'oldest first' }),
  },
  { description: 'The conversation between the freight’s owner and one other company' },
);

export const DOCUMENT = presenter<DocumentRead>()('Document', 'A document of a freight’s two parties (decisions.md §13)', {
  id: field.id('id'),
  freight: field.id('freight_id', 'the freight id'),
  kind: field.choice('kind', DOCUMENT_KINDS, '`order`: the transport order the exchange adds on award'),
  name: field.text('name'),
  type: field.text('media_type', 'application/pdf, image/jpeg or image/png, recognised from the first bytes'),
  size: field.id('size', 'bytes'),
  sha256: field.text('sha256', 'hex'),
  created: field.time('created'),
  company: field.computed(
    Type.Union([COMPANY('the uploading company'), Type.Null()], { description: 'the uploading company; null: the exchange itself' }),
    (d) => (d.company_id === null ? null : { id: d.company_id, name: d.company_name ?? '' }),
  ),
});

export type DocumentView = ReturnType<typeof DOCUMENT.present>;

const FREIGHT_ID = { freightId: Type.Integer({ description: 'the freight id' }) };

const NULLABLE = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const TIME = (description: string) => NULLABLE(Type.String({ description: `${description}: YYYY-MM-DD HH:MM:SS in \`timezone\`` }));
const ORDER_PARTY = (description: string) =>
  Type.Object(
    {
      id: Type.Integer({ description: 'the company id' }),
      name: Type.String(),
      address: Type.Object({ postcode: NULLABLE(Type.String()), city: NULLABLE(Type.String()), country: NULLABLE(Type.String()) }),
      vat_id: NULLABLE(Type.String({ description: 'from the company profile' })),
      confirmed_by: NULLABLE(
        Type.Object(
          { id: Type.Integer(), name: Type.String(), email: Type.String() },
          { description: 'the user who confirmed the bid for this company (null: confirmed before the exchange kept it)' },
        ),
      ),
      confirmed: TIME('when that user confirmed'),
    },
    { description },
  );
const ORDER_PLACE = (description: string) =>
  Type.Object(
    {
      location: NULLABLE(Type.String({ description: 'the freight’s place code (`city:10115`, an airport, a country)' })),
      country: NULLABLE(Type.String()),
      address: NULLABLE(Type.String()),
      window: Type.Object({ from: TIME('start'), until: TIME('end') }),
    },
    { description },
  );

/**
 * The transport order's content (order.ts), named after the CMR consignment note's boxes as the
 * e-CMR and the EU eFTI common data set carry them on (docs/decisions.md, "The transport order").
 */
export const TRANSPORT_ORDER = Type.Object(
  {
    format: Type.Literal(ORDER_FORMAT),
    freight: Type.Integer(),
    bid: Type.Integer({ description: 'the accepted bid' }),
    issued: Type.String({ description: 'the award (the second confirmation): YYYY-MM-DD HH:MM:SS in `timezone`' }),
    timezone: Type.String({ description: 'the exchange’s APP_TIMEZONE, e.g. Europe/Berlin' }),
    consignor: ORDER_PARTY('the freight’s company, which contracts the carriage (CMR box 1, eFTI consignor)'),
    carrier: ORDER_PARTY('the winner (CMR box 16, eFTI carrier)'),
    consignee: Type.Null({ description: 'CMR box 2: not recorded by the exchange; the place of delivery names where the goods go' }),
    place_of_taking_over: ORDER_PLACE('CMR box 4 (eFTI carrier acceptance location), with the loading window'),
    place_of_delivery: ORDER_PLACE('CMR box 3 (eFTI consignee receipt location), with the delivery window'),
    goods: Type.Object({
      description: NULLABLE(Type.String({ description: 'CMR box 9: the freight’s `refs.commodity`' })),
      gross_weight: NULLABLE(Type.Number({ description: 'CMR box 11, kg' })),
      number_of_packages: NULLABLE(Type.Integer({ description: 'CMR box 7: the piece lines’ total' })),
      packages: Type.Array(
        Type.Object({
          number_of_packages: NULLABLE(Type.Integer()),
          length: NULLABLE(Type.Number({ description: 'cm' })),
          width: NULLABLE(Type.Number({ description: 'cm' })),
          height: NULLABLE(Type.Number({ description: 'cm' })),
          gross_weight: NULLABLE(Type.Number({ description: 'kg, of each package when `weight_per_package`' })),
          weight_per_package: Type.Boolean(),
          stackable: NULLABLE(Type.Boolean()),
        }),
        { description: 'the freight’s piece lines' },
      ),
      dangerous_goods: NULLABLE(Type.String()),
    }),
    agreed_price: Type.Object({
      amount: NULLABLE(Type.String({ description: 'the accepted bid’s amount, exact decimal text' })),
      currency: NULLABLE(Type.String()),
    }),
    references: Type.Record(Type.String(), Type.String(), {
      description: 'the freight’s refs customer, external_ref, awb, uld, incoterm, incoterm_place, where given',
    }),
  },
  { description: 'The transport order as issued on award; its PDF (the `order` document) prints every value and embeds this JSON' },
);
const UNREAD = Type.Object({
  count: Type.Integer({ minimum: 0, description: 'messages the caller’s company has not read' }),
  freights: Type.Array(Type.Object({ freight: Type.Integer(), count: Type.Integer({ minimum: 1 }) }), {
    description: 'the freights with unread messages, newest freight first',
  }),
});

export const DEAL_DOCS = {
  post: {
    summary:
      'Write in the conversation beside a freight: any company that may see the freight talks to its owner; the owner names `company`, whom it answers (a company that may see the freight). A company that may not see the freight: 404.',
    tag: 'messages',
    path: FREIGHT_ID,
    input: Type.Object({
      text: Type.String({ minLength: TEXT_MIN, maxLength: TEXT_MAX }),
      company: Type.Optional(Type.Integer({ description: 'the owner’s only: the company it writes to' })),
    }),
    data: Type.Object({ message: MESSAGE.schema }),
  },
  read: {
    summary:
      'The conversations beside a freight: every one for its owner, its own for any other company that may see it (masking of the freight holds). Reading marks them read.',
    tag: 'messages',
    path: FREIGHT_ID,
    data: Type.Object({ conversations: Type.Array(CONVERSATION) }),
  },
  unread: {
    summary: 'How many messages the caller’s company has not read, and on which freights',
    tag: 'messages',
    data: Type.Object({ unread: UNREAD }),
  },
  add: {
    summary: `Attach a document to a freight (the owner; the winner once the freight is awarded): PDF, JPEG or PNG, recognised by its first bytes, at most ${MAX_DOCUMENT_BYTES} bytes. Anything else: a field error, nothing stored. Anyone else: 404.`,
    tag: 'documents',
    path: FREIGHT_ID,
    input: Type.Object({
      kind: Type.Union(
        UPLOAD_KINDS.map((k) => Type.Literal(k)),
        { description: '`order` is reserved for the exchange’s transport order' },
      ),
      name: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'the file name' }),
      content: Type.String({ maxLength: MAX_BASE64_CHARS, description: 'the file, base64' }),
    }),
    data: Type.Object({ document: DOCUMENT.schema }),
  },
  list: {
    summary: 'The documents of a freight, oldest first (its owner and winner only; anyone else: 404)',
    tag: 'documents',
    path: FREIGHT_ID,
    data: Type.Object({ documents: Type.Array(DOCUMENT.schema) }),
  },
  order: {
    summary:
      'The transport order of an awarded freight as JSON: the content issued on award (the same the `order` PDF prints and embeds) and the PDF document with its SHA-256. Owner and winner only; anyone else, or a freight without an order (not awarded, or carried by its owner): 404.',
    tag: 'documents',
    path: FREIGHT_ID,
    data: Type.Object({ order: TRANSPORT_ORDER, document: DOCUMENT.schema }),
  },
  pod: {
    summary:
      'Proof of delivery: attach a `pod` document (PDF, JPEG or PNG, as for documents) and mark the freight delivered (`delivery_status` 3, status `taken` -> `closed`) in one transaction, or neither. The owner or the winner. A freight not `taken`: `status` = `error`, code `pod.not_taken`; a refused file: a field error (`documents.*`); anyone else: 404. Events: `document.added` to the other party, `freight.delivery_status`.',
    tag: 'documents',
    path: FREIGHT_ID,
    input: Type.Object({
      name: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'the file name' }),
      content: Type.String({ maxLength: MAX_BASE64_CHARS, description: 'the file, base64' }),
    }),
    data: Type.Object({
      document: DOCUMENT.schema,
      freight: Type.Object({
        id: Type.Integer(),
        status: Type.Literal('closed'),
        delivery_status: Type.Literal(DELIVERY.delivered),
      }),
    }),
  },
  download: {
    summary:
      'Download a document’s exact bytes (Content-Disposition: attachment, X-Content-Type-Options: nosniff), by API token or from the page. The freight’s owner and winner only; anyone else: 404.',
    tag: 'documents',
    path: { id: Type.Integer({ description: 'the document id' }) },
    data: Type.String({ description: 'the document’s bytes, in its media type' }),
  },
};

/** The deal room's events (deals/events.ts), for the API description. */
export const DEAL_EVENT_DOCS = {
  'message.created': {
    summary: 'A message was written to the company in a freight’s conversation.',
    recipients: 'the receiving company only (the owner, or the company the owner wrote to).',
    data: Type.Object({ message: MESSAGE.schema }),
  },
  'document.added': {
    summary: 'A document was attached to a freight: by the other party, or the transport order by the exchange on award.',
    recipients: 'the freight’s other party (owner or winner); both for the transport order.',
    data: Type.Object({ document: DOCUMENT.schema }),
  },
} satisfies Record<'message.created' | 'document.added', EventDoc>;
