import assert from 'node:assert/strict';
import type { Kysely, RawBuilder } from 'kysely';

/**
 * A named statement serves inside a transaction and after one that rolled back: the check both
 * drivers' statement tests make (tests/platform/embedded-statements.test.ts, server-statements.test.ts).
 * `square(n)` answers `n` squared as `n`.
 */
export async function servesAcrossTransactions(db: Kysely<any>, square: (n: number) => RawBuilder<{ n: number }>): Promise<void> {
  await db.transaction().execute(async (trx) => assert.equal((await square(7).execute(trx)).rows[0]!.n, 49));
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await square(8).execute(trx);
      throw new Error('rolled back');
    }),
    /rolled back/,
  );
  assert.equal((await square(9).execute(db)).rows[0]!.n, 81);
}
