import type { Generated } from 'kysely';

/**
 * The e-CMR's tables (docs/reference.md#ecmr) and the named values that explain their rows. Behaviour
 * lives in the other files; this one imports none of them, so db/schema.ts can join it. Signatures
 * are append-only (migration 0350: a trigger refuses every update and delete); a note is written
 * on award and refilled from its order's new versions only while unsigned (migration 0406: frozen
 * at its first signature), each signature once, and the chain (chain.ts) proves it.
 */

/** A consignment note: the issued note's canonical JSON exactly as issued, and its hash (the chain's first link). */
export interface CmrNotesTable {
  id: number;
  freight_id: number;
  /** unique on the exchange: `CMR-<year>-<id, 6 digits at least>` */
  number: string;
  /** the issued note's canonical JSON (chain.ts canonicalJson) */
  content: string;
  /** SHA-256 (hex) of `content` */
  hash: string;
  created: Date;
}

/** A signature entry, appended in order (`seq` 1, 2, 3); its `entry` is its canonical JSON, `hash` its link of the chain. */
export interface CmrSignaturesTable {
  note_id: number;
  seq: number;
  role: CmrRole;
  /** canonical JSON of `{ role, name, at, reservations }` as signed */
  entry: string;
  /** SHA-256 (hex) of the previous link's hash followed by `entry` */
  hash: string;
  /** the signing company (the consignee signs for none: null) */
  company_id: number | null;
  /** the signing user (the consignee: the user who issued the link) */
  user_id: number | null;
  created: Generated<Date>;
}

export interface CmrTables {
  cmr_notes: CmrNotesTable;
  cmr_signatures: CmrSignaturesTable;
}

export const CMR_ROLES = ['sender', 'carrier', 'consignee'] as const;
export type CmrRole = (typeof CMR_ROLES)[number];

export const CMR_STATUSES = ['issued', 'loaded', 'delivered'] as const;
export type CmrStatus = (typeof CMR_STATUSES)[number];

/** A signer's name: 1 to 100 characters once trimmed (code points). */
export const NAME_MIN = 1;
export const NAME_MAX = 100;
/** Reservations: at most 2,000 characters (code points); empty means none. */
export const RESERVATIONS_MAX = 2000;
