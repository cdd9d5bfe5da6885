import { FileRefused } from './problems.ts';

/** Largest file accepted (decoded); the endpoint's body limit leaves room for its base64 form. */
export const MAX_FILE_BYTES = 15 * 1024 * 1024;
/** base64 of MAX_FILE_BYTES plus the other fields of the request. */
export const PUSH_BODY_LIMIT = Math.ceil((MAX_FILE_BYTES * 4) / 3) + 1024 * 1024;

export class FileTooLarge extends Error {}

const PLAIN = ['plain', 'text', 'raw', 'utf8', 'utf-8'];

/**
 * The pushed content as bytes. `encoding` base64 (also when absent: api.md's example) is
 * checked strictly: standard or URL-safe alphabet, whitespace and line breaks allowed,
 * padding optional but correct. `plain` (or text, raw, utf8) takes the content as it is.
 */
export function decodeContent(encodingParam: unknown, content: unknown): { encoding: 'base64' | 'plain'; bytes: Buffer } {
  const enc = typeof encodingParam === 'string' && encodingParam.trim() !== '' ? encodingParam.trim().toLowerCase() : 'base64';
  if (typeof content !== 'string' || content.trim() === '') throw new FileRefused([{ line: null, field: 'content', message: 'no content provided' }]);
  if (PLAIN.includes(enc)) {
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > MAX_FILE_BYTES) throw new FileTooLarge();
    return { encoding: 'plain', bytes };
  }
  if (enc !== 'base64') throw new FileRefused([{ line: null, field: 'encoding', message: `"${enc.slice(0, 20)}" is not supported (base64 or plain)` }]);
  const compact = content.replace(/\s+/g, '');
  const valid = (/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || /^[A-Za-z0-9_-]*={0,2}$/.test(compact)) && (compact.includes('=') ? compact.length % 4 === 0 : compact.length % 4 !== 1);
  if (!valid) throw new FileRefused([{ line: null, field: 'content', message: 'not valid base64' }]);
  if (Math.floor((compact.length * 3) / 4) > MAX_FILE_BYTES + 2) throw new FileTooLarge();
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw new FileRefused([{ line: null, field: 'content', message: 'no content provided' }]);
  if (bytes.length > MAX_FILE_BYTES) throw new FileTooLarge();
  return { encoding: 'base64', bytes };
}

/** The bytes as UTF-8 text, for the CSV actions; anything else is refused. */
export function utf8Text(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FileRefused([{ line: null, field: 'content', message: 'not UTF-8 text' }]);
  }
}
