import { sql, type Kysely } from 'kysely';

/**
 * Deals in one step (docs/reference.md#one-step; freights/tables.ts):
 * - freights: `book_now` (the price a carrier may take the freight at, at once), its currency
 *   `book_now_currency` (EUR by default) and `auto_award` (the owner's walk-away price, in the same
 *   currency: a bid at or below it is awarded at once). Nullable columns and a constant default:
 *   PostgreSQL adds them without rewriting the table.
 * - bids: the standing counter-offer of the freight's owner (`counter_*`), null when none stands.
 * - bid_offers: the history of a bid, who offered what and when (the bidder's amounts, the owner's
 *   counters), for the two parties' freight page.
 * - freight_waterfalls: a freight offered to carriers one after the other, each with a deadline
 *   (`step_until`), swept by any process (freights/waterfall.ts); `prices` parallel to `carriers`,
 *   so a routing guide (§17) gives each carrier its own contract price.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table freights
    add column book_now numeric(14, 2) check (book_now > 0),
    add column book_now_currency text not null default 'EUR' check (book_now_currency ~ '^[A-Z]{3}$'),
    add column auto_award numeric(14, 2) check (auto_award > 0)`.execute(db);
  await sql`alter table bids
    add column counter_amount numeric(14, 2) check (counter_amount > 0),
    add column counter_currency text,
    add column counter_note text,
    add column counter_created timestamptz`.execute(db);
  await db.schema
    .createTable('bid_offers')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('bid_id', 'integer', (c) => c.notNull().references('bids.id').onDelete('cascade'))
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('bidder', 'owner')`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('amount', sql`numeric(14, 2)`, (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bid_offers_bid_idx').on('bid_offers').columns(['bid_id', 'id']).execute();
  await db.schema
    .createTable('freight_waterfalls')
    .addColumn('freight_id', 'integer', (c) => c.primaryKey().references('freights.id').onDelete('cascade'))
    .addColumn('carriers', sql`integer[]`, (c) => c.notNull())
    .addColumn('prices', sql`numeric(14, 2)[]`, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull().check(sql`minutes between 1 and 1440`))
    .addColumn('afterwards', 'text', (c) => c.notNull().check(sql`afterwards in ('market', 'stop')`))
    .addColumn('guide', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('step', 'integer', (c) => c.notNull())
    // The running turn's end; null once the waterfall has ended (`state`).
    .addColumn('step_until', 'timestamptz')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'booked', 'market', 'stopped', 'ended')`))
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'freight_waterfalls_prices_check',
      sql`cardinality(prices) = cardinality(carriers) and cardinality(carriers) between 1 and 20`,
    )
    .execute();
  // The sweeper's read: running turns by their end.
  await sql`create index freight_waterfalls_due_idx on freight_waterfalls (step_until) where state = 'running'`.execute(db);
  // "Your turn" on a carrier's desk: running waterfalls by the carrier whose turn it is.
  await sql`create index freight_waterfalls_turn_idx on freight_waterfalls ((carriers[step + 1])) where state = 'running'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('freight_waterfalls').execute();
  await db.schema.dropTable('bid_offers').execute();
  await sql`alter table bids drop column counter_amount, drop column counter_currency, drop column counter_note, drop column counter_created`.execute(
    db,
  );
  await sql`alter table freights drop column book_now, drop column book_now_currency, drop column auto_award`.execute(db);
}
