import { Type, type TSchema } from '@sinclair/typebox';
import { companyRef } from '../accounts/index.ts';
import type { EventDoc } from '../events/index.ts';
import { DELIVERY } from '../freights/index.ts';
import { field, presenter } from '../kernel/fields.ts';
import { MAX_BASE64_CHARS } from './content.ts';
import { ORDER_FORMAT, PAYMENT_DAYS_MAX, TRANSPORT_LIMITS } from './order.ts';
import type { DocumentRead, MessageRead } from './store.ts';
import { DOCUMENT_KINDS, MAX_DOCUMENT_BYTES, NAME_MAX, TEXT_MAX, TEXT_MIN, UPLOAD_KINDS } from './tables.ts';

/** The deal room (docs/reference.md#deal-room): the field tables of messages and documents, and the API description. */

/** A company beside a message or document, as every list shows one (accounts/mark.tsx): with its verified mark. */
const COMPANY = (description: string) =>
  Type.Object(
    {
      id: Type.Integer(),
      name: Type.String(),
      verified: Type.Boolean({ description: 'verified by the operator (decisions.md §12): the verified mark' }),
    },
    { description },
  );

export const MESSAGE = presenter<MessageRead>()('Message', 'A message of a freight’s conversation (decisions.md §13)', {
  id: field.id('id'),
  freight: field.id('freight_id', 'the freight id'),
  from: field.computed(COMPANY('the writing company'), (m) => companyRef(m.from_company_id, m.from_name, m.from_verified)),
  to: field.computed(COMPANY('the receiving company'), (m) => companyRef(m.to_company_id, m.to_name, m.to_verified)),
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
    (d) => (d.company_id === null ? null : companyRef(d.company_id, d.company_name ?? '', d.company_verified)),
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
      name: Type.String({ description: 'eFTI name' }),
      postal_address: Type.Object(
        { postcode: NULLABLE(Type.String()), city_name: NULLABLE(Type.String()), country_code: NULLABLE(Type.String()) },
        { description: 'eFTI postalAddress (postcode, cityName, countryCode), from the company profile' },
      ),
      tax_registration: NULLABLE(
        Type.Object({ id: Type.String({ description: 'the VAT id' }) }, { description: 'eFTI taxRegistration, from the company profile' }),
      ),
      confirmed_by: NULLABLE(
        Type.Object(
          { id: Type.Integer(), name: Type.String(), email: Type.String() },
          { description: 'the user who confirmed the bid for this company (null: confirmed before the exchange kept it)' },
        ),
      ),
      confirmed: TIME('when that user confirmed'),
      defined_trade_contact: Type.Optional(
        NULLABLE(
          Type.Object(
            {
              person_name: Type.String({ description: 'eFTI personName: the user’s name (else its e-mail)' }),
              telephone: NULLABLE(Type.String({ description: 'the company’s phone (profile): a user keeps no phone of its own' })),
              email: Type.String({ description: 'the user’s e-mail' }),
            },
            {
              description:
                'eFTI definedTradeContact: the side’s dispatcher, the user who published the freight (consignor) or made the accepted bid (carrier); format 3',
            },
          ),
        ),
      ),
    },
    { description },
  );
const ORDER_PLACE = (description: string) =>
  Type.Object(
    {
      id: NULLABLE(Type.String({ description: 'eFTI id: the freight’s place code (`city:10115`, an airport, a country)' })),
      name: NULLABLE(Type.String({ description: 'eFTI name: the freight’s address text' })),
      postal_address: Type.Object({ country_code: NULLABLE(Type.String()) }, { description: 'eFTI postalAddress' }),
      scheduled_occurrence_period: Type.Object(
        { start_date_time: TIME('start'), end_date_time: TIME('end') },
        { description: 'eFTI scheduledOccurrencePeriod (startDateTime, endDateTime): the freight’s window' },
      ),
    },
    { description },
  );

/** The carrier's truck and driver in the order (format 3), given after the award. */
const TRANSPORT = Type.Object(
  {
    used_transport_means: Type.Object(
      { id: Type.String({ description: 'the registration (plate), with the trailer’s when given' }) },
      { description: 'eFTI usedTransportMeans' },
    ),
    driver: Type.Object({ name: Type.String(), telephone: NULLABLE(Type.String()) }, { description: 'the driver' }),
  },
  { description: 'plate and driver, given by the carrier after the award (a new version of the order); null until then' },
);

/**
 * The transport order's content (order.ts), named as the EU eFTI common data set names the
 * consignment (snake_case), each with its CMR consignment note box (docs/choices.md, "The
 * transport order").
 */
export const TRANSPORT_ORDER = Type.Object(
  {
    format: Type.Union([Type.Literal(ORDER_FORMAT), Type.Literal('freight-exchange/transport-order/2')], {
      description: 'format 3 since issue 47 (contacts, consignee, payment term, versions); an order is answered as it was issued',
    }),
    freight: Type.Integer(),
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: '1 on award, one more each time the carrier gives plate and driver; format 3' }),
    ),
    version_issued: Type.Optional(TIME('when this version was issued (the award for version 1); format 3')),
    bid: Type.Integer({ description: 'the accepted bid' }),
    issued: Type.String({ description: 'the award (the second confirmation): YYYY-MM-DD HH:MM:SS in `timezone`' }),
    timezone: Type.String({ description: 'the exchange’s APP_TIMEZONE, e.g. Europe/Berlin' }),
    consignor: ORDER_PARTY('eFTI consignor (CMR box 1): the freight’s company, which contracts the carriage'),
    consignee: NULLABLE(
      Type.Object(
        { name: Type.String({ description: 'eFTI name: the freight’s `refs.consignee` as given (name and address lines)' }) },
        {
          description:
            'eFTI consignee (CMR box 2): the freight’s `refs.consignee`; null when it names none (the consignee receipt location names where the goods go)',
        },
      ),
    ),
    consignee_receipt_location: ORDER_PLACE('eFTI consigneeReceiptLocation (CMR box 3, place of delivery), with the delivery window'),
    carrier_acceptance_location: ORDER_PLACE('eFTI carrierAcceptanceLocation (CMR box 4, place of taking over), with the loading window'),
    number_of_packages: NULLABLE(Type.Integer({ description: 'eFTI numberOfPackages (CMR box 7): the piece lines’ total' })),
    nature_identification_cargo: NULLABLE(
      Type.Object(
        { identification_text: Type.String({ description: 'the freight’s `refs.commodity`' }) },
        { description: 'eFTI natureIdentificationCargo (CMR box 9): the nature of the goods' },
      ),
    ),
    gross_weight: NULLABLE(Type.Number({ description: 'eFTI grossWeight (CMR box 11), kg' })),
    included_consignment_item: Type.Array(
      Type.Object({
        goods_unit_quantity: NULLABLE(Type.Integer({ description: 'eFTI goodsUnitQuantity' })),
        dimensions: Type.Object(
          { length: NULLABLE(Type.Number()), width: NULLABLE(Type.Number()), height: NULLABLE(Type.Number()) },
          { description: 'eFTI dimensions (length, width, height), cm' },
        ),
        gross_weight: NULLABLE(Type.Number({ description: 'kg, of each package when `weight_per_package`' })),
        weight_per_package: Type.Boolean(),
        stackable: NULLABLE(Type.Boolean()),
      }),
      { description: 'eFTI includedConsignmentItem: the freight’s piece lines' },
    ),
    dangerous_goods: NULLABLE(
      Type.Object(
        { information: Type.String({ description: 'the freight’s dangerous goods text' }) },
        { description: 'eFTI dangerousGoods' },
      ),
    ),
    carrier: ORDER_PARTY('eFTI carrier (CMR box 16): the winner'),
    applicable_service_charge: Type.Object(
      {
        applied_amount: NULLABLE(Type.String({ description: 'the accepted bid’s amount, exact decimal text (eFTI appliedAmount)' })),
        currency_id: NULLABLE(Type.String({ description: 'eFTI currencyId' })),
      },
      { description: 'eFTI applicableServiceCharge: the freight charge agreed' },
    ),
    references: Type.Record(Type.String(), Type.String(), {
      description:
        'the freight’s refs customer, external_ref, loading_ref (the loading reference), awb, uld, incoterm, incoterm_place, where given',
    }),
    payment_terms: Type.Optional(
      NULLABLE(
        Type.Object(
          { due_days: Type.Integer({ minimum: 0, maximum: PAYMENT_DAYS_MAX, description: 'days after the invoice' }) },
          { description: 'the payment term: the freight’s `refs.payment_days`; null when none; format 3' },
        ),
      ),
    ),
    transport: Type.Optional(NULLABLE(TRANSPORT)),
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
    data: Type.Object({
      order: TRANSPORT_ORDER,
      document: DOCUMENT.schema,
      version: Type.Integer({ minimum: 1, description: 'the version answered: the latest' }),
      versions: Type.Array(Type.Object({ version: Type.Integer({ minimum: 1 }), document: DOCUMENT.schema }), {
        description: 'every version’s PDF, newest first (earlier versions are kept)',
      }),
    }),
  },
  transport: {
    summary: `The carrier gives the vehicle and the driver: the winner of a taken freight re-issues its transport order as a new version (JSON and PDF; earlier versions kept) with \`plate\` (2–${TRANSPORT_LIMITS.plate} characters), \`driver\` (1–${TRANSPORT_LIMITS.driver}) and optional \`driver_phone\`. The e-CMR follows the new version while nobody has signed it. Refused with nothing changed: a field error (\`order.plate_invalid\`, \`order.driver_invalid\`, \`order.phone_invalid\`), the owner (\`order.carrier_only\`), a freight not taken (\`order.not_taken\`), the same vehicle and driver again (\`order.unchanged\`); anyone else, or a freight without an order: 404. Event: \`document.added\` to the owner.`,
    tag: 'documents',
    path: FREIGHT_ID,
    input: Type.Object({
      plate: Type.String({
        minLength: 2,
        maxLength: TRANSPORT_LIMITS.plate,
        description: 'the registration, e.g. `PL WE 1234A / WE 567B` (truck / trailer)',
      }),
      driver: Type.String({ minLength: 1, maxLength: TRANSPORT_LIMITS.driver, description: 'the driver’s name' }),
      driver_phone: Type.Optional(Type.String({ maxLength: TRANSPORT_LIMITS.phone, description: 'the driver’s phone; empty: none' })),
    }),
    data: Type.Object({ order: TRANSPORT_ORDER, document: DOCUMENT.schema, version: Type.Integer({ minimum: 2 }) }),
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
    summary:
      'A document was attached to a freight: by the other party, or the transport order by the exchange on award, or its new version when the carrier gives the vehicle and driver.',
    recipients: 'the freight’s other party (owner or winner); both for the transport order on award; the owner for a new version.',
    data: Type.Object({ document: DOCUMENT.schema }),
  },
} satisfies Record<'message.created' | 'document.added', EventDoc>;
