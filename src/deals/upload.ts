import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { nextTurn } from '../kernel/pace.ts';
import { mediaTypeOf, SIGNATURE_BYTES, type DocumentProblem, type DocumentSink, type UploadResult } from './content.ts';
import { beginUpload, dropUpload, insertParts, PART_BYTES } from './store.ts';
import { MAX_DOCUMENT_BYTES } from './tables.ts';

/**
 * A party's document as its bytes arrive (docs/reference.md#deal-room; docs/choices.md, "Deal room"):
 * from the JSON upload's base64, decoded slice by slice (content.ts Base64Reader), or from the
 * page's multipart file as the request brings it. Nothing is held whole: the bytes are counted
 * (more than 10,000,000 is refused at the first byte beyond), their type is read from the first
 * bytes (anything but PDF, JPEG or PNG is refused before a part is written), and they are
 * hashed and stored in parts of 256 KiB, written WRITE_BYTES at a time (four parts in one
 * statement) with a turn of the event loop after each. A refused upload writes no further part and removes those
 * written; the document's row is written by room.ts under the id drawn here, or `discard`
 * removes the parts.
 */

/**
 * Bytes written per statement: four parts. On the embedded database every statement of every
 * request queues for its one connection; a 10 MB upload written part by part queued 40 times
 * behind 3 clients' awards (the review: 14–18 s against 0.6 s alone), four parts at a time 10
 * times, each statement still short (docs/choices.md, Reliability; `npm run bench:upload`).
 */
export const WRITE_BYTES = 4 * PART_BYTES;

/** One document's bytes as they arrive, stored as parts waiting for their document's row. */
export class DocumentUpload implements DocumentSink {
  private id: number | undefined;
  private part = 0;
  private size = 0;
  private readonly hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private mediaType: string | undefined;
  private problemFound: DocumentProblem | undefined;
  private kept = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: Date,
  ) {}

  /** Why the bytes are refused, once they are: later bytes are not looked at. */
  get problem(): DocumentProblem | undefined {
    return this.problemFound;
  }

  /** The next bytes of the document. */
  async write(bytes: Buffer): Promise<void> {
    if (this.problemFound || bytes.length === 0) return;
    this.size += bytes.length;
    if (this.size > MAX_DOCUMENT_BYTES) return this.refuse('documents.too_large');
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.mediaType === undefined && this.pendingBytes >= SIGNATURE_BYTES && !this.recognise()) return;
    while (this.pendingBytes >= WRITE_BYTES) await this.flush(WRITE_BYTES);
  }

  /** Refuses the document (a problem found outside the bytes, e.g. a truncated file); removes what was written. */
  async refuse(problem: DocumentProblem): Promise<void> {
    this.problemFound ??= problem;
    this.pending = [];
    this.pendingBytes = 0;
    await this.discard();
  }

  /** The bytes are complete: the last part written, or why they are refused. */
  async finish(): Promise<UploadResult> {
    if (!this.problemFound && this.size === 0) await this.refuse('documents.content_invalid');
    if (!this.problemFound && this.mediaType === undefined) this.recognise();
    if (this.problemFound) {
      await this.discard();
      return { ok: false, problem: this.problemFound };
    }
    if (this.pendingBytes > 0) await this.flush(this.pendingBytes);
    return { ok: true, stored: { id: this.id!, size: this.size, sha256: this.hash.digest('hex'), mediaType: this.mediaType! } };
  }

  /** The parts are the document's now (its row was written): `discard` leaves them. */
  keep(): void {
    this.kept = true;
  }

  /** Removes the parts written (unless kept); safe to call more than once. */
  async discard(): Promise<void> {
    if (this.kept || this.id === undefined) return;
    const id = this.id;
    this.id = undefined;
    await dropUpload(this.db, id);
  }

  /** The type from the first bytes, or the refusal; answers whether it was recognised. */
  private recognise(): boolean {
    const head = Buffer.concat(this.pending).subarray(0, SIGNATURE_BYTES);
    this.mediaType = mediaTypeOf(head);
    if (this.mediaType) return true;
    this.problemFound = 'documents.type_refused';
    this.pending = [];
    this.pendingBytes = 0;
    return false;
  }

  /** Hashes and writes the next `n` pending bytes as parts, in one statement (the upload noted at its first write). */
  private async flush(n: number): Promise<void> {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const bytes = all.subarray(0, n);
    const rest = all.subarray(n);
    this.pending = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    this.hash.update(bytes);
    this.id ??= await beginUpload(this.db, this.now);
    const parts: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += PART_BYTES) parts.push(bytes.subarray(at, at + PART_BYTES));
    await insertParts(this.db, this.id, this.part, parts);
    this.part += parts.length;
    await nextTurn();
  }
}
