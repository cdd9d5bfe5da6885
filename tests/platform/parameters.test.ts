import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/db/connection.ts';
import { freshDatabase, TEST_DB } from '../support/databases.ts';

/**
 * Parameters of every kind the app passes reach PostgreSQL as the same values on both engines: on
 * the embedded database they are written as text by src/db/embedded.ts (pg's rules, without
 * PGlite's typed serializers), on a server by pg itself.
 */
let database: Database;
before(async () => {
  database = await freshDatabase();
});
after(() => database?.close());

test(`parameters arrive as the values they are (${TEST_DB})`, async () => {
  const bytes = Buffer.from([0, 1, 2, 255, 92, 34]);
  const at = new Date('2026-11-29T21:30:00.123Z');
  const list = ['plain', 'a,b', 'quote "q"', 'back\\slash', '', 'München {x}'];
  const object = { route: ['DE-60311', 'NL-1012'], price: '912.50', nested: { ok: true } };
  const { rows } = await sql<{
    b: Buffer;
    n: number;
    at: Date;
    list: string[];
    nulls: Array<string | null>;
    doc: unknown;
    flag: boolean;
    big: number;
    none: string | null;
    text: string;
  }>`select ${bytes}::bytea as b, length(${bytes}::bytea)::int as n, ${at}::timestamptz as at, ${list}::text[] as list,
      ${['x', null]}::text[] as nulls, ${JSON.stringify(object)}::jsonb as doc, ${true}::boolean as flag,
      ${9007199254740991}::bigint as big, ${null}::text as none, ${'it’s "fine"\\n'}::text as text`.execute(database.db);
  const row = rows[0]!;
  assert.deepEqual(Buffer.from(row.b), bytes);
  assert.equal(row.n, bytes.length);
  assert.equal(row.at.toISOString(), at.toISOString());
  assert.deepEqual(row.list, list);
  assert.deepEqual(row.nulls, ['x', null]);
  assert.deepEqual(row.doc, object);
  assert.equal(row.flag, true);
  assert.equal(row.big, 9007199254740991);
  assert.equal(row.none, null);
  assert.equal(row.text, 'it’s "fine"\\n');
});
