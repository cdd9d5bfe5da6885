import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import { actorPool, countOnly, monthOf, PARIS, place, prices, seedAward, seedAwards, type Place, type Pool } from './helpers.ts';

/**
 * The stricter release, an operator's opt-in (LANE_PRICES_RELEASE=strict; docs/decisions.md, "Lane
 * prices"): on top of the contract's threshold, a batch is released only when every company in
 * it, as owner or as winner, took no part in at least four of its awards, of two other owners and
 * two other winners, so that no company can place its own prices around the others' and read them
 * off the quartiles (the bracketing attack). And a change of the setting on a running database:
 * the cells are rebuilt at the next start under the new rule.
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
    pool = await actorPool(app);
  });
  after(() => app.close());

  const awards = (from: Place, to: Place, list: string[], parties: { owners?: number; winners?: number } = {}) =>
    seedAwards(app, pool, { from, to, when: THIS_MONTH }, list, parties);
  const month = async (from: string, to: string) => monthOf((await prices(app, pool.carriers[9]!, { from, to })).body, '2031-03');

  test('5 awards of 5 owners to 5 carriers: shown, exact', async () => {
    await awards(place('DE', '50667'), place('FR', '44000'), ['700.00', '710.00', '720.00', '730.00', '740.00']);
    assert.deepEqual(await month('DE-50', 'FR-44'), { ...countOnly('2031-03', 5), median: 720, p25: 710, p75: 730, released: 5 });
  });

  test('5 awards of 3 owners: count only, since a shipper with two could place them around the other three; a sixth of new companies releases all six', async () => {
    const [from, to] = [place('DE', '51063'), place('FR', '44000')];
    await awards(from, to, ['700.00', '710.00', '720.00', '730.00', '740.00'], { owners: 3 });
    assert.deepEqual(await month('DE-51', 'FR-44'), countOnly('2031-03', 5));
    // Now every company took no part in at least four awards of at least two other owners and two other carriers.
    await awards(from, to, ['750.00']);
    assert.deepEqual(await month('DE-51', 'FR-44'), { ...countOnly('2031-03', 6), median: 725, p25: 713, p75: 738, released: 6 });
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
        owner: pool.shippers[(first + i) % 10]!,
        winner: pool.carriers[(first + (i === 4 ? 1 : 0)) % 10]!,
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
    assert.match(page.text, /took no part in at least 4/);
  });

  describe('insiders: no company can place its own prices around the others’ and read them off', () => {
    /**
     * The bracketing attack: a shipper has a friendly carrier win three of its own freights at
     * chosen extreme prices, in a cell and month where two other shippers have one award each. Five
     * awards of three owners: the contract's threshold releases them (prices.test.ts), and the
     * quartiles of five are the second, third and fourth prices: 2, the first victim's and the
     * second victim's. Seeded on two lanes whose victims paid different prices, the answers must be
     * the same.
     */
    const attack = async (from: Place, victims: [string, string]) => {
      const [shipper, friend] = [pool.shippers[0]!, pool.carriers[0]!];
      for (const price of ['1.00', '2.00', '99999.00'])
        await seedAward(app, { owner: shipper, winner: friend, price, at: THIS_MONTH, from, to: PARIS });
      for (const [i, price] of victims.entries())
        await seedAward(app, { owner: pool.shippers[1 + i]!, winner: pool.carriers[1 + i]!, price, at: THIS_MONTH, from, to: PARIS });
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
      // Nor in a wider lane, or the page.
      const wide = await prices(app, shipper, { from: 'DE-0', to: 'FR' });
      assert.equal(monthOf(wide.body, '2031-03').median, null);
      const { cookie } = await browserSession(app, shipper);
      const page = await app.get('/market/prices?from=DE-04&to=FR-75', { headers: { cookie } });
      assert.equal(page.status, 200);
      for (const victim of ['1,180', '1,240']) assert.ok(!page.text.includes(victim), victim);
    });

    test('more fake awards do not help; once four awards of others are in, the batch is released, and the others’ prices it does not show stay unknown', async () => {
      // Five fakes (two low, three high) and four victims of four shippers and four carriers: nine awards.
      const shipper = pool.shippers[0]!;
      const seed = async (from: Place, victims: string[]) => {
        for (const price of ['1.00', '2.00', '99997.00', '99998.00', '99999.00'])
          await seedAward(app, { owner: shipper, winner: pool.carriers[0]!, price, at: THIS_MONTH, from, to: PARIS });
        for (const [i, price] of victims.entries()) {
          await seedAward(app, { owner: pool.shippers[5 + i]!, winner: pool.carriers[5 + i]!, price, at: THIS_MONTH, from, to: PARIS });
          // Until the fourth, the shipper and its carrier take part in too many: nothing is released.
          if (i < 3)
            assert.equal(
              monthOf((await prices(app, shipper, { from: `DE-${from.code.slice(0, 2)}`, to: 'FR-75' })).body, '2031-03').median,
              null,
            );
        }
      };
      await seed(place('DE', '08056'), ['1100.00', '1150.00', '1200.00', '1250.00']);
      await seed(place('DE', '09111'), ['1100.00', '1170.00', '1200.00', '1330.00']);
      const a = monthOf((await prices(app, shipper, { from: 'DE-08', to: 'FR-75' })).body, '2031-03');
      const b = monthOf((await prices(app, shipper, { from: 'DE-09', to: 'FR-75' })).body, '2031-03');
      // Sorted 1, 2, v1, v2, v3, v4, 99997, …: the quartiles of nine are the 3rd, 5th and 7th prices.
      // The shipper reads two of the four others (v1 and v3, what the rule leaves: never all of
      // them); the second and the highest differ between the lanes, and the answers do not.
      assert.deepEqual(a, { ...countOnly('2031-03', 9), median: 1200, p25: 1100, p75: 99997, released: 9 });
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
    assert.deepEqual(await state(), [{ zone: 'Europe/Berlin', rule: 'strict' }]);
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
