import { parse } from 'csv-parse/sync';
import type { Clock } from '../kernel/time.ts';
import type { StatusEvent } from '../milkrun/store.ts';
import { FileRefused, type FileProblem } from './problems.ts';

/** The columns of a status file (decisions.md §6), in any order; the header row names them. */
export const STATUS_COLUMNS = ['awb', 'code', 'time', 'location', 'flight_number', 'pieces', 'weight', 'special_handling_codes', 'warehouse_location'] as const;
type Column = (typeof STATUS_COLUMNS)[number];

const MAX_PROBLEMS = 50;
const MAX_TEXT = 100;

/** `020-12345675`, `02012345675` or `020 12345675`: stored as `020-12345675`. */
export function normaliseAwb(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3)}` : null;
}

/**
 * Reads a status file whole: every problem is collected (line and field) and the file is
 * refused as a whole (FileRefused), so a file is either imported completely or not at all.
 */
export function parseStatusCsv(text: string, clock: Clock): StatusEvent[] {
  const problems: FileProblem[] = [];
  let total = 0;
  const problem = (p: FileProblem) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 100_000 }) as unknown as typeof records;
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    throw new FileRefused([{ line: e.lines ?? null, field: null, message: `not readable as CSV (${String(e.message ?? err).replace(/ at line \d+.*$/, '').slice(0, 120)})` }]);
  }
  const [head, ...rows] = records.filter((r) => r.record.some((c) => c.trim() !== ''));
  if (!head) throw new FileRefused([{ line: null, field: 'file', message: 'the file is empty (a header row is required)' }]);

  const names = head.record.map((c) => c.trim().toLowerCase());
  const index = {} as Record<Column, number>;
  const missing: string[] = [];
  for (const col of STATUS_COLUMNS) {
    const i = names.indexOf(col);
    if (i < 0) missing.push(col);
    else index[col] = i;
  }
  if (missing.length) throw new FileRefused([{ line: head.info.lines, field: null, message: `header: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected ${STATUS_COLUMNS.join(',')})` }]);

  const events: StatusEvent[] = [];
  for (const { record, info } of rows) {
    const line = info.lines;
    if (record.length !== names.length) {
      problem({ line, field: null, message: `${record.length} fields, the header has ${names.length}` });
      continue;
    }
    const before = total;
    const cell = (col: Column) => (record[index[col]] ?? '').trim();
    const at = (col: Column, message: string) => problem({ line, field: col, message });
    const text = (col: Column, max = MAX_TEXT) => {
      const v = cell(col);
      if (v.length > max) at(col, `at most ${max} characters`);
      return v === '' ? null : v;
    };

    const awb = normaliseAwb(cell('awb'));
    if (!awb) at('awb', `"${cell('awb').slice(0, 30)}" is not an AWB number (3-digit prefix and 8-digit serial)`);
    const code = cell('code').toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) at('code', `"${cell('code').slice(0, 30)}" is not a status code (3 letters such as RCF, NFD, AWD, DLV)`);
    const time = clock.parse(cell('time'));
    if (!time) at('time', `"${cell('time').slice(0, 30)}" is not a time YYYY-MM-DD HH:MM[:SS]`);
    const pieces = cell('pieces');
    if (pieces !== '' && !/^\d{1,9}$/.test(pieces)) at('pieces', `"${pieces.slice(0, 30)}" is not a whole number`);
    const weight = cell('weight').replace(',', '.');
    if (weight !== '' && !/^\d{1,11}(\.\d{1,3})?$/.test(weight)) at('weight', `"${cell('weight').slice(0, 30)}" is not a weight in kg (at most 3 decimals)`);
    const location = text('location', 35);
    const flight = text('flight_number', 16);
    const shc = text('special_handling_codes');
    const warehouse = text('warehouse_location');
    if (total !== before) continue;
    events.push({
      awb: awb!,
      code,
      time: time!,
      location: location?.toUpperCase() ?? null,
      flight_number: flight?.toUpperCase().replace(/\s+/g, '') ?? null,
      pieces: pieces === '' ? null : Number(pieces),
      weight: weight === '' ? null : weight,
      special_handling_codes: shc,
      warehouse_location: warehouse,
    });
  }
  if (total) throw new FileRefused(problems, total);
  return events;
}
