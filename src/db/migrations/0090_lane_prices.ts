import { sql, type Kysely } from 'kysely';

/**
 * Lane prices (docs/reference.md#lane-prices, src/lanes; the awards are lanes/awards.ts): the awarded road
 * freights by origin country and postal key, then destination country, so that a lane's awards
 * are read without the open market around them (at 100,000 freights the place index of 0020 holds
 * every freight of a country). The predicate is the one awardsSql writes. Its accepted bid is
 * then one probe of bids_one_accepted_idx (0002).
 */
const FROM_KEY = `(upper(regexp_replace(from_code, '[^0-9A-Za-z]', '', 'g')) collate "C")`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create index freights_awarded_lane_idx on freights (upper(from_country), ${FROM_KEY}, upper(to_country))
       where status in ('taken', 'closed', 'archived') and class <> 'air'`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists freights_awarded_lane_idx`.execute(db);
}
