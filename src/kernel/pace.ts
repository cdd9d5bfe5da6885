import { parse, type Options } from 'csv-parse';

/**
 * Long work on one request must not hold up the others (a 15 MiB push is hundreds of thousands
 * of lines): it runs in slices and gives the event loop a turn between them.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `await pace()` gives the event loop a turn once `budgetMs` of work has run since the last
 * turn; cheap to call often (it only reads the clock).
 */
export function pacer(budgetMs = 8): () => Promise<void> {
  let since = performance.now();
  const done = Promise.resolve();
  return () => {
    if (performance.now() - since < budgetMs) return done;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}

const SLICE_CHARS = 64 * 1024;

/**
 * Reads CSV text record by record with csv-parse, fed in slices that end at a line break, with
 * a turn of the event loop between slices. `onRecord` gets each record and the line it ends
 * on (1-based, as csv-parse counts); an error thrown by it, or csv-parse's own, is thrown here.
 *
 * A line longer than `max_record_size` characters is refused before anything is parsed, as a
 * csv-parse error of code `CSV_LINE_TOO_LONG` with its `lines`: csv-parse bounds a record's
 * characters but not its separators, and a slice hands it a line whole, so one line of millions
 * of commas (millions of fields) held the server for seconds.
 */
export async function readCsvInSlices(text: string, options: Options, onRecord: (record: string[], line: number) => void): Promise<void> {
  const max = Number(options.max_record_size ?? 0);
  const long = max ? firstLineLongerThan(text, max) : null;
  if (long !== null) throw Object.assign(new Error(`longer than ${max} characters`), { code: 'CSV_LINE_TOO_LONG', lines: long });
  let failure: unknown;
  const parser = parse({
    ...options,
    on_record: (record: string[], context: { lines: number }) => {
      onRecord(record, context.lines);
      return null; // nothing kept: the caller keeps what it needs
    },
  });
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.resume();
  const ended = new Promise<void>((resolve) => {
    parser.once('end', resolve);
    parser.once('error', () => resolve());
    parser.once('close', resolve);
  });
  for (let at = 0; at < text.length && failure === undefined; ) {
    // Slices end after a line break, so no character (or surrogate pair) is ever cut in two.
    const cut = text.indexOf('\n', Math.min(at + SLICE_CHARS, text.length - 1));
    const end = cut === -1 ? text.length : cut + 1;
    parser.write(text.slice(at, end));
    at = end;
    await nextTurn();
  }
  if (failure === undefined) parser.end();
  else parser.destroy();
  await ended;
  if (failure !== undefined) throw failure;
}

/**
 * The number (1-based; `\r\n`, `\r` and `\n` end a line) of the first line longer than `max`
 * characters, or null. Looks at windows of `max + 1` characters, each for its last line break.
 */
export function firstLineLongerThan(text: string, max: number): number | null {
  for (let start = 0; text.length - start > max; ) {
    const window = text.slice(start, start + max + 1);
    const lastBreak = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('\r'));
    if (lastBreak === -1) return (text.slice(0, start).match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
    start += lastBreak + 1;
  }
  return null;
}
