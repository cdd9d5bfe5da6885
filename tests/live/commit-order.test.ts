import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { announce } from '../../src/webhooks/outbox.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openStream, type SseStream } from './support.ts';

/**
 * docs/reference.md#live-board: "a client reconnecting with Last-Event-ID gets what it missed". Two writers
 * interleave: the first writes its event, the second writes and commits its own after it, and the
 * first commits last, while the client is away. The client received only the second event; on
 * reconnecting it must get the first. Positions drawn when a row is written would put the first
 * before the id the client sends, and the replay would skip it; the outbox's position is the order
 * of commits (webhooks/feed.ts).
 *
 * PostgreSQL only: the embedded database runs one transaction at a time, so there the order of
 * writing is the order of commits and no such interleaving can happen.
 */

describe(`replay follows the order of commits (${TEST_DB})`, {
  skip: TEST_DB !== 'postgres' && 'the embedded database runs one transaction at a time',
}, () => {
  let app: TestApp;
  let base: string;
  let who: Actor;
  const open: SseStream[] = [];

  before(async () => {
    app = await startTestApp();
    base = await app.listen();
    who = await app.actor('Dispatcher');
  });
  after(async () => {
    for (const s of open) s.close();
    await app?.close();
  });

  /** One event for the actor's company in `trx`, as the change modules write them (the outbox's announce). */
  const write = (trx: Parameters<typeof announce>[0], note: string) =>
    announce(trx, app.services.clock, 'freight.updated', [
      { companyId: who.company, freightId: null, from: [who.company], data: () => ({ note }) },
    ]);
  const noted = (note: string) => (e: { json: { data?: { note?: string } } }) => e.json.data?.note === note;

  test('an event written first and committed last, while the client is away, is replayed after the one it received', async () => {
    const first = await openStream(base, { token: who.token });
    open.push(first);
    assert.equal(first.status, 200);

    // The first writer writes its event and waits, its transaction open.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const slow = app.services.db.transaction().execute(async (trx) => {
      await write(trx, 'written first, committed last');
      written();
      await held;
    });
    await wrote;
    // The second writer writes after it and commits: the client receives it live.
    await app.services.db.transaction().execute((trx) => write(trx, 'written second, committed first'));
    const received = await first.waitFor(noted('written second, committed first'));
    assert.ok(!first.events.some(noted('written first, committed last')), 'not committed yet, so not sent');

    // The client goes away; the first writer commits; the client comes back with the id it has.
    first.close();
    await first.ended;
    release();
    await slow;
    const again = await openStream(base, { token: who.token, lastEventId: received.id });
    open.push(again);
    const missed = await again.waitFor(noted('written first, committed last'), 3000);
    assert.equal(missed.json.company, who.company);
    assert.ok(!again.events.some((e) => e.id === received.id), 'what it had is not sent again');

    // Both in the order the client sees them in the outbox: each replayed once, nothing after them.
    const later = await openStream(base, { token: who.token, lastEventId: 'evt_none' });
    open.push(later);
    await later.waitFor(noted('written first, committed last'));
    const order = later.events.filter((e) => e.json.data?.note).map((e) => e.json.data.note);
    assert.deepEqual(order, ['written second, committed first', 'written first, committed last'], 'replayed in the order of commits');
  });
});
