import { SaxesParser } from 'saxes';
import type { StatusEvent } from '../events/index.ts';
import { airportZone, localTime } from './airport-time.ts';
import { nextTurn, pacer } from '../kernel/pace.ts';
import { normaliseAwb } from './awb.ts';
import { FileRefused } from '../kernel/refused.ts';
import { flightNumber, MAX_PROBLEMS, poundsToKg, Problems, STATUS_CODES, weightText } from './status-fields.ts';
import { airportCode, isAirportCode } from '../places/index.ts';

/**
 * Cargo-XML status messages (XFSU, `rsm:StatusMessage`), read with a streaming XML parser
 * (saxes: well-formedness checked, no DTD, no external entities) fed in slices. Elements are
 * matched by local name (the namespace versions differ between senders); what is read and what
 * is ignored: docs/choices.md, Air cargo formats.
 *
 *   MasterConsignment/TransportContractDocument/ID       the AWB
 *   MasterConsignment/GrossWeightMeasure, TotalPieceQuantity   defaults for a status without them
 *   ReportedStatus/ReasonCode                             the status code (one per ReportedStatus)
 *   ReportedStatus/AssociatedStatusConsignment            one status event each (parts of a split)
 *     PieceQuantity, GrossWeightMeasure@unitCode (KGM, LBR)
 *     SpecifiedLogisticsTransportMovement/ID              the flight
 *       SpecifiedLocation/ID, SpecifiedEvent/OccurrenceDateTime   where and when
 *       DepartureEvent, ArrivalEvent                      when and where, for flight statuses without the above
 */

const SLICE_CHARS = 32 * 1024;
const MAX_TEXT = 200;
/**
 * Bounds of what a message may hold, far above any Cargo-XML status message (10-15 levels deep, a
 * few attributes and a few dozen kinds of child per element). Beyond them the file is refused at
 * once: unbounded, nesting 32,000 levels deep in 218 KB held the server for seconds, a million
 * attributes on one element are read in one go, and a million kinds of child are counted in memory.
 */
export const MAX_DEPTH = 64;
export const MAX_ATTRIBUTES = 64;
export const MAX_CHILD_NAMES = 256;
/** Path segments named in full in a problem; a deeper path shows its first and last ones. */
const PATH_SEGMENTS = 12;
/** Characters of an element name shown in a path. */
const NAME_CHARS = 60;
const DEPARTING = new Set(['BKD', 'MAN', 'PRE', 'DEP']);
const ARRIVING = new Set(['ARR', 'RCF', 'AWR']);
/** Status codes of no status event: read past (as in FSU). */
const READ_PAST = new Set(['DIS', 'OCI', 'OSI', 'TRM']);
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An element as a problem names it: its parent, local name and line, and which of its parent's
 * children of that name it is (1-based). Its path is written out only for a problem.
 */
interface Element {
  parent: Element | null;
  name: string;
  index: number;
  line: number;
}

/** A value and the element it stood in, for the problem that names it. */
interface Located {
  value: string;
  at: Element;
}

interface StatusConsignment {
  at: Element;
  pieces?: Located;
  weight?: Located & { unit: string };
  flight?: Located;
  location?: Located;
  time?: Located;
  departureTime?: Located;
  departureLocation?: Located;
  arrivalTime?: Located;
  arrivalLocation?: Located;
}

interface ReportedStatus {
  at: Element;
  code?: Located;
  consignments: StatusConsignment[];
}

interface MasterConsignment {
  at: Element;
  awb?: Located;
  pieces?: Located;
  weight?: Located & { unit: string };
  statuses: ReportedStatus[];
}

/** An open element and what is read from it while it is open. */
interface Frame {
  el: Element;
  text: string;
  /** how many children of each name it has had, for their index (made at the first child) */
  children: Map<string, number> | null;
  unit: string | undefined;
}

/** `/StatusMessage/MasterConsignment[1]/…` (and `below`, what is missing under it), the middle left out when deep. */
function pathOf(e: Element, below = ''): string {
  const segments: string[] = [];
  for (let at: Element | null = e; at; at = at.parent) {
    const name = at.name.length > NAME_CHARS ? `${at.name.slice(0, NAME_CHARS)}…` : at.name;
    segments.push(at.parent ? `${name}[${at.index}]` : name);
  }
  segments.reverse();
  const n = segments.length;
  const shown =
    n > PATH_SEGMENTS ? [...segments.slice(0, PATH_SEGMENTS - 3), `…${n - PATH_SEGMENTS + 1} more…`, ...segments.slice(-2)] : segments;
  return `/${shown.join('/')}${below}`;
}

/** `ram:ID` → `ID`: elements are known by their local name. */
const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);
/** Whether the element's parent is `a`; with `b`, whether its grandparent is `a` and its parent `b`. */
const under = (e: Element, a: string, b?: string) =>
  b === undefined ? e.parent?.name === a : e.parent?.name === b && e.parent.parent?.name === a;
const located = (f: Frame): Located => ({ value: f.text.trim(), at: f.el });
const locatedWeight = (f: Frame) => ({ ...located(f), unit: f.unit ?? 'KGM' });

/** Thrown out of the XML parser's handlers: the first problem of the XML itself ends the reading. */
const STOPPED = Symbol('xfsu.stopped');

/**
 * Reads one Cargo-XML status message. Anything that cannot be read refuses the file whole (406,
 * nothing stored), naming the line and the element path. A tag costs the same at any depth:
 * nothing walks the open elements but the naming of a problem.
 */
export async function parseXfsu(text: string): Promise<StatusEvent[]> {
  const problems = new Problems();
  const events: StatusEvent[] = [];
  // Namespace prefixes are not resolved: elements are known by their local name, and resolving a
  // prefix looks through every open element (saxes), work per tag that grows with the depth.
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: Frame[] = [];
  let stopped = false;
  let rootSeen = false;
  let attributes = 0; // of the element being opened
  let master: MasterConsignment | null = null;
  let status: ReportedStatus | null = null;
  let consignment: StatusConsignment | null = null;
  let masters = 0;
  let read: MasterConsignment[] = [];
  const pace = pacer();
  const readPending = async () => {
    const closed = read;
    read = [];
    for (const m of closed) await readMaster(m, problems, events, pace);
  };

  const stop = (line: number, field: string | null, message: string): never => {
    stopped = true;
    problems.add({ line, field, message });
    throw STOPPED;
  };
  /** The path of the element being opened, `*` while its attributes are read (its index is not counted yet). */
  const opening = (qualified = '*') => {
    const parent = stack[stack.length - 1];
    const segment = `/${localName(qualified).slice(0, NAME_CHARS)}`;
    return parent ? pathOf(parent.el, segment) : segment;
  };
  parser.on('error', (err) =>
    stop(parser.line, 'XML', `not well-formed XML: ${err.message.replace(/^[^:]*:\d+:\d+: /, '').slice(0, 160)}`),
  );
  parser.on('doctype', () => stop(parser.line, 'XML', 'a DOCTYPE is not accepted (a Cargo-XML message has none)'));
  // Counted as they are read: saxes hands an element's attributes over only once all are read.
  parser.on('attribute', () => {
    if (++attributes > MAX_ATTRIBUTES)
      stop(parser.line, opening(), `an element with more than ${MAX_ATTRIBUTES} attributes (a Cargo-XML element has a few)`);
  });
  parser.on('opentag', (tag) => {
    attributes = 0;
    if (stack.length === MAX_DEPTH)
      stop(parser.line, opening(tag.name), `elements nested deeper than ${MAX_DEPTH} levels (a Cargo-XML message has about 15)`);
    const parent = stack[stack.length - 1];
    const name = localName(tag.name);
    const line = parser.line;
    if (!parent) {
      if (rootSeen || name !== 'StatusMessage')
        stop(line, name.slice(0, NAME_CHARS), 'not a Cargo-XML status message (the root element is StatusMessage)');
      rootSeen = true;
    }
    let index = 1;
    if (parent) {
      parent.children ??= new Map();
      index += parent.children.get(name) ?? 0;
      if (index === 1 && parent.children.size === MAX_CHILD_NAMES)
        stop(
          line,
          opening(tag.name),
          `more than ${MAX_CHILD_NAMES} different elements in one element (a Cargo-XML element has a few dozen)`,
        );
      parent.children.set(name, index);
    }
    const el: Element = { parent: parent?.el ?? null, name, index, line };
    stack.push({ el, text: '', children: null, unit: tag.attributes.unitCode });
    const up = parent?.el.name;
    if (name === 'MasterConsignment' && up === 'StatusMessage') {
      master = { at: el, statuses: [] };
      masters++;
    } else if (name === 'ReportedStatus' && up === 'MasterConsignment' && master) {
      status = { at: el, consignments: [] };
      master.statuses.push(status);
    } else if (name === 'AssociatedStatusConsignment' && up === 'ReportedStatus' && status) {
      consignment = { at: el };
      status.consignments.push(consignment);
    }
  });
  const addText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top && top.text.length <= MAX_TEXT) top.text += t.slice(0, MAX_TEXT + 1);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const f = stack.pop()!;
    const e = f.el;
    const n = e.name;
    if (master && !consignment && !status) {
      if (n === 'ID' && under(e, 'MasterConsignment', 'TransportContractDocument')) master.awb ??= located(f);
      else if (n === 'TotalPieceQuantity' && under(e, 'MasterConsignment')) master.pieces = located(f);
      else if (n === 'PieceQuantity' && under(e, 'MasterConsignment')) master.pieces ??= located(f);
      else if (n === 'GrossWeightMeasure' && under(e, 'MasterConsignment')) master.weight = locatedWeight(f);
    }
    if (status && !consignment && n === 'ReasonCode' && under(e, 'ReportedStatus')) status.code ??= located(f);
    if (consignment) {
      const c = consignment;
      if (n === 'PieceQuantity' && under(e, 'AssociatedStatusConsignment')) c.pieces ??= located(f);
      else if (n === 'GrossWeightMeasure' && under(e, 'AssociatedStatusConsignment')) c.weight ??= locatedWeight(f);
      else if (n === 'ID' && under(e, 'AssociatedStatusConsignment', 'SpecifiedLogisticsTransportMovement')) c.flight ??= located(f);
      else if (n === 'ID' && under(e, 'SpecifiedLogisticsTransportMovement', 'SpecifiedLocation')) c.location ??= located(f);
      else if (n === 'OccurrenceDateTime' && under(e, 'SpecifiedLogisticsTransportMovement', 'SpecifiedEvent')) c.time ??= located(f);
      else if (n === 'DepartureOccurrenceDateTime' && under(e, 'DepartureEvent')) c.departureTime ??= located(f);
      else if (n === 'ID' && under(e, 'DepartureEvent', 'OccurrenceDepartureLocation')) c.departureLocation ??= located(f);
      else if (n === 'ArrivalOccurrenceDateTime' && under(e, 'ArrivalEvent')) c.arrivalTime ??= located(f);
      else if (n === 'ID' && under(e, 'ArrivalEvent', 'OccurrenceArrivalLocation')) c.arrivalLocation ??= located(f);
      if (n === 'AssociatedStatusConsignment' && under(e, 'ReportedStatus')) consignment = null;
    } else if (n === 'ReportedStatus' && under(e, 'MasterConsignment')) status = null;
    else if (n === 'MasterConsignment' && under(e, 'StatusMessage') && master) {
      read.push(master); // read between slices, paced (a consignment may have thousands of statuses)
      master = null;
    }
  });

  try {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      // A slice may end inside a surrogate pair: saxes joins the halves across writes.
      parser.write(text.slice(at, at + SLICE_CHARS));
      await readPending();
      await nextTurn();
    }
    parser.close();
  } catch (err) {
    if (err !== STOPPED) throw err;
  }
  if (!stopped) await readPending();
  if (!stopped && !rootSeen) problems.add({ line: null, field: 'XML', message: 'no XML element in the file' });
  if (!stopped && rootSeen && masters === 0)
    problems.add({
      line: null,
      field: '/StatusMessage/MasterConsignment',
      message: 'the message has no MasterConsignment (the AWB and its status)',
    });
  if (problems.total === 0 && events.length === 0)
    throw new FileRefused([{ line: null, field: 'file', message: 'the message has no status to store' }]);
  problems.throwIfAny();
  return events;
}

/** The status events of one MasterConsignment, or its problems. */
async function readMaster(m: MasterConsignment, problems: Problems, events: StatusEvent[], pace: () => Promise<void>): Promise<void> {
  // The path is written out for the problems the message shows; any further one is only counted.
  const at: At = (where, message, below = '') =>
    problems.add({ line: where.line, field: problems.kept.length < MAX_PROBLEMS ? pathOf(where, below) : null, message });
  const awb = m.awb ? normaliseAwb(m.awb.value, 'separators') : null;
  if (!m.awb) at(m.at, 'no AWB number', '/TransportContractDocument/ID');
  else if (!awb) at(m.awb.at, `"${m.awb.value.slice(0, 30)}" is not an AWB number (3-digit prefix and 8-digit serial)`);
  const defaultPieces = m.pieces ? pieces(m.pieces, at) : null;
  const defaultWeight = m.weight ? weight(m.weight, at) : null;
  if (m.statuses.length === 0) at(m.at, 'no ReportedStatus', '/ReportedStatus');
  for (const s of m.statuses) {
    const code = s.code?.value.toUpperCase() ?? '';
    if (!s.code) {
      at(s.at, 'no status code (ReasonCode such as RCS, DEP, RCF, DLV)', '/ReasonCode');
      continue;
    }
    if (READ_PAST.has(code)) continue;
    if (!(STATUS_CODES as readonly string[]).includes(code)) {
      at(s.code.at, `"${s.code.value.slice(0, 20)}" is not a status code read from XFSU (${STATUS_CODES.join(', ')})`);
      continue;
    }
    if (s.consignments.length === 0)
      at(s.at, 'no AssociatedStatusConsignment (the time and place of the status)', '/AssociatedStatusConsignment');
    for (const c of s.consignments) {
      await pace();
      const before = problems.total;
      const when = c.time ?? (DEPARTING.has(code) ? c.departureTime : ARRIVING.has(code) ? c.arrivalTime : undefined);
      const where = c.location ?? (DEPARTING.has(code) ? c.departureLocation : ARRIVING.has(code) ? c.arrivalLocation : undefined);
      const movement = '/SpecifiedLogisticsTransportMovement';
      if (!where) at(c.at, 'no location of the status (an airport code)', `${movement}/SpecifiedLocation/ID`);
      else if (!isAirportCode(where.value)) at(where.at, `"${where.value.slice(0, 20)}" is not an airport code (3 letters)`);
      const location = where ? airportCode(where.value) : null;
      let time: Date | null = null;
      if (!when) at(c.at, 'no time of the status', `${movement}/SpecifiedEvent/OccurrenceDateTime`);
      else time = dateTime(when, location, at);
      const flight = c.flight?.value ? flightNumber(c.flight.value) : null;
      if (flight && !/^[A-Z0-9]{2}[A-Z]?\d{1,4}[A-Z]?$/.test(flight))
        at(c.flight!.at, `"${c.flight!.value.slice(0, 20)}" is not a flight (carrier and number, such as LH400)`);
      const count = c.pieces ? pieces(c.pieces, at) : defaultPieces;
      const kg = c.weight ? weight(c.weight, at) : defaultWeight;
      if (problems.total !== before || problems.total > 0 || !awb) continue;
      events.push({
        awb,
        code,
        time: time!,
        location,
        flight_number: flight,
        pieces: count,
        weight: kg,
        special_handling_codes: null,
        warehouse_location: null,
      });
    }
  }
}

/** Adds a problem of an element, or of what is missing `below` it. */
type At = (where: Element, message: string, below?: string) => void;

function pieces(v: Located, at: At): number | null {
  if (!/^\d{1,9}$/.test(v.value)) {
    at(v.at, `"${v.value.slice(0, 20)}" is not a number of pieces`);
    return null;
  }
  return Number(v.value);
}

function weight(v: Located & { unit: string }, at: At): string | null {
  if (!/^\d{1,11}(\.\d{1,3})?$/.test(v.value)) {
    at(v.at, `"${v.value.slice(0, 20)}" is not a weight (at most 3 decimals)`);
    return null;
  }
  if (v.unit === 'KGM') return weightText(v.value);
  if (v.unit === 'LBR') return poundsToKg(v.value);
  at(v.at, `unitCode "${v.unit.slice(0, 10)}" is not a weight unit (KGM or LBR)`);
  return null;
}

/** xsd:dateTime; without an offset, the local time of the status's airport. */
function dateTime(v: Located, airport: string | null, at: At): Date | null {
  const m = DATE_TIME.exec(v.value);
  if (!m) {
    at(v.at, `"${v.value.slice(0, 30)}" is not a date and time (YYYY-MM-DDTHH:MM:SS)`);
    return null;
  }
  const [, y, mo, d, h, mi, s, offset] = m;
  const zone = offset ? (offset === 'Z' ? 'UTC' : `UTC${offset}`) : airport ? airportZone(airport) : null;
  if (!zone) {
    if (airport) at(v.at, `"${airport}" is not a known airport: a time without offset cannot be placed`);
    return null;
  }
  const time = localTime(zone, {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s ?? 0),
  });
  if (!time || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) {
    at(v.at, `"${v.value.slice(0, 30)}" is not a date and time`);
    return null;
  }
  return time;
}
