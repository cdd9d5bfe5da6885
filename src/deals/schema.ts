import { Type } from '@sinclair/typebox';
import type { EventDoc } from '../events/types.ts';
import { field, presenter } from '../kernel/fields.ts';
import { MAX_BASE64_CHARS } from './content.ts';
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
