import { nextTurn } from '../kernel/pace.ts';
import { FileRefused } from '../kernel/refused.ts';

/** Largest file accepted (decoded); the endpoint's body limit leaves room for its base64 form. */
export const MAX_FILE_BYTES = 15 * 1024 * 1024;
/** base64 of MAX_FILE_BYTES plus the other fields of the request. */
export const PUSH_BODY_LIMIT = Math.ceil((MAX_FILE_BYTES * 4) / 3) + 1024 * 1024;

export class FileTooLarge extends Error {}

const PLAIN = ['plain', 'text', 'raw', 'utf8', 'utf-8'];

const SLICE = 1024 * 1024; // characters of base64 checked per turn of the event loop
const WHITESPACE = /\s+/g;
/** The end of padded base64 from its first `=`: one or two, whitespace between and after allowed. */
const PADDING = /^=\s*(?:=\s*)?$/;

/**
 * The pushed content as bytes. `encoding` base64 (also when absent: docs/reference.md#the-api's example) is
 * checked strictly: standard or URL-safe alphabet, whitespace and line breaks allowed,
 * padding optional but correct. `plain` (or text, raw, utf8) takes the content as it is.
 * Large content is checked and decoded in slices, giving other requests a turn in between.
 */
export async function decodeContent(encodingParam: unknown, content: unknown): Promise<{ encoding: 'base64' | 'plain'; bytes: Buffer }> {
  const enc = typeof encodingParam === 'string' && encodingParam.trim() !== '' ? encodingParam.trim().toLowerCase() : 'base64';
  if (typeof content !== 'string' || content.trim() === '')
    throw new FileRefused([{ line: null, field: 'content', message: 'no content provided' }]);
  if (PLAIN.includes(enc)) {
    if (content.length > MAX_FILE_BYTES) throw new FileTooLarge(); // a character is at least a byte
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > MAX_FILE_BYTES) throw new FileTooLarge();
    return { encoding: 'plain', bytes };
  }
  if (enc !== 'base64')
    throw new FileRefused([{ line: null, field: 'encoding', message: `"${enc.slice(0, 20)}" is not supported (base64 or plain)` }]);
  // Checked slice by slice (a turn of the event loop between slices), without building a
  // whitespace-free copy: Node's base64 decoder skips whitespace itself.
  let standard = true;
  let urlSafe = true;
  let characters = 0;
  for (let at = 0; at < content.length && (standard || urlSafe); at += SLICE) {
    const slice = content.slice(at, at + SLICE);
    standard &&= /^[A-Za-z0-9+/=\s]*$/.test(slice);
    urlSafe &&= /^[A-Za-z0-9_\-=\s]*$/.test(slice);
    // Counted without a list of the matches: a million of them took 50 ms a slice.
    characters += slice.replace(WHITESPACE, '').length;
    if (at + SLICE < content.length) await nextTurn();
  }
  if (Math.floor((characters * 3) / 4) > MAX_FILE_BYTES + 2) throw new FileTooLarge();
  // Padding: only at the end, at most two.
  const firstPad = content.indexOf('=');
  const padded = firstPad !== -1;
  const valid =
    (standard || urlSafe) && (!padded || PADDING.test(content.slice(firstPad))) && (padded ? characters % 4 === 0 : characters % 4 !== 1);
  if (!valid) throw new FileRefused([{ line: null, field: 'content', message: 'not valid base64' }]);
  await nextTurn();
  // Without whitespace, slices of a multiple of 4 characters decode on their own.
  let bytes: Buffer;
  if (characters !== content.length) bytes = Buffer.from(content, 'base64');
  else {
    const parts: Buffer[] = [];
    for (let at = 0; at < content.length; at += SLICE) {
      parts.push(Buffer.from(content.slice(at, at + SLICE), 'base64'));
      if (at + SLICE < content.length) await nextTurn();
    }
    bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
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
