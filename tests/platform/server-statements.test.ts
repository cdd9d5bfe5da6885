import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/connection.ts';
import { freshDatabase, TEST_DB } from '../support/databases.ts';
import { servesAcrossTransactions } from '../support/statements.ts';

/**
 * A PostgreSQL server's statements are named on their second run (src/db/prepared.ts,
 * `nameRepeatedStatements`): the answers are those of the unnamed statement every time, inside
 * transactions and after failures; a text run once stays unnamed; a connection names at most its
 * share; a session whose statements were deallocated, or a table whose columns changed under a
 * named `select *`, costs at most one failed statement and then runs right, unnamed. The server
 * only: the embedded driver has its own (tests/platform/embedded-statements.test.ts).
 */
const skip = TEST_DB !== 'postgres' && 'a PostgreSQL server only';
let database: Database;
before(async () => {
  if (!skip) database = await freshDatabase();
});
after(() => database?.close());

/** One pooled connection for the whole of `run` (pg_prepared_statements shows a session's own). */
const onOneConnection = <T>(run: (db: Kysely<any>) => Promise<T>) => database.db.connection().execute(run);
const named = async (db: Kysely<any>, containing: string) =>
  (
    await sql<{
      name: string;
    }>`select name from pg_prepared_statements where name like 'fx_s_%' and statement like ${`%${containing}%`}`.execute(db)
  ).rows;

test('a text run again is named once and answers with its own parameters every time', { skip }, async () => {
  await onOneConnection(async (db) => {
    const square = (n: number) =>
      sql<{ n: number; text: string }>`select ${n}::int * ${n}::int as n, ${`#${n}`}::text as text, 'square' as what`;
    assert.deepEqual((await square(1).execute(db)).rows, [{ n: 1, text: '#1', what: 'square' }]);
    assert.equal((await named(db, "'square'")).length, 0, 'a text run once stays unnamed');
    for (let n = 2; n <= 6; n++) assert.deepEqual((await square(n).execute(db)).rows, [{ n: n * n, text: `#${n}`, what: 'square' }]);
    assert.equal((await named(db, "'square'")).length, 1, 'one name for the text');
  });
  // Inside a transaction, and after one rolled back, the name still serves.
  const square = (n: number) => sql<{ n: number }>`select ${n}::int * ${n}::int as n, 'square' as what`;
  await servesAcrossTransactions(database.db, square);
  for (let n = 10; n <= 20; n++) assert.equal((await square(n).execute(database.db)).rows[0]!.n, n * n);
});

test('a failure while the text is being named, or after, leaves the next run right', { skip }, async () => {
  await onOneConnection(async (db) => {
    const divide = (d: number) => sql<{ q: number }>`select 12 / ${d}::int as q`;
    assert.equal((await divide(3).execute(db)).rows[0]!.q, 4);
    // The second run names it, and fails while running: the name is made and serves the next run.
    await assert.rejects(divide(0).execute(db), /division by zero/);
    assert.equal((await divide(4).execute(db)).rows[0]!.q, 3);
    assert.equal((await divide(6).execute(db)).rows[0]!.q, 2);
    // A failure inside a transaction ends it as ever; the name serves after.
    await assert.rejects(
      db.transaction().execute(async (trx) => divide(0).execute(trx)),
      /division by zero/,
    );
    assert.equal((await divide(12).execute(db)).rows[0]!.q, 1);
    // A text PostgreSQL cannot parse fails as it would unnamed, every time.
    const broken = () => sql`select from where ${1}::int`;
    for (let i = 0; i < 3; i++) await assert.rejects(broken().execute(db), /syntax error/);
  });
});

test('after DEALLOCATE ALL, or a table changed under a named select *, a text fails at most once and then runs right', {
  skip,
}, async () => {
  await onOneConnection(async (db) => {
    const one = () => sql<{ one: number }>`select 1 as one where ${'x'}::text = 'x' and 'deallocated' <> ''`;
    await one().execute(db);
    await one().execute(db);
    assert.equal((await named(db, 'deallocated')).length, 1);
    await sql`deallocate all`.execute(db);
    const afterwards = await one()
      .execute(db)
      .then((r) => r.rows)
      .catch((err: { code?: string }) => err.code);
    assert.ok(afterwards === '26000' || JSON.stringify(afterwards) === '[{"one":1}]', String(afterwards));
    for (let i = 0; i < 3; i++) assert.deepEqual((await one().execute(db)).rows, [{ one: 1 }]);

    await sql`create table named_server_probe (id int primary key)`.execute(db);
    await sql`insert into named_server_probe values (1)`.execute(db);
    const all = () => sql<Record<string, unknown>>`select * from named_server_probe where id = ${1}::int`;
    await all().execute(db);
    await all().execute(db);
    await sql`alter table named_server_probe add column label text default 'new'`.execute(db);
    const first = await all()
      .execute(db)
      .then((r) => r.rows)
      .catch((err: { code?: string }) => err.code);
    assert.ok(first === '0A000' || JSON.stringify(first) === JSON.stringify([{ id: 1, label: 'new' }]), String(first));
    for (let i = 0; i < 3; i++) assert.deepEqual((await all().execute(db)).rows, [{ id: 1, label: 'new' }]);
    await sql`drop table named_server_probe`.execute(db);
  });
});

test('a connection names at most 250 texts; the others run unnamed and right', { skip }, async () => {
  await onOneConnection(async (db) => {
    const before = Number(
      (await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where name like 'fx_s_%'`.execute(db)).rows[0]!.n,
    );
    for (let i = 0; i < 300; i++)
      for (let run = 0; run < 2; run++)
        assert.deepEqual((await sql.raw<{ i: number }>(`select ${i} as i, 'many' as what`).execute(db)).rows, [{ i, what: 'many' }]);
    const count = Number(
      (await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where name like 'fx_s_%'`.execute(db)).rows[0]!.n,
    );
    assert.ok(count <= 250, `${count} names on one connection`);
    assert.ok(count - before > 0, 'texts were named');
  });
});
