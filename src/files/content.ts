import { nextTurn } from './pace.ts';
import { FileRefused } from './problems.ts';

/** Largest file accepted (decoded); the endpoint's body limit leaves room for its base64 form. */
export const MAX_FILE_BYTES = 15 * 1024 * 1024;
/** base64 of MAX_FILE_BYTES plus the other fields of the request. */
export const PUSH_BODY_LIMIT = Math.ceil((MAX_FILE_BYTES * 4) / 3) + 1024 * 1024;

export class FileTooLarge extends Error {}

const PLAIN = ['plain', 'text', 'raw', 'utf8', 'utf-8'];

const SLICE = 2 * 1024 * 1024; // characters of base64 per turn of the event loop (multiple of 4)

/**
 * The pushed content as bytes. `encoding` base64 (also when absent: api.md's example) is
 * checked strictly: standard or URL-safe alphabet, whitespace and line breaks allowed,
 * padding optional but correct. `plain` (or text, raw, utf8) takes the content as it is.
 * Large content is checked and decoded in slices, giving other requests a turn in between.
 */
export async function decodeContent(encodingParam: unknown, content: unknown): Promise<{ encoding: 'base64' | 'plain'; bytes: Buffer }> {
  const enc = typeof encodingParam === 'string' && encodingParam.trim() !== '' ? encodingParam.trim().toLowerCase() : 'base64';
  if (typeof content !== 'string' || content.trim() === '') throw new FileRefused([{ line: null, field: 'content', message: 'no content provided' }]);
  if (PLAIN.includes(enc)) {
    if (content.length > MAX_FILE_BYTES) throw new FileTooLarge(); // a character is at least a byte
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > MAX_FILE_BYTES) throw new FileTooLarge();
    return { encoding: 'plain', bytes };
  }
  if (enc !== 'base64') throw new FileRefused([{ line: null, field: 'encoding', message: `"${enc.slice(0, 20)}" is not supported (base64 or plain)` }]);
  const parts: string[] = [];
  for (let at = 0; at < content.length; at += SLICE) {
    parts.push(content.slice(at, at + SLICE).replace(/\s+/g, ''));
    if (at + SLICE < content.length) await nextTurn();
  }
  const compact = parts.join('');
  if (Math.floor((compact.length * 3) / 4) > MAX_FILE_BYTES + 2) throw new FileTooLarge();
  const body = compact.replace(/=+$/, '');
  const padding = compact.length - body.length;
  let standard = true;
  let urlSafe = true;
  for (let at = 0; at < body.length && (standard || urlSafe); at += SLICE) {
    const slice = body.slice(at, at + SLICE);
    standard &&= /^[A-Za-z0-9+/]*$/.test(slice);
    urlSafe &&= /^[A-Za-z0-9_-]*$/.test(slice);
    if (at + SLICE < body.length) await nextTurn();
  }
  const valid = (standard || urlSafe) && padding <= 2 && (padding > 0 ? compact.length % 4 === 0 : compact.length % 4 !== 1);
  if (!valid) throw new FileRefused([{ line: null, field: 'content', message: 'not valid base64' }]);
  const chunks: Buffer[] = [];
  for (let at = 0; at < compact.length; at += SLICE) {
    chunks.push(Buffer.from(compact.slice(at, at + SLICE), 'base64'));
    if (at + SLICE < compact.length) await nextTurn();
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) throw new FileRefused([{ line: null, field: 'content', message: 'no content provided' }]);
  if (bytes.length > MAX_FILE_BYTES) throw new FileTooLarge();
  return { encoding: 'base64', bytes };
}

/** The bytes as UTF-8 text, for the text actions (CSV, FSU, XFSU); anything else is refused. */
export function utf8Text(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FileRefused([{ line: null, field: 'content', message: 'not UTF-8 text' }]);
  }
}
