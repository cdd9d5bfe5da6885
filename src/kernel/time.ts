import { DateTime } from 'luxon';

const FULL = 'yyyy-MM-dd HH:mm:ss';
// Dates outside these years are typing errors, not freight schedules.
const MIN_YEAR = 1900;
const MAX_YEAR = 9999;
const QUARTER_HOUR = 15 * 60_000;
const MAX_OFFSETS = 100_000;
const DAY = 86_400_000;
/** '00' … '59': the two digits of an hour, minute or second. */
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** A wall time as `parse` reads it: the date's and the time's digits. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const RELATIVE = /^\+\s*(\d{1,6})\s*(minute|hour|day|week)s?$/i;

/**
 * Wall-clock time of the exchange: every timestamp is read and written in APP_TIMEZONE as
 * `YYYY-MM-DD HH:MM:SS` without a zone (docs/reference.md#conventions item 4).
 */
export class Clock {
  constructor(
    readonly zone: string,
    private readonly nowFn: () => Date = () => new Date(),
  ) {}

  now(): Date {
    return this.nowFn();
  }

  /** The same zone, its time stopped at `now`: one instant for everything a transaction writes. */
  at(now: Date): Clock {
    return new Clock(this.zone, () => now);
  }

  /**
   * `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` in the zone; anything else (a date alone too) is null.
   * A wall time whose zone keeps one offset for a day either side (nearly every one) is read by
   * arithmetic with the offsets `wall` keeps; the rest (offset changes, 24:00, invalid dates) by
   * luxon, whose answer the arithmetic's always equals (tests/platform/clock.test.ts). Positions
   * arrive ~83 a second, each with its time (docs/benchmarks.md, tracking).
   */
  parse(input: unknown): Date | null {
    if (typeof input !== 'string') return null;
    const text = input.trim();
    const m = WALL_TIME.exec(text);
    if (!m) return null;
    const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
    const second = m[6] === undefined ? 0 : Number(m[6]);
    if (year < MIN_YEAR || year > MAX_YEAR) return null;
    const wall = Date.UTC(year, month - 1, day, hour, minute, second);
    const check = new Date(wall);
    if (
      check.getUTCDate() === day &&
      check.getUTCMonth() === month - 1 &&
      check.getUTCHours() === hour &&
      check.getUTCMinutes() === minute
    ) {
      const offset = this.offsetOf(wall - DAY);
      if (!Number.isNaN(offset) && offset === this.offsetOf(wall + DAY) && offset === this.offsetOf(wall - offset))
        return new Date(wall - offset);
    }
    const dt = DateTime.fromFormat(`${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6] ?? '00'}`, FULL, { zone: this.zone });
    return dt.isValid && dt.year >= MIN_YEAR && dt.year <= MAX_YEAR ? dt.toJSDate() : null;
  }

  /** Like parse, plus relative values `+N minutes|hours|days|weeks` from now (deadlines). */
  parseDeadline(input: unknown): Date | null {
    if (typeof input === 'string') {
      const m = RELATIVE.exec(input.trim());
      if (m) {
        const unit = `${m[2]!.toLowerCase()}s` as 'minutes' | 'hours' | 'days' | 'weeks';
        const dt = DateTime.fromJSDate(this.now(), { zone: this.zone }).plus({ [unit]: Number(m[1]) });
        return dt.isValid && dt.year <= MAX_YEAR ? dt.toJSDate() : null;
      }
    }
    return this.parse(input);
  }

  format(value: Date | null | undefined): string | null {
    return value ? this.wall(value).slice(0, 19) : null;
  }

  /** `YYYY-MM-DD HH:MM`, for display fields. */
  formatShort(value: Date | null | undefined): string | null {
    return value ? this.wall(value).slice(0, 16) : null;
  }

  /**
   * The wall time of an instant in the zone as `YYYY-MM-DD HH:MM:SS…`: the instant shifted by
   * the zone's offset, written by toISOString. Every answer formats ~11 timestamps per freight,
   * so the offset (from luxon) is kept per quarter of an hour; a quarter in which the offset
   * changes is formatted by luxon.
   */
  private wall(value: Date): string {
    const ms = value.getTime();
    if (!Number.isFinite(ms)) return DateTime.fromJSDate(value, { zone: this.zone }).toFormat(FULL);
    const offset = this.offsetOf(ms);
    if (Number.isNaN(offset)) return DateTime.fromJSDate(value, { zone: this.zone }).toFormat(FULL);
    const shifted = ms + offset;
    // The date from toISOString, kept for the last day formatted (an answer's timestamps are mostly
    // of a few days: a truck's 500 positions, a list's freights); the time of day by arithmetic.
    const day = Math.floor(shifted / DAY);
    if (day !== this.lastDay) {
      const date = new Date(shifted);
      const year = date.getUTCFullYear();
      // toISOString writes years beyond 9999 and before 0 with a sign; the exchange stores neither.
      if (year < 0 || year > 9999) return DateTime.fromJSDate(value, { zone: this.zone }).toFormat(FULL);
      this.lastDate = date.toISOString().slice(0, 10);
      this.lastDay = day;
    }
    const seconds = Math.floor((shifted - day * DAY) / 1000);
    return `${this.lastDate} ${TWO[Math.floor(seconds / 3600)]}:${TWO[Math.floor(seconds / 60) % 60]}:${TWO[seconds % 60]}`;
  }

  private lastDay = Number.NaN;
  private lastDate = '';

  /** The zone's offset at the instant `ms`, kept per quarter of an hour; NaN for a quarter in which it changes. */
  private offsetOf(ms: number): number {
    const bucket = Math.floor(ms / QUARTER_HOUR);
    let offset = this.offsets.get(bucket);
    if (offset === undefined) {
      offset = this.zone === 'UTC' ? 0 : this.offsetAt(bucket * QUARTER_HOUR);
      // A quarter in which the offset changes (St. John's switched at 00:01) is left to luxon.
      if (offset !== this.offsetAt((bucket + 1) * QUARTER_HOUR - 1)) offset = NaN;
      if (this.offsets.size >= MAX_OFFSETS) this.offsets.clear();
      this.offsets.set(bucket, offset);
    }
    return offset;
  }

  private offsetAt(ms: number): number {
    return this.zone === 'UTC' ? 0 : DateTime.fromMillis(ms, { zone: this.zone }).offset * 60_000;
  }

  private readonly offsets = new Map<number, number>();
}

/**
 * Seconds from `at` to `now`, never below 0 (a row written by another process's clock a moment
 * ahead); null without `at`. What the queues' metrics report as an age or a lag (src/ops/metrics.ts).
 */
export function secondsSince(at: Date | string | null | undefined, now: Date): number | null {
  return at ? Math.max(0, (now.getTime() - new Date(at).getTime()) / 1000) : null;
}
