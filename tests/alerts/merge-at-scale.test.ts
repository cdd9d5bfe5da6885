import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { mergedMatchKeys, mergedMatchQuery, mergeMatchSql } from '../../src/searches/store.ts';
import { TEST_DB } from '../support/databases.ts';
import { rowsReadOf } from '../support/plans.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Found by bench:market at stop 65 (docs/benchmarks.md): every alert merges the freight's
 * `freight.matched` reasons (one alert per load), and that statement read the whole notifications
 * table, ~100 ms an alert at 190,000 notifications and more with every alert written; the alert
 * worker fell from 9-14 alerts a second to 2. Here 20,000 notifications of 2,000 freights: the merge
 * reads one freight's rows (by notifications_freight_idx). What it merges is tests/alerts/one-per-load's.
 */
describe(`an alert's merge of reasons reads its freight's notifications only (${TEST_DB})`, () => {
  let app: TestApp;
  let owner: Actor;
  const users: Actor[] = [];
  const FREIGHTS = 2_000;
  let first = 0;

  before(async () => {
    app = await startTestApp();
    owner = await app.actor('Shipper');
    for (let i = 0; i < 10; i++) users.push(await app.actor(`Carrier ${i}`));
    const db = app.services.db;
    const ids = await sql<{ id: number }>`
      insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, deadline,
                            visibility, whitelist, company_id, user_id, refs, created, modified)
      select 'rfs', 'FFR', 'open', '60311', 'DE', '75001', 'FR', 1000, now() + interval '30 days', 0, '{}'::int[],
             ${owner.company}::int, ${owner.user}::int, '{}'::json, now(), now()
        from generate_series(1, ${FREIGHTS}) as i
      returning id`.execute(db);
    first = Math.min(...ids.rows.map((r) => r.id));
    // Every user alerted of every freight once (a saved search's reason), as an exchange's alerts leave them.
    await sql`
      insert into notifications (user_id, type, search_name, freight_id, created)
      select u, 'freight.matched', 'Frankfurt - Paris', f, now()
        from unnest(${users.map((u) => u.user)}::int[]) as u cross join unnest(${ids.rows.map((r) => r.id)}::int[]) as f`.execute(db);
    await sql`analyze notifications`.execute(db);
  });
  after(() => app?.close());

  /** The notifications' rows a statement's plan read (kept or filtered out), over all its loops. */
  const notificationRowsRead = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
    (await rowsReadOf(app.services.db, compiled, 'notifications')).read;

  test("the merge reads the freight's own notifications, not the table's 20,000", async () => {
    const read = await notificationRowsRead(mergeMatchSql(first + 7).compile(app.services.db));
    assert.ok(read > 0, 'the notifications were read');
    assert.ok(read <= 4 * users.length, `${read} notification rows read for a freight with ${users.length}`);
  });

  test("the mail's merged reasons of a few freights read theirs only", async () => {
    const read = await notificationRowsRead(mergedMatchQuery(app.services.db, [first + 1, first + 2, first + 3]).compile());
    assert.ok(read <= 4 * 3 * users.length, `${read} notification rows read for three freights`);
    assert.deepEqual(await mergedMatchKeys(app.services.db, [first + 1]), new Set(), 'nothing merged where each user has one reason');
  });
});
