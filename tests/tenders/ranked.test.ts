import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DB } from '../support/databases.ts';
import { browserSession } from '../support/session.ts';
import { startTestApp, type Actor, type ApiResponse, type TestApp } from '../support/harness.ts';

/**
 * The bids ranked at the close (migration 0560, docs/choices.md "Lane tenders": bids ranked at the
 * close): the sweeper's pass that closes a tender writes each lane's ranking (price, then company;
 * an empty one without bids), an award before that pass writes it too, and every owner's read (the
 * JSON, the evaluation page, its `all=1`, the export) answers the same before the close is written
 * (the ranking computed alike) as after it. A tender still open has none.
 */

let app: TestApp;
let shipper: Actor;
const carriers: Actor[] = [];

const ok = (res: ApiResponse) => {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
};
const T0 = new Date('2031-03-15T10:00:00Z');
const AFTER = new Date('2031-03-20T12:00:01Z');

before(async () => {
  app = await startTestApp({ env: { APP_TIMEZONE: 'UTC' } });
  app.setNow(T0);
  shipper = await app.actor('Shipper');
  for (let i = 0; i < 4; i++) carriers.push(await app.actor(`Carrier ${i}`));
});
after(() => {
  app.setNow(null);
  return app.close();
});

const ranked = async (tenderId: number) =>
  (
    await app.services.db
      .selectFrom('tender_lanes')
      .select(['position', 'bids_ranked'])
      .where('tender_id', '=', tenderId)
      .orderBy('position')
      .execute()
  ).map((r) => r.bids_ranked);

/** A published tender of three lanes (the last without bids); carriers bid, one twice (its second bid replaces the first). */
async function biddenTender(): Promise<{ id: number; lanes: number[] }> {
  app.setNow(T0);
  const t = ok(
    await app.post('/tenders/add.json', {
      token: shipper.token,
      json: {
        name: 'Ranked',
        valid_from: '2031-04-01',
        valid_to: '2032-03-31',
        deadline: '2031-03-20 12:00',
        lanes: [
          { from: 'DE-60', to: 'FR-75', loads: 10 },
          { from: 'DE', to: 'FR', loads: 2 },
          { from: 'DE-10', to: 'PL', loads: 1 },
        ],
      },
    }),
  ).tender;
  ok(await app.post(`/tenders/publish/${t.id}.json`, { token: shipper.token }));
  const lanes = t.lanes.map((l: { id: number }) => l.id) as number[];
  const prices = [
    ['950.00', '700.50'],
    ['900.00', '700.50'],
    ['900.00', '650.00'],
    ['1200.00', '800.00'],
  ];
  for (const [k, c] of carriers.entries())
    ok(
      await app.post(`/tenders/bid/${t.id}.json`, {
        token: c.token,
        json: { bids: lanes.slice(0, 2).map((lane, i) => ({ lane, price: prices[k]![i], capacity: k + 1 })) },
      }),
    );
  // Carrier 3 bids again on the first lane, cheapest now: the ranking holds its last bid.
  ok(
    await app.post(`/tenders/bid/${t.id}.json`, {
      token: carriers[3]!.token,
      json: { bids: [{ lane: lanes[0], price: '899.99', capacity: 9 }] },
    }),
  );
  return { id: t.id, lanes };
}

describe(`tenders: the bids ranked at the close (${TEST_DB})`, () => {
  test('the sweeper ranks at the close; every owner read answers the same before and after it', async () => {
    const t = await biddenTender();
    assert.deepEqual(await ranked(t.id), [null, null, null], 'an open tender has no ranking');
    const session = await browserSession(app, shipper);
    const mask = (text: string) => text.replace(/name="_csrf" value="[^"]+"/g, '').replace(/"token":"[^"]+"/g, '');
    const reads = async () => {
      const out: string[] = [];
      out.push(mask((await app.get(`/tenders/view/${t.id}.json`, { token: shipper.token })).text));
      out.push(mask((await app.get(`/tenders/view/${t.id}`, { headers: { cookie: session.cookie } })).text));
      out.push(mask((await app.get(`/tenders/view/${t.id}?all=1`, { headers: { cookie: session.cookie } })).text));
      out.push((await app.get(`/tenders/export/${t.id}`, { token: shipper.token })).text);
      return out;
    };
    app.setNow(AFTER);
    const unswept = await reads();
    assert.deepEqual(await ranked(t.id), [null, null, null], 'a read writes nothing');
    assert.equal(await app.tenders.sweep(), 1);
    const [c0, c1, c2, c3] = carriers.map((c) => c.company);
    assert.deepEqual(await ranked(t.id), [
      [`${c3}:899.99:9`, `${c1}:900.00:2`, `${c2}:900.00:3`, `${c0}:950.00:1`],
      [`${c2}:650.00:3`, `${c0}:700.50:1`, `${c1}:700.50:2`, `${c3}:800.00:4`],
      [],
    ]);
    assert.deepEqual(await reads(), unswept);
    const lanes = ok(await app.get(`/tenders/view/${t.id}.json`, { token: shipper.token })).tender.lanes;
    assert.deepEqual(
      lanes[0].bids.map((b: { company: number; price: number }) => [b.company, b.price]),
      [
        [c3, 899.99],
        [c1, 900],
        [c2, 900],
        [c0, 950],
      ],
    );
    assert.deepEqual(lanes[2].bids, []);
    assert.equal(await app.tenders.sweep(), 0, 'a second pass closes nothing');
  });

  test('an award before the sweeper’s pass is the close: it ranks the lanes', async () => {
    const t = await biddenTender();
    app.setNow(AFTER);
    ok(
      await app.post(`/tenders/award/${t.id}.json`, {
        token: shipper.token,
        json: { awards: [{ lane: t.lanes[0], company: carriers[3]!.company, rank: 1 }] },
      }),
    );
    const rows = await ranked(t.id);
    assert.equal(rows[0]?.[0], `${carriers[3]!.company}:899.99:9`);
    assert.equal(rows[1]?.length, 4);
    assert.deepEqual(rows[2], []);
    assert.equal(await app.tenders.sweep(), 0, 'an awarded tender is not closed again');
  });
});
