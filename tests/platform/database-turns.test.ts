import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { TEST_DB } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

/**
 * Issue 39, item 9 (docs/choices.md, Reliability: "The embedded connection is taken in turns").
 * On the embedded database every statement ran in this thread the moment it found the one
 * connection free, so a request's chain of statements (an award's hundred) held the event loop
 * from its first to its last: beside 3 clients awarding, a 10 MB upload, whose body is read in
 * slices that each wait for a turn, took 14–18 s against 0.6 s alone. Now every statement waits
 * for a turn of the event loop, waiters take the connection in arrival order, and a transaction
 * still holds it from begin to end. Counted, not timed: the turns another task gets while a chain
 * of statements runs (before: none on the embedded database), the order in which three chains
 * run, and that nothing runs inside another's transaction. PostgreSQL (a statement is a round trip
 * on a connection of the pool) gives the same turns and the same isolation.
 */
describe(`statements leave the event loop turns (${TEST_DB})`, () => {
  let app: TestApp;
  const STATEMENTS = 40;

  before(async () => {
    app = await startTestApp();
    await sql`create table turn_probe (id serial primary key, chain int not null, step int not null)`.execute(app.services.db);
  });
  beforeEach(() => sql`delete from turn_probe`.execute(app.services.db));
  after(() => app?.close());

  /** Counts the turns of the event loop while `work` runs (a task that takes one in every turn). */
  async function turnsDuring(work: () => Promise<void>): Promise<number> {
    let turns = 0;
    let running = true;
    const take = () => {
      if (!running) return;
      turns++;
      setImmediate(take);
    };
    setImmediate(take);
    try {
      await work();
    } finally {
      running = false;
    }
    return turns;
  }

  test(`${STATEMENTS} statements one after another leave a turn each`, async () => {
    const db = app.services.db;
    const turns = await turnsDuring(async () => {
      for (let i = 0; i < STATEMENTS; i++) await sql`select ${i}::int as i`.execute(db);
    });
    assert.ok(turns >= STATEMENTS, `${turns} turns of the event loop during ${STATEMENTS} statements`);
  });

  test(`a transaction of ${STATEMENTS} statements leaves a turn between each two`, async () => {
    const turns = await turnsDuring(() =>
      app.services.db.transaction().execute(async (trx) => {
        for (let i = 0; i < STATEMENTS; i++) await sql`insert into turn_probe (chain, step) values (0, ${i})`.execute(trx);
      }),
    );
    assert.ok(turns >= STATEMENTS, `${turns} turns of the event loop during a transaction of ${STATEMENTS} statements`);
  });

  test('three chains waiting for the database take turns, each statement after the others’ next one', async () => {
    const db = app.services.db;
    const chain = async (k: number) => {
      for (let step = 0; step < 5; step++) await sql`insert into turn_probe (chain, step) values (${k}, ${step})`.execute(db);
    };
    await Promise.all([chain(1), chain(2), chain(3)]);
    const rows = (await sql<{ chain: number; step: number }>`select chain, step from turn_probe order by id`.execute(db)).rows;
    assert.equal(rows.length, 15);
    for (const k of [1, 2, 3])
      assert.deepEqual(
        rows.filter((r) => r.chain === k).map((r) => r.step),
        [0, 1, 2, 3, 4],
        `chain ${k} in its own order`,
      );
    // The one embedded connection: each chain's step n is written before any chain's step n + 2,
    // none runs ahead of the others. (PostgreSQL runs the chains on connections of their own.)
    if (TEST_DB === 'pglite')
      for (const [i, row] of rows.entries())
        assert.ok(
          rows.slice(i + 1).every((later) => later.step >= row.step - 1),
          `step ${row.step} of chain ${row.chain} written before a step ${row.step - 2} (order: ${rows.map((r) => `${r.chain}:${r.step}`).join(' ')})`,
        );
  });

  test('what runs beside a transaction never runs inside it: its setting and its rows unseen until the commit, nothing after a rollback', async () => {
    const db = app.services.db;
    const seen: Array<{ setting: string; rows: number }> = [];
    let open = true;
    const look = async () => {
      while (open) {
        const row = (
          await sql<{ setting: string | null; rows: number }>`
            select current_setting('fx.turn_probe', true) as setting, (select count(*)::int from turn_probe) as rows`.execute(db)
        ).rows[0]!;
        seen.push({ setting: row.setting ?? '', rows: row.rows });
      }
    };
    const looking = look();
    await db.transaction().execute(async (trx) => {
      await sql`set local fx.turn_probe = 'inside'`.execute(trx);
      for (let i = 0; i < 10; i++) await sql`insert into turn_probe (chain, step) values (1, ${i})`.execute(trx);
    });
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`set local fx.turn_probe = 'inside'`.execute(trx);
        for (let i = 0; i < 10; i++) await sql`insert into turn_probe (chain, step) values (2, ${i})`.execute(trx);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    open = false;
    await looking;
    assert.ok(seen.length > 0);
    assert.ok(
      seen.every((s) => s.setting !== 'inside'),
      'no statement ran inside another’s transaction',
    );
    assert.ok(
      seen.every((s) => s.rows === 0 || s.rows === 10),
      `only committed rows seen: ${[...new Set(seen.map((s) => s.rows))].join(', ')}`,
    );
    const left = (await sql<{ chain: number; n: number }>`select chain, count(*)::int as n from turn_probe group by chain`.execute(db))
      .rows;
    assert.deepEqual(left, [{ chain: 1, n: 10 }]);
  });

  test('listening begun while another’s transaction is open survives its rollback', async () => {
    const db = app.services.db;
    const heard: string[] = [];
    let stop: (() => Promise<void>) | undefined;
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`insert into turn_probe (chain, step) values (1, 0)`.execute(trx);
        // Asked while the transaction is open: it must not run inside it.
        const listening = app.database.listen('fx_turn_probe', (payload) => heard.push(payload));
        await sql`insert into turn_probe (chain, step) values (1, 1)`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw Object.assign(new Error('rolled back'), { listening });
      }),
      (err: Error & { listening?: Promise<() => Promise<void>> }) => {
        err.listening?.then((s) => {
          stop = s;
        });
        return /rolled back/.test(err.message);
      },
    );
    for (let i = 0; i < 100 && !stop; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(stop, 'listening');
    await sql`select pg_notify('fx_turn_probe', 'after the rollback')`.execute(db);
    for (let i = 0; i < 100 && !heard.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await stop!();
    assert.deepEqual(heard, ['after the rollback']);
  });
});
