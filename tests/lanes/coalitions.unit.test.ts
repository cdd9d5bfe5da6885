import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COALITION_MAX, OTHERS_MIN_AWARDS, OTHERS_MIN_PARTIES, resistsCoalitions } from '../../src/lanes/lane.ts';

/**
 * lane.ts resistsCoalitions, the strict release's rule (issue 39): a batch resists when every
 * coalition of at most k companies took no part in at least four awards, of two owners and two
 * winners. Checked against the rule as written, by trying every coalition, on random batches, and
 * on the shapes of the reviews' attacks.
 */

/** The rule as written: every coalition of at most k of the batch's companies, tried one by one. */
function everyCoalition(owners: number[], winners: number[], k: number): boolean {
  const companies = [...new Set([...owners, ...winners])];
  const leaves = (coalition: Set<number>) => {
    const unknown = owners.map((_, i) => i).filter((i) => !coalition.has(owners[i]!) && !coalition.has(winners[i]!));
    return (
      unknown.length >= OTHERS_MIN_AWARDS &&
      new Set(unknown.map((i) => owners[i])).size >= OTHERS_MIN_PARTIES &&
      new Set(unknown.map((i) => winners[i])).size >= OTHERS_MIN_PARTIES
    );
  };
  const from = (start: number, chosen: number[]): boolean =>
    leaves(new Set(chosen)) && (chosen.length === k || companies.slice(start).every((c, j) => from(start + j + 1, [...chosen, c])));
  return from(0, []);
}

/** A deterministic pseudo-random sequence (the same batches on every run). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('resistsCoalitions', () => {
  test('agrees with trying every coalition, on 2,000 random batches of 4 to 17 awards, k = 1 to 4', () => {
    const next = random(39);
    let resisting = 0;
    for (let t = 0; t < 2000; t++) {
      const n = 4 + Math.floor(next() * 14);
      const [shippers, carriers] = [1 + Math.floor(next() * 10), 1 + Math.floor(next() * 10)];
      const owners: number[] = [];
      const winners: number[] = [];
      for (let i = 0; i < n; i++) {
        owners.push(1 + Math.floor(next() * shippers));
        // Now and then a carrier that is also a shipper of the batch.
        winners.push(next() < 0.1 ? 1 + Math.floor(next() * shippers) + 0.5 : 100 + Math.floor(next() * carriers));
      }
      for (let k = 1; k <= 4; k++) {
        const expected = everyCoalition(owners, winners, k);
        if (expected) resisting++;
        assert.equal(resistsCoalitions(owners, winners, k), expected, `k ${k}: owners ${owners}, winners ${winners}`);
      }
    }
    assert.ok(resisting > 500, `both answers occur (${resisting} resisting)`);
  });

  test('the review’s coalition: 2 shippers and 2 carriers with 4 fabricated awards around 3 victims do not resist; around 6 they do', () => {
    const fakes = { owners: [1, 2, 1, 2], winners: [11, 12, 12, 11] };
    const victims = (m: number) => ({
      owners: Array.from({ length: m }, (_, i) => 21 + i),
      winners: Array.from({ length: m }, (_, i) => 31 + i),
    });
    const batch = (m: number) =>
      [
        [...fakes.owners, ...victims(m).owners],
        [...fakes.winners, ...victims(m).winners],
      ] as const;
    // Each company alone took part in two of seven: the rule for one company (the earlier strict) let it through.
    assert.equal(resistsCoalitions(...batch(3), 1), true);
    assert.equal(resistsCoalitions(...batch(3), COALITION_MAX), false);
    for (const m of [4, 5]) assert.equal(resistsCoalitions(...batch(m), COALITION_MAX), false, `${m} victims`);
    assert.equal(resistsCoalitions(...batch(6), COALITION_MAX), true);
    // Five companies that took part in all but three: beyond the rule's k, stated as such.
    assert.equal(resistsCoalitions(...batch(4), 5), false);
  });

  test('the smallest batches that resist four: eight awards of eight owners and eight winners; seven do not', () => {
    const distinct = (n: number) => [Array.from({ length: n }, (_, i) => i + 1), Array.from({ length: n }, (_, i) => i + 101)] as const;
    assert.equal(resistsCoalitions(...distinct(8)), true);
    assert.equal(resistsCoalitions(...distinct(7)), false);
    // One carrier that won all eight: it alone took part in every award.
    assert.equal(resistsCoalitions(distinct(8)[0], Array(8).fill(100)), false);
  });

  test('large batches: two carriers that won all but three do not resist; many carriers, or a wide market, do (at most 3^7 branches of one pass each)', () => {
    const next = random(7);
    // 2,000 awards of 300 shippers, all but three won by two carriers: those two took part in all but three.
    const two = [
      Array.from({ length: 2000 }, () => Math.floor(next() * 300)),
      Array.from({ length: 2000 }, (_, i) => (i < 3 ? 200 + i : 100 + (i % 2))),
    ] as const;
    assert.equal(resistsCoalitions(...two), false);
    // The same with a third of them won by twelve other carriers (a few of them large): four companies never know enough.
    const few = [two[0], two[1].map((w, i) => (i % 3 ? w : 300 + Math.floor(next() ** 2 * 12)))] as const;
    assert.equal(resistsCoalitions(...few), true);
    // 2,000 awards among 600 shippers and 200 carriers.
    const wide = [
      Array.from({ length: 2000 }, () => Math.floor(next() * 600)),
      Array.from({ length: 2000 }, () => 1000 + Math.floor(next() * 200)),
    ] as const;
    assert.equal(resistsCoalitions(...wide), true);
  });
});
