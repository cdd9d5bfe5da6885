import { createHash } from 'node:crypto';
import { isOneOf, readString, type Params } from '../kernel/params.ts';
import type { Warning } from '../kernel/outcome.ts';
import { MAX_DOCUMENT_BYTES, NAME_MAX, UPLOAD_KINDS, type DocumentKind } from './tables.ts';

/** Characters of a JSON upload's fields other than `content`, together (the kind, the name). */
export const OTHER_FIELDS_CHARS = 64 * 1024;

/**
 * A document as a party sends it (docs/reference.md#deal-room): its kind, its name and its bytes, read and
 * bounded before any work. The type is what the first bytes say (PDF, JPEG, PNG), never what the
 * name or the sender claims; anything else is refused with a field error and nothing stored.
 */

/** The media types the exchange accepts, each recognised by its first bytes. */
const SIGNATURES: ReadonlyArray<{ type: string; magic: readonly number[]; extensions: readonly string[] }> = [
  { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d], extensions: ['pdf'] }, // %PDF-
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff], extensions: ['jpg', 'jpeg'] },
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], extensions: ['png'] },
];

/** The media types a document may have (what its first bytes are recognised as). */
export const DOCUMENT_MEDIA_TYPES = SIGNATURES.map((s) => s.type);

/** Bytes enough to tell every accepted type (PNG's signature is the longest). */
export const SIGNATURE_BYTES = 8;

export function mediaTypeOf(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => bytes.length >= s.magic.length && s.magic.every((b, i) => bytes[i] === b))?.type;
}

/**
 * The longest base64 text that can hold MAX_DOCUMENT_BYTES, with room for line breaks (MIME
 * writes CRLF every 76 characters): a longer text is refused as too large without decoding more.
 */
export const MAX_BASE64_CHARS = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4 + Math.ceil(MAX_DOCUMENT_BYTES / 57) * 2;
/**
 * The JSON upload's body limit: the longest content as JSON writes it (each line break as the
 * four characters `\r\n`; a slash as `\/` where an encoder escapes it, room for twice the share
 * of slashes in random bytes), and 64 KiB for the other fields. A larger body is a 413.
 */
export const UPLOAD_BODY_LIMIT =
  MAX_BASE64_CHARS + Math.ceil(MAX_DOCUMENT_BYTES / 57) * 2 + Math.ceil(MAX_BASE64_CHARS / 32) + OTHER_FIELDS_CHARS;

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

/** Bytes stored as a document's parts (upload.ts DocumentUpload). */
export interface StoredBytes {
  /** the document id drawn for them (the row is written under it) */
  id: number;
  size: number;
  sha256: string;
  mediaType: string;
}

export type UploadResult = { ok: true; stored: StoredBytes } | { ok: false; problem: DocumentProblem };

/** Where a document's decoded bytes go, a part at a time (upload.ts DocumentUpload). */
export interface DocumentSink {
  readonly problem: DocumentProblem | undefined;
  write(bytes: Buffer): Promise<void>;
  refuse(problem: DocumentProblem): Promise<void>;
}

/** A document read: its kind and name, its bytes stored as parts (upload.ts). */
export interface DocumentInput {
  kind: Exclude<DocumentKind, 'order'>;
  name: string;
  stored: StoredBytes;
}

export type DocumentRead = { ok: true; input: DocumentInput } | { ok: false; problem: DocumentProblem };

const BASE64_TEXT = /^[A-Za-z0-9+/_-]*$/;
const WHITESPACE = /\s/;

/**
 * The JSON upload's `content` as it arrives (a slice at a time, kernel/json-stream.ts), decoded
 * into the upload: whitespace (MIME line breaks) skipped, standard or URL-safe base64 (Node
 * reads both), padding only at the end; anything else refuses the document as not base64.
 * Each slice is checked and decoded on its own, so no step takes longer than one slice.
 */
export class Base64Reader {
  private carry = '';
  private chars = 0;
  private padding = 0;

  constructor(private readonly upload: DocumentSink) {}

  async write(text: string): Promise<void> {
    if (this.upload.problem) return;
    this.chars += text.length;
    if (this.chars > MAX_BASE64_CHARS) return this.upload.refuse('documents.too_large');
    let clean = WHITESPACE.test(text) ? text.replace(/\s+/g, '') : text;
    const pad = clean.indexOf('=');
    if (pad !== -1 || this.padding) {
      // `=` ends the text: one or two of them, and nothing after.
      const tail = pad === -1 ? clean : clean.slice(pad);
      this.padding += tail.length;
      if (!/^=*$/.test(tail) || this.padding > 2) return this.upload.refuse('documents.content_invalid');
      clean = pad === -1 ? '' : clean.slice(0, pad);
    }
    if (!BASE64_TEXT.test(clean)) return this.upload.refuse('documents.content_invalid');
    this.carry += clean;
    const whole = this.carry.length - (this.carry.length % 4);
    if (whole === 0) return;
    const quads = this.carry.slice(0, whole);
    this.carry = this.carry.slice(whole);
    await this.upload.write(Buffer.from(quads, 'base64'));
  }

  /** The text is complete: what is left decoded (2 or 3 characters make 1 or 2 bytes; 1 is no base64). */
  async end(): Promise<void> {
    if (this.upload.problem) return;
    if (this.carry.length % 4 === 1) return this.upload.refuse('documents.content_invalid');
    if (this.carry) await this.upload.write(Buffer.from(this.carry, 'base64'));
    this.carry = '';
  }
}

/**
 * Characters a file name never keeps: controls (C0, DEL, C1), the bidirectional formatting
 * characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: `\u202Egpj.exe` shows as
 * `exe.jpg`) and the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** A file name as stored: no path, no control or bidirectional formatting characters, at most NAME_MAX characters. */
export function readName(raw: unknown): string | undefined {
  const text = readString(raw)?.replace(UNSAFE_IN_NAMES, '').split(/[\\/]/).pop()?.trim();
  return text && text.length <= NAME_MAX ? text : undefined;
}

/**
 * The name a document is downloaded under: the stored name cleaned again (names stored before
 * the cleaning), ending in the recognised type's extension: a name whose last extension is
 * another (`poly.html` holding a PDF) loses it for the type's (`poly.pdf`); one without an
 * extension gains it. So the file opens as what it is, whatever it was called.
 */
export function downloadName(name: string, mediaType: string): string {
  const extensions = SIGNATURES.find((s) => s.type === mediaType)?.extensions ?? [];
  const clean = name.replace(UNSAFE_IN_NAMES, '').trim();
  const dot = clean.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [clean.slice(0, dot), clean.slice(dot + 1).toLowerCase()] : [clean, ''];
  if (!extensions.length || extensions.includes(ext)) return clean || 'document';
  return `${(ext && /^[a-z0-9]{1,10}$/.test(ext) ? stem : clean).trim() || 'document'}.${extensions[0]}`;
}

/**
 * Reads a document: `kind`, `name` and the bytes as the upload took them (decoded from
 * `content` by the JSON upload, the file itself from the page's multipart form, whose name
 * stands in for a missing `name`). The problems in the order they are answered: kind, name, bytes.
 */
export function readDocument(params: Params, bytes: UploadResult, fileName?: string): DocumentRead {
  const kind = params.kind;
  if (kind === 'order') return { ok: false, problem: 'documents.kind_reserved' };
  if (!isOneOf(UPLOAD_KINDS, kind)) return { ok: false, problem: 'documents.kind_invalid' };
  const given = params.name === undefined || params.name === '' ? fileName : params.name;
  const name = readName(given);
  if (name === undefined) return { ok: false, problem: 'documents.name_invalid' };
  if (!bytes.ok) return { ok: false, problem: bytes.problem };
  return { ok: true, input: { kind, name, stored: bytes.stored } };
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
