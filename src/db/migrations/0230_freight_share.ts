import { sql, type Kysely } from 'kysely';

/**
 * What of its refs a freight's owner shows carriers (docs/choices.md, "What a carrier prices a
 * load by"; freights/fields.ts SHARE_KEYS): the goods description, the target price, both or
 * neither (the default, as before). A constant default adds the column without rewriting the
 * table; the check guards new writes only (`not valid`: every existing row holds the empty list).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table freights add column share text[] not null default '{}'::text[]`.execute(db);
  await sql`alter table freights add constraint freights_share_check check (share <@ array['goods', 'target_price']::text[]) not valid`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table freights drop constraint if exists freights_share_check`.execute(db);
  await sql`alter table freights drop column if exists share`.execute(db);
}
