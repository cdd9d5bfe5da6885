import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { StatusEvent } from '../events/types.ts';
import { airportZone, localTime } from './airport-time.ts';
import { nextTurn, pacer } from '../kernel/pace.ts';
import { normaliseAwb } from './awb.ts';
import { FileRefused } from './problems.ts';
import { flightNumber, poundsToKg, Problems, STATUS_CODES, weightText } from './status-fields.ts';

/**
 * Cargo-XML status messages (XFSU, `rsm:StatusMessage`), read with a streaming XML parser
 * (saxes: well-formedness checked, no DTD, no external entities) fed in slices. Elements are
 * matched by local name (the namespace versions differ between senders); what is read and what
 * is ignored: docs/decisions.md, Air cargo formats.
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
const DEPARTING = new Set(['BKD', 'MAN', 'PRE', 'DEP']);
const ARRIVING = new Set(['ARR', 'RCF', 'AWR']);
/** Status codes of no status event: read past (as in FSU). */
const READ_PAST = new Set(['DIS', 'OCI', 'OSI', 'TRM']);
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A value and where it stood (line and path), for the problem that names it. */
interface Located {
  value: string;
  line: number;
  path: string;
}

interface StatusConsignment {
  line: number;
  path: string;
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
  line: number;
  path: string;
  code?: Located;
  consignments: StatusConsignment[];
}

interface MasterConsignment {
  line: number;
  path: string;
  awb?: Located;
  pieces?: Located;
  weight?: Located & { unit: string };
  statuses: ReportedStatus[];
}

interface Frame {
  name: string;
  path: string;
  line: number;
  text: string;
  children: Map<string, number>;
  unit?: string;
}

/**
 * Reads one Cargo-XML status message. Anything that cannot be read refuses the file whole (406,
 * nothing stored), naming the line and the element path.
 */
export async function parseXfsu(text: string): Promise<StatusEvent[]> {
  const problems = new Problems();
  const events: StatusEvent[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: Frame[] = [];
  let broken = false;
  let rootSeen = false;
  let master: MasterConsignment | null = null;
  let status: ReportedStatus | null = null;
  let consignment: StatusConsignment | null = null;
  let masters = 0;
  const read: MasterConsignment[] = [];
  const pace = pacer();
  const readPending = async () => {
    for (let m = read.shift(); m; m = read.shift()) await readMaster(m, problems, events, pace);
  };

  const stop = (line: number, field: string | null, message: string) => {
    if (broken) return;
    broken = true;
    problems.add({ line, field, message });
  };
  parser.on('error', (err) =>
    stop(parser.line, 'XML', `not well-formed XML: ${err.message.replace(/^[^:]*:\d+:\d+: /, '').slice(0, 160)}`),
  );
  parser.on('doctype', () => stop(parser.line, 'XML', 'a DOCTYPE is not accepted (a Cargo-XML message has none)'));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (broken) return;
    const parent = stack[stack.length - 1];
    const name = tag.local;
    if (!parent) {
      if (rootSeen || name !== 'StatusMessage')
        return stop(parser.line, name, 'not a Cargo-XML status message (the root element is StatusMessage)');
      rootSeen = true;
    }
    const index = (parent?.children.get(name) ?? 0) + 1;
    parent?.children.set(name, index);
    const path = parent ? `${parent.path}/${name}[${index}]` : `/${name}`;
    const unit = tag.attributes.unitCode?.value;
    stack.push({ name, path, line: parser.line, text: '', children: new Map(), unit });
    const up = parent?.name;
    if (name === 'MasterConsignment' && up === 'StatusMessage') {
      master = { line: parser.line, path, statuses: [] };
      masters++;
    } else if (name === 'ReportedStatus' && up === 'MasterConsignment' && master) {
      status = { line: parser.line, path, consignments: [] };
      master.statuses.push(status);
    } else if (name === 'AssociatedStatusConsignment' && up === 'ReportedStatus' && status) {
      consignment = { line: parser.line, path };
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
    if (broken) return;
    const frame = stack.pop()!;
    const names = stack.map((f) => f.name);
    const under = (...ancestors: string[]) => ancestors.every((a, i) => names[names.length - ancestors.length + i] === a);
    const value = (): Located => ({ value: frame.text.trim(), line: frame.line, path: frame.path });
    const first = <T>(current: T | undefined, next: T) => current ?? next;
    const n = frame.name;
    if (master && !consignment && !status) {
      if (n === 'ID' && under('MasterConsignment', 'TransportContractDocument')) master.awb = first(master.awb, value());
      else if (n === 'TotalPieceQuantity' && under('MasterConsignment')) master.pieces = value();
      else if (n === 'PieceQuantity' && under('MasterConsignment')) master.pieces = first(master.pieces, value());
      else if (n === 'GrossWeightMeasure' && under('MasterConsignment')) master.weight = { ...value(), unit: frame.unit ?? 'KGM' };
    }
    if (status && !consignment && n === 'ReasonCode' && under('ReportedStatus')) status.code = first(status.code, value());
    if (consignment) {
      const c = consignment;
      if (n === 'PieceQuantity' && under('AssociatedStatusConsignment')) c.pieces = first(c.pieces, value());
      else if (n === 'GrossWeightMeasure' && under('AssociatedStatusConsignment'))
        c.weight = first(c.weight, { ...value(), unit: frame.unit ?? 'KGM' });
      else if (n === 'ID' && under('AssociatedStatusConsignment', 'SpecifiedLogisticsTransportMovement'))
        c.flight = first(c.flight, value());
      else if (n === 'ID' && under('SpecifiedLogisticsTransportMovement', 'SpecifiedLocation')) c.location = first(c.location, value());
      else if (n === 'OccurrenceDateTime' && under('SpecifiedLogisticsTransportMovement', 'SpecifiedEvent'))
        c.time = first(c.time, value());
      else if (n === 'DepartureOccurrenceDateTime' && under('DepartureEvent')) c.departureTime = first(c.departureTime, value());
      else if (n === 'ID' && under('DepartureEvent', 'OccurrenceDepartureLocation'))
        c.departureLocation = first(c.departureLocation, value());
      else if (n === 'ArrivalOccurrenceDateTime' && under('ArrivalEvent')) c.arrivalTime = first(c.arrivalTime, value());
      else if (n === 'ID' && under('ArrivalEvent', 'OccurrenceArrivalLocation')) c.arrivalLocation = first(c.arrivalLocation, value());
      if (n === 'AssociatedStatusConsignment' && under('ReportedStatus')) consignment = null;
    } else if (n === 'ReportedStatus' && under('MasterConsignment')) status = null;
    else if (n === 'MasterConsignment' && under('StatusMessage') && master) {
      read.push(master); // read between slices, paced (a consignment may have thousands of statuses)
      master = null;
    }
  });

  for (let at = 0; at < text.length && !broken; at += SLICE_CHARS) {
    // A slice may end inside a surrogate pair: saxes joins the halves across writes.
    parser.write(text.slice(at, at + SLICE_CHARS));
    await readPending();
    await nextTurn();
  }
  if (!broken) parser.close();
  if (!broken) await readPending();
  if (!broken && !rootSeen) problems.add({ line: null, field: 'XML', message: 'no XML element in the file' });
  if (!broken && rootSeen && masters === 0)
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
  const at = (where: { line: number; path: string }, message: string) => problems.add({ line: where.line, field: where.path, message });
  const awb = m.awb ? normaliseAwb(m.awb.value, 'separators') : null;
  if (!m.awb) at({ line: m.line, path: `${m.path}/TransportContractDocument/ID` }, 'no AWB number');
  else if (!awb) at(m.awb, `"${m.awb.value.slice(0, 30)}" is not an AWB number (3-digit prefix and 8-digit serial)`);
  const defaultPieces = m.pieces ? pieces(m.pieces, at) : null;
  const defaultWeight = m.weight ? weight(m.weight, at) : null;
  if (m.statuses.length === 0) at({ line: m.line, path: `${m.path}/ReportedStatus` }, 'no ReportedStatus');
  for (const s of m.statuses) {
    const code = s.code?.value.toUpperCase() ?? '';
    if (!s.code) {
      at({ line: s.line, path: `${s.path}/ReasonCode` }, 'no status code (ReasonCode such as RCS, DEP, RCF, DLV)');
      continue;
    }
    if (READ_PAST.has(code)) continue;
    if (!(STATUS_CODES as readonly string[]).includes(code)) {
      at(s.code, `"${s.code.value.slice(0, 20)}" is not a status code read from XFSU (${STATUS_CODES.join(', ')})`);
      continue;
    }
    if (s.consignments.length === 0)
      at(
        { line: s.line, path: `${s.path}/AssociatedStatusConsignment` },
        'no AssociatedStatusConsignment (the time and place of the status)',
      );
    for (const c of s.consignments) {
      await pace();
      const before = problems.total;
      const when = c.time ?? (DEPARTING.has(code) ? c.departureTime : ARRIVING.has(code) ? c.arrivalTime : undefined);
      const where = c.location ?? (DEPARTING.has(code) ? c.departureLocation : ARRIVING.has(code) ? c.arrivalLocation : undefined);
      const movement = `${c.path}/SpecifiedLogisticsTransportMovement`;
      if (!where) at({ line: c.line, path: `${movement}/SpecifiedLocation/ID` }, 'no location of the status (an airport code)');
      else if (!/^[A-Z]{3}$/i.test(where.value)) at(where, `"${where.value.slice(0, 20)}" is not an airport code (3 letters)`);
      const location = where && /^[A-Z]{3}$/i.test(where.value) ? where.value.toUpperCase() : null;
      let time: Date | null = null;
      if (!when) at({ line: c.line, path: `${movement}/SpecifiedEvent/OccurrenceDateTime` }, 'no time of the status');
      else time = dateTime(when, location, at);
      const flight = c.flight?.value ? flightNumber(c.flight.value) : null;
      if (flight && !/^[A-Z0-9]{2}[A-Z]?\d{1,4}[A-Z]?$/.test(flight))
        at(c.flight!, `"${c.flight!.value.slice(0, 20)}" is not a flight (carrier and number, such as LH400)`);
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

type At = (where: { line: number; path: string }, message: string) => void;

function pieces(v: Located, at: At): number | null {
  if (!/^\d{1,9}$/.test(v.value)) {
    at(v, `"${v.value.slice(0, 20)}" is not a number of pieces`);
    return null;
  }
  return Number(v.value);
}

function weight(v: Located & { unit: string }, at: At): string | null {
  if (!/^\d{1,11}(\.\d{1,3})?$/.test(v.value)) {
    at(v, `"${v.value.slice(0, 20)}" is not a weight (at most 3 decimals)`);
    return null;
  }
  if (v.unit === 'KGM') return weightText(v.value);
  if (v.unit === 'LBR') return poundsToKg(v.value);
  at(v, `unitCode "${v.unit.slice(0, 10)}" is not a weight unit (KGM or LBR)`);
  return null;
}

/** xsd:dateTime; without an offset, the local time of the status's airport. */
function dateTime(v: Located, airport: string | null, at: At): Date | null {
  const m = DATE_TIME.exec(v.value);
  if (!m) {
    at(v, `"${v.value.slice(0, 30)}" is not a date and time (YYYY-MM-DDTHH:MM:SS)`);
    return null;
  }
  const [, y, mo, d, h, mi, s, offset] = m;
  const zone = offset ? (offset === 'Z' ? 'UTC' : `UTC${offset}`) : airport ? airportZone(airport) : null;
  if (!zone) {
    if (airport) at(v, `"${airport}" is not a known airport: a time without offset cannot be placed`);
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
    at(v, `"${v.value.slice(0, 30)}" is not a date and time`);
    return null;
  }
  return time;
}
