// The location spelling (src/places/location.ts) and the rate search's strict reading of it (src/pricing/fields.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryAndPostal, splitLocation } from '../../src/places/location.ts';
import { formatLocation, parseLocation } from '../../src/pricing/fields.ts';

test('splitLocation: the prefix in lower case and the rest trimmed; a bare value whole', () => {
  assert.deepEqual(splitLocation('Airport: fra'), { prefix: 'airport', rest: 'fra' });
  assert.deepEqual(splitLocation('city:DE-60311'), { prefix: 'city', rest: 'DE-60311' });
  assert.deepEqual(splitLocation('FRA'), { prefix: null, rest: 'FRA' });
  assert.deepEqual(countryAndPostal('de-60311'), { country: 'DE', postal: '60311' });
  assert.equal(countryAndPostal('de - 60311'), null);
  assert.deepEqual(countryAndPostal('de - 60311', true), { country: 'DE', postal: '60311' });
});

test('the rate search: known airports and postal areas, every other text refused with a reason', () => {
  assert.deepEqual(parseLocation('fra'), { kind: 'airport', code: 'FRA' });
  assert.deepEqual(parseLocation('city:de - 603 11'), { kind: 'city', country: 'DE', postal: '60311' });
  assert.equal(formatLocation({ kind: 'city', country: 'DE', postal: '60311' }), 'city:DE-60311');
  assert.match(String(parseLocation('airport:XQZ')), /unknown airport XQZ/);
  assert.match(String(parseLocation('city:DE')), /a postal area is/);
  assert.match(String(parseLocation('Frankfurt')), /is neither/);
  assert.match(String(parseLocation('city:DE-1234567890123', 12)), /longer than 12/);
});
