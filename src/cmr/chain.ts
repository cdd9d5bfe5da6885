import { createHash } from 'node:crypto';

/**
 * The e-CMR's tamper evidence (docs/reference.md#ecmr; docs/choices.md, "The e-CMR's hash chain",
 * which writes the method down with a verifier of a few lines):
 *
 * - **Canonical JSON** of a value: JSON with no white space between tokens, the members of every
 *   object sorted by name (by UTF-16 code units, as JavaScript's sort compares strings), strings
 *   written as JSON.stringify writes them (only `"`, `\` and control characters escaped; every
 *   other character as itself, in UTF-8). A note holds only strings, integers, null and arrays and
 *   objects of them (weights are decimal text), for which this is RFC 8785 (JCS) exactly.
 * - The first link is the SHA-256 (hex, lower case) of the issued note's canonical JSON.
 * - Each signature's link is the SHA-256 of the previous link's hex text followed by the canonical
 *   JSON of its entry `{ "at", "name", "reservations", "role" }`, both as UTF-8.
 * - The chain's head is the last link.
 */

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error('a note holds integers only (decimals as text)');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const object = value as { readonly [key: string]: Json };
  const keys = Object.keys(object)
    .filter((k) => object[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k]!)}`).join(',')}}`;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A signature's entry as it is hashed: `reservations` null when none were written. */
export interface SignatureEntry {
  role: 'sender' | 'carrier' | 'consignee';
  name: string;
  /** `YYYY-MM-DD HH:MM:SS` in the note's `timezone` */
  at: string;
  reservations: string | null;
}

/** The link after `previous` for an entry's canonical JSON text. */
export const nextLink = (previous: string, entryJson: string) => sha256Hex(previous + entryJson);

/**
 * The chain recomputed from what is stored (the note's canonical text, the entries' texts) and
 * compared with the stored links: every link, in order, when all agree; undefined when any
 * differs (a row changed after it was written).
 */
export function recomputeChain(
  note: { content: string; hash: string },
  entries: ReadonlyArray<{ entry: string; hash: string }>,
): string[] | undefined {
  let link = sha256Hex(note.content);
  if (link !== note.hash) return undefined;
  const links = [link];
  for (const e of entries) {
    link = nextLink(link, e.entry);
    if (link !== e.hash) return undefined;
    links.push(link);
  }
  return links;
}
