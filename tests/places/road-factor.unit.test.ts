import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { distanceKm, ROAD_FACTOR, roadEstimateKm } from '../../src/places/index.ts';

/**
 * The detour factor of the estimated road distance (places/geo.ts ROAD_FACTOR; docs/choices.md,
 * "Road distances"): its error on published road distances of European city pairs
 * (road-distances.json: the Cambridge Encyclopaedia's table, R's data set eurodist), with the
 * pairs left out by the rule the file states.
 */

interface Data {
  excluded: { cities: Record<string, string> };
  cities: Record<string, { country: string; latitude: number; longitude: number }>;
  pairs: [string, string, number][];
}

const data = JSON.parse(readFileSync(new URL('./road-distances.json', import.meta.url), 'utf8')) as Data;

/** Every pair with its great circle, the excluded cities left out. */
const measured = data.pairs
  .filter(([a, b]) => !(a in data.excluded.cities) && !(b in data.excluded.cities))
  .map(([a, b, road]) => ({ a, b, road, circle: distanceKm(data.cities[a]!, data.cities[b]!) }));
/** The rule: below the great circle is impossible, above twice it a misprint. */
const kept = measured.filter((p) => p.road >= p.circle && p.road <= 2 * p.circle);

/** Relative errors of an estimate `factor × great circle` against the road. */
const errors = (factor: number) => kept.map((p) => (factor * p.circle - p.road) / p.road);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

test('at least 50 European city pairs, 5 of 171 left out as misprints', () => {
  assert.equal(data.pairs.length, 210);
  assert.equal(measured.length, 171);
  assert.equal(kept.length, 166);
  assert.ok(new Set(kept.flatMap((p) => [data.cities[p.a]!.country, data.cities[p.b]!.country])).size >= 9);
});

test('the factor errs by 6.0 % on average and 25.1 % at worst', () => {
  const abs = errors(ROAD_FACTOR).map(Math.abs);
  const meanPercent = Math.round(mean(abs) * 1000) / 10;
  const worstPercent = Math.round(Math.max(...abs) * 1000) / 10;
  assert.equal(meanPercent, 6.0);
  assert.equal(worstPercent, 25.1);
  // 139 of 166 within 10 %; slightly short on average (bias −1.9 %): detours around coasts and mountains.
  assert.equal(abs.filter((e) => e <= 0.1).length, 139);
  assert.equal(Math.round(mean(errors(ROAD_FACTOR)) * 1000) / 10, -1.9);
});

test('no factor to two decimals errs less on average', () => {
  const meanAbs = (f: number) => mean(errors(f).map(Math.abs));
  for (let f = 1.1; f <= 1.5; f += 0.01) assert.ok(meanAbs(Math.round(f * 100) / 100) >= meanAbs(ROAD_FACTOR) - 1e-12, `factor ${f}`);
});

test('München → Warszawa: 810 km great circle, about 1,030 km by road', () => {
  const circle = distanceKm({ latitude: 48.13743, longitude: 11.57549 }, { latitude: 52.22977, longitude: 21.01178 });
  assert.equal(Math.round(circle), 810);
  assert.equal(Math.round(roadEstimateKm(circle)), 1029);
});
