// The kernel's readers of list conventions (src/kernel/params.ts), tested where they live.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Warning } from '../../src/kernel/outcome.ts';
import { findById, MAX_PIECE_LINES, offsetOf, readIntWithin, readLines, readPageWindow } from '../../src/kernel/params.ts';

test('page and limit: defaults 1 and 20, limit at most 100, what is not taken is named', () => {
  assert.deepEqual(readPageWindow({}), { page: 1, limit: 20 });
  assert.deepEqual(readPageWindow({ page: '3', limit: 50 }), { page: 3, limit: 50 });
  assert.deepEqual(readPageWindow({ limit: '1000' }), { page: 1, limit: 100 });
  const warnings: Warning[] = [];
  assert.deepEqual(readPageWindow({ page: '0', limit: '-1' }, warnings), { page: 1, limit: 20 });
  assert.deepEqual(
    warnings.map((w) => w.field),
    ['page', 'limit'],
  );
  const far: Warning[] = [];
  assert.deepEqual(readPageWindow({ page: 1_000_001 }, far), { page: 1, limit: 20 });
  assert.equal(far.length, 1);
  assert.equal(offsetOf({ page: 3, limit: 20 }), 40);
});

test('readIntWithin clamps to its range and falls back for what it cannot read', () => {
  assert.equal(readIntWithin(undefined, 20, 1, 100), 20);
  assert.equal(readIntWithin('abc', 20, 1, 100), 20);
  assert.equal(readIntWithin('0', 20, 1, 100), 1);
  assert.equal(readIntWithin(500, 20, 1, 100), 100);
  assert.equal(readIntWithin('7', 20, 1, 100), 7);
});

test('readLines: a JSON array or bracket keys of lines, never a text or a number, counted first', () => {
  assert.deepEqual(readLines([{ a: 1 }], 5), { ok: true, items: [{ a: 1 }] });
  assert.deepEqual(readLines({ 0: { a: 1 }, 1: { a: 2 } }, 5), { ok: true, items: [{ a: 1 }, { a: 2 }] });
  assert.deepEqual(readLines('1,2', 5), { ok: false, reason: 'not_a_list' });
  assert.deepEqual(readLines(3, 5), { ok: false, reason: 'not_a_list' });
  assert.deepEqual(
    readLines(
      Array.from({ length: MAX_PIECE_LINES + 1 }, () => ({})),
      MAX_PIECE_LINES,
    ),
    { ok: false, reason: 'too_many' },
  );
});

test('findById asks only for an id and answers undefined for a missing record', async () => {
  const asked: number[] = [];
  const find = async (id: number) => {
    asked.push(id);
    return id === 7 ? { id } : null;
  };
  assert.deepEqual(await findById('7', find), { id: 7 });
  assert.equal(await findById('8', find), undefined);
  assert.equal(await findById('x', find), undefined);
  assert.equal(await findById('0', find), undefined);
  assert.deepEqual(asked, [7, 8]);
});
