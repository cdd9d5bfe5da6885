// AWB numbers (src/files/awb.ts) and status events by AWB (src/events/types.ts), tested where they live.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventsByAwb, type StatusEvent } from '../../src/events/types.ts';
import { awbCheckDigitValid, normaliseAwb } from '../../src/files/awb.ts';

test('normaliseAwb: each caller names what it drops before the eleven digits', () => {
  assert.equal(normaliseAwb(' 020-12345675 ', 'space'), '020-12345675');
  assert.equal(normaliseAwb('02012345675', 'space'), '020-12345675');
  assert.equal(normaliseAwb('020 12345675', 'space'), null);
  assert.equal(normaliseAwb('020 1234-5675', 'separators'), '020-12345675');
  assert.equal(normaliseAwb('020/12345675', 'separators'), null);
  assert.equal(normaliseAwb('AWB 020/1234.5675', 'non-digits'), '020-12345675');
  assert.equal(normaliseAwb('020-1234567', 'non-digits'), null);
});

test('the check digit: the serial’s first seven digits mod 7', () => {
  assert.equal(awbCheckDigitValid('020-12345675'), true);
  assert.equal(awbCheckDigitValid('020-12345676'), false);
});

test('eventsByAwb keeps the order of AWBs and of each AWB’s events', () => {
  const e = (awb: string, code: string) => ({ awb, code }) as StatusEvent;
  const grouped = eventsByAwb([e('B', '1'), e('A', '2'), e('B', '3')]);
  assert.deepEqual([...grouped.keys()], ['B', 'A']);
  assert.deepEqual(
    grouped.get('B')!.map((x) => x.code),
    ['1', '3'],
  );
});
