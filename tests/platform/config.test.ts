import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, readConfig } from '../../src/config/config.ts';
import { Clock } from '../../src/kernel/time.ts';

test('defaults match docs/reference.md#running', () => {
  const c = readConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.match(c.dataDir, /\/data$/);
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.appEnv, 'demo');
  assert.equal(c.timezone, 'UTC');
  assert.equal(c.lanePricesRelease, 'threshold');
});

test('LANE_PRICES_RELEASE: threshold (the contract’s, default) or strict; anything else is named', () => {
  assert.equal(readConfig({ LANE_PRICES_RELEASE: 'strict' }).lanePricesRelease, 'strict');
  assert.equal(readConfig({ LANE_PRICES_RELEASE: 'threshold' }).lanePricesRelease, 'threshold');
  assert.equal(readConfig({ LANE_PRICES_RELEASE: '' }).lanePricesRelease, 'threshold');
  assert.throws(
    () => readConfig({ LANE_PRICES_RELEASE: 'paranoid' }),
    /LANE_PRICES_RELEASE must be "threshold" or "strict", got "paranoid"/,
  );
});

test('every invalid variable is named in one message', () => {
  assert.throws(
    () => readConfig({ PORT: 'eighty', APP_ENV: 'staging', APP_TIMEZONE: 'Mars/Olympus', DATABASE_URL: 'mysql://x' }),
    (err: Error) =>
      err instanceof ConfigError &&
      /PORT/.test(err.message) &&
      /APP_ENV/.test(err.message) &&
      /APP_TIMEZONE/.test(err.message) &&
      /DATABASE_URL/.test(err.message),
  );
  assert.throws(() => readConfig({ APP_ENV: 'production' }), /TOKEN_SECRET is required/);
  assert.doesNotThrow(() => readConfig({ APP_ENV: 'production', TOKEN_SECRET: 'x'.repeat(32) }));
});

test('the clock reads and writes wall time in APP_TIMEZONE', () => {
  const berlin = new Clock('Europe/Berlin', () => new Date('2026-07-01T10:00:00Z'));
  const d = berlin.parse('2026-07-01 14:30');
  assert.equal(d?.toISOString(), '2026-07-01T12:30:00.000Z');
  assert.equal(berlin.format(d), '2026-07-01 14:30:00');
  assert.equal(berlin.formatShort(d), '2026-07-01 14:30');
  assert.equal(berlin.parse('2026-07-01 14:30:15')?.toISOString(), '2026-07-01T12:30:15.000Z');
  assert.equal(berlin.parse('2026-07-01'), null);
  assert.equal(berlin.parse('2026-13-01 10:00'), null);
  assert.equal(berlin.parse('yesterday'), null);
  assert.equal(berlin.parse(12345), null);
  assert.equal(berlin.format(berlin.parseDeadline('+48 hours')), '2026-07-03 12:00:00');
  assert.equal(berlin.format(berlin.parseDeadline('+2 days')), '2026-07-03 12:00:00');
  assert.equal(berlin.format(berlin.parseDeadline('+30 minutes')), '2026-07-01 12:30:00');
  assert.equal(berlin.format(berlin.parseDeadline('+1 week')), '2026-07-08 12:00:00');
  assert.equal(berlin.parseDeadline('+2 fortnights'), null);
  assert.equal(berlin.parseDeadline('+999999 weeks'), null);
  assert.equal(berlin.parse('0001-01-01 00:00'), null);
  assert.equal(new Clock('UTC').format(null), null);
});
