import { StringDecoder } from 'node:string_decoder';
import { pacer } from './pace.ts';
import { safeReviver } from './params.ts';

/**
 * A JSON body read as it arrives, for a body far larger than any other (a document's base64,
 * about 14 MB): the text is never held whole, nor parsed in one piece. The body is an object;
 * the string value of one named member (`field`) is handed to `onText` in slices, unescaped, as
 * its characters arrive; every other member is parsed by JSON.parse from its own text, those
 * texts bounded together by `otherChars`. The work runs in slices of the text with a turn of the
 * event loop once a slice has taken its budget (pace.ts), so no request waits for this one.
 *
 * A body that is not an object is read whole (at most `otherChars` characters) and answered as
 * JSON.parse reads it. Malformed JSON throws a JsonBodyError of status 400; a body beyond
 * `limit` bytes (Content-Length, or counted) or other members beyond `otherChars` throw one of
 * status 413. Keys `__proto__` and `constructor` are dropped, as the kernel's reviver drops them.
 */

export class JsonBodyError extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 413,
  ) {
    super(message);
    this.name = 'JsonBodyError';
  }
  readonly code = 'FX_BAD_BODY';
}

export interface StreamedJsonOptions {
  /** The member whose string value is streamed (`content`). */
  field: string;
  /** Gets the member's characters in order, unescaped; awaited before more is read. */
  onText(text: string): Promise<void> | void;
  /** Bytes of the whole body at most. */
  limit: number;
  /** Characters of everything but the streamed string at most. */
  otherChars: number;
}

export interface StreamedJson {
  /** The body's other members (or, for a body that is no object, what it parses to). */
  body: unknown;
  /** Whether the streamed member was present as a string. */
  streamed: boolean;
}

/** Characters handled before the pacer is asked whether the event loop is due a turn. */
const SLICE = 64 * 1024;
const WHITESPACE = ' \t\n\r';
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON strings may not hold raw
const CONTROL = /[\u0000-\u001f]/;
/** The characters that end a run of the streamed string: its closing quote, an escape. */
const SPECIAL = /["\\]/g;

type State = 'start' | 'raw' | 'first-key' | 'key-start' | 'key' | 'colon' | 'value' | 'stream' | 'other' | 'after-value' | 'end';

export async function readStreamedJson(
  stream: AsyncIterable<Buffer | string>,
  contentLength: string | undefined,
  options: StreamedJsonOptions,
): Promise<StreamedJson> {
  const declared = Number(contentLength);
  if (declared > options.limit) throw new JsonBodyError('the request body is too large', 413);
  const reader = new Reader(options);
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > options.limit) throw new JsonBodyError('the request body is too large', 413);
    await reader.push(decoder.write(buffer));
  }
  await reader.push(decoder.end());
  return reader.finish();
}

class Reader {
  private state: State = 'start';
  private readonly body: Record<string, unknown> = {};
  private other = ''; // the raw text of the member being read (a key, or a value other than the streamed string)
  private otherTotal = 0;
  private key = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** An escape of the streamed string cut by a slice's end: `\` or `\uXX`. */
  private pendingEscape = '';
  /** Characters of the streamed string not yet handed on (flush). */
  private text = '';
  private streamedSeen = false;
  private readonly pace = pacer();

  constructor(private readonly options: StreamedJsonOptions) {}

  async push(text: string): Promise<void> {
    // A slice at a time (the text may be the whole body in one piece): every search below stays within one.
    for (let at = 0; at < text.length; at += SLICE) {
      const piece = text.length <= SLICE ? text : text.slice(at, at + SLICE);
      for (let i = 0; i < piece.length; ) i = await this.slice(piece, i, piece.length);
      await this.flush();
      await this.pace();
    }
  }

  /** Handles text[at, end); answers where it stopped (end, or further when an escape ran over it). */
  private async slice(text: string, at: number, end: number): Promise<number> {
    let i = at;
    while (i < end) {
      if (this.state === 'stream') {
        i = await this.streamed(text, i, end);
        continue;
      }
      if (this.state === 'raw') {
        this.keep(text.slice(i, end));
        return end;
      }
      if (this.state === 'other') {
        i = this.otherValue(text, i, end);
        continue;
      }
      if (this.state === 'key') {
        i = this.keyText(text, i, end);
        continue;
      }
      const ch = text[i]!;
      if (WHITESPACE.includes(ch)) {
        i++;
        continue;
      }
      switch (this.state) {
        case 'start':
          if (ch === '{') this.state = 'first-key';
          else {
            this.state = 'raw';
            continue; // the whole body, as it is
          }
          break;
        case 'first-key':
          if (ch === '}') this.state = 'end';
          else this.startKey(ch);
          break;
        case 'key-start':
          this.startKey(ch);
          break;
        case 'colon':
          if (ch !== ':') throw bad();
          this.state = 'value';
          break;
        case 'value':
          if (this.key === this.options.field && ch === '"') {
            if (this.streamedSeen) throw new JsonBodyError(`the body names ${this.options.field} twice`, 400);
            this.streamedSeen = true;
            this.state = 'stream';
          } else {
            this.other = '';
            this.depth = 0;
            this.inString = false;
            this.escaped = false;
            this.state = 'other';
            continue; // this character begins the value
          }
          break;
        case 'after-value':
          if (ch === ',') this.state = 'key-start';
          else if (ch === '}') this.state = 'end';
          else throw bad();
          break;
        case 'end':
          throw bad();
      }
      i++;
    }
    return i;
  }

  private startKey(ch: string) {
    if (ch !== '"') throw bad();
    this.other = '"';
    this.escaped = false;
    this.state = 'key';
  }

  private keyText(text: string, at: number, end: number): number {
    for (let i = at; i < end; i++) {
      const ch = text[i]!;
      this.keep(ch);
      if (this.escaped) this.escaped = false;
      else if (ch === '\\') this.escaped = true;
      else if (ch === '"') {
        this.key = parse(this.other) as string;
        this.state = 'colon';
        return i + 1;
      }
    }
    return end;
  }

  /** A value other than the streamed string: its text up to the `,` or `}` that ends it at depth 0. */
  private otherValue(text: string, at: number, end: number): number {
    for (let i = at; i < end; i++) {
      const ch = text[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
      } else if (ch === '"') this.inString = true;
      else if (ch === '{' || ch === '[') this.depth++;
      else if (ch === '}' || ch === ']') {
        if (this.depth === 0) return this.endOther(i);
        this.depth--;
      } else if (ch === ',' && this.depth === 0) return this.endOther(i);
      this.keep(ch);
    }
    return end;
  }

  /** The value's text is complete: parsed, kept under its key; the character at `i` is read again. */
  private endOther(i: number): number {
    const value = parse(this.other.trim());
    if (!FORBIDDEN_KEYS.has(this.key)) this.body[this.key] = value;
    this.state = 'after-value';
    return i;
  }

  /** The streamed string: runs between escapes are gathered whole, an escape unescaped, until `"` ends it. */
  private async streamed(text: string, at: number, end: number): Promise<number> {
    let i = at;
    if (this.pendingEscape) {
      // `\` and one character, or `\u` and four hex digits: completed from this slice.
      while (i < end && !escapeComplete(this.pendingEscape)) this.pendingEscape += text[i++];
      if (!escapeComplete(this.pendingEscape)) return i;
      this.text += unescaped(this.pendingEscape);
      this.pendingEscape = '';
      return i;
    }
    SPECIAL.lastIndex = i;
    const found = SPECIAL.exec(text);
    const stop = found && found.index < end ? found.index : end;
    if (stop > i) {
      const run = text.slice(i, stop);
      if (CONTROL.test(run)) throw bad();
      this.text += run;
    }
    if (stop === end) return end;
    if (text[stop] === '"') {
      this.state = 'after-value';
      await this.flush();
    } else this.pendingEscape = '\\';
    return stop + 1;
  }

  /** The streamed string's characters gathered in this slice, handed on at once. */
  private async flush(): Promise<void> {
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    await this.options.onText(text);
  }

  private keep(text: string) {
    this.other += text;
    this.otherTotal += text.length;
    if (this.otherTotal > this.options.otherChars) throw new JsonBodyError('the request body is too large', 413);
  }

  finish(): StreamedJson {
    if (this.state === 'start') return { body: {}, streamed: false };
    if (this.state === 'raw') return { body: parse(this.other.trim()), streamed: false };
    if (this.state !== 'end') throw bad();
    return { body: this.body, streamed: this.streamedSeen };
  }
}

const escapeComplete = (e: string) => (e.length === 2 && e[1] !== 'u') || e.length === 6;

function unescaped(sequence: string): string {
  if (sequence[1] === 'u') {
    if (!/^\\u[0-9a-fA-F]{4}$/.test(sequence)) throw bad();
    return String.fromCharCode(Number.parseInt(sequence.slice(2), 16));
  }
  const ch = ESCAPES[sequence[1]!];
  if (ch === undefined) throw bad();
  return ch;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text, safeReviver);
  } catch {
    throw bad();
  }
}

const bad = () => new JsonBodyError('the JSON body could not be parsed', 400);
