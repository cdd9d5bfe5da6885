import { sql, type Kysely } from 'kysely';

/**
 * Tracking by permission (positions/tables.ts; docs/reference.md#tracking): a freight's positions, its
 * tracking state (milestones, the last ETA, lateness told, delivery noted) and the log of the
 * owner's reads. All of it belongs to the freight (deleted with it) and is deleted 30 days after
 * delivery by the tracking sweeper.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('freight_positions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('latitude', 'double precision', (c) => c.notNull().check(sql`latitude between -90 and 90`))
    .addColumn('longitude', 'double precision', (c) => c.notNull().check(sql`longitude between -180 and 180`))
    .addColumn('speed', 'real')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('api', 'link')`))
    .addColumn('received', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('freight_positions_freight_at_idx').on('freight_positions').columns(['freight_id', 'at', 'id']).execute();
  await db.schema
    .createTable('freight_tracking')
    .addColumn('freight_id', 'integer', (c) => c.primaryKey().references('freights.id').onDelete('cascade'))
    .addColumn('arrived_pickup', 'timestamptz')
    .addColumn('departed_pickup', 'timestamptz')
    .addColumn('arrived_delivery', 'timestamptz')
    .addColumn('last_at', 'timestamptz')
    .addColumn('last_latitude', 'double precision')
    .addColumn('last_longitude', 'double precision')
    .addColumn('eta_at', 'timestamptz')
    .addColumn('km_left', sql`numeric(9,1)`)
    .addColumn('late', 'timestamptz')
    .addColumn('delivered', 'timestamptz')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
  // The sweeper's two questions: the undelivered (lateness, delivery to note) and the delivered (retention).
  await db.schema
    .createIndex('freight_tracking_open_idx')
    .on('freight_tracking')
    .column('freight_id')
    .where(sql.ref('delivered'), 'is', null)
    .execute();
  await db.schema
    .createIndex('freight_tracking_delivered_idx')
    .on('freight_tracking')
    .column('delivered')
    .where(sql.ref('delivered'), 'is not', null)
    .execute();
  await db.schema
    .createTable('freight_position_reads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('freight_id', 'integer', (c) => c.notNull().references('freights.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('freight_position_reads_freight_idx').on('freight_position_reads').columns(['freight_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('freight_position_reads').execute();
  await db.schema.dropTable('freight_tracking').execute();
  await db.schema.dropTable('freight_positions').execute();
}
