// The freight field table's lenient reading (src/freights-http/parse.ts, by src/freights/fields.ts FIELDS), tested where it lives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFreight, parseLocation } from '../../src/freights-http/parse.ts';
import { Clock } from '../../src/kernel/time.ts';

const clock = new Clock('Europe/Berlin', () => new Date('2030-01-10T12:00:00Z'));
const parse = (params: Record<string, unknown>) => parseFreight(params, { clock });
const fields = (p: ReturnType<typeof parse>) => p.warnings.map((w) => w.field);

test('locations: prefixes removed, IATA codes upper-cased, the rate-search form gives the country', () => {
  assert.deepEqual(parseLocation('airport:fra'), { code: 'FRA', iata: true });
  assert.deepEqual(parseLocation('ams'), { code: 'AMS', iata: true });
  assert.deepEqual(parseLocation('city:60311'), { code: '60311', iata: false });
  assert.deepEqual(parseLocation('city:de-60311'), { code: '60311', country: 'DE', iata: false });
  assert.equal(parseLocation(''), undefined);
  assert.equal(parseLocation({ code: 'FRA' }), undefined);
});

test('an IATA side is resolved to country, address and coordinates while its address is empty', () => {
  const p = parse({ to: 'airport:FRA' });
  assert.equal(p.values.to_code, 'FRA');
  assert.equal(p.values.to_country, 'DE');
  assert.match(String(p.values.to_addr), /Frankfurt/);
  const sent = parse({ to: 'FRA', to_addr: 'Tor 3' });
  assert.equal(sent.values.to_addr, 'Tor 3');
  assert.equal(sent.values.to_latitude, undefined);
});

test('weight rule: weight, or weight_actual and weight_volume together (the larger); one alone has no effect', () => {
  assert.equal(parse({ weight_actual: '800.5', weight_volume: '1200' }).values.weight, '1200');
  const lone = parse({ weight_actual: 800 });
  assert.equal(lone.values.weight, undefined);
  assert.deepEqual(fields(lone), ['weight_actual']);
  assert.equal(parse({ weight: '12,5' }).values.weight, '12.5');
});

test('exact to the gram and the cent: more decimals are ignored, never rounded; coordinates are rounded', () => {
  assert.deepEqual(fields(parse({ weight: '1.2345' })), ['weight']);
  assert.deepEqual(fields(parse({ price: '10.005' })), ['price']);
  assert.equal(parse({ from_latitude: '50.12345678' }).values.from_latitude, '50.123457');
});

test('times in the application zone; a date without time is dropped; ranges need " to "', () => {
  assert.deepEqual(parse({ etd: '2030-05-04 08:00' }).values.etd, new Date('2030-05-04T06:00:00Z'));
  const dateOnly = parse({ eta: '2030-05-04' });
  assert.equal(dateOnly.values.eta, null);
  assert.deepEqual(fields(dateOnly), ['eta']);
  const range = parse({ etd_range: '2030-05-04 08:00 to 2030-05-04 12:00' });
  assert.deepEqual([range.values.etd, range.values.etd_end], [new Date('2030-05-04T06:00:00Z'), new Date('2030-05-04T10:00:00Z')]);
  const dash = parse({ etd_range: '2030-05-04 08:00 - 2030-05-04 12:00' });
  assert.deepEqual([dash.values.etd, dash.values.etd_end], [null, null]);
  assert.deepEqual(parse({ deadline: '+48 hours' }).values.deadline, new Date('2030-01-12T12:00:00Z'));
});

test('unknown and server-set fields are ignored and named; plumbing is not', () => {
  const p = parse({ colour: 'blue', company: 99, winner: 3, auth_token: 'x', _csrf: 'y', category: 'ftl' });
  assert.deepEqual(fields(p).sort(), ['colour', 'company', 'winner']);
  assert.equal(p.values.category, 'ftl');
  assert.equal(p.values.company_id, undefined);
});

test('pieces: a list replaces the lines; bad entries are named by position', () => {
  const p = parse({ pieces: [{ pieces: 3, depth: 120, colour: 'red' }, 'x', { weight: -1 }] });
  assert.equal(p.pieces?.length, 2);
  assert.deepEqual(fields(p), ['pieces[0][colour]', 'pieces[1]', 'pieces[2][weight]']);
  assert.equal(parse({ pieces: 5 }).pieces, undefined);
  assert.deepEqual(parse({ pieces: '' }).pieces, []);
});
