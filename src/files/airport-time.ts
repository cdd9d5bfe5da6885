import { DateTime } from 'luxon';
import { airportByCode } from '../airports/index.ts';

/**
 * Local times of air cargo messages. Cargo-IMP times (and Cargo-XML times written without an
 * offset) are the local time of the airport where the event happened: the airport's IANA zone
 * from the airport data (src/airports, zones from the airports' coordinates).
 */

/** The IANA time zone of an airport by IATA code, or null when the code is not a known airport. */
export function airportZone(code: string): string | null {
  return airportByCode(code)?.timezone || null;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

/**
 * A wall-clock time in a zone as an instant; null when no such date exists (31 APR).
 * Zone arithmetic is slow (tens of microseconds) and a file has hundreds of thousands of
 * times: the zone's offset is worked out once per local hour (offsets change on the hour) and
 * remembered.
 */
export function localTime(zone: string, t: WallClock): Date | null {
  if (t.minute > 59 || (t.second ?? 0) > 59) return null;
  const key = `${zone}|${t.year}-${t.month}-${t.day} ${t.hour}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const dt = DateTime.fromObject({ year: t.year, month: t.month, day: t.day, hour: t.hour }, { zone });
    // Luxon rolls an impossible date over; a date that changed on the way is no date.
    offset = !dt.isValid || dt.day !== t.day || dt.month !== t.month ? null : Date.UTC(t.year, t.month - 1, t.day, t.hour) - dt.toMillis();
    if (offsets.size >= MAX_OFFSETS) offsets.clear();
    offsets.set(key, offset);
  }
  return offset === null ? null : new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second ?? 0) - offset);
}

const offsets = new Map<string, number | null>();
const MAX_OFFSETS = 100_000;

/**
 * Cargo-IMP dates have no year (`15APR1030`): the latest year that puts the time no more than
 * LOOKAHEAD after `now` (the push). A status reports what happened; a booking (BKD) may lie a
 * few weeks ahead. So a message about last December read in January lands in last year, and
 * 02MAR read in November is this year's March, not next year's. Null when the day does not
 * exist in the candidate years (29FEB).
 */
export function yearlessTime(zone: string, t: Omit<WallClock, 'year'>, now: Date): Date | null {
  const year = yearAt(zone, now);
  for (const y of [year + 1, year, year - 1]) {
    const at = localTime(zone, { ...t, year: y });
    if (at && at.getTime() <= now.getTime() + LOOKAHEAD_MS) return at;
  }
  return null;
}

const LOOKAHEAD_MS = 31 * 86_400_000;

/** The year at `now` in a zone (remembered: a file's messages share one `now`). */
function yearAt(zone: string, now: Date): number {
  const key = `${zone}|${now.getTime()}`;
  let year = years.get(key);
  if (year === undefined) {
    year = DateTime.fromJSDate(now, { zone }).year;
    if (years.size >= 1000) years.clear();
    years.set(key, year);
  }
  return year;
}

const years = new Map<string, number>();
