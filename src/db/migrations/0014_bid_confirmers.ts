import type { Kysely } from 'kysely';

/**
 * Who confirmed a bid on each side, and when (docs/reference.md#freights, two-sided confirmation): the
 * transport order names the two confirming users (docs/choices.md, "The transport order").
 * Cleared with the flags when a bid goes back to open; kept on the accepted bid. Bids confirmed
 * before this migration have none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bids')
    .addColumn('owner_confirmed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('owner_confirmed_at', 'timestamptz')
    .addColumn('bidder_confirmed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('bidder_confirmed_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bids')
    .dropColumn('owner_confirmed_by')
    .dropColumn('owner_confirmed_at')
    .dropColumn('bidder_confirmed_by')
    .dropColumn('bidder_confirmed_at')
    .execute();
}
