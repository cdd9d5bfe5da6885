import { sql, type Kysely } from 'kysely';

/**
 * The winners of the lane cells' awards (lanes/cells.ts, docs/choices.md "Lane prices"): a
 * batch of awards is released only when no company, as owner or as winner, takes part in so many
 * of its awards that it could read the others' prices off the quartiles. The cells are built anew
 * from the awards at the next start (lane_price_state emptied: ensureLaneCells), with their
 * winners and under that rule.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lane_price_cells add column winners int[] not null default '{}', add column km_winners int[] not null default '{}'`.execute(
    db,
  );
  await sql`delete from lane_price_cells`.execute(db);
  await sql`delete from lane_price_state`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table lane_price_cells drop column winners, drop column km_winners`.execute(db);
  await sql`delete from lane_price_state`.execute(db);
}
