import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { executeShape } from '../../src/db/prepared.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

/**
 * db/prepared.ts executeShape: a statement built per request is prepared by its text and run
 * with its values as SQL literals. Whatever the values (quotes, backslashes, list separators,
 * fractions, dates, null), the answer is the one the same statement gives with bind parameters.
 */

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app?.close());

const tricky = ["O'Hare", 'back\\slash', "\\'; select 1; --", 'quote"and,comma{brace}', 'Ünïcödé ✈', '', ' spaced '];

/** One shape: a text, a list of texts, a fraction, a date and a maybe-null integer, echoed back. */
const shape = (text: string, list: string[], fraction: number, at: Date, maybe: number | null) =>
  sql<{ text: string; list: string[]; n: number; fraction: string; at: Date; maybe: number | null; found: boolean }>`
    select ${text}::text as text, ${list}::text[] as list, cardinality(${list}::text[]) as n, ${fraction}::float8::text as fraction,
           ${at}::timestamptz as at, ${maybe}::int as maybe, ${text}::text = any(${list}::text[]) as found`.compile(app.services.db);

describe('executeShape', () => {
  test('answers what the statement answers with bind parameters, for every value', async () => {
    let i = 0;
    for (const text of tricky) {
      for (const list of [[text], tricky, [], ['a', text, 'b']]) {
        const query = shape(text, list, 1 / 3 + i, new Date(Date.UTC(2030, 0, 1, 12, 0, 0, i)), i % 2 ? null : i);
        i++;
        const prepared = await executeShape<Record<string, unknown>>(app.services.db, query);
        const bound = (await app.services.db.executeQuery<Record<string, unknown>>(query)).rows;
        assert.deepEqual(prepared, bound, `${JSON.stringify(text)} in ${JSON.stringify(list)}`);
        assert.equal(prepared[0]!.text, text);
        assert.deepEqual(prepared[0]!.list, list);
      }
    }
    assert.ok(i > 6, 'the shape ran often enough for a generic plan');
  });

  test('a value no literal can carry runs the statement as an ordinary query', async () => {
    const query = sql<{ n: string }>`select ${Number.NaN}::float8::text as n`.compile(app.services.db);
    assert.deepEqual(await executeShape(app.services.db, query), [{ n: 'NaN' }]);
  });
});
