import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB, Db } from '../db/schema.ts';

/**
 * Blocks between companies (docs/reference.md#trust): a company (the blocker) no longer sees the
 * freights (and, with the vehicles module, the vehicle offers) of a blocked company in its
 * lists, searches, counts, matches and alerts, and refuses its bids. The table belongs to the
 * accounts module because the freight lists read it in their own statements (an SQL piece,
 * `notBlockedBySql`); the trust module has the endpoints.
 */

/** At most this many companies blocked by one company (a bound on the lists' piece). */
export const MAX_BLOCKS = 1000;

/**
 * SQL: the company whose id is `owner` (an SQL expression of the outer statement, e.g.
 * sql`freights.company_id` or sql`vehicles.company_id`) is not blocked by the company `viewer`.
 * The viewer's blocks are read once per statement (an InitPlan over the primary key), then each
 * row is one comparison against that small array: no join, no second query, and an empty
 * array (no blocks, the usual case) admits every row.
 */
export function notBlockedBySql(viewer: number | RawBuilder<number>, owner: RawBuilder<unknown>) {
  return sql<SqlBool>`${owner} <> all(array(select company_blocks.blocked_id from company_blocks where company_blocks.blocker_id = ${viewer}))`;
}

/**
 * SQL: whether `blocker` has blocked `blocked` (one primary-key probe), for a statement that asks
 * it beside other questions (one round trip instead of `isBlocked`'s own).
 */
export function blockedSql(blocker: number, blocked: number) {
  return sql<boolean>`exists (select 1 from company_blocks where company_blocks.blocker_id = ${blocker} and company_blocks.blocked_id = ${blocked})`;
}

/** Whether `blocker` has blocked `blocked`. */
export async function isBlocked(db: Db, blocker: number, blocked: number): Promise<boolean> {
  const { rows } = await sql<{ blocked: boolean }>`select ${blockedSql(blocker, blocked)} as blocked`.execute(db);
  return rows[0]!.blocked;
}

/** Whether either company blocked the other (one statement over the primary key, both ways). */
export async function blocksEither(db: Db, a: number, b: number): Promise<boolean> {
  const row = await db
    .selectFrom('company_blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]), eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)])]),
    )
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Who a company's doing may reach: the one rule of every push (docs/reference.md#trust, docs/choices.md
 * "Blocks stop every push"). Events (and so webhooks, the live board's streams and their replay,
 * and whatever else is fed from the outbox), invitations and messages all ask it: a push made by
 * `makers` (the companies whose doing it is) reaches a recipient only when the recipient is a
 * company that exists and, unless it is one of the makers itself (its own doing comes back to it),
 * has blocked none of them. One statement over the primary keys, whatever the number of recipients.
 * Answers the test, to apply to each (recipient, makers) pair of the push.
 */
export async function pushRule(
  db: Db,
  makers: Iterable<number>,
  recipients: Iterable<number>,
): Promise<(recipient: number, by: readonly number[]) => boolean> {
  const who = [...new Set(recipients)];
  const by = [...new Set(makers)];
  if (!who.length) return () => false;
  const rows = await db
    .selectFrom('companies')
    .select([
      'companies.id',
      (by.length
        ? sql<number[]>`array(select company_blocks.blocked_id from company_blocks
            where company_blocks.blocker_id = companies.id and company_blocks.blocked_id = any(${by}::int[]))`
        : sql<number[]>`'{}'::int[]`
      ).as('blocked'),
    ])
    .where('companies.id', 'in', who)
    .execute();
  const blocked = new Map(rows.map((r) => [r.id, new Set(r.blocked)]));
  return (recipient, makers) => {
    const theirs = blocked.get(recipient);
    if (!theirs) return false;
    return makers.includes(recipient) || !makers.some((m) => theirs.has(m));
  };
}

/** Whether a push of `from`'s making may reach `to` (pushRule for one pair): `to` exists and has not blocked `from`. */
export async function mayReach(db: Db, from: number, to: number): Promise<boolean> {
  return (await pushRule(db, [from], [to]))(to, [from]);
}

/** Those of `among` that blocked `blocked` (the live board: who no longer sees a company's freights). */
export async function blockersAmong(db: Db, blocked: number, among: readonly number[]): Promise<Set<number>> {
  if (!among.length) return new Set();
  const rows = await db
    .selectFrom('company_blocks')
    .select('blocker_id')
    .where('blocked_id', '=', blocked)
    .where('blocker_id', 'in', [...among])
    .execute();
  return new Set(rows.map((r) => r.blocker_id));
}

/** The ids of the companies `blocker` blocked. */
export async function blockedIds(db: Db, blocker: number): Promise<Set<number>> {
  const rows = await db.selectFrom('company_blocks').select('blocked_id').where('blocker_id', '=', blocker).execute();
  return new Set(rows.map((r) => r.blocked_id));
}

/** The companies `blocker` blocked, by name. */
export async function blockedCompanies(db: Db, blocker: number): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('company_blocks')
    .innerJoin('companies', 'companies.id', 'company_blocks.blocked_id')
    .select(['companies.id', 'companies.name'])
    .where('company_blocks.blocker_id', '=', blocker)
    .orderBy('companies.name')
    .orderBy('companies.id')
    .execute();
}

export type BlockResult = 'done' | 'unknown' | 'self' | 'too_many';

/** Blocks a company (again: nothing changes). Unknown id, the company itself, or too many blocks: refused. */
export async function block(db: Kysely<DB>, blocker: number, blocked: number, now: Date): Promise<BlockResult> {
  if (blocker === blocked) return 'self';
  return db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('companies').select('id').where('id', '=', blocked).executeTakeFirst();
    if (!target) return 'unknown';
    // The blocker's row serializes its own block changes, so the bound holds under concurrency.
    await trx.selectFrom('companies').select('id').where('id', '=', blocker).forUpdate().executeTakeFirst();
    const count = await trx
      .selectFrom('company_blocks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('blocker_id', '=', blocker)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_BLOCKS && !(await isBlocked(trx, blocker, blocked))) return 'too_many';
    await trx
      .insertInto('company_blocks')
      .values({ blocker_id: blocker, blocked_id: blocked, created: now })
      .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
      .execute();
    return 'done';
  });
}

/** Lifts a block; answers false for an unknown company id. */
export async function unblock(db: Db, blocker: number, blocked: number): Promise<boolean> {
  const target = await db.selectFrom('companies').select('id').where('id', '=', blocked).executeTakeFirst();
  if (!target) return false;
  await db.deleteFrom('company_blocks').where('blocker_id', '=', blocker).where('blocked_id', '=', blocked).execute();
  return true;
}
