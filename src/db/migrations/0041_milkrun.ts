import { sql, type Kysely } from 'kysely';

/** Milk-run import shipments, one per company and AWB, built from status events (file push). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('milkrun_shipments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    // handler/forwarder: the company whose status file created the shipment
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('awb', 'text', (c) => c.notNull())
    // waiting | selected | deselected | follow_up | dispatched | running | delivered (src/milkrun/states.ts)
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('waiting'))
    // the trucking company assigned by dispatch
    .addColumn('carrier_id', 'integer', (c) => c.references('companies.id'))
    // airport of arrival (RCF location, else the first event's location)
    .addColumn('location', 'text')
    .addColumn('weight', 'numeric(14, 3)')
    .addColumn('pieces', 'integer')
    .addColumn('special_handling_codes', 'text')
    .addColumn('warehouse_location', 'text')
    .addColumn('flight_number', 'text')
    .addColumn('ata', 'timestamptz')
    .addColumn('awd_received', 'timestamptz')
    .addColumn('nfd_received', 'timestamptz')
    .addColumn('delivered', 'timestamptz')
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index milkrun_shipments_awb_key on milkrun_shipments (company_id, awb)`.execute(db);
  await sql`create index milkrun_shipments_state_idx on milkrun_shipments (company_id, state)`.execute(db);
  await sql`create index milkrun_shipments_carrier_idx on milkrun_shipments (carrier_id, state) where carrier_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('milkrun_shipments').execute();
}
