import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Listen } from '../../src/db/connection.ts';
import { LiveHub } from '../../src/live/hub.ts';
import { announce } from '../../src/webhooks/outbox.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { openStream, type SseEvent, type SseStream } from './support.ts';

/**
 * Issue 39, item 8 (docs/choices.md, Reliability: "Exactly once, in the order of commits, across
 * a reconnect"). The review: 4 of 12 reconnected streams got an event twice and out of the order
 * of commits (positions 228, 230, 232, 232, 234): when the replay ended, the filter of what it had
 * sent was dropped, and an event the live reader had fetched was sent again after it.
 *
 * The interleaving is forced with the process's own listening connection (its notifications held
 * by the test, as a slow listener would be late): events are committed while the client is away,
 * the client comes back and its replay sends them, then the live reader hears of them and reads
 * them. Each stream keeps the last position it sent, and sends nothing at or below it.
 */
describe(`the live board across a reconnect (${TEST_DB})`, () => {
  let app: TestApp;
  let who: Actor;
  let hub: LiveHub;
  let server: http.Server;
  let base: string;
  const open: SseStream[] = [];
  /** Notifications held (not handed to the hub) while `holding`. */
  let holding = false;
  const held: Array<() => void> = [];

  before(async () => {
    app = await startTestApp();
    who = await app.actor('Dispatcher');
    const listen: Listen = (channel, message, lost) =>
      app.database.listen(
        channel,
        (payload) => {
          if (holding) held.push(() => message(payload));
          else message(payload);
        },
        lost,
      );
    hub = new LiveHub({ db: app.services.db, clock: app.services.clock, listen });
    server = http.createServer((req, res) => {
      const last = req.headers['last-event-id'];
      void hub.open({ userId: who.user, companyId: who.company }, res, {}, typeof last === 'string' ? last : undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const s of open) s.close();
    await hub?.stop();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await app?.close();
  });

  /** One event for the company, committed (as the change modules write them). */
  const write = (note: string) =>
    app.services.db
      .transaction()
      .execute((trx) =>
        announce(trx, app.services.clock, 'freight.updated', [
          { companyId: who.company, freightId: null, from: [who.company], data: () => ({ note }) },
        ]),
      );
  const noted = (note: string) => (e: SseEvent) => e.json.data?.note === note;
  const stream = async (lastEventId?: string) => {
    const s = await openStream(base, { lastEventId });
    open.push(s);
    assert.equal(s.status, 200);
    return s;
  };
  const positions = async (events: SseEvent[]) => {
    const ids = events.map((e) => e.id!);
    const rows = await sql<{ id: string; pos: number }>`select id, pos from events where id = any(${ids}::text[])`.execute(app.services.db);
    const pos = new Map(rows.rows.map((r) => [r.id, r.pos]));
    return ids.map((id) => pos.get(id)!);
  };

  test('events the replay sent are not sent again when the live reader reads them after it (the review’s 232, 232)', async () => {
    const first = await stream();
    await write('seen');
    const seen = await first.waitFor(noted('seen'));
    first.close();
    await first.ended;

    // While the client is away: three events committed, their notifications late.
    holding = true;
    for (const note of ['missed 1', 'missed 2', 'missed 3']) await write(note);
    const again = await stream(seen.id);
    await again.waitFor(noted('missed 3'));
    // The live reader hears of them now, after the replay sent them, and reads them.
    holding = false;
    for (const release of held.splice(0)) release();
    await write('after');
    await again.waitFor(noted('after'));
    // One more event: whatever the live reader would send twice would have come before it.
    await write('last');
    await again.waitFor(noted('last'));
    const notes = again.events.map((e) => e.json.data?.note);
    assert.deepEqual(notes, ['missed 1', 'missed 2', 'missed 3', 'after', 'last'], 'each once, in the order of commits');
    const pos = await positions(again.events);
    assert.deepEqual(
      pos,
      [...pos].sort((x, y) => x - y),
      'positions rising',
    );
  });

  test('events committed while a long replay runs: every one exactly once, positions strictly rising', async () => {
    const first = await stream();
    await write('mark');
    const mark = await first.waitFor(noted('mark'));
    first.close();
    await first.ended;
    // 1,200 missed events (three batches of the replay), some notifications late.
    holding = true;
    await app.services.db.transaction().execute((trx) =>
      announce(
        trx,
        app.services.clock,
        'freight.updated',
        Array.from({ length: 1200 }, (_, i) => ({
          companyId: who.company,
          freightId: null,
          from: [who.company],
          data: () => ({ note: `m${i}` }),
        })),
      ),
    );
    holding = false;
    const again = await stream(mark.id);
    // While the replay runs: the late notifications arrive, and more events are committed.
    for (const release of held.splice(0)) release();
    for (let i = 0; i < 20; i++) await write(`during ${i}`);
    await again.waitFor(noted('during 19'), 20_000);
    await write('end');
    await again.waitFor(noted('end'), 10_000);
    const notes = again.events.map((e) => e.json.data?.note as string);
    const expected = [...Array.from({ length: 1200 }, (_, i) => `m${i}`), ...Array.from({ length: 20 }, (_, i) => `during ${i}`), 'end'];
    assert.equal(new Set(notes).size, notes.length, 'no event twice');
    assert.deepEqual(notes, expected, 'each once, in the order of commits');
    const pos = await positions(again.events);
    for (let i = 1; i < pos.length; i++) assert.ok(pos[i]! > pos[i - 1]!, `position ${pos[i]} after ${pos[i - 1]}`);
  });
});
