import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openFreight } from '../freights/helpers.ts';

/**
 * GET /freights/counts counts each list over one set of rows per family of lists (own freights,
 * freights bid on or won, the market) and keeps counts per database snapshot: whatever the mix of
 * statuses, visibilities, whitelists, deadlines, winners and bids, every count equals the length
 * of its list, for every company and search, also after a deadline passes and after a write.
 */

let app: TestApp;
let a: Actor;
let b: Actor;
let c: Actor;
const HOUR = 3_600_000;
const start = new Date(Date.UTC(2030, 3, 1, 8, 0));

const FILTER_IDS = [8, 7, 6, 2, 9, 20, 10, 17, 18, 12, 19, 200, 201, 209, 210, 211, 219];
const SEARCHES: Array<Record<string, string>> = [
  {},
  { from: 'DE-60' },
  { from_near: '50.11,8.68', from_radius: '30' },
  { pickup_from: '2030-04-03', pickup_to: '2030-04-04' },
  { weight_min: '1000', media: 'road' },
  { q: 'PO-1' },
];

/** Every row of list `filter` for `who` (all pages). */
async function listLength(who: Actor, filter: number, search: Record<string, string>): Promise<number> {
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await app.get(`/freights/enlist/${filter}.json?${new URLSearchParams({ ...search, limit: '100', page: String(page) })}`, {
      token: who.token,
    });
    assert.equal(res.body.status, 'success', res.text);
    const rows = res.body.data.routes.length as number;
    total += rows;
    if (rows < 100) return total;
  }
}

async function assertCountsAgree(label: string, searches = SEARCHES) {
  for (const who of [a, b, c]) {
    for (const search of searches) {
      const res = await app.get(`/freights/counts.json?${new URLSearchParams(search)}`, { token: who.token });
      assert.equal(res.body.status, 'success', res.text);
      const counts = res.body.data.counts as Record<string, number>;
      for (const id of FILTER_IDS) {
        assert.equal(
          counts[String(id)],
          await listLength(who, id, search),
          `${label}: list ${id} of company ${who.company}, search ${JSON.stringify(search)}`,
        );
      }
      // The TMS lists take no search (docs/reference.md#load-search): 51 is every won order on no tour.
      assert.equal(
        counts['51'],
        await listLength(who, 51, {}),
        `${label}: list 51 of company ${who.company}, search ${JSON.stringify(search)}`,
      );
    }
  }
}

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
  app.setNow(start);
  a = await app.actor('Shipper');
  b = await app.actor('Carrier');
  c = await app.actor('Forwarder');
  // Every status, both types, three visibilities (public, whitelist naming c, own company only)
  // and three deadlines (in two days, in one hour, none), for two owners; winners on the
  // awarded ones; places, dates and weights vary so that each search finds some of them.
  const rows: Record<string, unknown>[] = [];
  let n = 0;
  for (const owner of [a, b]) {
    const other = owner === a ? b : a;
    for (const status of ['draft', 'open', 'pending', 'taken', 'closed', 'archived', 'revoked', 'expired']) {
      for (const type of ['AHR', 'FFR']) {
        for (const [visibility, whitelist] of [
          [0, []],
          [-2, [c.company]],
          [-1, []],
        ] as const) {
          for (const deadline of [new Date(start.getTime() + 48 * HOUR), new Date(start.getTime() + HOUR), null]) {
            n++;
            const winner = ['taken', 'closed', 'archived'].includes(status) ? (n % 3 === 0 ? c : other).company : null;
            const frankfurt = n % 2 === 0;
            rows.push({
              status,
              type,
              visibility,
              whitelist: [...whitelist],
              deadline,
              class: n % 4 === 0 ? 'air' : 'rfs',
              company_id: owner.company,
              user_id: owner.user,
              winner_id: winner,
              from_code: frankfurt ? '60311' : 'FRA',
              from_country: frankfurt ? 'DE' : null,
              from_latitude: frankfurt ? '50.1109' : null,
              from_longitude: frankfurt ? '8.6821' : null,
              to_code: '20121',
              to_country: 'IT',
              weight: String(500 * (n % 5)),
              etd: new Date(start.getTime() + (n % 5) * 24 * HOUR),
              refs: JSON.stringify({ customer: `PO-${n}` }),
              created: new Date(start.getTime() - n * 60_000),
              modified: start,
            });
          }
        }
      }
    }
  }
  const ids = (
    await app.services.db
      .insertInto('freights')
      .values(rows as never)
      .returning('id')
      .execute()
  ).map((r) => r.id);
  // Live bids of b and c, and revoked ones (which do not count as a bid).
  const bids: Record<string, unknown>[] = [];
  ids.forEach((id, i) => {
    const bid = (who: Actor, status: string) =>
      bids.push({
        freight_id: id,
        company_id: who.company,
        user_id: who.user,
        amount: '100.00',
        currency_code: 'EUR',
        status,
        created: start,
        modified: start,
      });
    if (i % 3 === 0) bid(c, 'open');
    if (i % 4 === 0) bid(b, 'open');
    if (i % 5 === 0) bid(c, 'revoked');
    if (i % 7 === 0) bid(a, 'open');
  });
  await app.services.db
    .insertInto('bids')
    .values(bids as never)
    .execute();
});
after(() => app?.close());

describe('GET /freights/counts agrees with the lists', () => {
  test('for every company, list and search', async () => {
    await assertCountsAgree('at the start');
  });

  test('asked again in the same state, the same counts', async () => {
    const first = await app.get('/freights/counts.json', { token: c.token });
    const second = await app.get('/freights/counts.json', { token: c.token });
    assert.deepEqual(second.body.data.counts, first.body.data.counts);
    assert.ok(first.body.data.counts['8'] > 0, 'the market holds freights');
  });

  test('after a deadline passes (no write), market freights leave the market lists at once', async () => {
    const before = (await app.get('/freights/counts.json', { token: c.token })).body.data.counts as Record<string, number>;
    app.setNow(new Date(start.getTime() + 2 * HOUR));
    const afterDeadline = (await app.get('/freights/counts.json', { token: c.token })).body.data.counts as Record<string, number>;
    assert.ok(afterDeadline['8']! < before['8']!, 'fewer freights in the market');
    await assertCountsAgree('two hours later', SEARCHES.slice(0, 3));
    app.setNow(start);
    assert.deepEqual(
      (await app.get('/freights/counts.json', { token: c.token })).body.data.counts,
      before,
      'the clock moved back: the counts of then',
    );
  });

  test('after a write, the next answer counts it', async () => {
    const before = (await app.get('/freights/counts.json', { token: c.token })).body.data.counts as Record<string, number>;
    const mine = (await app.get('/freights/counts.json', { token: a.token })).body.data.counts as Record<string, number>;
    await openFreight(app, a, { weight: 2000 });
    assert.equal((await app.get('/freights/counts.json', { token: c.token })).body.data.counts['8'], before['8']! + 1);
    assert.equal((await app.get('/freights/counts.json', { token: a.token })).body.data.counts['10'], mine['10']! + 1);
    await assertCountsAgree('after publishing', SEARCHES.slice(0, 2));
  });

  test('concurrent requests of one company answer alike', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.get('/freights/counts.json?from=DE-60', { token: b.token })));
    for (const res of answers) assert.deepEqual(res.body.data.counts, answers[0]!.body.data.counts);
  });
});
