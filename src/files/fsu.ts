import type { StatusEvent } from '../events/index.ts';
import { airportZone, yearlessTime } from './airport-time.ts';
import { pacer } from '../kernel/pace.ts';
import { FileRefused } from '../kernel/refused.ts';
import { flightNumber, poundsToKg, Problems, STATUS_CODES, weightText } from './status-fields.ts';

/**
 * Cargo-IMP FSU (status update) messages, read as FSU/14 lays them out (docs/choices.md,
 * Air cargo formats). A file holds one or more messages:
 *
 *   FSU/14                              standard message identifier (starts a message)
 *   020-12345675FRAJFK/T10K250.5        AWB, origin and destination (optional), quantity
 *   RCS/14APR0930/FRA/T10K250.5         status lines, each becoming one status event
 *   DEP/LH400/14APR/FRAJFK/T10K250.5/A1010
 *   /CONTINUATION                       continuation of the line above (read past)
 *
 * Type-B envelope lines (`QK ADDRESS`, `.ORIGIN DDHHMM`) and blank lines between messages
 * are read past. Quantity: T (total), P (part), S (split) or D (discrepancy), pieces, K (kg)
 * or L (lb, converted to kg) and the weight, then `T` and the total pieces for a part.
 */

type Slot = 'flight' | 'carrier' | 'date' | 'airport' | 'route';
interface Layout {
  /** elements after the code, in order; `?` marks an optional one */
  slots: readonly `${Slot}${'' | '?'}`[];
  /** where the event is located (and whose clock its time is): the airport, or the route's first or second airport */
  at: 'airport' | 'from' | 'to';
  /** the layout's date carries no time; the time comes from the time details (A, E, S) */
  flightDate?: boolean;
}

const FLIGHT_DATE_ROUTE: Layout = { slots: ['flight', 'date', 'route'], at: 'from', flightDate: true };
const AT_AIRPORT: Layout = { slots: ['date', 'airport'], at: 'airport' };
const LAYOUTS: Record<(typeof STATUS_CODES)[number], Layout> = {
  BKD: FLIGHT_DATE_ROUTE,
  MAN: FLIGHT_DATE_ROUTE,
  PRE: FLIGHT_DATE_ROUTE,
  DEP: FLIGHT_DATE_ROUTE,
  ARR: { slots: ['flight', 'date', 'airport'], at: 'airport', flightDate: true },
  RCF: { slots: ['flight', 'date', 'airport'], at: 'airport' },
  AWR: { slots: ['flight', 'date', 'airport'], at: 'airport' },
  FIW: { slots: ['flight?', 'date', 'airport'], at: 'airport' },
  FOW: { slots: ['flight?', 'date', 'airport'], at: 'airport' },
  RCT: { slots: ['carrier', 'date', 'airport'], at: 'airport' },
  TFD: { slots: ['carrier', 'date', 'airport'], at: 'airport' },
  RCS: AT_AIRPORT,
  FOH: AT_AIRPORT,
  NFD: AT_AIRPORT,
  AWD: AT_AIRPORT,
  DLV: AT_AIRPORT,
  DDL: AT_AIRPORT,
  DPU: AT_AIRPORT,
  CCD: AT_AIRPORT,
  TGC: AT_AIRPORT,
  CRC: AT_AIRPORT,
  DOC: AT_AIRPORT,
};

/** Lines of a message that are no status event: read past (docs/choices.md). */
const READ_PAST = new Set(['DIS', 'OCI', 'OSI', 'TRM', 'ULD', 'SSR', 'OSR', 'REF', 'COR']);

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const SMI = /^FSU\/(\d{1,2})$/;
const ENVELOPE = /^(Q[A-Z]\s|\.[A-Z0-9]{7}(\s|$))/;
const CONSIGNMENT = /^(\d{3})-(\d{8})(?:([A-Z]{3})([A-Z]{3}))?\/(.+)$/;
const QUANTITY = /^([TPSD])(\d{1,4})(?:([KL])(\d{1,7}(?:\.\d{1,3})?))?(?:T(\d{1,4}))?(?:(?:MC|CI|CF|CC)\d{1,9}(?:\.\d{1,2})?)?$/;
const FLIGHT = /^([A-Z0-9]{2}[A-Z]?)(\d{1,4}[A-Z]?)$/;
const CARRIER = /^[A-Z0-9]{2}[A-Z]?$/;
const DATE = /^(\d{2})([A-Z]{3})(\d{4})?$/;
const AIRPORT = /^[A-Z]{3}$/;
const ROUTE = /^([A-Z]{3})([A-Z]{3})$/;
const TIME_DETAIL = /^([AES])(\d{2})(\d{2})$/;
/** Elements of a status line read (code, flight, date, airports, quantity, time details); any further ones are remarks, read past. */
const MAX_ELEMENTS = 32;
/** Characters read between two looks at the clock, besides every 256 lines: a few long lines are as much work as many short ones. */
const PACE_CHARS = 64 * 1024;

interface Quantity {
  pieces: number;
  weight: string | null;
}

/** `T10K250.5`: pieces and kilograms of this status (a part's own, not the total). */
function readQuantity(text: string): Quantity | null {
  const m = QUANTITY.exec(text);
  if (!m) return null;
  const weight = m[4] === undefined ? null : m[3] === 'L' ? poundsToKg(m[4]) : weightText(m[4]);
  return { pieces: Number(m[2]), weight };
}

function validClock(hhmm: string | undefined): { hour: number; minute: number } | null {
  if (hhmm === undefined) return { hour: 0, minute: 0 };
  const hour = Number(hhmm.slice(0, 2));
  const minute = Number(hhmm.slice(2));
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/**
 * Reads every message of the file. A line that cannot be read refuses the file whole (406,
 * nothing stored) with its line number and what is wrong.
 */
export async function parseFsu(text: string, now: Date): Promise<StatusEvent[]> {
  const problems = new Problems();
  const events: StatusEvent[] = [];
  const pace = pacer();
  let message: { awb: string; quantity: Quantity | null; line: number; statuses: number } | null = null;
  let expectConsignment = false;
  let messages = 0;

  const endMessage = () => {
    if (message && message.statuses === 0)
      problems.add({
        line: message.line,
        field: 'status',
        message: 'the message has no status line (RCS, DEP, ARR, RCF, NFD, AWD, DLV, …)',
      });
    message = null;
  };

  let lineNo = 0;
  let paced = 0;
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(at, end).replace(/\r$/, '');
    at = end + 1;
    lineNo++;
    if ((lineNo & 255) === 0 || at - paced > PACE_CHARS) {
      paced = at;
      await pace();
    }
    const line = raw.trim().toUpperCase();
    if (line === '' && nl === -1) break;
    if (line === '') continue;
    const problem = (field: string | null, msg: string) => problems.add({ line: lineNo, field, message: msg });

    if (ENVELOPE.test(line) && !expectConsignment) {
      endMessage(); // the Type-B envelope of the next message
      continue;
    }
    if (SMI.test(line)) {
      endMessage();
      messages++;
      expectConsignment = true;
      continue;
    }
    if (expectConsignment) {
      expectConsignment = false;
      const m = CONSIGNMENT.exec(line);
      const quantity = m ? readQuantity(m[5]!) : null;
      if (!m)
        problem(
          'awb',
          `"${raw.trim().slice(0, 40)}" is not a consignment line (AWB NNN-NNNNNNNN, origin and destination, /quantity such as T10K250.5)`,
        );
      else if (!quantity) problem('quantity', `"${m[5]!.slice(0, 30)}" is not a quantity (such as T10K250.5 or P2K50T10)`);
      message = { awb: m ? `${m[1]}-${m[2]}` : '', quantity, line: lineNo, statuses: 0 };
      continue;
    }
    if (!message) {
      problem(null, `"${raw.trim().slice(0, 40)}" comes before any FSU message (a message starts with FSU/14)`);
      continue;
    }
    if (line.startsWith('/')) continue; // continuation of the line above (names, remarks)
    const elements = line.split('/', MAX_ELEMENTS);
    const code = elements[0]!;
    if (READ_PAST.has(code)) continue;
    const layout = LAYOUTS[code as keyof typeof LAYOUTS];
    if (!layout) {
      problem(
        'status',
        /^[A-Z]{3}$/.test(code)
          ? `"${code}" is not a status code read from FSU (${STATUS_CODES.join(', ')})`
          : `"${raw.trim().slice(0, 40)}" is not a status line (CODE/…)`,
      );
      continue;
    }
    message.statuses++;
    const before = problems.total;
    let flight: string | null = null;
    let date: RegExpExecArray | null = null;
    let airport: string | null = null;
    let route: RegExpExecArray | null = null;
    let i = 1;
    for (const spec of layout.slots) {
      const slot = spec.replace('?', '') as Slot;
      const optional = spec.endsWith('?');
      const element = elements[i] ?? '';
      if (slot === 'flight') {
        const f = FLIGHT.exec(element);
        if (f && !DATE.test(element)) {
          flight = flightNumber(element);
          i++;
        } else if (!optional) problem('flight', `"${element.slice(0, 20)}" is not a flight (carrier and number, such as LH400)`);
      } else if (slot === 'carrier') {
        if (!CARRIER.test(element)) problem('carrier', `"${element.slice(0, 20)}" is not a carrier code (such as LH)`);
        i++;
      } else if (slot === 'date') {
        date = DATE.exec(element);
        if (!date || !MONTHS.includes(date[2]!) || (date[3] === undefined && !layout.flightDate)) {
          problem(
            'date',
            `"${element.slice(0, 20)}" is not a ${layout.flightDate ? 'date DDMMM' : 'date and time DDMMMHHMM'} (such as 14APR${layout.flightDate ? '' : '0930'})`,
          );
          date = null;
        }
        i++;
      } else if (slot === 'airport') {
        if (AIRPORT.test(element)) airport = element;
        else problem('airport', `"${element.slice(0, 20)}" is not an airport code (3 letters)`);
        i++;
      } else {
        route = ROUTE.exec(element);
        if (!route) problem('airport', `"${element.slice(0, 20)}" is not a pair of airport codes (such as FRAJFK)`);
        i++;
      }
    }
    // Then the quantity (optional: the consignment line's applies) and, for flights, time details.
    let quantity = message.quantity;
    const times = new Map<string, string>();
    elements.slice(i).forEach((element, n) => {
      // `S0720` after a flight is a scheduled time, not a split of 720 pieces.
      const t = layout.flightDate ? TIME_DETAIL.exec(element) : null;
      if (t) times.set(t[1]!, t[2]! + t[3]!);
      else if (n === 0 && /^[TPSD]\d/.test(element)) {
        const q = readQuantity(element);
        if (q) quantity = q;
        else problem('quantity', `"${element.slice(0, 30)}" is not a quantity (such as T10K250.5 or P2K50T10)`);
      }
      // anything else (names, remarks, volume details) is read past
    });
    const location = layout.at === 'airport' ? airport : route ? route[layout.at === 'from' ? 1 : 2]! : null;
    const zone = location ? airportZone(location) : null;
    if (location && !zone) problem('airport', `"${location}" is not a known airport (its local time cannot be placed)`);
    let time: Date | null = null;
    if (date && zone) {
      const clock = validClock(times.get('A') ?? times.get('E') ?? times.get('S') ?? date[3]);
      if (!clock) problem('time', `"${(times.get('A') ?? times.get('E') ?? times.get('S') ?? date[3])!}" is not a time HHMM`);
      else {
        time = yearlessTime(zone, { month: MONTHS.indexOf(date[2]!) + 1, day: Number(date[1]), ...clock }, now);
        if (!time) problem('date', `"${date[0]}" is not a date`);
      }
    }
    if (problems.total !== before || problems.total > 0) continue; // a refused file keeps nothing
    events.push({
      awb: message.awb,
      code,
      time: time!,
      location,
      flight_number: flight,
      pieces: quantity?.pieces ?? null,
      weight: quantity?.weight ?? null,
      special_handling_codes: null,
      warehouse_location: null,
    });
  }
  endMessage();
  if (messages === 0 && problems.total === 0)
    throw new FileRefused([{ line: null, field: 'file', message: 'no FSU message in the file (a message starts with FSU/14)' }]);
  if (expectConsignment) problems.add({ line: lineNo, field: 'awb', message: 'the message ends before its consignment line' });
  problems.throwIfAny();
  return events;
}
