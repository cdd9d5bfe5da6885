import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../../src/db/connection.ts';
import { freshDatabase, TEST_DB } from '../support/databases.ts';
import { servesAcrossTransactions } from '../support/statements.ts';

/**
 * The embedded driver names a statement text the second time it runs and then only binds it
 * (src/db/embedded.ts, `NamedStatements`): the answers are those of the unnamed statement every
 * time, a failure while naming or after leaves the next run right, and a session that lost its
 * statements or a table whose columns changed under a named `select *` costs no wrong answer.
 * The embedded database only: a server's statements go through `pg`, unnamed.
 */
const skip = TEST_DB === 'postgres' && 'the embedded driver only';
let database: Database;
before(async () => {
  if (!skip) database = await freshDatabase();
});
after(() => database?.close());

const named = async () =>
  (
    await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where name like 'S%'`.execute(
      database.db,
    )
  ).rows;

test('a text run again is named once and answers with its own parameters every time', { skip }, async () => {
  const square = (n: number) => sql<{ n: number; text: string }>`select ${n}::int * ${n}::int as n, ${`#${n}`}::text as text`;
  for (let n = 1; n <= 6; n++) assert.deepEqual((await square(n).execute(database.db)).rows, [{ n: n * n, text: `#${n}` }]);
  const names = (await named()).filter((s) => s.statement.includes('::int * $2::int'));
  assert.equal(names.length, 1, 'one name for the text');
  // Inside a transaction, and after one rolled back, the name still serves.
  await servesAcrossTransactions(database.db, square);
});

test('a failure while the text is being named, or after, leaves the next run right', { skip }, async () => {
  const divide = (d: number) => sql<{ q: number }>`select 12 / ${d}::int as q`;
  assert.equal((await divide(3).execute(database.db)).rows[0]!.q, 4);
  // The second run names it, and fails: the text runs unnamed from now on, and right.
  await assert.rejects(divide(0).execute(database.db), /division by zero/);
  assert.equal((await divide(4).execute(database.db)).rows[0]!.q, 3);
  assert.equal((await divide(6).execute(database.db)).rows[0]!.q, 2);
  // A named text that fails keeps its name and answers right after.
  const half = (d: number) => sql<{ q: number }>`select 100 / ${d}::int as half`;
  await half(2).execute(database.db);
  await half(2).execute(database.db);
  await assert.rejects(half(0).execute(database.db), /division by zero/);
  assert.deepEqual((await half(4).execute(database.db)).rows, [{ half: 25 }]);
});

test('after DEALLOCATE ALL the names are made again; a table changed under a named select * answers its new columns', {
  skip,
}, async () => {
  const one = () => sql<{ one: number }>`select 1 as one where ${'x'}::text = 'x'`;
  await one().execute(database.db);
  await one().execute(database.db);
  assert.ok((await named()).length > 0);
  await sql`deallocate all`.execute(database.db);
  assert.deepEqual((await one().execute(database.db)).rows, [{ one: 1 }]);
  assert.deepEqual((await one().execute(database.db)).rows, [{ one: 1 }]);

  await sql`create table named_probe (id int primary key)`.execute(database.db);
  await sql`insert into named_probe values (1)`.execute(database.db);
  const all = () => sql<Record<string, unknown>>`select * from named_probe where id = ${1}::int`;
  await all().execute(database.db);
  await all().execute(database.db);
  await sql`alter table named_probe add column label text default 'new'`.execute(database.db);
  // PostgreSQL refuses a named statement whose result changed shape; the driver then runs the text unnamed.
  const first = await all()
    .execute(database.db)
    .then((r) => r.rows)
    .catch((err: { code?: string }) => err.code);
  assert.ok(first === '0A000' || JSON.stringify(first) === JSON.stringify([{ id: 1, label: 'new' }]), String(first));
  assert.deepEqual((await all().execute(database.db)).rows, [{ id: 1, label: 'new' }]);
});

test('a text run twice after a thousand others run once each is still named', { skip }, async () => {
  // As the EXECUTE texts of db/prepared.ts are: each carries its arguments, so each is new.
  for (let i = 0; i < 1_100; i++) await sql.raw(`select ${i} as once_${i}`).execute(database.db);
  const probe = () => sql<{ p: string }>`select ${'probe'}::text as p, 'after the thousand' as what`;
  await probe().execute(database.db);
  assert.deepEqual((await probe().execute(database.db)).rows, [{ p: 'probe', what: 'after the thousand' }]);
  assert.equal((await named()).filter((s) => s.statement.includes('after the thousand')).length, 1);
});

test("the driver's rows and counts are PGlite's own for every kind of value (its answer read without parseResults)", { skip }, async () => {
  const pglite = database.embedded!.client;
  const text = `select 1::int as i, 9007199254740993::bigint as big, 12.345::numeric(10, 3) as price, 1.5::float8 as f,
    true as yes, null::text as nothing, 'Köln'::text as town, '2030-05-04 08:00:00+02'::timestamptz as at, '2030-05-04'::date as day,
    '{"a": [1, {"b": null}]}'::jsonb as doc, array[3, 1, 2] as ints, array['x', null]::text[] as texts,
    '\\x00ff'::bytea as bytes, (select array_agg(id) from companies) as ids, 'open'::text as "select"`;
  const ours = (await sql.raw(text).execute(database.db)).rows;
  assert.deepEqual(ours, (await pglite.query(text)).rows);
  assert.equal(ours.length, 1);
  // Two rows, the same names; none.
  const two = 'select g as n, g::text || $1 as t from generate_series(1, 2) g';
  assert.deepEqual((await database.db.executeQuery(CompiledQuery.raw(two, ['x']))).rows, (await pglite.query(two, ['x'])).rows);
  assert.deepEqual((await sql.raw('select 1 as n where false').execute(database.db)).rows, []);
  // The count of a write, from its command tag.
  await sql.raw('create temporary table counted (n int)').execute(database.db);
  const inserted = await sql.raw('insert into counted select generate_series(1, 3)').execute(database.db);
  assert.equal(inserted.numAffectedRows, 3n);
  assert.equal((await sql.raw('update counted set n = n + 1 where n > 1').execute(database.db)).numAffectedRows, 2n);
  assert.equal((await sql.raw('delete from counted').execute(database.db)).numAffectedRows, 3n);
});
