import type { Clock } from '../kernel/time.ts';
import type { StatusEvent } from '../events/index.ts';
import { readCsvInSlices } from '../kernel/pace.ts';
import { normaliseAwb } from './awb.ts';
import { FileRefused } from '../kernel/refused.ts';
import { flightNumber, Problems } from './status-fields.ts';

/** The columns of a status file (docs/reference.md#preview), in any order; the header row names them. */
export const STATUS_COLUMNS = [
  'awb',
  'code',
  'time',
  'location',
  'flight_number',
  'pieces',
  'weight',
  'special_handling_codes',
  'warehouse_location',
] as const;
type Column = (typeof STATUS_COLUMNS)[number];

const MAX_TEXT = 100;
/** Longest line (and record) read; a status line has nine short fields (readCsvInSlices refuses longer ones). */
const MAX_LINE = 10_000;
const STOP = new Error('stop');
const TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * clock.parse, remembered per local hour: zone arithmetic costs tens of microseconds and a file
 * has hundreds of thousands of times; the offset of APP_TIMEZONE changes only on the hour.
 */
function hourlyParser(clock: Clock): (text: string) => Date | null {
  const offsets = new Map<string, number | null>();
  return (text) => {
    const m = TIME.exec(text.trim());
    if (!m) return null;
    const [, y, mo, d, h, mi, s] = m;
    if (Number(mi) > 59 || Number(s ?? 0) > 59) return null;
    const key = `${y}-${mo}-${d} ${h}`;
    let offset = offsets.get(key);
    if (offset === undefined) {
      const base = clock.parse(`${key}:00`);
      offset = base ? Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h)) - base.getTime() : null;
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(key, offset);
    }
    return offset === null
      ? null
      : new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) - offset);
  };
}

/**
 * Reads a status file whole: every problem is collected (line and field) and the file is
 * refused as a whole (FileRefused), so a file is either imported completely or not at all.
 * Read in slices (pace.ts): other requests are answered while a large file is read.
 */
export async function parseStatusCsv(text: string, clock: Clock): Promise<StatusEvent[]> {
  const problems = new Problems();
  const events: StatusEvent[] = [];
  const parseTime = hourlyParser(clock);
  let names: string[] | null = null;
  const index = {} as Record<Column, number>;

  const onRecord = (record: string[], line: number) => {
    if (record.every((c) => c.trim() === '')) return;
    if (!names) {
      names = record.map((c) => c.trim().toLowerCase());
      const missing = STATUS_COLUMNS.filter((col) => !names!.includes(col));
      if (missing.length) {
        problems.add({
          line,
          field: null,
          message: `header: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected ${STATUS_COLUMNS.join(',')})`,
        });
        throw STOP;
      }
      for (const col of STATUS_COLUMNS) index[col] = names.indexOf(col);
      return;
    }
    if (record.length !== names.length) {
      problems.add({ line, field: null, message: `${record.length} fields, the header has ${names.length}` });
      return;
    }
    const before = problems.total;
    const cell = (col: Column) => (record[index[col]] ?? '').trim();
    const at = (col: Column, message: string) => problems.add({ line, field: col, message });
    const text = (col: Column, max = MAX_TEXT) => {
      const v = cell(col);
      if (v.length > max) at(col, `at most ${max} characters`);
      return v === '' ? null : v;
    };

    const awb = normaliseAwb(cell('awb'), 'separators');
    if (!awb) at('awb', `"${cell('awb').slice(0, 30)}" is not an AWB number (3-digit prefix and 8-digit serial)`);
    const code = cell('code').toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) at('code', `"${cell('code').slice(0, 30)}" is not a status code (3 letters such as RCF, NFD, AWD, DLV)`);
    const time = parseTime(cell('time'));
    if (!time) at('time', `"${cell('time').slice(0, 30)}" is not a time YYYY-MM-DD HH:MM[:SS]`);
    const pieces = cell('pieces');
    if (pieces !== '' && !/^\d{1,9}$/.test(pieces)) at('pieces', `"${pieces.slice(0, 30)}" is not a whole number`);
    const weight = cell('weight').replace(',', '.');
    if (weight !== '' && !/^\d{1,11}(\.\d{1,3})?$/.test(weight))
      at('weight', `"${cell('weight').slice(0, 30)}" is not a weight in kg (at most 3 decimals)`);
    const location = text('location', 35);
    const flight = text('flight_number', 16);
    const shc = text('special_handling_codes');
    const warehouse = text('warehouse_location');
    if (problems.total !== before || problems.total > 0) return; // a refused file keeps nothing
    events.push({
      awb: awb!,
      code,
      time: time!,
      location: location?.toUpperCase() ?? null,
      flight_number: flight ? flightNumber(flight) : null,
      pieces: pieces === '' ? null : Number(pieces),
      weight: weight === '' ? null : weight,
      special_handling_codes: shc,
      warehouse_location: warehouse,
    });
  };

  try {
    await readCsvInSlices(text, { bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_LINE }, onRecord);
  } catch (err) {
    if (err !== STOP) {
      const e = err as { lines?: number; message?: string; code?: string };
      if (typeof e?.code !== 'string' || !e.code.startsWith('CSV_')) throw err;
      if (e.code === 'CSV_LINE_TOO_LONG') throw new FileRefused([{ line: e.lines ?? null, field: null, message: String(e.message) }]);
      problems.add({
        line: e.lines ?? null,
        field: null,
        message: `not readable as CSV (${String(e.message ?? err)
          .replace(/ at line \d+.*$/, '')
          .slice(0, 120)})`,
      });
    }
  }
  if (!names && problems.total === 0)
    throw new FileRefused([{ line: null, field: 'file', message: 'the file is empty (a header row is required)' }]);
  problems.throwIfAny();
  return events;
}
