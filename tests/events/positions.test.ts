import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { announce } from '../../src/webhooks/outbox.ts';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * The outbox's positions drawn at commit, set-based (migration 0530, docs/choices.md "Replay in the
 * order of commits"): the first firing of a commit numbers every row its transaction wrote, in the
 * order written, and the later firings write nothing. What a reader sees is what 0190's one update
 * per row gave: every committed row numbered, a transaction's rows in the order of their `seq`,
 * next to each other, after those of a transaction that committed before it — also when the
 * transaction numbered part of its rows earlier (constraints set immediate) and wrote more after.
 */
describe(`the outbox's positions at commit (${TEST_DB})`, () => {
  let app: TestApp;
  let who: Actor;

  before(async () => {
    app = await startTestApp();
    who = await app.actor('Dispatcher');
  });
  after(async () => {
    await app?.close();
  });

  const write = (trx: Parameters<typeof announce>[0], notes: readonly string[], market = false) =>
    announce(
      trx,
      app.services.clock,
      'freight.updated',
      notes.map((note) => ({ companyId: market ? null : who.company, freightId: null, from: [who.company], data: () => ({ note }) })),
    );
  const rows = async (prefix: string, db: Parameters<typeof announce>[0] = app.services.db) =>
    (
      await sql<{ seq: number; pos: number | null; note: string }>`select seq, pos, body::json -> 'data' ->> 'note' as note from events
        where body::json -> 'data' ->> 'note' like ${`${prefix}%`} order by seq`.execute(db)
    ).rows.map((r) => ({ seq: Number(r.seq), pos: r.pos === null ? null : Number(r.pos), note: r.note }));

  test("a transaction's rows are numbered at its commit, in the order written, next to each other, after the commit before", async () => {
    const db = app.services.db;
    await db.transaction().execute(async (trx) => {
      await write(trx, ['a1', 'a2', 'a3']);
      await write(trx, ['a4', 'a5'], true);
      // Not numbered before the commit.
      assert.deepEqual(
        (await rows('a', trx)).map((r) => r.pos),
        [null, null, null, null, null],
      );
    });
    await db.transaction().execute(async (trx) => {
      await write(trx, ['b1', 'b2']);
      // Numbered here (what a constraint set immediate does), then written more: those at the commit.
      await sql`set constraints all immediate`.execute(trx);
      await sql`set constraints all deferred`.execute(trx);
      assert.ok((await rows('b', trx)).every((r) => r.pos !== null));
      await write(trx, ['b3', 'b4'], true);
      await write(trx, ['b5']);
    });
    const a = await rows('a');
    const b = await rows('b');
    assert.deepEqual(
      a.map((r) => r.note),
      ['a1', 'a2', 'a3', 'a4', 'a5'],
    );
    assert.deepEqual(
      b.map((r) => r.note),
      ['b1', 'b2', 'b3', 'b4', 'b5'],
    );
    for (const list of [a, b]) {
      const first = list[0]!.pos!;
      assert.deepEqual(
        list.map((r) => r.pos),
        list.map((_, i) => first + i),
        'numbered in the order written, next to each other',
      );
    }
    assert.ok(b[0]!.pos! > a[a.length - 1]!.pos!, 'after the transaction that committed before');
    // Nothing committed is left without a position.
    const unnumbered = await sql<{ n: string }>`select count(*) as n from events where pos is null`.execute(db);
    assert.equal(Number(unnumbered.rows[0]?.n), 0);
  });

  test('a commit numbers its own rows without reading the numbered history (migration 0580)', async () => {
    const db = app.services.db;
    // History: 3,000 rows numbered. Each numbering leaves its row's old version in the partial
    // index of unnumbered rows until VACUUM, which no test runs (and this machine's server runs none).
    await db.transaction().execute((trx) =>
      write(
        trx,
        Array.from({ length: 3000 }, (_, i) => `h${i}`),
      ),
    );
    await db.transaction().execute(async (trx) => {
      // The clones count nothing (track_counts off): on for this transaction.
      await sql`set local track_counts = on`.execute(trx);
      // The index's counts so far (PostgreSQL 15 reports counts not yet flushed from the session's
      // earlier transactions too): this transaction's are what it adds.
      const counts = async () => {
        const r = await sql<{ entries: string; scans: string }>`
          select pg_stat_get_xact_tuples_returned('events_unnumbered_idx'::regclass) as entries,
                 pg_stat_get_xact_numscans('events_unnumbered_idx'::regclass) as scans`.execute(trx);
        return { entries: Number(r.rows[0]!.entries), scans: Number(r.rows[0]!.scans) };
      };
      const before = await counts();
      await write(trx, ['c1', 'c2']);
      await sql`set constraints all immediate`.execute(trx);
      const now = await counts();
      const [entries, scans] = [now.entries - before.entries, now.scans - before.scans];
      assert.ok(scans > 0, 'the numbering read the index of unnumbered rows');
      // Before 0580: every entry of the history (3,000 and more), ~500 ms a commit at bench:market's scale.
      assert.ok(entries <= 20, `${entries} index entries read to number 2 rows`);
      assert.ok(
        (await rows('c', trx)).every((r) => r.pos !== null),
        'both numbered',
      );
    });
    const c = await rows('c');
    assert.deepEqual(
      c.map((r) => r.pos),
      [c[0]!.pos, c[0]!.pos! + 1],
    );
  });
});
