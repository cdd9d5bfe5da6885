import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { actorPool, countOnly, monthOf, PARIS, place, prices, seedAward, seedAwards, type Place, type Pool } from './helpers.ts';

/**
 * The stricter release, an operator's opt-in (LANE_PRICES_RELEASE=strict; docs/choices.md, "Lane
 * prices"): on top of the contract's threshold, a batch is released only when every coalition of
 * up to four companies (lane.ts COALITION_MAX), shippers or carriers in any mix, took no part in at
 * least four of its awards, of two other owners and two other winners, so that no company, nor
 * four acting together, can place prices of their own around the others' and read them off the
 * quartiles (the bracketing attack; issue 39: the review's coalition of two shippers and two
 * carriers read all three victims under the earlier rule, which counted one company at a time).
 * And a change of the setting on a running database: the cells are rebuilt at the next start
 * under the new rule.
 */

const NOW = new Date('2031-03-15T10:00:00Z');
const THIS_MONTH = new Date('2031-03-10T10:00:00Z');
const ZONE = { APP_TIMEZONE: 'Europe/Berlin' };

describe('LANE_PRICES_RELEASE=strict', () => {
  let app: TestApp;
  let pool: Pool;
  before(async () => {
    app = await startTestApp({ env: { ...ZONE, LANE_PRICES_RELEASE: 'strict' } });
    app.setNow(NOW);
    pool = await actorPool(app, 14);
  });
  after(() => app.close());

  const awards = (from: Place, to: Place, list: string[], parties: { owners?: number; winners?: number } = {}) =>
    seedAwards(app, pool, { from, to, when: THIS_MONTH }, list, parties);
  const month = async (from: string, to: string) => monthOf((await prices(app, pool.carriers[13]!, { from, to })).body, '2031-03');

  test('8 awards of 8 owners to 8 carriers: shown, exact; 7 of 7 and 7: count only, since four of their companies took part in four and three are left', async () => {
    await awards(place('DE', '50667'), place('FR', '44000'), [
      '700.00',
      '710.00',
      '720.00',
      '730.00',
      '740.00',
      '750.00',
      '760.00',
      '770.00',
    ]);
    assert.deepEqual(await month('DE-50', 'FR-44'), { ...countOnly('2031-03', 8), median: 735, p25: 718, p75: 753, released: 8 });
    await awards(place('DE', '53111'), place('FR', '44000'), ['700.00', '710.00', '720.00', '730.00', '740.00', '750.00', '760.00']);
    assert.deepEqual(await month('DE-53', 'FR-44'), countOnly('2031-03', 7));
  });

  test('5 awards of 3 owners: count only; more awards of new companies release them all once any four companies leave four', async () => {
    const [from, to] = [place('DE', '51063'), place('FR', '44000')];
    await awards(from, to, ['700.00', '710.00', '720.00', '730.00', '740.00'], { owners: 3 });
    assert.deepEqual(await month('DE-51', 'FR-44'), countOnly('2031-03', 5));
    // The two shippers with two awards each and any two others took part in six: four new awards leave three.
    await awards(from, to, ['750.00', '760.00', '770.00', '780.00']);
    assert.deepEqual(await month('DE-51', 'FR-44'), countOnly('2031-03', 9));
    // A fifth leaves four (of four owners and four winners): all ten are released.
    await awards(from, to, ['790.00']);
    assert.deepEqual(await month('DE-51', 'FR-44'), { ...countOnly('2031-03', 10), median: 745, p25: 723, p75: 768, released: 10 });
  });

  test('the winner counts too: 5 awards of 3 owners to one carrier, of 5 owners to 3 carriers, a carrier that won 4 of 5: count only', async () => {
    const list = ['600.00', '601.00', '602.00', '603.00', '604.00'];
    await awards(place('DE', '70173'), place('FR', '59000'), list, { owners: 3, winners: 1 });
    await awards(place('DE', '71032'), place('FR', '59000'), list, { winners: 3 });
    // The fifth award of another carrier: the one that won four knows every price but one.
    const [from, to] = [place('DE', '72070'), place('FR', '59000')];
    const first = pool.turn;
    pool.turn += 5;
    for (const [i, price] of list.entries())
      await seedAward(app, {
        owner: pool.shippers[(first + i) % 14]!,
        winner: pool.carriers[(first + (i === 4 ? 1 : 0)) % 14]!,
        price,
        at: THIS_MONTH,
        from,
        to,
      });
    for (const from of ['DE-70', 'DE-71', 'DE-72']) assert.deepEqual(await month(from, 'FR-59'), countOnly('2031-03', 5), from);
  });

  test('the page says which rule holds', async () => {
    const { cookie } = await browserSession(app, pool.shippers[0]!);
    const page = await app.get('/market/prices?from=DE-50&to=FR-44', { headers: { cookie } });
    assert.match(page.text, /any 4 companies together, shippers or carriers, took no part in at least 4/);
  });

  describe('insiders: no company, nor four acting together, can place their own prices around the others’ and read them all off', () => {
    /**
     * The review's attack (issue 39): two shippers and two carriers fabricate four awards among
     * themselves at extreme prices (two low, two high) in a cell and month where three other
     * shippers have one award each. Seven awards of five owners: the contract's threshold
     * releases them, and so did the earlier strict rule (no single company took part in more
     * than two); the quartiles of seven are the mean of the second and third prices, the fourth,
     * and the mean of the fifth and sixth: with the fakes known, the three victims' prices. Under
     * the rule, four companies that took part in all but three keep the month at its count.
     */
    const coalition = () => ({ shippers: pool.shippers.slice(0, 2), carriers: pool.carriers.slice(0, 2) });
    const fabricate = async (from: Place) => {
      const { shippers, carriers } = coalition();
      for (const [owner, winner, price] of [
        [shippers[0]!, carriers[0]!, '1.00'],
        [shippers[1]!, carriers[1]!, '2.00'],
        [shippers[0]!, carriers[1]!, '99998.00'],
        [shippers[1]!, carriers[0]!, '99999.00'],
      ] as const)
        await seedAward(app, { owner, winner, price, at: THIS_MONTH, from, to: PARIS });
    };
    const victims = async (from: Place, list: string[], firstVictim = 2) => {
      for (const [i, price] of list.entries())
        await seedAward(app, {
          owner: pool.shippers[firstVictim + i]!,
          winner: pool.carriers[firstVictim + i]!,
          price,
          at: THIS_MONTH,
          from,
          to: PARIS,
        });
    };

    test('the review’s coalition (2 shippers, 2 carriers, 4 fabricated awards around 3 victims) learns nothing; six victims are released and it reads none of them alone', async () => {
      await fabricate(place('DE', '01067'));
      await victims(place('DE', '01067'), ['1180.00', '1240.00', '1310.00']);
      await fabricate(place('DE', '02625'));
      await victims(place('DE', '02625'), ['1090.00', '1200.00', '1350.00']);
      const [a, b] = [
        await prices(app, coalition().shippers[0]!, { from: 'DE-01', to: 'FR-75' }),
        await prices(app, coalition().shippers[0]!, { from: 'DE-02', to: 'FR-75' }),
      ];
      // Under the contract's threshold and the earlier strict rule this answered p25 591, median 1,240 and
      // p75 50,654: with the fakes known, 2 · 591 - 2 = 1,180, 1,240 and 2 · 50,654 - 99,998 = 1,310, all three.
      assert.deepEqual(monthOf(a.body, '2031-03'), countOnly('2031-03', 7));
      assert.deepEqual(a.body.data, { ...b.body.data, lane: a.body.data.lane }, 'the victims’ prices change nothing in the answer');
      for (const victim of ['1180', '1240', '1310']) assert.ok(!a.text.includes(victim), `${victim} in ${a.text}`);
      const wide = await prices(app, coalition().carriers[1]!, { from: 'DE-0', to: 'FR' });
      assert.equal(monthOf(wide.body, '2031-03').median, null);
      const { cookie } = await browserSession(app, coalition().carriers[0]!);
      const page = await app.get('/market/prices?from=DE-01&to=FR-75', { headers: { cookie } });
      assert.equal(page.status, 200);
      for (const victim of ['1,180', '1,240', '1,310']) assert.ok(!page.text.includes(victim), victim);

      // More victims, one at a time: four companies (the two shippers and two victims) take part in
      // all but two, then three; with six victims any four leave four, and the batch is released.
      for (const [i, price] of ['1140.00', '1260.00'].entries()) {
        await victims(place('DE', '01067'), [price], 5 + i);
        assert.equal(monthOf((await prices(app, coalition().shippers[0]!, { from: 'DE-01', to: 'FR-75' })).body, '2031-03').median, null);
      }
      await victims(place('DE', '01067'), ['1300.00'], 7);
      const released = monthOf((await prices(app, coalition().shippers[0]!, { from: 'DE-01', to: 'FR-75' })).body, '2031-03');
      // Sorted 1, 2, 1140, 1180, 1240, 1260, 1300, 1310, 99998, 99999: quartiles at 2.25, 4.5 and 6.75,
      // each between two victims: p25 = 1140 + 0.25 · 40, median = (1240 + 1260) / 2, p75 = 1300 + 0.75 · 10.
      assert.deepEqual(released, { ...countOnly('2031-03', 10), p25: 1150, median: 1250, p75: 1308, released: 10 });
      for (const figure of [released.p25, released.median, released.p75])
        assert.ok(![1140, 1180, 1240, 1260, 1300, 1310].includes(figure), `${figure} is no victim’s price`);
    });

    /**
     * The bracketing attack of one insider: a shipper has a friendly carrier win three of its own
     * freights at chosen extreme prices, in a cell and month where two other shippers have one
     * award each. Seeded on two lanes whose victims paid different prices, the answers must be the same.
     */
    const attack = async (from: Place, list: [string, string]) => {
      const [shipper, friend] = [pool.shippers[0]!, pool.carriers[0]!];
      for (const price of ['1.00', '2.00', '99999.00'])
        await seedAward(app, { owner: shipper, winner: friend, price, at: THIS_MONTH, from, to: PARIS });
      await victims(from, list, 1);
    };

    test('a shipper that had a friendly carrier win three of its freights at extreme prices learns nothing of the other two shippers’ prices', async () => {
      await attack(place('DE', '04109'), ['1180.00', '1240.00']);
      await attack(place('DE', '06108'), ['1090.00', '1310.00']);
      const shipper = pool.shippers[0]!;
      const a = await prices(app, shipper, { from: 'DE-04', to: 'FR-75' });
      const b = await prices(app, shipper, { from: 'DE-06', to: 'FR-75' });
      assert.deepEqual(monthOf(a.body, '2031-03'), countOnly('2031-03', 5));
      assert.deepEqual(a.body.data, { ...b.body.data, lane: a.body.data.lane }, 'the victims’ prices change nothing in the answer');
      for (const victim of ['1180', '1240']) assert.ok(!a.text.includes(victim), `${victim} in ${a.text}`);
    });

    test('more fake awards do not help; once seven awards of others are in, the batch is released, and of the others’ prices it reads one, never all', async () => {
      // Five fakes (two low, three high) of one shipper and its carrier, and seven victims of seven shippers and seven carriers.
      const shipper = pool.shippers[0]!;
      const seed = async (from: Place, list: string[]) => {
        for (const price of ['1.00', '2.00', '99997.00', '99998.00', '99999.00'])
          await seedAward(app, { owner: shipper, winner: pool.carriers[0]!, price, at: THIS_MONTH, from, to: PARIS });
        for (const [i, price] of list.entries()) {
          await victims(from, [price], 5 + i);
          // Until the seventh, the shipper and three victims take part in all but three or fewer.
          if (i < 6)
            assert.equal(
              monthOf((await prices(app, shipper, { from: `DE-${from.code.slice(0, 2)}`, to: 'FR-75' })).body, '2031-03').median,
              null,
            );
        }
      };
      await seed(place('DE', '08056'), ['1100.00', '1150.00', '1200.00', '1250.00', '1300.00', '1350.00', '1400.00']);
      await seed(place('DE', '09111'), ['1040.00', '1170.00', '1210.00', '1230.00', '1320.00', '1330.00', '1400.00']);
      const a = monthOf((await prices(app, shipper, { from: 'DE-08', to: 'FR-75' })).body, '2031-03');
      const b = monthOf((await prices(app, shipper, { from: 'DE-09', to: 'FR-75' })).body, '2031-03');
      // Sorted 1, 2, v1 … v7, 99997, …: the quartiles of twelve sit at 2.75, 5.5 and 8.25: v1 + 0.75 (v2 - v1),
      // (v4 + v5) / 2 and v7 + 0.25 (99997 - v7). The shipper reads v7 and two sums, never the six others:
      // the lanes differ in those, and the answers do not.
      assert.deepEqual(a, { ...countOnly('2031-03', 12), p25: 1138, median: 1275, p75: 26049, released: 12 });
      assert.deepEqual(b, a);
    });
  });
});

describe('a change of LANE_PRICES_RELEASE on a running database: the cells are rebuilt at the next start', () => {
  let first: TestApp;
  before(async () => {
    first = await startTestApp({ env: ZONE });
    first.setNow(NOW);
  });
  after(() => first.close());

  /** Another server process on the same database, started with `rule`; its HTTP side closed after `use`. */
  const restart = async <T>(rule: string, use: (app: TestApp) => Promise<T>): Promise<T> => {
    const app = await startTestApp({ env: { ...ZONE, LANE_PRICES_RELEASE: rule }, database: first.database });
    app.setNow(NOW);
    try {
      return await use(app);
    } finally {
      await app.http.close(); // not app.close(): the database is `first`'s
    }
  };
  const state = async () =>
    (await sql<{ zone: string; rule: string | null }>`select zone, rule from lane_price_state`.execute(first.services.db)).rows;

  test('released under the contract’s threshold, then hidden under strict, then shown again', async () => {
    const pool = await actorPool(first, 3);
    const [from, to] = [place('DE', '04109'), PARIS];
    // The bracketing shape: three awards of one shipper to one carrier, one each of two others.
    for (const price of ['1.00', '2.00', '99999.00'])
      await seedAward(first, { owner: pool.shippers[0]!, winner: pool.carriers[0]!, price, at: THIS_MONTH, from, to });
    for (const i of [1, 2])
      await seedAward(first, {
        owner: pool.shippers[i]!,
        winner: pool.carriers[i]!,
        price: `${1100 + 100 * i}.00`,
        at: THIS_MONTH,
        from,
        to,
      });
    const shown = { ...countOnly('2031-03', 5), median: 1200, p25: 2, p75: 1300, released: 5 };
    const read = async (app: TestApp) => monthOf((await prices(app, pool.shippers[0]!, { from: 'DE-04', to: 'FR-75' })).body, '2031-03');
    // The default (threshold) releases the five at the first read.
    assert.deepEqual(await read(first), shown);
    assert.deepEqual(await state(), [{ zone: 'Europe/Berlin', rule: 'threshold' }]);

    // Restarted with strict: what the threshold released is not left released.
    assert.deepEqual(await restart('strict', read), countOnly('2031-03', 5));
    assert.deepEqual(await state(), [{ zone: 'Europe/Berlin', rule: 'strict/4' }]);
    // Started again with strict: nothing to rebuild, still hidden.
    assert.deepEqual(await restart('strict', read), countOnly('2031-03', 5));

    // Back to the default: rebuilt, and the contract's threshold shows the month again.
    assert.deepEqual(await restart('threshold', read), shown);
    assert.deepEqual(await state(), [{ zone: 'Europe/Berlin', rule: 'threshold' }]);
  });

  test('a database built before the rule was recorded (rule null) is rebuilt at start', async () => {
    // The five awards of the test above, their cell's release undone: only a rebuild releases them again.
    await sql`update lane_price_state set rule = null`.execute(first.services.db);
    await sql`update lane_price_cells set released = 0, km_released = 0`.execute(first.services.db);
    await restart('threshold', async () => undefined);
    assert.deepEqual(await state(), [{ zone: 'Europe/Berlin', rule: 'threshold' }]);
    const released = await sql<{ n: number }>`select coalesce(sum(released), 0)::int as n from lane_price_cells`.execute(first.services.db);
    assert.equal(released.rows[0]!.n, 5);
  });
});
