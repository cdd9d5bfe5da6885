import { DateTime } from 'luxon';

const FULL = 'yyyy-MM-dd HH:mm:ss';
const SHORT = 'yyyy-MM-dd HH:mm';
// Dates outside these years are typing errors, not freight schedules.
const MIN_YEAR = 1900;
const MAX_YEAR = 9999;
const RELATIVE = /^\+\s*(\d{1,6})\s*(minute|hour|day|week)s?$/i;

/**
 * Wall-clock time of the exchange: every timestamp is read and written in APP_TIMEZONE as
 * `YYYY-MM-DD HH:MM:SS` without a zone (api.md, Endpoints 4).
 */
export class Clock {
  constructor(readonly zone: string, private readonly nowFn: () => Date = () => new Date()) {}

  now(): Date {
    return this.nowFn();
  }

  /** `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` in the zone; anything else (a date alone too) is null. */
  parse(input: unknown): Date | null {
    if (typeof input !== 'string') return null;
    const text = input.trim();
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(text);
    if (!m) return null;
    const dt = DateTime.fromFormat(`${m[1]} ${m[2]}${m[3] ?? ':00'}`, FULL, { zone: this.zone });
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
    return value ? DateTime.fromJSDate(value, { zone: this.zone }).toFormat(FULL) : null;
  }

  /** `YYYY-MM-DD HH:MM`, for display fields. */
  formatShort(value: Date | null | undefined): string | null {
    return value ? DateTime.fromJSDate(value, { zone: this.zone }).toFormat(SHORT) : null;
  }
}
