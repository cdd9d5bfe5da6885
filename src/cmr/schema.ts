import { Type, type TSchema } from '@sinclair/typebox';
import { DOCUMENT } from '../deals/index.ts';
import type { EventDoc } from '../events/index.ts';
import { CMR_FORMAT } from './note.ts';
import { CMR_ROLES, CMR_STATUSES, NAME_MAX, NAME_MIN, RESERVATIONS_MAX } from './tables.ts';

/** The e-CMR's API description (docs/reference.md#ecmr): the note, the signature, verify, and the event. */

const NULLABLE = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const PARTY = (description: string) =>
  Type.Object(
    {
      name: NULLABLE(Type.String({ description: 'eFTI name' })),
      postal_address: Type.Object(
        { postcode: NULLABLE(Type.String()), city_name: NULLABLE(Type.String()), country_code: NULLABLE(Type.String()) },
        { description: 'eFTI postalAddress' },
      ),
      tax_registration: NULLABLE(Type.Object({ id: Type.String({ description: 'the VAT id' }) }, { description: 'eFTI taxRegistration' })),
    },
    { description },
  );
const PLACE = {
  id: NULLABLE(Type.String({ description: 'eFTI id: the freight’s place code' })),
  name: NULLABLE(Type.String({ description: 'eFTI name: the freight’s address text' })),
  country_code: NULLABLE(Type.String()),
};
const ROLE = Type.Union(
  CMR_ROLES.map((r) => Type.Literal(r)),
  { description: '`sender` (the freight’s owner), `carrier` (the winner), `consignee` (through its link)' },
);
const STATUS = Type.Union(
  CMR_STATUSES.map((s) => Type.Literal(s)),
  { description: '`issued` on award, `loaded` once sender and carrier signed, `delivered` once the consignee signed' },
);
const HASH = (description: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description });

export const SIGNATURE = Type.Object(
  {
    role: ROLE,
    name: Type.String({ description: 'the signer’s name as written' }),
    at: Type.String({ description: 'YYYY-MM-DD HH:MM:SS in the note’s `timezone`' }),
    reservations: NULLABLE(Type.String({ description: 'the signer’s reservations; null: none' })),
    hash: HASH('this signature’s link: SHA-256 of the previous link followed by the canonical JSON of { at, name, reservations, role }'),
  },
  { description: 'A signature entry (append-only)' },
);

export const CMR = Type.Object(
  {
    format: Type.Literal(CMR_FORMAT),
    number: Type.String({ description: 'unique on the exchange' }),
    freight: Type.Integer(),
    issued: Type.String({ description: 'the award: YYYY-MM-DD HH:MM:SS in `timezone`' }),
    timezone: Type.String(),
    sender: PARTY('CMR box 1, eFTI consignor: the freight’s owner'),
    consignee: PARTY(
      'CMR box 2, eFTI consignee: the transport order’s consignee (the freight’s `refs.consignee`) as `name`, else null; the consignee signs with its name',
    ),
    delivery_place: Type.Object(PLACE, { description: 'CMR box 3, eFTI consigneeReceiptLocation' }),
    taking_over: Type.Object(
      { ...PLACE, date: NULLABLE(Type.String({ description: 'YYYY-MM-DD: the loading window’s start' })) },
      { description: 'CMR box 4, eFTI carrierAcceptanceLocation, and the date' },
    ),
    goods: Type.Array(
      Type.Object({
        marks: NULLABLE(Type.String({ description: 'box 6: the freight’s customer reference' })),
        packages: NULLABLE(Type.Integer({ description: 'box 7, eFTI goodsUnitQuantity' })),
        nature: NULLABLE(Type.String({ description: 'box 9, eFTI natureIdentificationCargo' })),
        gross_weight: NULLABLE(Type.String({ description: 'box 11, kg, exact decimal text' })),
      }),
      { description: 'boxes 6-11 per line (eFTI includedConsignmentItem)' },
    ),
    gross_weight: NULLABLE(Type.String({ description: 'box 11 total, kg, exact decimal text (eFTI grossWeight)' })),
    dangerous_goods: NULLABLE(Type.String({ description: 'eFTI dangerousGoods' })),
    carrier: PARTY('CMR box 16, eFTI carrier: the winner'),
    vehicle_registration: Type.Optional(
      NULLABLE(
        Type.String({
          description:
            'the vehicle’s registration (plate) beside box 16, from the transport order’s version the carrier issued with it; a note follows the order only until its first signature',
        }),
      ),
    ),
    status: STATUS,
    signatures: Type.Array(SIGNATURE, { description: 'in the order signed' }),
    hash: HASH('the chain’s head: the last signature’s link, or before any signature the SHA-256 of the issued note’s canonical JSON'),
  },
  {
    description:
      'The consignment note. The issued note is this object without `status`, `signatures` and `hash`; its canonical JSON (docs/choices.md, "The e-CMR") hashed with SHA-256 is the chain’s first link.',
  },
);

const TOKEN = { token: Type.String({ description: 'the link’s secret token, as its address carries it' }) };

const FREIGHT_ID = { freightId: Type.Integer({ description: 'the freight id' }) };

export const CMR_DOCS = {
  read: {
    summary: 'The e-CMR of an awarded road freight (its owner and winner; anyone else, or a freight without a note: 404).',
    tag: 'cmr',
    path: FREIGHT_ID,
    data: Type.Object({ cmr: CMR }),
  },
  sign: {
    summary:
      'Sign the e-CMR at loading: `sender` by the freight’s owner, `carrier` by its winner, in either order (both: `loaded`). Appends a signature to the hash chain and a PDF of the note to the freight’s documents (`cmr`). A role signed twice, the consignee here, the wrong company or a freight not taken: `status` = `error`, nothing changed. Event `cmr.signed` to the other party.',
    tag: 'cmr',
    path: FREIGHT_ID,
    input: Type.Object({
      role: Type.Union([Type.Literal('sender'), Type.Literal('carrier')]),
      name: Type.String({ minLength: NAME_MIN, maxLength: NAME_MAX }),
      reservations: Type.Optional(Type.String({ maxLength: RESERVATIONS_MAX, description: 'the goods’ or packaging’s condition' })),
    }),
    data: Type.Object({ cmr: CMR, document: DOCUMENT.schema }),
  },
  verify: {
    summary:
      'Check a copy of an e-CMR (no login): whether `hash` is a link of the note’s signature chain, recomputed from what the exchange stores, and the note’s status; nothing else. An unknown number: 404.',
    tag: 'cmr',
    path: { number: Type.String({ description: 'the note’s number' }) },
    input: Type.Object({ hash: Type.Optional(Type.String({ description: 'the hash printed on the copy (64 hex characters)' })) }),
    data: Type.Object({ valid: Type.Boolean(), status: STATUS }),
  },
  link: {
    summary:
      'The consignee’s signing link, issued by the winner (the carrier) while the freight is taken: an address without an account that opens this note only and ends with the delivery (or after 14 days). The owner: `status` = `error` (`cmr.link_by_carrier`); anyone else, or a freight without a note: 404.',
    tag: 'cmr',
    path: FREIGHT_ID,
    data: Type.Object({
      link: Type.Object({
        url: Type.String({ description: 'the consignee’s page (PUBLIC_URL/cmr/consignee/<token>); shown once' }),
        expires: Type.String({ description: 'YYYY-MM-DD HH:MM:SS in APP_TIMEZONE' }),
      }),
    }),
  },
  consignee: {
    summary: 'What the consignee’s link shows (no login: the link is the key): the note. A link unknown, revoked or ended: 404.',
    tag: 'cmr',
    path: TOKEN,
    input: Type.Object({
      lang: Type.Optional(Type.Union([Type.Literal('eng'), Type.Literal('deu')], { description: 'the page’s language' })),
    }),
    data: Type.Object({ cmr: CMR, expires: Type.String({ description: 'when the link stops opening' }) }),
  },
  consigneeSign: {
    summary:
      'The consignee signs at delivery through its link (no login): `name` and optional `reservations`. Once sender and carrier have signed; the note becomes `delivered` and the freight delivered (status `closed`, delivery status 3) in the same transaction, and the freight’s links end. Before loading: `cmr.not_loaded`; twice: `cmr.already_signed`; events `cmr.signed` to both parties and `freight.delivery_status`.',
    tag: 'cmr',
    path: TOKEN,
    input: Type.Object({
      name: Type.String({ minLength: NAME_MIN, maxLength: NAME_MAX }),
      reservations: Type.Optional(Type.String({ maxLength: RESERVATIONS_MAX })),
    }),
    data: Type.Object({ cmr: CMR }),
  },
};

export const CMR_EVENT_DOCS = {
  'cmr.signed': {
    summary: 'A party signed the freight’s e-CMR (decisions.md §19); its new PDF is among the documents.',
    recipients: 'the other party (the owner when the carrier signs, the winner when the sender signs); both when the consignee signs.',
    data: Type.Object({
      cmr: Type.Object({
        number: Type.String(),
        freight: Type.Integer(),
        status: STATUS,
        hash: HASH('the chain’s head after this signature'),
        signature: SIGNATURE,
      }),
      document: DOCUMENT.schema,
    }),
  },
} satisfies Record<'cmr.signed', EventDoc>;
