import { sql, type Kysely } from 'kysely';

/**
 * A freight as its JSON view answers it, written once per version of the freight instead of on
 * every view (issue 49; freights/presented.ts): the owner's and the market's fields (every field of
 * the field table as that audience sees it, with the piece lines) and the display fields of each
 * in each language, and whether it has a waterfall (created with a write of the freight row, never removed). `source` is the freight row's `xmin` when it was written and `status` its
 * effective status then: a view uses the row only while both still hold, so a write nobody told
 * this table about, or a deadline that passed, is read the long way and never shown stale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table freight_presentations (
    freight_id integer primary key references freights (id) on delete cascade,
    source text not null,
    status text not null,
    waterfall boolean not null,
    owner_fields text not null,
    market_fields text not null,
    owner_eng text not null,
    owner_deu text not null,
    market_eng text not null,
    market_deu text not null
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists freight_presentations`.execute(db);
}
