// The clock's formatting (src/kernel/time.ts) agrees with luxon's in every zone, across offset changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DateTime } from 'luxon';
import { Clock } from '../../src/kernel/time.ts';

/** The same numbers in [0, 1) every run, from `seed` (a linear congruential generator). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const luxon = (d: Date, zone: string) => DateTime.fromJSDate(d, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');

test('format and formatShort write the wall time of the zone, exactly as luxon does', () => {
  // St. John's changed offset at 00:01 local time: a quarter of an hour holding a change.
  for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns']) {
    const clock = new Clock(zone);
    const random = seeded(12345);
    for (let i = 0; i < 5000; i++) {
      const d = new Date(Date.UTC(1990, 0, 1) + Math.floor(random() * 50 * 365 * 86400_000));
      assert.equal(clock.format(d), luxon(d, zone), `${zone} ${d.toISOString()}`);
    }
    for (const [from, to] of [
      [Date.UTC(1997, 9, 25), Date.UTC(1997, 9, 27)],
      [Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 30)],
      [Date.UTC(2026, 9, 24), Date.UTC(2026, 10, 3)],
    ]) {
      for (let ms = from!; ms < to!; ms += 60_000)
        assert.equal(clock.format(new Date(ms)), luxon(new Date(ms), zone), `${zone} ${new Date(ms).toISOString()}`);
    }
    const d = new Date('2030-05-04T06:07:08Z');
    assert.equal(clock.formatShort(d), luxon(d, zone).slice(0, 16));
    assert.equal(clock.format(null), null);
  }
});

/** What parse answered with luxon alone (before its arithmetic): the reference it must equal. */
function luxonParse(text: string, zone: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(text.trim());
  if (!m) return null;
  const dt = DateTime.fromFormat(`${m[1]} ${m[2]}${m[3] ?? ':00'}`, 'yyyy-MM-dd HH:mm:ss', { zone });
  return dt.isValid && dt.year >= 1900 && dt.year <= 9999 ? dt.toJSDate() : null;
}

test('parse reads a wall time of the zone exactly as luxon does: offset changes, gaps, 24:00 and invalid dates too', () => {
  const two = (n: number) => String(n).padStart(2, '0');
  for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns']) {
    const clock = new Clock(zone);
    const same = (text: string) =>
      assert.equal(clock.parse(text)?.getTime() ?? null, luxonParse(text, zone)?.getTime() ?? null, `${zone} ${text}`);
    const random = seeded(777);
    for (let i = 0; i < 3000; i++) {
      const d = new Date(Date.UTC(1990, 0, 1) + Math.floor(random() * 50 * 365 * 86400_000));
      const wall = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
      same(wall);
      same(`${wall}:${two(d.getUTCSeconds())}`);
    }
    // Every minute of the days around offset changes (the gap of spring, the doubled hour of autumn).
    for (const [from, to] of [
      [Date.UTC(1997, 9, 25), Date.UTC(1997, 9, 27)],
      [Date.UTC(2026, 2, 27), Date.UTC(2026, 2, 30)],
      [Date.UTC(2026, 9, 24), Date.UTC(2026, 10, 3)],
    ]) {
      for (let ms = from!; ms < to!; ms += 60_000) {
        const d = new Date(ms);
        same(`${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`);
        same(`${d.toISOString().slice(0, 10)}T${d.toISOString().slice(11, 19)}`);
      }
    }
    for (const odd of [
      '2026-02-29 10:00',
      '2028-02-29 10:00',
      '2026-02-30 10:00',
      '2026-04-31 10:00',
      '2026-13-01 10:00',
      '2026-00-10 10:00',
      '2026-01-00 10:00',
      '2026-06-01 24:00',
      '2026-06-01 24:00:01',
      '2026-06-01 24:30',
      '2026-06-01 25:00',
      '2026-06-01 10:60',
      '2026-06-01 10:59:60',
      '1899-12-31 23:59',
      '1900-01-01 00:00',
      '9999-12-31 23:59:59',
      '2026-06-01',
      ' 2026-06-01 10:00 ',
      '2026-6-1 10:00',
    ])
      same(odd);
  }
});
