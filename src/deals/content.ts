import { createHash } from 'node:crypto';
import { isOneOf, readString, type Params } from '../kernel/params.ts';
import type { Warning } from '../kernel/outcome.ts';
import { MAX_DOCUMENT_BYTES, NAME_MAX, UPLOAD_KINDS, type DocumentKind } from './tables.ts';

/**
 * A document as a party sends it (decisions.md §13): its kind, its name and its bytes, read and
 * bounded before any work. The type is what the first bytes say (PDF, JPEG, PNG), never what the
 * name or the sender claims; anything else is refused with a field error and nothing stored.
 */

/** The media types the exchange accepts, each recognised by its first bytes. */
const SIGNATURES: ReadonlyArray<{ type: string; magic: readonly number[] }> = [
  { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

export function mediaTypeOf(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => bytes.length >= s.magic.length && s.magic.every((b, i) => bytes[i] === b))?.type;
}

/**
 * The longest base64 text that can hold MAX_DOCUMENT_BYTES, with room for line breaks (MIME
 * writes one every 76 characters): a longer text is refused before it is decoded.
 */
export const MAX_BASE64_CHARS = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4 + Math.ceil(MAX_DOCUMENT_BYTES / 57) * 2;
/** The JSON upload's body limit: the longest content and the other fields; a larger body is a 413. */
export const UPLOAD_BODY_LIMIT = MAX_BASE64_CHARS + 64 * 1024;

/** Why a document is refused: the failure's code, its field and its words. */
export type DocumentProblem =
  | 'documents.kind_invalid'
  | 'documents.kind_reserved'
  | 'documents.name_invalid'
  | 'documents.content_invalid'
  | 'documents.type_refused'
  | 'documents.too_large';

export const PROBLEM_FIELD: Record<DocumentProblem, string> = {
  'documents.kind_invalid': 'kind',
  'documents.kind_reserved': 'kind',
  'documents.name_invalid': 'name',
  'documents.content_invalid': 'content',
  'documents.type_refused': 'content',
  'documents.too_large': 'content',
};

export interface DocumentInput {
  kind: Exclude<DocumentKind, 'order'>;
  name: string;
  bytes: Buffer;
  mediaType: string;
  sha256: string;
}

export type DocumentRead = { ok: true; input: DocumentInput } | { ok: false; problem: DocumentProblem };

/** The content of a JSON upload: base64, bounded by its length first, then decoded. */
export function decodeContent(raw: unknown): { ok: true; bytes: Buffer } | { ok: false; problem: DocumentProblem } {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, problem: 'documents.content_invalid' };
  if (raw.length > MAX_BASE64_CHARS) return { ok: false, problem: 'documents.too_large' };
  const text = raw.replace(/\s+/g, '');
  // Standard and URL-safe alphabets, padding optional; anything else is not base64.
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1) return { ok: false, problem: 'documents.content_invalid' };
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  return bytes.length > MAX_DOCUMENT_BYTES ? { ok: false, problem: 'documents.too_large' } : { ok: true, bytes };
}

/** A file name as stored: no path, no control characters, at most NAME_MAX characters. */
export function readName(raw: unknown): string | undefined {
  const text = readString(raw)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .split(/[\\/]/)
    .pop()
    ?.trim();
  return text && text.length <= NAME_MAX ? text : undefined;
}

/**
 * Reads a document: `kind`, `name` and the bytes (decoded from `content` by the JSON upload, the
 * file itself from the page's multipart form, whose name stands in for a missing `name`).
 */
export function readDocument(params: Params, bytes: Buffer | { problem: DocumentProblem }, fileName?: string): DocumentRead {
  const kind = params.kind;
  if (kind === 'order') return { ok: false, problem: 'documents.kind_reserved' };
  if (!isOneOf(UPLOAD_KINDS, kind)) return { ok: false, problem: 'documents.kind_invalid' };
  const given = params.name === undefined || params.name === '' ? fileName : params.name;
  const name = readName(given);
  if (name === undefined) return { ok: false, problem: 'documents.name_invalid' };
  if (!Buffer.isBuffer(bytes)) return { ok: false, problem: bytes.problem };
  if (bytes.length === 0) return { ok: false, problem: 'documents.content_invalid' };
  const mediaType = mediaTypeOf(bytes);
  if (!mediaType) return { ok: false, problem: 'documents.type_refused' };
  return { ok: true, input: { kind, name, bytes, mediaType, sha256: sha256(bytes) } };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The field error of a refused document (`data.errors`, as the other modules' field errors). */
export const problemData = (problem: DocumentProblem, reason: string): { errors: Warning[] } => ({
  errors: [{ field: PROBLEM_FIELD[problem], reason }],
});

/** `Content-Disposition: attachment` with the name as ASCII and as UTF-8 (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
