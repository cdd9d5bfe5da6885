// The rate formula's weight rules (docs/reference.md#rate-search), tested where they live (src/pricing/formula.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chargeableWeight, showWeight } from '../../src/pricing/formula.ts';

const cw = (weight: string | null, pieces: Array<Record<string, string | number>> = [], unitOfLength: 'cm' | 'in' = 'cm') =>
  chargeableWeight({ weight, pieces_json: pieces as never, unitOfLength }).toFixed();

test('the larger of the weight and the volume weight (cm³ / 6000)', () => {
  assert.equal(cw('100'), '100');
  // 2 × 120 × 80 × 100 cm = 1,920,000 cm³ -> 320 kg
  assert.equal(cw('100', [{ pieces: 2, depth: '120', width: '80', height: '100' }]), '320');
  assert.equal(cw('400', [{ pieces: 2, depth: '120', width: '80', height: '100' }]), '400');
});

test('without a weight the piece lines’ weights add up; a line without pieces counts once', () => {
  assert.equal(cw(null, [{ weight: '12.5' }, { pieces: 3, weight: '7.25' }]), '19.75');
  assert.equal(cw(null, [{ depth: '60', width: '50', height: '40' }]), '20');
});

test('a line missing a dimension adds no volume; nothing at all is 0 (the minimum charge applies)', () => {
  assert.equal(cw(null, [{ pieces: 5, depth: '100', width: '100' }]), '0');
  assert.equal(cw(null), '0');
});

test('inches: one cubic inch is 2.54³ cm³, exactly', () => {
  // 100 in³ = 1638.7064 cm³ -> 0.27311773... kg
  assert.equal(cw(null, [{ depth: '10', width: '10', height: '1' }], 'in'), '0.27311773333333333333');
});

test('shown to the gram, half up', () => {
  assert.equal(showWeight(chargeableWeight({ weight: '0.0005', pieces_json: [], unitOfLength: 'cm' })), 0.001);
  assert.equal(showWeight(chargeableWeight({ weight: '1250.4994', pieces_json: [], unitOfLength: 'cm' })), 1250.499);
});
