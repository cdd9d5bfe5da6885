import type { Kysely } from 'kysely';

/**
 * Road distances from the operator's routing server (market/roads.ts; docs/choices.md, "Road
 * distances"): one row per place pair, its points rounded to 4 decimals, origin first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('road_distances')
    .addColumn('from_latitude', 'numeric(7, 4)', (c) => c.notNull())
    .addColumn('from_longitude', 'numeric(8, 4)', (c) => c.notNull())
    .addColumn('to_latitude', 'numeric(7, 4)', (c) => c.notNull())
    .addColumn('to_longitude', 'numeric(8, 4)', (c) => c.notNull())
    .addColumn('km', 'float8', (c) => c.notNull())
    .addColumn('fetched', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('road_distances_pkey', ['from_latitude', 'from_longitude', 'to_latitude', 'to_longitude'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('road_distances').execute();
}
