import { autovacuumRuns, plannedRows } from '../db/statistics.ts';
import { sql, type Kysely } from 'kysely';
import { DateTime } from 'luxon';
import { isCompany } from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { nextTurn, readCsvInSlices } from '../kernel/pace.ts';
import { describeProblem as describeRefusal, type FileProblem, FileRefused } from '../kernel/refused.ts';
import { formatLocation, parseLocation, type Location } from './fields.ts';
import { KIND, VISIBILITIES, type Visibility } from './tables.ts';

/**
 * Rate sheet import from CSV (docs/reference.md#rate-search), shared by `freight-exchange rates import` and
 * file push `action=rates`. A file is checked whole; any problem refuses it whole and nothing
 * is stored. Validation rules: docs/choices.md, Rate search.
 *
 * A large sheet must not hold up other requests: the file is read in slices with turns of the
 * event loop between them, and the lines are stored in short statements while the sheet cannot
 * be found yet (see storeRateSheet); one last short transaction makes it searchable.
 */

/** A problem of a sheet: line (null for an option), 1-based column (null for the whole line or an option), field. */
export type RateImportProblem = FileProblem & { column: number | null };

/** A problem in words: `line 3, column 4 (kg_100): …`, `currency: …`, `sheet: …`. */
export const describeProblem = (p: FileProblem): string => describeRefusal(p, 'sheet');

export interface RateSheetInput {
  companyId: number;
  name?: string | null;
  currency?: string | null;
  visibility?: string | null;
  /** `YYYY-MM-DD`, inclusive; null/empty = open. */
  validFrom?: string | null;
  validTo?: string | null;
  csvText: string;
  /** Progress: lines checked of the lines in the file (estimated from newlines), then lines stored. */
  onProgress?: (done: number, total: number, phase: 'checking' | 'storing') => void;
  now?: Date;
  /**
   * Lines per insert statement (default 5000). A server on the embedded database answers other
   * requests between statements only, so a push uses small batches there.
   */
  batchLines?: number;
  /**
   * The planner's statistics refresh (embedded database) samples 3,000 rows instead of 30,000:
   * ~25 ms instead of ~600 ms in one statement that holds a serving process. Enough for the
   * row counts the search plans depend on; the command line keeps the full sample.
   */
  quickStatistics?: boolean;
  /** Runs inside the storing transaction, so a caller's own record (a pushed file) commits with the sheet or not at all. */
  alsoStore?: (trx: Kysely<DB>, stored: { sheetId: number; lines: number }) => Promise<void>;
}

export const MAX_PROBLEMS = 100;
/** Lines per insert (RateSheetInput.batchLines): throughput for the command line. */
const BATCH = 5000;
const MAX_LINES = 5_000_000;
const DECIMAL = /^\d{1,9}(\.\d{1,6})?$/;
const FIXED_COLUMNS = ['origin', 'destination', 'transit_days', 'min_charge', 'fsc_pct', 'ssc_per_kg', 'uld_price'] as const;
type FixedColumn = (typeof FIXED_COLUMNS)[number];

interface Header {
  index: Partial<Record<FixedColumn, number>>;
  /** kg breaks ascending, with the column index of each. */
  breaks: { kg: string; value: number; column: number }[];
  names: string[];
}

function validDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && DateTime.fromISO(text).isValid;
}

/** The problems of a sheet's options alone (no database needed): the CLI checks them first. */
export function sheetOptionProblems(input: Omit<RateSheetInput, 'companyId' | 'csvText'>): RateImportProblem[] {
  const problems: RateImportProblem[] = [];
  readOptions(input, problems);
  return problems;
}

function readOptions(input: Omit<RateSheetInput, 'companyId' | 'csvText'>, problems: RateImportProblem[]) {
  const opt = (field: string, message: string) => problems.push({ line: null, column: null, field, message });
  const name = (input.name ?? '').trim() || 'Rate sheet';
  if (name.length > 200) opt('name', 'at most 200 characters');
  const currency = (input.currency ?? '').trim().toUpperCase() || 'EUR';
  if (!/^[A-Z]{3}$/.test(currency)) opt('currency', `"${input.currency}" is not a three-letter currency code (ISO 4217, e.g. EUR)`);
  // Default `exchange`: a carrier loads rate sheets so that forwarders on the exchange find them.
  const visibility = ((input.visibility ?? '').trim() || 'exchange') as Visibility;
  if (!VISIBILITIES.includes(visibility)) opt('visibility', `one of ${VISIBILITIES.join(', ')} (got "${input.visibility}")`);
  const validFrom = (input.validFrom ?? '').trim() || null;
  const validTo = (input.validTo ?? '').trim() || null;
  if (validFrom && !validDate(validFrom)) opt('valid_from', `"${validFrom}" is not a date YYYY-MM-DD`);
  if (validTo && !validDate(validTo)) opt('valid_to', `"${validTo}" is not a date YYYY-MM-DD`);
  if (validFrom && validTo && validDate(validFrom) && validDate(validTo) && validFrom > validTo)
    opt('valid_to', `${validTo} is before valid_from ${validFrom}`);
  return { name, currency, visibility, validFrom, validTo };
}

function readHeader(cells: string[], problems: RateImportProblem[]): Header | null {
  const names = cells.map((c) => c.trim().toLowerCase());
  const header: Header = { index: {}, breaks: [], names };
  const seen = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    const problem = (message: string) => {
      problems.push({ line: 1, column: i + 1, field: cells[i] ?? null, message });
    };
    const kg = /^kg_(\d{1,7}(?:\.\d{1,3})?)$/.exec(name);
    const key = kg ? `kg_${Number(kg[1])}` : name;
    if (seen.has(key)) {
      problem(`repeats column ${seen.get(key)! + 1}`);
      continue;
    }
    seen.set(key, i);
    if (kg) {
      if (Number(kg[1]) <= 0) {
        problem('a weight break must be above 0 kg');
        continue;
      }
      header.breaks.push({ kg: String(Number(kg[1])), value: Number(kg[1]), column: i });
    } else if ((FIXED_COLUMNS as readonly string[]).includes(name)) {
      header.index[name as FixedColumn] = i;
    } else {
      problem(
        `unknown column "${cells[i]}" (expected origin, destination, transit_days, min_charge, kg_<N>…, fsc_pct, ssc_per_kg, uld_price)`,
      );
    }
  }
  for (const required of ['origin', 'destination'] as const) {
    if (header.index[required] === undefined)
      problems.push({ line: 1, column: null, field: required, message: `the header has no "${required}" column` });
  }
  if (header.breaks.length === 0 && header.index.uld_price === undefined) {
    problems.push({ line: 1, column: null, field: null, message: 'the header has no price column (kg_<N> or uld_price)' });
  }
  header.breaks.sort((a, b) => a.value - b.value);
  return problems.length ? null : header;
}

interface Batch {
  line_no: number[];
  kind: number[];
  origin: string[];
  destination: string[];
  airport: string[];
  other_airport: (string | null)[];
  zone_country: (string | null)[];
  zone_prefix: (string | null)[];
  transit_days: (number | null)[];
  min_charge: (string | null)[];
  prices: string[];
  fsc_pct: string[];
  ssc_per_kg: string[];
  uld_price: (string | null)[];
}

const emptyBatch = (): Batch => ({
  line_no: [],
  kind: [],
  origin: [],
  destination: [],
  airport: [],
  other_airport: [],
  zone_country: [],
  zone_prefix: [],
  transit_days: [],
  min_charge: [],
  prices: [],
  fsc_pct: [],
  ssc_per_kg: [],
  uld_price: [],
});

async function insertBatch(db: Kysely<DB>, sheetId: number, b: Batch): Promise<void> {
  await sql`
    insert into rate_lines (sheet_id, line_no, kind, origin, destination, airport, other_airport, zone_country, zone_prefix,
                            transit_days, min_charge, prices, fsc_pct, ssc_per_kg, uld_price)
    select ${sheetId}, t.line_no, t.kind, t.origin, t.destination, t.airport, t.other_airport, t.zone_country, t.zone_prefix,
           t.transit_days, t.min_charge, t.prices::numeric[], t.fsc_pct, t.ssc_per_kg, t.uld_price
    from unnest(${b.line_no}::int[], ${b.kind}::smallint[], ${b.origin}::text[], ${b.destination}::text[], ${b.airport}::text[],
                ${b.other_airport}::text[], ${b.zone_country}::text[], ${b.zone_prefix}::text[], ${b.transit_days}::int[],
                ${b.min_charge}::numeric[], ${b.prices}::text[], ${b.fsc_pct}::numeric[], ${b.ssc_per_kg}::numeric[], ${b.uld_price}::numeric[])
      as t(line_no, kind, origin, destination, airport, other_airport, zone_country, zone_prefix, transit_days, min_charge, prices, fsc_pct, ssc_per_kg, uld_price)`.execute(
    db,
  );
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** A sheet whose file was checked whole: ready to store. */
export interface CheckedSheet {
  input: RateSheetInput;
  options: ReturnType<typeof readOptions>;
  batches: Batch[];
  lines: number;
  breaks: string;
  now: Date;
}

/**
 * Imports one rate sheet for a company. Answers the new sheet's id and its number of lines;
 * throws FileRefused (nothing stored) when the options or the file have problems.
 */
export async function importRateSheet(db: Kysely<DB>, input: RateSheetInput): Promise<{ sheetId: number; lines: number }> {
  return storeRateSheet(db, await checkRateSheet(db, input), input.alsoStore);
}

/**
 * Checks the options and the whole file, keeping the good lines in column batches; throws
 * FileRefused with every problem (line and column). Nothing is stored.
 */
export async function checkRateSheet(db: Kysely<DB>, input: RateSheetInput): Promise<CheckedSheet> {
  const problems: RateImportProblem[] = [];
  let total = 0;
  const problem = (p: RateImportProblem) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const options = readOptions(input, problems);
  total = problems.length;
  if (!Number.isSafeInteger(input.companyId) || input.companyId <= 0)
    problem({ line: null, column: null, field: 'company', message: 'must be a company id' });
  else if (!(await isCompany(db, input.companyId))) {
    problem({ line: null, column: null, field: 'company', message: `no company with id ${input.companyId}` });
  }
  if (typeof input.csvText !== 'string' || input.csvText.trim() === '')
    problem({ line: null, column: null, field: 'file', message: 'the file is empty' });
  if (problems.length) throw new FileRefused(problems, total);

  const estimated = Math.max(countLines(input.csvText) - 1, 1);
  const now = input.now ?? new Date();

  // Check the whole file, keeping the good lines in column batches. Nothing is open in the
  // database while a file is checked.
  let header: Header | null = null;
  let batch = emptyBatch();
  const batches: Batch[] = [];
  let lines = 0;
  const lanes = new Map<string, number>();
  const STOP = new Error('stop');
  const handle = (record: string[], lineNo: number): void => {
    if (!header) {
      header = readHeader(record, problems);
      total = problems.length;
      if (!header) throw STOP;
      return;
    }
    if (record.every((c) => c.trim() === '')) return;
    if (lines + total >= MAX_LINES) {
      problem({ line: lineNo, column: null, field: null, message: `a sheet has at most ${MAX_LINES} lines` });
      throw STOP;
    }
    const before = total;
    const at = (column: number, message: string) =>
      problem({ line: lineNo, column: column + 1, field: header!.names[column] ?? null, message });
    if (record.length !== header.names.length) {
      problem({ line: lineNo, column: null, field: null, message: `${record.length} fields, the header has ${header.names.length}` });
      return;
    }
    const cell = (column: number | undefined) => (column === undefined ? '' : (record[column] ?? '').trim());
    const dec = (column: number | undefined): string | null => {
      const text = cell(column);
      if (text === '') return null;
      if (!DECIMAL.test(text)) {
        at(column!, `"${text.slice(0, 30)}" is not a number (digits with "." for decimals, not negative)`);
        return null;
      }
      return text;
    };

    const oCol = header.index.origin!;
    const dCol = header.index.destination!;
    const o = parseLocation(cell(oCol), 10);
    const d = parseLocation(cell(dCol), 10);
    if (typeof o === 'string') at(oCol, o.replace('is required', 'is empty'));
    if (typeof d === 'string') at(dCol, d.replace('is required', 'is empty'));
    let kind = 0;
    let airport = '';
    let otherAirport: string | null = null;
    let zone: Extract<Location, { kind: 'city' }> | null = null;
    if (typeof o !== 'string' && typeof d !== 'string') {
      if (o.kind === 'city' && d.kind === 'city') at(dCol, 'one side must be an airport (airport:<IATA>)');
      else if (o.kind === 'airport' && d.kind === 'airport') {
        if (o.code === d.code) at(dCol, 'origin and destination are the same airport');
        kind = KIND.AIRPORT_TO_AIRPORT;
        airport = o.code;
        otherAirport = d.code;
      } else if (o.kind === 'city' && d.kind === 'airport') {
        kind = KIND.CITY_TO_AIRPORT;
        airport = d.code;
        zone = o;
      } else if (o.kind === 'airport' && d.kind === 'city') {
        kind = KIND.AIRPORT_TO_CITY;
        airport = o.code;
        zone = d;
      }
    }
    const originText = typeof o === 'string' ? '' : formatLocation(o);
    const destinationText = typeof d === 'string' ? '' : formatLocation(d);

    let transit: number | null = null;
    const tCol = header.index.transit_days;
    const tText = cell(tCol);
    if (tText !== '') {
      if (!/^\d{1,3}$/.test(tText) || Number(tText) > 365) at(tCol!, `"${tText.slice(0, 30)}" is not a number of days (0 to 365)`);
      else transit = Number(tText);
    }
    const minCharge = dec(header.index.min_charge);
    const fsc = dec(header.index.fsc_pct) ?? '0';
    if (Number(fsc) > 1000) at(header.index.fsc_pct!, 'a fuel surcharge above 1000 % is not plausible');
    const ssc = dec(header.index.ssc_per_kg) ?? '0';
    const uld = dec(header.index.uld_price);
    const prices = header.breaks.map((b) => dec(b.column));
    if (total === before && uld === null && prices.every((p) => p === null)) {
      const first = header.breaks[0]?.column ?? header.index.uld_price!;
      at(first, 'no price on this line (fill at least one kg_<N> column or uld_price)');
    }
    if (originText && destinationText) {
      const lane = `${originText}>${destinationText}`;
      const earlier = lanes.get(lane);
      if (earlier !== undefined) at(dCol, `${originText} to ${destinationText} is already on line ${earlier}`);
      else lanes.set(lane, lineNo);
    }
    if (total > before) return;
    if (total > 0) {
      lines++;
      return; // keep checking, store nothing
    }

    batch.line_no.push(lineNo);
    batch.kind.push(kind);
    batch.origin.push(originText);
    batch.destination.push(destinationText);
    batch.airport.push(airport);
    batch.other_airport.push(otherAirport);
    batch.zone_country.push(zone?.country ?? null);
    batch.zone_prefix.push(zone?.postal ?? null);
    batch.transit_days.push(transit);
    batch.min_charge.push(minCharge);
    batch.prices.push(`{${prices.map((p) => p ?? 'NULL').join(',')}}`);
    batch.fsc_pct.push(fsc);
    batch.ssc_per_kg.push(ssc);
    batch.uld_price.push(uld);
    lines++;
    if (batch.line_no.length >= (input.batchLines ?? BATCH)) {
      batches.push(batch);
      batch = emptyBatch();
      input.onProgress?.(lines, Math.max(estimated, lines), 'checking');
    }
  };
  try {
    // In slices, a turn of the event loop between them: other requests go on meanwhile.
    await readCsvInSlices(input.csvText, { bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 100_000 }, handle);
  } catch (err) {
    const e = err as { code?: string; lines?: number; message?: string };
    if (err === STOP) {
      // a refused header or too many lines: the problems are recorded
    } else if (typeof e?.code === 'string' && e.code.startsWith('CSV_')) {
      problem({
        line: e.lines ?? null,
        column: null,
        field: null,
        message: `unreadable CSV: ${(e.message ?? '').replace(/\s*\n\s*/g, ' ')}`,
      });
    } else throw err;
  }
  if (!header && total === 0) problem({ line: null, column: null, field: 'file', message: 'the file is empty' });
  if (header && lines === 0 && total === 0)
    problem({ line: 2, column: null, field: null, message: 'the file has a header but no rate lines' });
  if (total > 0) throw new FileRefused(problems, total);
  if (batch.line_no.length) batches.push(batch);
  const breaks = `{${header!.breaks.map((b) => b.kg).join(',')}}`;
  return { input, options, batches, lines, breaks, now };
}

/**
 * Stores a checked sheet. The lines go in one short statement per batch, with a turn of the
 * event loop between them, while the sheet cannot be found: private and valid on no day (the
 * search skips it, docs/reference.md#rate-search; no other company may book its lines). One short transaction
 * then gives the sheet its real visibility and validity, with the caller's own record
 * (`alsoStore`): the sheet becomes searchable whole or not at all. When storing fails part-way,
 * what was stored is removed again.
 */
export async function storeRateSheet(
  db: Kysely<DB>,
  checked: CheckedSheet,
  alsoStore?: RateSheetInput['alsoStore'],
): Promise<{ sheetId: number; lines: number }> {
  const { input, options, batches, lines, breaks, now } = checked;
  const sheet = await db
    .insertInto('rate_sheets')
    .values({
      company_id: input.companyId,
      name: options.name,
      currency: options.currency,
      visibility: 'private',
      valid_from: HIDDEN.from,
      valid_to: HIDDEN.to,
      breaks,
      line_count: lines,
      created: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    let stored = 0;
    for (const b of batches) {
      await insertBatch(db, sheet.id, b);
      stored += b.line_no.length;
      input.onProgress?.(stored, lines, 'storing');
      await nextTurn();
    }
    const result = { sheetId: sheet.id, lines };
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('rate_sheets')
        .set({ visibility: options.visibility, valid_from: options.validFrom, valid_to: options.validTo })
        .where('id', '=', sheet.id)
        .execute();
      await alsoStore?.(trx, result);
    });
    await refreshStatistics(db, input.quickStatistics === true);
    return result;
  } catch (err) {
    await removeSheet(db, sheet.id).catch(() => {});
    throw err;
  }
}

/** Validity of a sheet still being stored: from after its end, so no search day falls in it. */
const HIDDEN = { from: '9999-12-31', to: '0001-01-01' };

const DELETE_BATCH = 2000;

async function removeSheet(db: Kysely<DB>, sheetId: number): Promise<void> {
  for (;;) {
    const gone =
      await sql`delete from rate_lines where id in (select id from rate_lines where sheet_id = ${sheetId} limit ${DELETE_BATCH})`.execute(
        db,
      );
    await nextTurn();
    if (Number(gone.numAffectedRows ?? 0) < DELETE_BATCH) break;
  }
  await db.deleteFrom('rate_sheets').where('id', '=', sheetId).execute();
}

/**
 * When rate_lines has doubled since the planner last counted it, refresh the planner's
 * statistics. Only where no autovacuum daemon does it (the embedded database): a search plan
 * made for a small table is wrong for a large one. (Lines are counted from the sheets: cheap.)
 */
async function refreshStatistics(db: Kysely<DB>, quick: boolean): Promise<void> {
  if (await autovacuumRuns(db)) return;
  const tuples = await plannedRows(db, 'rate_lines');
  const { rows } = await sql<{ lines: number }>`select coalesce(sum(line_count), 0)::float8 as lines from rate_sheets`.execute(db);
  if (Number(rows[0]?.lines ?? 0) <= tuples * 2 + 1000) return;
  await db.transaction().execute(async (trx) => {
    if (quick) await sql`set local default_statistics_target = 10`.execute(trx);
    await sql`analyze rate_sheets, rate_lines`.execute(trx);
  });
}
