import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { enlistIds, force, insertBid, openFreight } from './helpers.ts';

// Lists 6, 7, 9 and 219 read their default order (created) from the caller's bids in freight
// order (src/freights/lists.ts VIA_BIDS; 9 and 219 add freights won without a bid). Pages must
// come out exactly as the plain rule says: membership, created desc (or asc), ties by id, no
// freight twice however many bids the caller has on it.

let app: TestApp;
let shipper: Actor;
let carrier: Actor;
let rival: Actor;
const archive: number[] = [];
const market: number[] = [];
const doneByOther: number[] = [];

const at = (minute: number) => new Date(Date.UTC(2031, 0, 1, 8, minute));

before(async () => {
  app = await startTestApp();
  shipper = await app.actor('Shipper');
  carrier = await app.actor('Carrier');
  rival = await app.actor('Rival');
  try {
    for (let i = 0; i < 14; i++) {
      // Pairs share their creation time, so ties are ordered by id.
      app.setNow(at(Math.floor(i / 2)));
      const id = await openFreight(app, shipper, {}, { deadline: '+30 days' });
      const kind = i % 4;
      if (kind === 0) {
        // Archive: bid twice (two live bids on one freight), then expired.
        await insertBid(app, id, carrier);
        await insertBid(app, id, carrier, 'pending');
        await force(app, id, { status: 'expired' });
        archive.push(id);
      } else if (kind === 1) {
        // Archive: won without a bid of the carrier's (a flight request, say), closed.
        await force(app, id, { status: 'closed', winner_id: carrier.company });
        archive.push(id);
      } else if (kind === 2) {
        // Market: the carrier bid (one revoked bid beside it counts for nothing).
        await insertBid(app, id, carrier);
        await insertBid(app, id, carrier, 'revoked');
        market.push(id);
      } else {
        // Taken by another company after the carrier bid: lists 6 and (once closed) 9.
        await insertBid(app, id, carrier);
        await force(app, id, { status: i % 8 === 3 ? 'taken' : 'closed', winner_id: rival.company });
        doneByOther.push(id);
        if (i % 8 !== 3) archive.push(id);
      }
    }
    // Only a revoked bid: never a member.
    const revokedOnly = await openFreight(app, shipper);
    await insertBid(app, revokedOnly, carrier, 'revoked');
    await force(app, revokedOnly, { status: 'expired' });
  } finally {
    app.setNow(null);
  }
});
after(() => app.close());

/** The rule: created desc, ties by id desc (asc reverses both). */
async function expectedOrder(ids: number[], direction: 'asc' | 'desc') {
  const rows = await app.services.db.selectFrom('freights').select(['id', 'created']).where('id', 'in', ids).execute();
  const sign = direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => sign * (a.created.getTime() - b.created.getTime() || a.id - b.id)).map((r) => r.id);
}

async function pages(filter: number, limit: number, direction: 'asc' | 'desc') {
  const all: number[] = [];
  for (let page = 1; page < 20; page++) {
    const ids = await enlistIds(app, carrier, filter, `?limit=${limit}&page=${page}&sort=Routes.created&direction=${direction}`);
    all.push(...ids);
    if (ids.length < limit) break;
  }
  return all;
}

describe('lists of freights the caller bid on: order and pages', () => {
  for (const direction of ['desc', 'asc'] as const) {
    test(`9 (archive, bid or won), 7 (market), 6 (taken by another): every page, ${direction}`, async () => {
      for (const limit of [1, 3, 20]) {
        assert.deepEqual(await pages(9, limit, direction), await expectedOrder(archive, direction), `9, limit ${limit}`);
        assert.deepEqual(await pages(7, limit, direction), await expectedOrder(market, direction), `7, limit ${limit}`);
        assert.deepEqual(await pages(6, limit, direction), await expectedOrder(doneByOther, direction), `6, limit ${limit}`);
      }
    });
  }

  test('the default order is the same as sort=Routes.created desc; other orders agree on membership', async () => {
    assert.deepEqual(await enlistIds(app, carrier, 9, '?limit=100'), await expectedOrder(archive, 'desc'));
    const byId = await enlistIds(app, carrier, 9, '?limit=100&sort=Routes.id&direction=asc');
    assert.deepEqual(
      byId,
      [...archive].sort((a, b) => a - b),
    );
  });

  test('the bid-driven order follows the freight, not the bid: a late bid does not move an old freight up', async () => {
    const oldest = (await expectedOrder(market, 'asc'))[0]!;
    await insertBid(app, oldest, carrier);
    assert.deepEqual(await enlistIds(app, carrier, 7, '?limit=100'), await expectedOrder(market, 'desc'));
  });
});
