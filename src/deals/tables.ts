import type { ColumnType, Generated } from 'kysely';

/**
 * The deal room's tables (docs/reference.md#deal-room) and the named values that explain their rows.
 * Behaviour lives in the other files; this one imports none of them, so db/schema.ts can join it.
 */

/** A message of the conversation between a freight's owner and one other company (`partner_id`). */
export interface DealMessagesTable {
  id: Generated<number>;
  freight_id: number;
  /** the other company of the conversation (never the owner): one conversation per partner */
  partner_id: number;
  from_company_id: number;
  to_company_id: number;
  /** the writing user; null once deleted */
  user_id: number | null;
  text: string;
  created: Date;
  /** when the recipient company read the conversation; null while unread */
  read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A document of a freight's two parties; its bytes are stored here (bytea). */
export interface DealDocumentsTable {
  id: Generated<number>;
  freight_id: number;
  /** the uploading company; null for the exchange's own transport order (`order`, written on award) */
  company_id: number | null;
  /** the uploading user; null for the exchange's transport order */
  user_id: number | null;
  kind: DocumentKind;
  name: string;
  /** recognised from the first bytes: application/pdf, image/jpeg, image/png */
  media_type: string;
  size: number;
  /** hex */
  sha256: string;
  /** the bytes of the transport order (and of documents stored before parts); null: in deal_document_parts */
  content: Uint8Array | null;
  created: Date;
}

/** A part of a party's document (migration 0160): 256 KiB of its bytes, in order of `part`. */
export interface DealDocumentPartsTable {
  document_id: number;
  part: number;
  bytes: Uint8Array;
}

/** An upload under way: its document id drawn, its parts being written, its row not yet (parts of one left behind are removed). */
export interface DealUploadsTable {
  document_id: number;
  started: Date;
}

/**
 * The transport order's content (version 1 written in the award's transaction, later versions by the carrier's re-issue):
 * the JSON text exactly as issued, beside its PDF (`document_id`, a `deal_documents` row of kind `order`).
 */
export interface DealOrdersTable {
  freight_id: number;
  /** 1 on award, one more for each re-issue (migration 0406: the carrier's plate and driver) */
  version: ColumnType<number, number | undefined, never>;
  document_id: number;
  content: string;
  created: Date;
}

export interface DealTables {
  deal_messages: DealMessagesTable;
  deal_documents: DealDocumentsTable;
  deal_document_parts: DealDocumentPartsTable;
  deal_uploads: DealUploadsTable;
  deal_orders: DealOrdersTable;
}

/** Characters of a message, counted as Unicode code points (an emoji is one), not UTF-16 units. */
export const TEXT_MIN = 1;
export const TEXT_MAX = 4000;

/** Every kind of document; `order` is the exchange's own (the transport order on award). */
export const DOCUMENT_KINDS = ['cmr', 'pod', 'invoice', 'other', 'order'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** The kinds a party may upload. */
export const UPLOAD_KINDS = ['cmr', 'pod', 'invoice', 'other'] as const satisfies readonly DocumentKind[];

/**
 * Largest document, decoded (docs/reference.md#deal-room: "at most 10 MB"), read to the letter as SI
 * megabytes: 10,000,000 bytes, not 10 MiB (docs/choices.md, "Deal room").
 */
export const MAX_DOCUMENT_BYTES = 10_000_000;
/** The bound in the megabytes the pages and messages name (SI: 1 MB = 1,000,000 bytes). */
export const MAX_DOCUMENT_MB = MAX_DOCUMENT_BYTES / 1_000_000;
/** Characters of a document's name. */
export const NAME_MAX = 200;
