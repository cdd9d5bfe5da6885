// The clock's formatting (src/kernel/time.ts) agrees with luxon's in every zone, across offset changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DateTime } from 'luxon';
import { Clock } from '../../src/kernel/time.ts';

const luxon = (d: Date, zone: string) => DateTime.fromJSDate(d, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');

test('format and formatShort write the wall time of the zone, exactly as luxon does', () => {
  // St. John's changed offset at 00:01 local time: a quarter of an hour holding a change.
  for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns']) {
    const clock = new Clock(zone);
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
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
